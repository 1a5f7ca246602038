package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// chunkGraph is a graph of files with functions calling the next file's,
// n files of three functions each; edit changes file k's last function.
func chunkGraph(n int, edit map[int]string) *graph.Graph {
	g := graph.New()
	for f := 0; f < n; f++ {
		path := fmt.Sprintf("pkg%02d/file.go", f)
		g.AddNode(graph.Node{ID: graph.FileID(path), Kind: graph.KindFile, Name: "file.go", FilePath: path, Language: "go"})
		for k := 0; k < 3; k++ {
			id := graph.SymbolID(graph.KindFunction, path, fmt.Sprintf("F%d", k))
			content := fmt.Sprintf("func F%d() {}", k)
			if k == 2 && edit[f] != "" {
				content = edit[f]
			}
			g.AddNode(graph.Node{ID: id, Kind: graph.KindFunction, Name: fmt.Sprintf("F%d", k), FilePath: path,
				StartLine: k + 1, EndLine: k + 1, Content: content})
			g.AddEdge(graph.Edge{Src: graph.FileID(path), Dst: id, Type: graph.EdgeDefines, Confidence: 1, Reason: graph.ReasonSyntax})
			if f+1 < n {
				next := graph.SymbolID(graph.KindFunction, fmt.Sprintf("pkg%02d/file.go", f+1), fmt.Sprintf("F%d", k))
				g.AddEdge(graph.Edge{Src: id, Dst: next, Type: graph.EdgeCalls, Confidence: 0.95, Reason: graph.ReasonImportResolved, Line: k + 1, More: []int{k + 7}})
			}
		}
	}
	return g
}

