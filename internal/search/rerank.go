package search

import (
	"cmp"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// testFactor scales the score of a hit in test code when the question is
// not about tests: the code a question is about ranks above the tests
// that exercise it (and name it as often). Measured on bench/retrieval.
const testFactor = 0.3

// AsksForTests reports whether a question is about tests: it has a word
// starting with "test", or "spec", "fixture", "mock".
func AsksForTests(query string) bool {
	for _, w := range Words(query) {
		if strings.HasPrefix(w, "test") || w == "spec" || w == "specs" || w == "fixture" || w == "fixtures" || w == "mock" || w == "mocks" {
			return true
		}
	}
	return false
}

// DemoteTests ranks hits in test code below the others of similar score
// unless the question asks for tests; hits keep their order otherwise.
func DemoteTests(g *memgraph.Graph, query string, hits []Hit) []Hit {
	if AsksForTests(query) {
		return hits
	}
	out := make([]Hit, len(hits))
	for i, h := range hits {
		if graph.IsTestPath(g.Nodes[h.Node].FilePath) {
			h.Score *= testFactor
		}
		out[i] = h
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// Evidence from neighbours: the code a question is about is usually a few
// functions that call one another or sit in one file, so a hit gains a
// share of the best score among the hits it calls or is called by
// (callWeight) and of the best other hit in its file (fileWeight).
// Measured on bench/retrieval's tuning repositories; a sum instead of the
// best let big files and hubs win.
const (
	callWeight = 0.4
	fileWeight = 0.2
)

// Propagate adds the neighbours' evidence to the hits' scores and sorts
// them again.
func Propagate(g *memgraph.Graph, hits []Hit) []Hit {
	score := make(map[memgraph.NodeID]float64, len(hits))
	type top2 struct{ first, second float64 }
	byFile := map[string]top2{}
	for _, h := range hits {
		score[h.Node] = h.Score
		f := g.Nodes[h.Node].FilePath
		t := byFile[f]
		switch {
		case h.Score > t.first:
			t.first, t.second = h.Score, t.first
		case h.Score > t.second:
			t.second = h.Score
		}
		byFile[f] = t
	}
	out := make([]Hit, len(hits))
	for i, h := range hits {
		calls := 0.0
		for _, e := range g.Out(h.Node) {
			if e.Type == graph.EdgeCalls {
				calls = max(calls, score[e.To])
			}
		}
		for _, e := range g.In(h.Node) {
			if e.Type == graph.EdgeCalls {
				calls = max(calls, score[e.To])
			}
		}
		t := byFile[g.Nodes[h.Node].FilePath]
		other := t.first
		if other == h.Score {
			other = t.second
		}
		out[i] = Hit{Node: h.Node, Score: h.Score + callWeight*calls + fileWeight*other}
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}
