package store

import (
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// TestRenumber: the snapshot's nodes are placed among a graph's by id,
// -1 for those the graph lacks, and an unordered snapshot is refused.
func TestRenumber(t *testing.T) {
	rows := func(ids ...string) *Ahead {
		s := &Snapshot{}
		for _, id := range ids {
			s.Nodes = append(s.Nodes, NodeRow{ID: id})
		}
		return &Ahead{snap: s}
	}
	nodes := func(ids ...string) []graph.Node {
		var ns []graph.Node
		for _, id := range ids {
			ns = append(ns, graph.Node{ID: id})
		}
		return ns
	}
	tests := []struct {
		name  string
		snap  *Ahead
		graph []graph.Node
		want  []int32
	}{
		{"the same nodes", rows("a", "b", "c"), nodes("a", "b", "c"), []int32{0, 1, 2}},
		{"nodes added", rows("b", "d"), nodes("a", "b", "c", "d", "e"), []int32{1, 3}},
		{"nodes removed", rows("a", "b", "c", "d"), nodes("b", "d"), []int32{-1, 0, -1, 1}},
		{"both", rows("a", "c", "e"), nodes("b", "c", "d"), []int32{-1, 1, -1}},
		{"an empty graph", rows("a"), nil, []int32{-1}},
		{"an empty snapshot", rows(), nodes("a"), []int32{}},
		{"out of order", rows("b", "a"), nodes("a", "b"), nil},
		{"a repeated id", rows("a", "a"), nodes("a"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.snap.Renumber(tc.graph)
			if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("Renumber = %v, want %v", got, tc.want)
			}
		})
	}
}