// TestChunkedSnapshot: a snapshot cut into chunks decodes to the graph's
// nodes and edges; an in-place write rewrites only the chunks in which
// something changed, cuts one that grew, drops one that emptied, and what
// it leaves decodes as a new file's snapshot does (but for its rows).
func TestChunkedSnapshot(t *testing.T) {
	defer func(b int) { chunkBytes = b }(chunkBytes)
	chunkBytes = 2 << 10
	ctx := context.Background()
	meta := Meta{Writer: "w"}
	read := func(repo string) *Snapshot {
		t.Helper()
		r, err := OpenRepo(repo)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		s, err := r.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// same compares what readers get of two snapshots: nodes and edges, by id.
	same := func(a, b *Snapshot) bool {
		if len(a.Nodes) != len(b.Nodes) || len(a.Edges) != len(b.Edges) || !reflect.DeepEqual(a.TextHashes, b.TextHashes) {
			return false
		}
		for i := range a.Nodes {
			x, y := a.Nodes[i], b.Nodes[i]
			x.Rid, y.Rid = 0, 0
			if x != y {
				return false
			}
		}
		for i := range a.Edges {
			x, y := a.Edges[i], b.Edges[i]
			if a.Nodes[x.Src].ID != b.Nodes[y.Src].ID || a.Nodes[x.Dst].ID != b.Nodes[y.Dst].ID || x.Type != y.Type ||
				x.Reason != y.Reason || x.Confidence != y.Confidence || x.Line != y.Line || !reflect.DeepEqual(x.More, y.More) {
				return false
			}
		}
		return true
	}
	repo := t.TempDir()
	if _, err := Save(ctx, repo, chunkGraph(40, nil), nil, meta, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	first := read(repo)
	if len(first.chunks) < 4 {
		t.Fatalf("%d chunks: the graph is too small to test them", len(first.chunks))
	}
	steps := []struct {
		name  string
		g     *graph.Graph
		most  int // chunks written at most
		least int
	}{
		{"nothing changed", chunkGraph(40, nil), 0, 0},
		{"one function's text", chunkGraph(40, map[int]string{20: "func F2() { return }"}), 1, 1},
		{"two files apart", chunkGraph(40, map[int]string{20: "func F2() { return }", 3: "func F2() { a() }", 36: "func F2() { b() }"}), 2, 2},
		{"files gone", chunkGraph(30, nil), 4, 1},
		{"files back, with more text", chunkGraph(40, map[int]string{35: string(make([]byte, 9000))}), 8, 2},
	}
	for _, st := range steps {
		res, err := Save(ctx, repo, st.g, nil, meta, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Update == nil {
			t.Fatalf("%s: not written in place: %s", st.name, res.Rewritten)
		}
		if n := res.Update.SnapshotChunks; n > st.most || n < st.least {
			t.Errorf("%s: %d chunks written, want %d to %d", st.name, n, st.least, st.most)
		}
		fresh := t.TempDir()
		if _, err := Save(ctx, fresh, st.g, nil, meta, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		have, want := read(repo), read(fresh)
		if !same(have, want) {
			t.Errorf("%s: the snapshot written in place does not read as a new file's", st.name)
		}
		t.Logf("%s: %d chunks written, %d in all", st.name, res.Update.SnapshotChunks, len(have.chunks))
	}
	// Chunk rows no manifest names are gone.
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM snapshot WHERE id >= ?`, firstChunkRow).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if s := read(repo); rows != len(s.chunks) {
		t.Errorf("%d chunk rows, the manifest names %d", rows, len(s.chunks))
	}
}

func FuzzDecodeChunks(f *testing.F) {
	g := chunkGraph(3, nil)
	nodes := g.Nodes()
	rid := ridMap{}
	for i, n := range nodes {
		rid[n.ID] = int64(i + 1)
	}
	edges := g.Edges()
	rows := encodeChunked(nodeSlice(nodes), textHashes(nodes), rid, int64(len(nodes))+1, edgesWithEnds(edges, g.EdgeEnds()), nil, nil, 0)
	f.Add(rows.manifest, rows.write[firstChunkRow])
	f.Fuzz(func(t *testing.T, manifest, chunk []byte) {
		s, err := decodeChunks(manifest, map[int64][]byte{firstChunkRow: chunk})
		if err != nil {
			return
		}
		for _, e := range s.Edges {
			if int(e.Src) >= len(s.Nodes) || int(e.Dst) >= len(s.Nodes) {
				t.Fatalf("edge out of range accepted")
			}
		}
		for i := 1; i < len(s.Nodes); i++ {
			if s.Nodes[i-1].ID >= s.Nodes[i].ID {
				t.Fatalf("nodes out of order accepted")
			}
		}
	})
}

// TestTextHashes: the hashes shared out among the cores are each node's
// own, in order.
func TestTextHashes(t *testing.T) {
	for _, n := range []int{0, 5, 1<<15 + 3} {
		nodes := make([]graph.Node, n)
		for i := range nodes {
			nodes[i].Doc, nodes[i].Content = fmt.Sprintf("doc %d", i), fmt.Sprintf("content %d", i%7)
		}
		got := textHashes(nodes)
		if len(got) != n {
			t.Fatalf("%d nodes: %d hashes", n, len(got))
		}
		for i := range nodes {
			if want := textHash(nodes[i].Doc, nodes[i].Content); got[i] != want {
				t.Fatalf("%d nodes: hash %d is %x, want %x", n, i, got[i], want)
			}
		}
	}
}

// TestMergedNodes: the merged view gives the new graph's nodes and the
// kept ones at the positions its at says.
func TestMergedNodes(t *testing.T) {
	fresh := []graph.Node{{ID: "b"}, {ID: "d"}}
	m := &mergedNodes{fresh: fresh, kept: []graph.Node{{ID: "a"}, {ID: "c"}}, at: []int32{-1, 0, -2, 1}}
	var got []string
	for i := 0; i < m.Len(); i++ {
		got = append(got, m.At(i).ID)
	}
	if !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("merged: %v", got)
	}
	if m.At(1) != &fresh[0] {
		t.Error("a new node is copied, not the graph's")
	}
}
