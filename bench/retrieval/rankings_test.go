//go:build sqlite_fts5

package main

import (
	"fmt"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// lookupUIDs resolves the uids "n<k>" to node k.
func lookupUIDs(uid string) (memgraph.NodeID, bool) {
	var n memgraph.NodeID
	_, err := fmt.Sscanf(uid, "n%d", &n)
	return n, err == nil
}

func sym(uid string, score float64) analysis.QuerySymbol {
	return analysis.QuerySymbol{SymbolInfo: analysis.SymbolInfo{UID: uid}, Score: score}
}

func TestQueryRanked(t *testing.T) {
	// The answer before it had Results: groups by file, ordered by their
	// best hit, and definitions; flattened by score, ties in the answer's
	// order.
	type group struct {
		File    string
		Score   float64
		Symbols []analysis.QuerySymbol
	}
	type grouped struct {
		Groups      []group
		Definitions []analysis.QuerySymbol
	}
	old := &grouped{
		Groups: []group{
			{File: "a.go", Score: 3, Symbols: []analysis.QuerySymbol{sym("n1", 3), sym("n2", 1)}},
			{File: "b.go", Score: 2, Symbols: []analysis.QuerySymbol{sym("n3", 2), sym("n4", 1)}},
		},
		Definitions: []analysis.QuerySymbol{sym("n5", 2.5)},
	}
	// Today's answer: a flat list, best first, taken as it is.
	flat := &analysis.QueryResult{Results: []analysis.QueryHit{{Rank: 1, QuerySymbol: sym("n7", 1)}, {Rank: 2, QuerySymbol: sym("n6", 2)}}}
	type named struct {
		Results []struct{ SymbolInfo analysis.SymbolInfo }
	}
	cases := []struct {
		name string
		res  any
		want string
	}{
		{"groups and definitions", old, "[1 5 3 2 4]"},
		{"flat results", flat, "[7 6]"},
		{"results with a SymbolInfo field", named{Results: []struct{ SymbolInfo analysis.SymbolInfo }{{analysis.SymbolInfo{UID: "n8"}}}}, "[8]"},
	}
	for _, tc := range cases {
		got, err := queryRanked(tc.res, lookupUIDs)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: queryRanked = %v, want %s", tc.name, got, tc.want)
		}
	}
	if _, err := queryRanked(&analysis.QueryResult{Results: []analysis.QueryHit{{QuerySymbol: sym("x", 1)}}}, lookupUIDs); err == nil {
		t.Error("a uid that is no node: no error")
	}
}
