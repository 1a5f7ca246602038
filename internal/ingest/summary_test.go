package ingest

import (
	"fmt"
	"maps"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// TestSummarizeCounts checks the counts against the graph, edge by edge,
// with reasons that interleave within a type, and the history part an
// index kept added (CarriedHistory).
func TestSummarizeCounts(t *testing.T) {
	g := graph.New()
	nodes := []graph.Node{
		{ID: "File:a.go", Kind: graph.KindFile}, {ID: "File:b.go", Kind: graph.KindFile},
		{ID: "Function:a.go:F", Kind: graph.KindFunction}, {ID: "Method:a.go:T.M", Kind: graph.KindMethod},
		{ID: "Struct:a.go:T", Kind: graph.KindStruct}, {ID: "Function:b.go:G", Kind: graph.KindFunction},
	}
	for _, n := range nodes {
		g.AddNode(n)
	}
	edges := []graph.Edge{
		{Src: "File:a.go", Dst: "Function:a.go:F", Type: graph.EdgeDefines, Reason: graph.ReasonSyntax},
		{Src: "File:a.go", Dst: "Struct:a.go:T", Type: graph.EdgeDefines, Reason: graph.ReasonSyntax},
		{Src: "Function:a.go:F", Dst: "Function:b.go:G", Type: graph.EdgeCalls, Reason: graph.ReasonImportResolved},
		{Src: "Function:a.go:F", Dst: "Method:a.go:T.M", Type: graph.EdgeCalls, Reason: graph.ReasonReceiverTyped},
		{Src: "Function:b.go:G", Dst: "Function:a.go:F", Type: graph.EdgeCalls, Reason: graph.ReasonImportResolved},
		{Src: "Method:a.go:T.M", Dst: "Function:a.go:F", Type: graph.EdgeCalls, Reason: graph.ReasonSameFile},
		{Src: "Struct:a.go:T", Dst: "Method:a.go:T.M", Type: graph.EdgeHasMethod, Reason: graph.ReasonSyntax},
	}
	for _, e := range edges {
		g.AddEdge(e)
	}
	carried := &store.HistoryCounts{
		NodesByKind:   map[graph.NodeKind]int{graph.KindCommit: 2},
		EdgesByReason: map[graph.EdgeType]map[graph.Reason]int{graph.EdgeModifies: {graph.ReasonGit: 3}},
	}
	s := Summarize(&Result{Graph: g, CarriedHistory: carried})
	if s.Nodes != 8 || s.Edges != 10 || s.Symbols != 4 || s.Functions != 3 {
		t.Errorf("nodes %d edges %d symbols %d functions %d, want 8 10 4 3", s.Nodes, s.Edges, s.Symbols, s.Functions)
	}
	if want := map[string]int{"File": 2, "Function": 2, "Method": 1, "Struct": 1, "Commit": 2}; !maps.Equal(s.NodesByKind, want) {
		t.Errorf("nodes by kind %v, want %v", s.NodesByKind, want)
	}
	if want := map[string]int{"DEFINES": 2, "CALLS": 4, "HAS_METHOD": 1, "MODIFIES": 3}; !maps.Equal(s.EdgesByType, want) {
		t.Errorf("edges by type %v, want %v", s.EdgesByType, want)
	}
	want := map[string]map[string]int{
		"DEFINES":    {string(graph.ReasonSyntax): 2},
		"HAS_METHOD": {string(graph.ReasonSyntax): 1},
		"CALLS": {string(graph.ReasonImportResolved): 2, string(graph.ReasonReceiverTyped): 1,
			string(graph.ReasonSameFile): 1},
		"MODIFIES": {string(graph.ReasonGit): 3},
	}
	if !maps.EqualFunc(s.EdgesByReason, want, maps.Equal) {
		t.Errorf("edges by reason %v, want %v", s.EdgesByReason, want)
	}
}

// BenchmarkSummarize counts a graph the size of the Go standard library's
// code part: 230,000 nodes and 870,000 edges.
func BenchmarkSummarize(b *testing.B) {
	g := graph.New()
	kinds := []graph.NodeKind{graph.KindFunction, graph.KindMethod, graph.KindConst, graph.KindProperty, graph.KindFile}
	const n = 230_000
	for i := range n {
		g.AddNode(graph.Node{ID: fmt.Sprintf("N%07d", i), Kind: kinds[i%len(kinds)]})
	}
	types := []graph.EdgeType{graph.EdgeCalls, graph.EdgeDefines, graph.EdgeReferences, graph.EdgeHasProperty}
	reasons := []graph.Reason{graph.ReasonSameFile, graph.ReasonImportResolved, graph.ReasonReceiverTyped, graph.ReasonSyntax}
	for i := range 870_000 {
		g.AddNewEdge(graph.Edge{Src: fmt.Sprintf("N%07d", i%n), Dst: fmt.Sprintf("N%07d", (i*7+1)%n),
			Type: types[i%len(types)], Reason: reasons[(i/3)%len(reasons)]})
	}
	r := &Result{Graph: g}
	Summarize(r) // sorts the graph once, as the pipeline has by then
	b.ResetTimer()
	for b.Loop() {
		Summarize(r)
	}
}

// TestIndexedEdges: the edge index is given room for the index's edges
// but those a re-index appends without a lookup, and for all of them when
// the run cannot reuse the index's resolution or the counts by type are
// not known.
func TestIndexedEdges(t *testing.T) {
	byType := map[string]int{"CALLS": 400, "REFERENCES": 80, "MEMBER_OF": 40, "STEP_IN_PROCESS": 30,
		"ENTRY_POINT_OF": 3, "MODIFIES": 9, "PARENT_OF": 5, "DEFINES": 190, "IMPORTS": 23, "HAS_METHOD": 20}
	for _, c := range []struct {
		cacheIsIndex bool
		byType       map[string]int
		want         int
	}{
		{true, byType, 233},
		{false, byType, 800},
		{true, nil, 800},
		{true, map[string]int{"CALLS": 900}, 0},
	} {
		o := &Options{Previous: Previous{CacheIsIndex: c.cacheIsIndex}}
		o.Previous.SizeHint.Edges, o.Previous.SizeHint.EdgesByType = 800, c.byType
		if got := indexedEdges(o); got != c.want {
			t.Errorf("cache is the index's %v, by type %v: %d, want %d", c.cacheIsIndex, c.byType, got, c.want)
		}
	}
}
