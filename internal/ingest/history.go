package ingest

import (
	"context"
	"fmt"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// HistoryStats describe the history stage: what was read, reused and
// linked.
type HistoryStats struct {
	history.Stats
	history.LinkStats
	// Previous says why the previous index's history could not be read
	// for reuse, when it could not.
	Previous string `json:"previous,omitempty"`
	// Carried: linking the index's records again would have given the
	// index's history nodes and edges, which were kept (store/carry.go);
	// only the commits read since, if any, were linked, on top of them.
	Carried bool `json:"carried,omitempty"`
}

// UnchangedHistory describes an index whose history records are what
// reading the git history would give again: HEAD is the commit the index
// read last, through its first-parent history, with the same settings and
// no --since (as history.Read's list from the previous records, whose
// assumptions it shares). A save, then, most often keeps the index's
// history part as it is (store/carry.go), and the run finds that out from
// the snapshot alone, without reading git or the records (on trpc: 5.7 MB
// read in 100 to 160 ms, 100 ms of decoding, and the history phase's
// 50 ms).
type UnchangedHistory struct {
	// Generation is the index's (graph.History.EncodedAt), Settings its
	// history's.
	Generation int64
	Settings   graph.HistorySettings
	// Stats are the history stats of the index's summary: the records'
	// counts are reported again.
	Stats HistoryStats
	// Decode gives the records, when the history cannot be carried over
	// as it is: the run then goes on as with Options.Previous.HistoryRecords.
	Decode func() (h *graph.History, why string)
}

// carryUnchanged keeps the index's history part as it is when the records
// are the index's (UnchangedHistory) and the snapshot says linking them
// again would give it back; ok false means it cannot.
func carryUnchanged(opts *Options, g *graph.Graph, changed func(string) bool) (*HistoryStats, *store.HistoryCounts, bool) {
	u := opts.Previous.UnchangedHistory
	if u == nil || opts.Previous.Ahead == nil || opts.Embedding.Embedder != nil {
		return nil, nil, false
	}
	a := opts.Previous.Ahead()
	if a == nil {
		return nil, nil, false
	}
	counts, ok := a.CarriesHistory(g, changed, nil)
	if !ok {
		return nil, nil, false
	}
	g.SetHistory(&graph.History{Settings: u.Settings, EncodedAt: u.Generation, Unread: true})
	// What history.Read reports of records it takes from the previous
	// index as they are: the counts of all the records (the index's), and
	// nothing read; the list came from the index.
	was := u.Stats
	st := &HistoryStats{LinkStats: was.LinkStats, Carried: true}
	st.Git, st.List, st.Commits, st.Reused = true, "index", was.Commits, was.Commits
	st.Guarded, st.FileChanges, st.SymbolChanges = was.Guarded, was.FileChanges, was.SymbolChanges
	return st, counts, true
}

// addHistory reads the repository's git history, reusing the previous
// index's records when asked, and links it into g, or carries the index's
// over (then it returns their counts); changed tells the files extracted
// anew. early, when set, is the read started with the parse
// (startHistoryRead).
func addHistory(ctx context.Context, opts *Options, w *repofiles.Result, g *graph.Graph, changed func(string) bool,
	progress func(Event), early *historyRead) (*HistoryStats, *store.HistoryCounts, error) {
	if early == nil {
		if st, counts, ok := carryUnchanged(opts, g, changed); ok {
			return st, counts, nil
		}
		early = readHistory(ctx, opts, w, progress)
	} else {
		<-early.done
		for _, e := range early.last {
			progress(e)
		}
	}
	h, hst, prev, err := early.h, early.hst, early.prev, early.err
	if err != nil {
		return nil, nil, fmt.Errorf("read the git history: %w", err)
	}
	if h != nil {
		if counts, ok := carryHistory(opts, prev, h, g, changed); ok {
			hst.LinkStats = history.Linked(g.History())
			hst.Carried = true
			return hst, counts, nil
		}
		hst.LinkStats = history.Link(g, h)
		// Records the same as the index's, links included, are stored as
		// they are: the store need not encode them to find that out.
		if prev != nil && prev.Encoded != nil {
			if h.SameRecords(prev) {
				h.Encoded = prev.Encoded
			} else {
				h.Base = prev
			}
		}
	}
	return hst, nil, nil
}

// historyRead is the git history as history.Read gave it, with the
// index's records it started from (prev).
type historyRead struct {
	done chan struct{}
	h    *graph.History
	prev *graph.History
	hst  *HistoryStats
	err  error
	last []Event // the last progress event of each phase, in order (startHistoryRead)
}

// startHistoryRead starts reading the git history while the files are
// parsed and resolved, when the run will read it: the history's records
// are not known to be the index's (Options.Previous.UnchangedHistory), and the
// index's are given (Options.Previous.HistoryRecords), so that the read is the
// incremental one of a commit since the index. It needs only the listing,
// and took 75 ms on the critical path of a committed trpc edit. Its
// progress is reported when the history phase comes (addHistory), not in
// the middle of the parse's. It returns nil when the history is read
// in its turn.
func startHistoryRead(ctx context.Context, opts *Options, w *repofiles.Result) *historyRead {
	if opts.History == nil || opts.Previous.UnchangedHistory != nil || !opts.Previous.History || opts.Previous.HistoryRecords == nil ||
		opts.History.Previous != nil {
		return nil
	}
	var mu sync.Mutex
	var last []Event
	record := func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if n := len(last); n > 0 && last[n-1].Phase == e.Phase {
			last[n-1] = e
		} else {
			last = append(last, e)
		}
	}
	r := &historyRead{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		got := readHistory(ctx, opts, w, record)
		mu.Lock()
		defer mu.Unlock()
		r.h, r.prev, r.hst, r.err, r.last = got.h, got.prev, got.hst, got.err, last
	}()
	return r
}

