package index

import (
	"context"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// prefetch reads what a re-index takes from the current index and the
// extraction cache while the run is not yet using the cores: the cache and
// the communities while `git status` runs (30 ms on the Go standard
// library in a work tree git has refreshed, 300 ms in a fresh clone), the
// history records, which are needed last, while the files are listed and
// parsed (only when the run will need them: StartHistory), and
// the graph snapshot the store compares the new graph with.
// When the index turns out to be fresh, the reads are cancelled
// and their results dropped.
type prefetch struct {
	cancel context.CancelFunc

	cacheDone     chan struct{}
	cache         *ingest.ExtractCache
	partitionDone chan struct{}
	// The communities, read without their members, which come from the
	// snapshot (or, without it, from a query of their own) when Partition
	// is first called.
	partitionFacts *store.PartitionFacts
	partitionOnce  sync.Once
	partition      *graph.Partition
	partitionErr   error
	root           string
	ctx            context.Context // the reads', cancelled by stop
	// The history records, read and decoded once asked for or started
	// (StartHistory): a save whose records are the index's needs neither.
	historyStart func()        // starts reading, once
	historyDone  chan struct{} // read and decoded
	history      *graph.History
	historyWhy   string        // why the history could not be read
	aheadDone    chan struct{} // with startAhead, nil when the snapshot is not read
	ahead        *store.Ahead
	startAhead   func() // starts reading the snapshot
}

// startPrefetch starts the reads: the cache (for the extractors named
// key) always, the history records when wantHistory and the index has
// some, the communities and the snapshot when ours (the index was written by this build: only then are
// its communities updated and is it changed in place).
func startPrefetch(ctx context.Context, root, cachePath, key string, meta store.Meta, wantHistory, ours bool) *prefetch {
	pctx, cancel := context.WithCancel(ctx)
	p := &prefetch{cancel: cancel, cacheDone: make(chan struct{}), partitionDone: make(chan struct{}), root: root, ctx: pctx}
	go func() {
		defer close(p.cacheDone)
		p.cache = ingest.LoadExtractCache(cachePath, key)
		timeline.Mark("extraction cache read")
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
	if ours {
		read(p.partitionDone, func(r *store.Reader) (err error) {
			p.partitionFacts, err = r.PartitionFacts(pctx)
			timeline.Mark("communities read")
			return err
		}, func(err error) { p.partitionErr = err })
		// Read once resolution has built its first program (startAhead,
		// called as its declarations are added): until then both cores
		// are busy. Not an error when it fails: the store reads it again.
		p.aheadDone = make(chan struct{})
		p.startAhead = sync.OnceFunc(func() {
			read(p.aheadDone, func(r *store.Reader) (err error) {
				p.ahead, err = r.SnapshotAhead(pctx)
				timeline.Mark("snapshot read")
				return err
			}, func(error) { p.ahead = nil })
		})
	} else {
		close(p.partitionDone)
	}
	if wantHistory && meta.History != nil {
		p.historyDone = make(chan struct{})
		p.historyStart = sync.OnceFunc(func() {
			read(p.historyDone, func(r *store.Reader) error {
				blob, gen, err := r.HistoryBlob(pctx)
				switch {
				case err != nil:
					return err
				case blob == nil:
					// An index written before the blob: its tables.
					p.history, err = r.History(pctx)
				default:
					p.history, err = store.DecodeHistory(blob, meta.History, gen)
				}
				return err
			}, func(err error) { p.history, p.historyWhy = nil, err.Error() })
		})
	}
	return p
}

// readsHistory reports whether the index's history records are to be
// read (StartHistory, History).
func (p *prefetch) readsHistory() bool { return p != nil && p.historyStart != nil }

// StartHistory starts reading the history records, when they are to be
// read.
func (p *prefetch) StartHistory() {
	if p.readsHistory() {
		p.historyStart()
	}
}

// Cache returns the extraction cache, once read.
func (p *prefetch) Cache() *ingest.ExtractCache {
	<-p.cacheDone
	return p.cache
}

// Partition returns the index's communities, once read, with their
// members from the snapshot; it waits for both.
func (p *prefetch) Partition() (*graph.Partition, error) {
	<-p.partitionDone
	p.partitionOnce.Do(func() {
		if p.partitionErr != nil || p.partitionFacts == nil {
			return
		}
		var ok bool
		if p.partition, ok = p.partitionFacts.Members(p.Ahead()); ok {
			timeline.Mark("community members read")
			return
		}
		// No snapshot: the members are read from the tables.
		r, err := store.OpenRepo(p.root)
		if err != nil {
			p.partitionErr = err
			return
		}
		defer r.Close()
		p.partition, p.partitionErr = r.Partition(p.ctx)
	})
	return p.partition, p.partitionErr
}

// History returns the index's history records once read; ok is false
// when they were not asked for (the run reads them itself).
func (p *prefetch) History() (h *graph.History, why string, ok bool) {
	if p.historyDone == nil {
		return nil, "", false
	}
	p.historyStart()
	<-p.historyDone
	return p.history, p.historyWhy, true
}

// ReadAhead starts reading the snapshot, when it is to be read.
func (p *prefetch) ReadAhead() {
	if p != nil && p.startAhead != nil {
		p.startAhead()
	}
}

// Ahead returns the index's snapshot once read; nil when it was not.
func (p *prefetch) Ahead() *store.Ahead {
	if p == nil || p.startAhead == nil {
		return nil
	}
	p.startAhead() // when resolution never started
	<-p.aheadDone
	return p.ahead
}

// stop cancels the reads that are still going (their results are not used).
func (p *prefetch) stop() { p.cancel() }
