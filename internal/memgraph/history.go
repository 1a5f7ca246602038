package memgraph

import (
	"context"
	"fmt"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// The git history's attributes: what a Commit node, a MODIFIES or CHANGES
// edge and a HistoricalSymbol carry beyond the common node and edge
// fields. They are loaded with the graph (from the store's history
// tables) when the index has a history, and looked up by node or by the
// two ends of an edge; an edge joins a commit to a file or a symbol at
// most once, so its ends name it.

// history holds the records of the index's history, by node and edge.
type history struct {
	commits  map[NodeID]*graph.Commit
	files    map[[2]NodeID]*graph.FileChange   // MODIFIES: commit, file
	symbols  map[[2]NodeID]*graph.SymbolChange // CHANGES: commit, symbol
	removed  map[NodeID]*graph.RemovedSymbol
	previous map[NodeID][]string // File → its earlier paths, newest first
	records  *graph.History      // everything as the store keeps it
}

// loadHistory reads the index's history records and keys them by the
// graph's nodes. An index without history leaves g.hist nil.
func (g *Graph) loadHistory(ctx context.Context, r *store.Reader) error {
	h, err := r.History(ctx)
	if err != nil {
		return fmt.Errorf("load history: %w", err)
	}
	if h == nil {
		return nil
	}
	h.Encoded = nil // the graph keeps the records, not their stored bytes
	hs := &history{commits: make(map[NodeID]*graph.Commit, len(h.Commits)),
		files: make(map[[2]NodeID]*graph.FileChange, len(h.Files)), symbols: make(map[[2]NodeID]*graph.SymbolChange, len(h.Symbols)),
		removed: make(map[NodeID]*graph.RemovedSymbol, len(h.Removed)), previous: map[NodeID][]string{}, records: h}
	commitNode := make(map[string]NodeID, len(h.Commits))
	for i := range h.Commits {
		c := &h.Commits[i]
		if n, ok := g.byID[graph.CommitID(c.Hash)]; ok {
			hs.commits[n] = c
			commitNode[c.Hash] = n
		}
	}
	for i := range h.Files {
		f := &h.Files[i]
		c, ok1 := commitNode[f.Commit]
		n, ok2 := g.byID[f.FileID]
		if !ok1 || !ok2 || f.FileID == "" {
			continue
		}
		k := [2]NodeID{c, n}
		if prev, dup := hs.files[k]; dup {
			hs.files[k] = mergeFileChanges(prev, f)
			continue
		}
		hs.files[k] = f
	}
	for i := range h.Symbols {
		s := &h.Symbols[i]
		c, ok1 := commitNode[s.Commit]
		n, ok2 := g.byID[s.NodeID]
		if !ok1 || !ok2 || s.NodeID == "" {
			continue
		}
		k := [2]NodeID{c, n}
		if prev, dup := hs.symbols[k]; dup {
			merged := *prev
			merged.Additions += s.Additions
			merged.Deletions += s.Deletions
			hs.symbols[k] = &merged
			continue
		}
		hs.symbols[k] = s
	}
	for i := range h.Removed {
		if n, ok := g.byID[h.Removed[i].ID]; ok {
			hs.removed[n] = &h.Removed[i]
		}
	}
	for id, paths := range h.PreviousPaths() {
		if n, ok := g.byID[id]; ok {
			hs.previous[n] = paths
		}
	}
	g.hist = hs
	return nil
}

// mergeFileChanges joins two changes a commit made that lead to the same
// file at HEAD (a file deleted where another one was renamed to): the
// rename or edit wins, the line counts add up.
func mergeFileChanges(a, b *graph.FileChange) *graph.FileChange {
	keep, other := a, b
	if keep.Status == 'D' {
		keep, other = b, a
	}
	m := *keep
	if m.Additions >= 0 && other.Additions >= 0 {
		m.Additions += other.Additions
		m.Deletions += other.Deletions
	}
	return &m
}

// HistoryRecords returns the history records as the store keeps them (in
// commit order), nil when the index has no history. Callers must not
// change them.
func (g *Graph) HistoryRecords() *graph.History {
	if g.hist == nil {
		return nil
	}
	return g.hist.records
}

// HasHistory reports whether the index holds the git history.
func (g *Graph) HasHistory() bool { return g.hist != nil }

// Commit returns the attributes of a Commit node, nil for other nodes.
func (g *Graph) Commit(n NodeID) *graph.Commit {
	if g.hist == nil {
		return nil
	}
	return g.hist.commits[n]
}

// FileChange returns the attributes of the MODIFIES edge commit → file,
// nil when there is none.
func (g *Graph) FileChange(commit, file NodeID) *graph.FileChange {
	if g.hist == nil {
		return nil
	}
	return g.hist.files[[2]NodeID{commit, file}]
}

// SymbolChange returns the attributes of the CHANGES edge commit →
// symbol, nil when there is none.
func (g *Graph) SymbolChange(commit, symbol NodeID) *graph.SymbolChange {
	if g.hist == nil {
		return nil
	}
	return g.hist.symbols[[2]NodeID{commit, symbol}]
}

// RemovedSymbol returns what the history knows of a HistoricalSymbol
// node: its kind and the commit that deleted it; nil for other nodes.
func (g *Graph) RemovedSymbol(n NodeID) *graph.RemovedSymbol {
	if g.hist == nil {
		return nil
	}
	return g.hist.removed[n]
}

// PreviousPaths returns the paths a File node had before its renames,
// newest first; nil when it was not renamed in the history read.
func (g *Graph) PreviousPaths(file NodeID) []string {
	if g.hist == nil {
		return nil
	}
	return g.hist.previous[file]
}
