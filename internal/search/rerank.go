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
