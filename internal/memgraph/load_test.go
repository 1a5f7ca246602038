package memgraph

import (
	"context"
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// TestSnapshotMatchesTables checks that loading from the snapshot and from
// the tables gives the same graph.
func TestSnapshotMatchesTables(t *testing.T) {
	g := graph.New()
	for _, n := range []string{"a", "b", "c"} {
		g.AddNode(graph.Node{ID: "Function:x.go:" + n, Kind: graph.KindFunction, Name: n, QualifiedName: "x." + n,
			FilePath: "x.go", StartLine: 2, EndLine: 4, Signature: "func " + n + "()", Exported: n == "a", Language: "go"})
	}
	g.AddNode(graph.Node{ID: "File:x.go", Kind: graph.KindFile, Name: "x.go", FilePath: "x.go", Language: "go"})
	g.AddEdge(graph.Edge{Src: "Function:x.go:a", Dst: "Function:x.go:b", Type: graph.EdgeCalls, Confidence: 0.9, Reason: graph.ReasonReceiverTyped, Line: 3})
	g.AddEdge(graph.Edge{Src: "Function:x.go:b", Dst: "Function:x.go:c", Type: graph.EdgeCalls, Confidence: 0.3, Reason: graph.ReasonNameOnly, Line: 4})
	// b calls c from three lines: one edge, every site kept.
	g.AddEdge(graph.Edge{Src: "Function:x.go:b", Dst: "Function:x.go:c", Type: graph.EdgeCalls, Confidence: 0.3, Reason: graph.ReasonNameOnly, Line: 9})
	g.AddEdge(graph.Edge{Src: "Function:x.go:b", Dst: "Function:x.go:c", Type: graph.EdgeCalls, Confidence: 0.3, Reason: graph.ReasonNameOnly, Line: 7})
	g.AddEdge(graph.Edge{Src: "File:x.go", Dst: "Function:x.go:a", Type: graph.EdgeDefines, Confidence: 1, Reason: graph.ReasonSyntax})
	repo := t.TempDir()
	if _, err := store.Write(context.Background(), repo, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fromSnap, err := Load(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	fromTables, err := loadTables(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromSnap.Nodes, fromTables.Nodes) {
		t.Errorf("nodes differ:\n%+v\n%+v", fromSnap.Nodes, fromTables.Nodes)
	}
	for i := range fromSnap.Nodes {
		n := NodeID(i)
		if !reflect.DeepEqual(fromSnap.Out(n), fromTables.Out(n)) || !reflect.DeepEqual(fromSnap.In(n), fromTables.In(n)) {
			t.Errorf("edges of %s differ", fromSnap.Nodes[i].ID)
		}
	}
	for _, lg := range []*Graph{fromSnap, fromTables} {
		b, _ := lg.Lookup("Function:x.go:b")
		c, _ := lg.Lookup("Function:x.go:c")
		a, _ := lg.Lookup("Function:x.go:a")
		if got := lg.Lines(lg.Out(b)[0]); !reflect.DeepEqual(got, []int32{4, 7, 9}) {
			t.Errorf("lines of b -> c = %v, want [4 7 9]", got)
		}
		if got := lg.Lines(lg.In(c)[0]); !reflect.DeepEqual(got, []int32{4, 7, 9}) {
			t.Errorf("lines of c <- b = %v, want [4 7 9]", got)
		}
		if got := lg.Lines(lg.Out(a)[0]); !reflect.DeepEqual(got, []int32{3}) {
			t.Errorf("lines of a -> b = %v, want [3]", got)
		}
	}
	if !reflect.DeepEqual(fromSnap.reasons, fromTables.reasons) {
		t.Errorf("reasons differ: %v %v", fromSnap.reasons, fromTables.reasons)
	}
}
