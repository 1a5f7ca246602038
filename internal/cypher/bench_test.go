package cypher_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// The benchmarks run on a large real index, named by $GITNEXUS_BENCH_REPO
// (the path of an indexed repository, e.g. the Go standard library; see
// bench/cypher/RESULTS.md), and are skipped without it. Each reports the
// median and 99th percentile of single query times (parse, plan and run),
// measured one by one and sorted.

type benchIndex struct {
	g      *memgraph.Graph
	engine *cypher.Engine
	r      *store.Reader
}

func openBenchIndex(b *testing.B) *benchIndex {
	b.Helper()
	repo := os.Getenv("GITNEXUS_BENCH_REPO")
	if repo == "" {
		b.Skip("set GITNEXUS_BENCH_REPO to an indexed repository (see bench/cypher/RESULTS.md)")
	}
	r, err := store.OpenRepo(repo)
	if err != nil {
		b.Fatal(err)
	}
	g, err := memgraph.Load(context.Background(), r)
	if err != nil {
		b.Fatal(err)
	}
	return &benchIndex{g: g, engine: cypher.New(g, r), r: r}
}

// sample returns up to n nodes spread evenly over those keep accepts, in
// id order, so that every run measures the same nodes.
func (bi *benchIndex) sample(n int, keep func(memgraph.NodeID) bool) []memgraph.NodeID {
	var all []memgraph.NodeID
	for i := range bi.g.Nodes {
		if keep(memgraph.NodeID(i)) {
			all = append(all, memgraph.NodeID(i))
		}
	}
	if len(all) <= n {
		return all
	}
	out := make([]memgraph.NodeID, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

func (bi *benchIndex) countCalls(n memgraph.NodeID, in bool) int {
	edges := bi.g.Out(n)
	if in {
		edges = bi.g.In(n)
	}
	c := 0
	for _, e := range edges {
		if e.Type == graph.EdgeCalls {
			c++
		}
	}
	return c
}

// runQueries runs query b.N times with the parameters params(i) and
// reports p50 and p99 in microseconds.
func runQueries(b *testing.B, e *cypher.Engine, query string, params func(i int) map[string]any) []time.Duration {
	b.Helper()
	ctx := context.Background()
	durations := make([]time.Duration, 0, b.N)
	rows := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := e.Query(ctx, query, cypher.Options{Params: params(i), MaxRows: 100000, Timeout: time.Minute})
		durations = append(durations, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		rows += len(res.Rows)
	}
	b.StopTimer()
	slices.Sort(durations)
	pct := func(p float64) float64 {
		return float64(durations[min(len(durations)-1, int(p*float64(len(durations))))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
	return durations
}

// BenchmarkOneHopByName: the callers of a function given by name (200
// functions with callers, in turn).
func BenchmarkOneHopByName(b *testing.B) {
	bi := openBenchIndex(b)
	defer bi.r.Close()
	nodes := bi.sample(200, func(n memgraph.NodeID) bool {
		return bi.g.Nodes[n].Kind == graph.KindFunction && bi.countCalls(n, true) > 0
	})
	runQueries(b, bi.engine, "MATCH (c)-[:CALLS]->(f:Function {name: $name}) RETURN c.qualifiedName, c.filePath",
		func(i int) map[string]any { return map[string]any{"name": bi.g.Nodes[nodes[i%len(nodes)]].Name} })
}

// BenchmarkThreeHopsFromNode: what a function or method reaches in up to
// three calls (200 callables with at least three callees, in turn).
func BenchmarkThreeHopsFromNode(b *testing.B) {
	bi := openBenchIndex(b)
	defer bi.r.Close()
	nodes := bi.sample(200, func(n memgraph.NodeID) bool {
		return bi.g.Nodes[n].Kind.IsCallable() && bi.countCalls(n, false) >= 3
	})
	runQueries(b, bi.engine, "MATCH (f {id: $id})-[:CALLS*1..3]->(g) RETURN DISTINCT g.qualifiedName",
		func(i int) map[string]any { return map[string]any{"id": bi.g.Nodes[nodes[i%len(nodes)]].ID} })
}

// BenchmarkAggregateAllCalls: every CALLS edge grouped by callee name, the
// ten most called; also reported per million CALLS edges.
func BenchmarkAggregateAllCalls(b *testing.B) {
	bi := openBenchIndex(b)
	defer bi.r.Close()
	calls := 0
	for i := range bi.g.Nodes {
		calls += bi.countCalls(memgraph.NodeID(i), false)
	}
	d := runQueries(b, bi.engine, "MATCH (a)-[:CALLS]->(b) RETURN b.name AS name, count(*) AS calls ORDER BY calls DESC LIMIT 10",
		func(int) map[string]any { return nil })
	b.ReportMetric(float64(d[len(d)/2])/1e6/(float64(calls)/1e6), "p50-ms/Medges")
	b.ReportMetric(float64(calls), "calls-edges")
}

// BenchmarkShortestPath: the shortest call path between two callables
// three or four calls apart (200 pairs, in turn: a callable with at
// least three callees and the first node its calls reach at the deepest
// of those levels), found by shortestPath, by allShortestPaths, from the
// other end (mostly no path), and the way it was written before
// shortestPath was supported: every path of up to four calls, ordered by
// length, the first kept.
func BenchmarkShortestPath(b *testing.B) {
	bi := openBenchIndex(b)
	defer bi.r.Close()
	type pair struct{ from, to string }
	var pairs []pair
	for _, n := range bi.sample(2000, func(n memgraph.NodeID) bool {
		return bi.g.Nodes[n].Kind.IsCallable() && bi.countCalls(n, false) >= 3
	}) {
		walk := bi.g.Walk([]memgraph.NodeID{n}, memgraph.WalkOptions{Types: []graph.EdgeType{graph.EdgeCalls}, MaxDepth: 4, Limit: 1 << 20})
		levels := walk.Levels()
		if len(levels) < 3 || len(pairs) == 200 {
			continue
		}
		last := levels[len(levels)-1]
		pairs = append(pairs, pair{bi.g.Nodes[n].ID, bi.g.Nodes[last[0].Node].ID})
	}
	if len(pairs) == 0 {
		b.Skip("no callables three calls apart")
	}
	params := func(i int) map[string]any {
		p := pairs[i%len(pairs)]
		return map[string]any{"a": p.from, "b": p.to}
	}
	b.Run("shortestPath", func(b *testing.B) {
		runQueries(b, bi.engine, "MATCH (a {id: $a}), (b {id: $b}) MATCH p = shortestPath((a)-[:CALLS*]->(b)) RETURN length(p)", params)
	})
	b.Run("allShortestPaths", func(b *testing.B) {
		runQueries(b, bi.engine, "MATCH (a {id: $a}), (b {id: $b}) MATCH p = allShortestPaths((a)-[:CALLS*]->(b)) RETURN length(p)", params)
	})
	b.Run("reversed", func(b *testing.B) {
		runQueries(b, bi.engine, "MATCH (a {id: $b}), (b {id: $a}) MATCH p = shortestPath((a)-[:CALLS*]->(b)) RETURN length(p)", params)
	})
	b.Run("enumerate-order-by-length", func(b *testing.B) {
		runQueries(b, bi.engine, "MATCH (a {id: $a}), (b {id: $b}) MATCH p = (a)-[:CALLS*1..4]->(b) RETURN length(p) ORDER BY length(p) LIMIT 1", params)
	})
}