// readHistory reads the git history with the run's options, starting
// from the index's records when asked.
func readHistory(ctx context.Context, opts *Options, w *repofiles.Result, progress func(Event)) *historyRead {
	hopt := *opts.History
	hst := &HistoryStats{}
	if opts.Previous.History && hopt.Previous == nil {
		prev, why, ok := (*graph.History)(nil), "", false
		if u := opts.Previous.UnchangedHistory; u != nil {
			prev, why = u.Decode()
			ok = true
		} else if opts.Previous.HistoryRecords != nil {
			prev, why, ok = opts.Previous.HistoryRecords()
		}
		if !ok {
			prev, why = previousHistory(ctx, opts.Root)
		}
		hopt.Previous, hst.Previous = prev, why
		timeline.Mark("history: the index's records at hand")
	}
	if hopt.Workers <= 0 {
		hopt.Workers = opts.Workers
	}
	if hopt.MaxFileSize <= 0 {
		hopt.MaxFileSize = opts.MaxFileSize
	}
	hopt.KeepPath = w.Keeps
	hopt.KeepContent = func(rel string, src []byte) bool { return !isBinary(src) && !isMinified(rel, src) }
	hopt.Progress = func(e history.Event) { progress(Event{Phase: e.Phase, Done: e.Done, Total: e.Total}) }
	h, st, err := history.Read(ctx, opts.Root, hopt)
	r := &historyRead{h: h, prev: hopt.Previous, hst: hst, err: err}
	if err == nil {
		timeline.Mark("history: read from git")
		hst.Stats = *st
	}
	return r
}

// carryHistory keeps the index's history part (store/carry.go) when the
// records h read are prev's, or prev's with newer commits on top and its
// oldest perhaps dropped (then only the newer are linked, into g), and
// linking them all would give the same: it attaches the history to g and
// returns the kept part's counts. Embeddings turn it off (commits are
// embedded from the graph).
func carryHistory(opts *Options, prev, h *graph.History, g *graph.Graph, changed func(string) bool) (*store.HistoryCounts, bool) {
	if prev == nil || prev.Encoded == nil || opts.Previous.Ahead == nil || opts.Embedding.Embedder != nil {
		return nil, false
	}
	same := h.SameUnlinked(prev)
	var n graph.Newer
	if !same {
		var newer bool
		if n, newer = h.NewerUnlinked(prev); !newer {
			return nil, false
		}
	}
	a := opts.Previous.Ahead()
	if a == nil {
		return nil, false
	}
	if same {
		counts, ok := a.CarriesHistory(g, changed, nil)
		if !ok {
			return nil, false
		}
		// The index's records, links included, with the settings this
		// run read them with.
		carried := *prev
		carried.Settings, carried.Base = h.Settings, nil
		g.SetHistory(&carried)
		return counts, true
	}
	// The oldest commits a bound on the history dropped go, with what
	// only they reached.
	counts, ok := a.CarriesHistory(g, changed, history.Dropped(prev, n))
	if !ok {
		return nil, false
	}
	older, ok := history.LinkNewer(g, h, prev, n)
	if !ok {
		return nil, false
	}
	// The older Commit nodes the new edges reach are in g, and counted
	// there.
	counts.NodesByKind[graph.KindCommit] -= older
	h.Base = prev
	return counts, true
}

// previousHistory reads the history the current index kept; why says what
// went wrong when it cannot be read (no index is not a problem).
func previousHistory(ctx context.Context, root string) (*graph.History, string) {
	r, err := store.OpenRepo(root)
	if err != nil {
		return nil, ""
	}
	defer r.Close()
	h, err := r.History(ctx)
	if err != nil {
		return nil, err.Error()
	}
	return h, ""
}
