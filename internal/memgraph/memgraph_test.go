package memgraph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// chain builds a → b → c → d plus a → c, e (isolated), and a type with a
// method, stores it, and loads it back.
func loadSample(t testing.TB) *memgraph.Graph {
	t.Helper()
	g := graph.New()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		g.AddNode(graph.Node{ID: "Function:f.go:" + n, Kind: graph.KindFunction, Name: n, QualifiedName: "pkg." + n, FilePath: "f.go", StartLine: int(n[0] - 'a' + 1)})
	}
	g.AddNode(graph.Node{ID: "File:f.go", Kind: graph.KindFile, Name: "f.go", FilePath: "f.go"})
	g.AddNode(graph.Node{ID: "Struct:f.go:T", Kind: graph.KindStruct, Name: "T", QualifiedName: "pkg.T", FilePath: "f.go", StartLine: 10})
	g.AddNode(graph.Node{ID: "Method:f.go:T.a", Kind: graph.KindMethod, Name: "a", QualifiedName: "pkg.T.a", FilePath: "f.go", StartLine: 11})
	calls := func(src, dst string, conf float64) {
		g.AddEdge(graph.Edge{Src: "Function:f.go:" + src, Dst: "Function:f.go:" + dst, Type: graph.EdgeCalls, Confidence: conf, Reason: graph.ReasonSameFile, Line: 1})
	}
	calls("a", "b", 0.95)
	calls("b", "c", 0.95)
	calls("c", "d", 0.3)
	calls("a", "c", 0.95)
	g.AddEdge(graph.Edge{Src: "Struct:f.go:T", Dst: "Method:f.go:T.a", Type: graph.EdgeHasMethod, Confidence: 1, Reason: graph.ReasonSyntax})
	repo := t.TempDir()
	if _, err := store.Write(context.Background(), repo, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	_, mg := testrepo.Load(t, repo)
	return mg
}

func names(g *memgraph.Graph, hits []memgraph.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, g.Nodes[h.Node].Name)
	}
	return out
}

func id(t *testing.T, g *memgraph.Graph, s string) memgraph.NodeID {
	n, ok := g.Lookup(s)
	if !ok {
		t.Fatalf("no node %s", s)
	}
	return n
}

func TestWalk(t *testing.T) {
	g := loadSample(t)
	a, d := id(t, g, "Function:f.go:a"), id(t, g, "Function:f.go:d")
	calls := []graph.EdgeType{graph.EdgeCalls}
	cases := []struct {
		name  string
		start memgraph.NodeID
		opt   memgraph.WalkOptions
		want  []string
		trunc bool
	}{
		{"callees depth 1", a, memgraph.WalkOptions{Types: calls}, []string{"b", "c"}, false},
		{"callees depth 3, each once", a, memgraph.WalkOptions{Types: calls, MaxDepth: 3}, []string{"b", "c", "d"}, false},
		{"min confidence cuts the guess", a, memgraph.WalkOptions{Types: calls, MaxDepth: 3, MinConfidence: 0.5}, []string{"b", "c"}, false},
		{"callers of d", d, memgraph.WalkOptions{Types: calls, Direction: memgraph.Incoming, MaxDepth: 2}, []string{"c", "a", "b"}, false},
		{"limit truncates", a, memgraph.WalkOptions{Types: calls, MaxDepth: 3, Limit: 1}, []string{"b"}, true},
		{"other edge types are not followed", a, memgraph.WalkOptions{Types: []graph.EdgeType{graph.EdgeHasMethod}}, nil, false},
		{"skipped nodes are neither listed nor walked through", a, memgraph.WalkOptions{Types: calls, MaxDepth: 3,
			Skip: func(n memgraph.NodeID) bool { return g.Nodes[n].Name == "c" }}, []string{"b"}, false},
	}
	for _, c := range cases {
		res := g.Walk([]memgraph.NodeID{c.start}, c.opt)
		if got := names(g, res.Hits); !slices.Equal(got, c.want) || res.Truncated != c.trunc {
			t.Errorf("%s: got %v truncated=%v, want %v truncated=%v", c.name, got, res.Truncated, c.want, c.trunc)
		}
	}
	res := g.Walk([]memgraph.NodeID{a}, memgraph.WalkOptions{Types: calls, MaxDepth: 3})
	var levels [][]string
	for _, l := range res.Levels() {
		levels = append(levels, names(g, l))
	}
	if fmt.Sprint(levels) != "[[b c] [d]]" {
		t.Errorf("levels %v, want [[b c] [d]]", levels)
	}
	for _, h := range res.Hits {
		if g.Nodes[h.Node].Name == "c" && h.Depth != 1 {
			t.Errorf("c reached at depth %d, want 1 (shortest)", h.Depth)
		}
	}
}

