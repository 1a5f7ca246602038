package cli

import (
	"context"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
)

// prefetch reads what a re-index takes from the current index and the
// extraction cache while the run is not yet using the cores: the cache and
// the communities while `git status` runs (30 ms on the Go standard
// library in a work tree git has refreshed, 300 ms in a fresh clone), the
// history records, which are needed last, while the files are listed and
// parsed. When the index turns out to be fresh, the reads are cancelled
// and their results dropped.
type prefetch struct {
	cancel context.CancelFunc

	cacheDone     chan struct{}
	cache         *ingest.ExtractCache
	partitionDone chan struct{}
	partition     *graph.Partition
	partitionErr  error
	historyDone   chan struct{}
	history       *graph.History
	historyWhy    string // why the history could not be read
}

// startPrefetch starts the reads: the cache always, the history records
// when wantHistory and the index has some, the communities when
// wantPartition.
func startPrefetch(ctx context.Context, root, cachePath string, meta store.Meta, wantHistory, wantPartition bool) *prefetch {
	pctx, cancel := context.WithCancel(ctx)
	p := &prefetch{cancel: cancel, cacheDone: make(chan struct{}), partitionDone: make(chan struct{})}
	go func() {
		defer close(p.cacheDone)
		p.cache = ingest.LoadExtractCache(cachePath, extractorKey())
	}()
	// Each read has a connection of its own (a reader is a pool; opening
	// one costs a millisecond or two).
	read := func(done chan struct{}, fn func(r *store.Reader) error, failed func(error)) {
		go func() {
			defer close(done)
			r, err := store.OpenRepo(root)
			if err == nil {
				defer r.Close()
				err = fn(r)
			}
			if err != nil {
				failed(err)
			}
		}()
	}
	if wantPartition {
		read(p.partitionDone, func(r *store.Reader) (err error) {
			p.partition, err = r.Partition(pctx)
			return err
		}, func(err error) { p.partitionErr = err })
	} else {
		close(p.partitionDone)
	}
	if wantHistory && meta.History != nil {
		p.historyDone = make(chan struct{})
		read(p.historyDone, func(r *store.Reader) (err error) {
			p.history, err = r.History(pctx)
			return err
		}, func(err error) { p.history, p.historyWhy = nil, err.Error() })
	}
	return p
}

// Cache returns the extraction cache, once read.
func (p *prefetch) Cache() *ingest.ExtractCache {
	<-p.cacheDone
	return p.cache
}

// Partition returns the index's communities, once read.
func (p *prefetch) Partition() (*graph.Partition, error) {
	<-p.partitionDone
	return p.partition, p.partitionErr
}

// History returns the index's history records once read; ok is false
// when they were not asked for (the run reads them itself).
func (p *prefetch) History() (h *graph.History, why string, ok bool) {
	if p.historyDone == nil {
		return nil, "", false
	}
	<-p.historyDone
	return p.history, p.historyWhy, true
}

// stop cancels the reads that are still going (their results are not used).
func (p *prefetch) stop() { p.cancel() }
