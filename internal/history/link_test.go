package history_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
)

// TestLinkEdgesOnce: records that lead to the same edge within a commit
// (a message that names the reverted commit twice, two changes of one
// symbol, a rename and a change that end at one path) give that edge
// once, with the merged attributes an edge added twice would have.
func TestLinkEdgesOnce(t *testing.T) {
	a, b := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	g := graph.New()
	g.AddNode(graph.Node{ID: graph.FileID("x.go"), Kind: graph.KindFile, Name: "x.go", FilePath: "x.go"})
	fn := graph.SymbolID(graph.KindFunction, "x.go", "F")
	g.AddNode(graph.Node{ID: fn, Kind: graph.KindFunction, Name: "F", FilePath: "x.go"})
	h := &graph.History{
		Commits: []graph.Commit{
			{Hash: b, Parents: []string{a}, Message: "undo\n\nThis reverts commit " + a + ".\nThis reverts commit " + a + "."},
			{Hash: a, Message: "add"},
		},
		Files: []graph.FileChange{
			{Commit: b, Status: 'M', Path: "x.go"},
			{Commit: b, Status: 'M', Path: "x.go"},
			{Commit: a, Status: 'A', Path: "x.go"},
		},
		Symbols: []graph.SymbolChange{
			{Commit: b, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeModified},
			{Commit: b, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeModified},
			{Commit: a, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeAdded},
		},
	}
	history.Link(g, h)
	count := map[graph.EdgeType]int{}
	for _, e := range g.Edges() {
		count[e.Type]++
	}
	want := map[graph.EdgeType]int{graph.EdgeParentOf: 1, graph.EdgeReverts: 1, graph.EdgeModifies: 2, graph.EdgeChanges: 2}
	for typ, n := range want {
		if count[typ] != n {
			t.Errorf("%s: %d edges, want %d", typ, count[typ], n)
		}
	}
	if len(count) != len(want) {
		t.Errorf("edges by type %v, want %v", count, want)
	}
}