func TestShortestPathAndFind(t *testing.T) {
	g := loadSample(t)
	a, d, e := id(t, g, "Function:f.go:a"), id(t, g, "Function:f.go:d"), id(t, g, "Function:f.go:e")
	p := g.ShortestPath(a, d, memgraph.Outgoing, []graph.EdgeType{graph.EdgeCalls}, 5)
	if len(p) != 2 || g.Nodes[p[0].To].Name != "c" || p[1].To != d {
		t.Errorf("path a→d = %+v", p)
	}
	if p := g.ShortestPath(a, e, memgraph.Outgoing, nil, 5); p != nil {
		t.Errorf("path to isolated node: %+v", p)
	}
	if got := g.Find("a"); len(got) != 2 {
		t.Errorf("Find(a) = %v, want the function and the method", got)
	}
	if got := g.Find("T.a"); len(got) != 1 || g.Nodes[got[0]].Kind != graph.KindMethod {
		t.Errorf("Find(T.a) = %v", got)
	}
	if got := g.Find("pkg.b"); len(got) != 1 {
		t.Errorf("Find(pkg.b) = %v", got)
	}
	if got := g.Find("Function:f.go:c"); len(got) != 1 {
		t.Errorf("Find(id) = %v", got)
	}
	sg := g.FileSubgraph("f.go")
	if len(sg.Nodes) != 8 || sg.Nodes[0] != id(t, g, "File:f.go") {
		t.Errorf("file subgraph nodes = %d", len(sg.Nodes))
	}
}

// benchGraph loads a large real index: $GITNEXUS_BENCH_REPO if set (an
// indexed repository, e.g. the Go standard library), else net/http of the
// Go standard library indexed on the fly.
func benchGraph(b *testing.B) (*memgraph.Graph, *store.Reader) {
	b.Helper()
	repo := os.Getenv("GITNEXUS_BENCH_REPO")
	if repo == "" {
		src := filepath.Join(runtime.GOROOT(), "src", "net", "http")
		res, err := ingest.Run(context.Background(), ingest.Options{Root: src})
		if err != nil {
			b.Fatal(err)
		}
		repo = b.TempDir()
		if _, err := store.Write(context.Background(), repo, res.Graph, store.Meta{}); err != nil {
			b.Fatal(err)
		}
	}
	r, err := store.OpenRepo(repo)
	if err != nil {
		b.Fatal(err)
	}
	g, err := memgraph.Load(context.Background(), r)
	if err != nil {
		b.Fatal(err)
	}
	return g, r
}

// BenchmarkLoad reports load time and retained heap per million edges.
func BenchmarkLoad(b *testing.B) {
	_, r := benchGraph(b)
	defer r.Close()
	var ms0, ms1 runtime.MemStats
	var edges int
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		b.StartTimer()
		start := time.Now()
		g, err := memgraph.Load(context.Background(), r)
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&ms1)
		edges = g.EdgeCount()
		runtime.KeepAlive(g)
		b.StartTimer()
	}
	perM := float64(edges) / 1e6
	b.ReportMetric(float64(edges), "edges")
	b.ReportMetric(elapsed.Seconds()/float64(b.N)/perM, "s/Medges")
	b.ReportMetric(float64(ms1.HeapAlloc-ms0.HeapAlloc)/(1<<20)/perM, "MiB/Medges")
}

// hubs returns the callables with the most callers, to walk from.
func hubs(g *memgraph.Graph, n int) []memgraph.NodeID {
	var ids []memgraph.NodeID
	for i := range g.Nodes {
		if g.Nodes[i].Kind.IsCallable() {
			ids = append(ids, memgraph.NodeID(i))
		}
	}
	slices.SortFunc(ids, func(a, b memgraph.NodeID) int { return len(g.In(b)) - len(g.In(a)) })
	return ids[:min(n, len(ids))]
}

func BenchmarkCallers1Hop(b *testing.B) {
	g, r := benchGraph(b)
	defer r.Close()
	starts := hubs(g, 100)
	opt := memgraph.WalkOptions{Direction: memgraph.Incoming, Types: []graph.EdgeType{graph.EdgeCalls}, MaxDepth: 1}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Walk(starts[i%len(starts):i%len(starts)+1], opt)
	}
}

func BenchmarkCallers3Hop(b *testing.B) {
	g, r := benchGraph(b)
	defer r.Close()
	starts := hubs(g, 100)
	opt := memgraph.WalkOptions{Direction: memgraph.Incoming, Types: []graph.EdgeType{graph.EdgeCalls}, MaxDepth: 3}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Walk(starts[i%len(starts):i%len(starts)+1], opt)
	}
}

func BenchmarkCallees3Hop(b *testing.B) {
	g, r := benchGraph(b)
	defer r.Close()
	var starts []memgraph.NodeID
	for i := range g.Nodes {
		if g.Nodes[i].Kind.IsCallable() && len(g.Out(memgraph.NodeID(i))) > 3 {
			starts = append(starts, memgraph.NodeID(i))
		}
	}
	opt := memgraph.WalkOptions{Types: []graph.EdgeType{graph.EdgeCalls}, MaxDepth: 3}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(starts)
		g.Walk(starts[k:k+1], opt)
	}
}
