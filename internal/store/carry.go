package store

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Carrying the history over: a re-index whose git history is the index's
// (nothing committed since, a saved edit) would link the same records into
// the new graph of the code, and would most often get back the history part
// the index has: Commit and HistoricalSymbol nodes, PARENT_OF, REVERTS,
// MODIFIES and CHANGES edges. On trpc (3,343 commits) that part is 70% of
// the edges, and linking, sorting and comparing it again was about a third
// of a re-index after a one-file edit. The pipeline then leaves the
// history out of the graph, and the in-place write keeps the index's
// history rows and puts its part of the snapshot back beside the new code.
//
// When linking gives the same: history.Link adds a MODIFIES edge to the
// File a record's path is at HEAD when that File exists, and a CHANGES edge
// to the symbol a record names when it exists, else to a HistoricalSymbol
// (whose language is its File's). So with the same records the history
// part can differ only through code nodes that came or went, or a File
// whose language changed:
//   - a node that went must not be the end of a history edge (the record
//     would now link elsewhere);
//   - a node that came must not be a File (a record's path may now reach
//     it: records of files that are not at HEAD have no edge to tell), nor
//     a symbol that the index has as a HistoricalSymbol (its records would
//     now link to it);
//   - a File extracted anew keeps its language.
//
// After a commit the records are the index's with the new commits' on
// top. Linking them all would link the older ones as the index has them
// when, besides the above, the new commits change nothing that linking
// carries to older commits (history.LinkNewer: no file added, renamed or
// copied, no symbol changed that is not in the graph, the same short
// hashes and revert targets). Then only the new commits are linked, into
// the graph, with the index's Commit nodes their edges reach, and the
// write keeps the rest, less the oldest commits a bound on the history
// dropped and what only they reached (history.Dropped: Ahead.drop).
//
// Anything else (a new file, a deleted symbol that has a history, a
// commit that renames a file) links the history again.

// HistoryCounts count the history part of an index by node kind and by
// edge type and reason, for the summary of a re-index that carried it.
type HistoryCounts struct {
	NodesByKind   map[graph.NodeKind]int
	EdgesByReason map[graph.EdgeType]map[graph.Reason]int
}

// CarriesHistory reports whether linking the index's history records into
// g, the new graph of the code without its history, would give the
// index's history part again, but for the history nodes drop names (those
// of commits a bound on the history dropped, history.Dropped) and the
// edges that touch them; changed tells the files extracted anew. It counts
// that part when it does, and the write that keeps it leaves the dropped
// nodes and edges out.
func (a *Ahead) CarriesHistory(g *graph.Graph, changed func(path string) bool, drop map[string]bool) (*HistoryCounts, bool) {
	s := a.snap
	if s.TextHashes == nil {
		return nil, false
	}
	a.drop = drop
	dropped := func(k uint32) bool { return len(drop) > 0 && drop[s.Nodes[k].ID] }
	hc := &HistoryCounts{NodesByKind: map[graph.NodeKind]int{}, EdgesByReason: map[graph.EdgeType]map[graph.Reason]int{}}
	end := make([]bool, len(s.Nodes)) // the node is an end of a history edge
	types := s.edgeTypes()
	for k := range s.Edges {
		e, t := &s.Edges[k], types[k]
		if !t.IsHistory() || dropped(e.Src) || dropped(e.Dst) {
			continue
		}
		end[e.Src], end[e.Dst] = true, true
		if hc.EdgesByReason[t] == nil {
			hc.EdgesByReason[t] = map[graph.Reason]int{}
		}
		hc.EdgesByReason[t][graph.Reason(e.Reason)]++
	}
	had := func(id string) bool {
		k := sort.Search(len(s.Nodes), func(k int) bool { return s.Nodes[k].ID >= id })
		return k < len(s.Nodes) && s.Nodes[k].ID == id && !dropped(uint32(k))
	}
	// went reports whether the index's node k may be missing from g.
	went := func(k int) bool {
		if kind := graph.ParseKind(s.Nodes[k].Kind); kind.IsHistory() {
			if !dropped(uint32(k)) {
				hc.NodesByKind[kind]++
			}
			return true
		}
		return !end[k]
	}
	nodes := g.Nodes()
	k := 0
	for j := range nodes {
		n := &nodes[j]
		if n.Kind.IsHistory() {
			return nil, false // g must be the code alone
		}
		for k < len(s.Nodes) && s.Nodes[k].ID < n.ID {
			if !went(k) {
				return nil, false
			}
			k++
		}
		if k < len(s.Nodes) && s.Nodes[k].ID == n.ID {
			if n.Kind == graph.KindFile && changed(n.FilePath) && s.Nodes[k].Language != n.Language {
				return nil, false
			}
			k++
			continue
		}
		if n.Kind == graph.KindFile || had(graph.HistoricalSymbolPrefix+n.ID) {
			return nil, false
		}
	}
	for ; k < len(s.Nodes); k++ {
		if !went(k) {
			return nil, false
		}
	}
	return hc, true
}
