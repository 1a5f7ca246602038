package cypher

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// randomCallGraph writes a random graph of n functions and m edges (two
// edge types, confidences, cycles, self-loops and parallel edges of
// different types) to a store and loads it.
func randomCallGraph(t *testing.T, seed int64, n, m int) (*memgraph.Graph, *Engine) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	g := graph.New()
	for i := 0; i < n; i++ {
		g.AddNode(graph.Node{ID: fmt.Sprintf("Function:r.go:f%02d", i), Kind: graph.KindFunction, Name: fmt.Sprintf("f%02d", i), FilePath: "r.go",
			StartLine: i + 1})
	}
	nodes := g.Nodes()
	reasons := []graph.Reason{graph.ReasonSameFile, graph.ReasonDispatch, graph.ReasonNameOnly}
	for k := 0; k < m; k++ {
		a, b := nodes[rng.Intn(n)].ID, nodes[rng.Intn(n)].ID
		if k%23 == 0 {
			b = a
		}
		typ := graph.EdgeCalls
		if k%5 == 0 {
			typ = graph.EdgeReferences
		}
		r := reasons[rng.Intn(len(reasons))]
		g.AddEdge(graph.Edge{Src: a, Dst: b, Type: typ, Confidence: r.Confidence(), Reason: r})
	}
	dir := t.TempDir()
	if _, err := store.Write(context.Background(), dir, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	_, mg := testrepo.Load(t, dir)
	return mg, New(mg, nil)
}

// TestShortestPathsMatchEnumeration checks the search against its
// definition on random graphs: allShortestPaths returns exactly the
// trails of the smallest length among those the same pattern without the
// function matches (with the same WHERE), each once; shortestPath
// returns the first of them. Patterns cover both directions and neither,
// type alternatives, bounds, predicates checked during the search and
// predicates on whole paths.
func TestShortestPathsMatchEnumeration(t *testing.T) {
	mg, e := randomCallGraph(t, 11, 24, 60)
	run := func(q string, params map[string]any) []string {
		res, err := e.Query(context.Background(), q, Options{Params: params, MaxRows: 1_000_000, Timeout: time.Minute})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var out []string
		for _, row := range res.Rows {
			out = append(out, res.Format(row[0]))
		}
		return out
	}
	patterns := []string{
		"(a)-[:CALLS*..4]->(b)",
		"(a)<-[:CALLS*1..3]-(b)",
		"(a)-[:CALLS*0..3]-(b)",
		"(a)-[:CALLS|REFERENCES*..4]->(b)",
		"(a)-[:CALLS]->(b)",
		"(a)-[*..3]-(b)",
	}
	wheres := []string{
		"",
		"WHERE all(r IN relationships(p) WHERE r.confidence > 0.5)",
		"WHERE none(n IN nodes(p) WHERE n.name IN ['f03', 'f07', 'f11'])",
		"WHERE length(p) >= 2",
		"WHERE any(n IN nodes(p) WHERE n.startLine % 3 = 0)",
		"WHERE all(r IN relationships(p) WHERE r.reason <> 'dispatch') AND size([n IN nodes(p) WHERE n.startLine > 12]) <= 1",
	}
	checked, nonEmpty, several := 0, 0, 0
	for _, pat := range patterns {
		for _, where := range wheres {
			all := "MATCH (a {id: $a}), (b {id: $b}) MATCH p = allShortestPaths(" + pat + ") " + where + " RETURN p"
			one := strings.Replace(all, "allShortestPaths", "shortestPath", 1)
			every := "MATCH (a {id: $a}), (b {id: $b}) MATCH p = " + pat + " " + where + " RETURN p"
			for i := 0; i < mg.Len(); i += 2 {
				for j := 1; j < mg.Len(); j += 3 {
					params := map[string]any{"a": mg.Nodes[i].ID, "b": mg.Nodes[j].ID}
					want := shortestOf(run(every, params), i == j)
					got := run(all, params)
					if !slices.Equal(sorted(got), want) {
						t.Fatalf("%s\nfrom %s to %s:\ngot  %v\nwant %v", all, params["a"], params["b"], got, want)
					}
					first := run(one, params)
					if len(got) == 0 && len(first) != 0 || len(got) > 0 && (len(first) != 1 || first[0] != got[0]) {
						t.Fatalf("%s\nfrom %s to %s: %v, not the first of %v", one, params["a"], params["b"], first, got)
					}
					checked++
					if len(want) > 0 {
						nonEmpty++
					}
					if len(want) > 1 {
						several++
					}
				}
			}
		}
	}
	t.Logf("%d pairs agree, %d with paths, %d with several shortest paths", checked, nonEmpty, several)
	if nonEmpty < checked/4 || several < checked/20 {
		t.Errorf("only %d of %d pairs have paths, %d several: the graph does not test much", nonEmpty, checked, several)
	}
}

// shortestOf keeps the paths of the smallest length (a path prints one
// "]-" per relationship), sorted. Between equal ends only the path of
// length zero counts.
func shortestOf(paths []string, sameEnds bool) []string {
	best := -1
	var out []string
	for _, p := range paths {
		n := strings.Count(p, "]-")
		if n > 0 && sameEnds {
			continue
		}
		switch {
		case best < 0 || n < best:
			best, out = n, []string{p}
		case n == best:
			out = append(out, p)
		}
	}
	return sorted(out)
}

func sorted(l []string) []string {
	l = slices.Clone(l)
	slices.Sort(l)
	return l
}

// layeredGraph has layers of width functions, each calling every
// function of the next layer: width^(layers-1) paths lead from a
// function of the first layer to one of the last, all of the same length.
func layeredGraph(t *testing.T, layers, width int) *Engine {
	t.Helper()
	g := graph.New()
	id := func(l, i int) string { return fmt.Sprintf("Function:l.go:l%02d_%02d", l, i) }
	for l := 0; l < layers; l++ {
		for i := 0; i < width; i++ {
			g.AddNode(graph.Node{ID: id(l, i), Kind: graph.KindFunction, Name: fmt.Sprintf("l%02d_%02d", l, i), FilePath: "l.go"})
		}
	}
	for l := 0; l+1 < layers; l++ {
		for i := 0; i < width; i++ {
			for j := 0; j < width; j++ {
				g.AddEdge(graph.Edge{Src: id(l, i), Dst: id(l+1, j), Type: graph.EdgeCalls, Confidence: 0.95, Reason: graph.ReasonSameFile})
			}
		}
	}
	dir := t.TempDir()
	if _, err := store.Write(context.Background(), dir, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	_, mg := testrepo.Load(t, dir)
	return New(mg, nil)
}

// TestShortestPathDoesNotEnumeratePaths: between the ends of a graph of
// eight to the tenth (a billion) paths, shortestPath answers from a few
// thousand steps, allShortestPaths streams its paths until the row limit,
// and a predicate on whole paths that no shortest path satisfies is
// decided by enumerating only the shortest paths (each a step from its
// end) and then the longer ones, under the time limit.
func TestShortestPathDoesNotEnumeratePaths(t *testing.T) {
	e := layeredGraph(t, 11, 8)
	for _, tc := range []struct {
		query string
		rows  int
		err   error
	}{
		{"MATCH p = shortestPath((a {name: 'l00_00'})-[:CALLS*]->(b {name: 'l10_07'})) RETURN [n IN nodes(p) | n.name] AS route", 1, nil},
		{"MATCH p = allShortestPaths((a {name: 'l00_00'})-[:CALLS*]->(b {name: 'l10_07'})) RETURN length(p)", 1000, nil},
		{"MATCH p = shortestPath((a {name: 'l00_00'})-[:CALLS*]-(b {name: 'l10_07'})) WHERE all(r IN relationships(p) WHERE r.line = 0) RETURN length(p)", 1, nil},
		{"MATCH p = shortestPath((a {name: 'l00_00'})-[:CALLS*]->(b {name: 'l10_07'})) WHERE nodes(p)[1].name = 'nowhere' RETURN p", 0, ErrTimeLimit},
	} {
		start := time.Now()
		res, err := e.Query(context.Background(), tc.query, Options{MaxRows: 1000, Timeout: 300 * time.Millisecond})
		elapsed := time.Since(start)
		if !errors.Is(err, tc.err) || tc.err == nil && err != nil {
			t.Errorf("%s: err = %v, want %v", tc.query, err, tc.err)
			continue
		}
		if err == nil && len(res.Rows) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.query, len(res.Rows), tc.rows)
		}
		if elapsed > 2*time.Second {
			t.Errorf("%s: took %s", tc.query, elapsed)
		}
		t.Logf("%s: %v in %s", tc.query, err, elapsed.Round(time.Microsecond))
	}
}

// TestShortestPathHoldsMemory: the nodes a search reaches count against
// the memory budget while the search runs, and are given back after it.
func TestShortestPathHoldsMemory(t *testing.T) {
	e := layeredGraph(t, 11, 8)
	q := "MATCH p = shortestPath((a {name: 'l00_00'})-[:CALLS*]-(b {name: 'l10_07'})) WHERE length(p) > 10 RETURN p"
	_, err := e.Query(context.Background(), q, Options{MaxMemory: 2 << 10})
	if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "(in shortestPath(...))") {
		t.Errorf("with a 2 KiB budget: err = %v, want the memory limit in shortestPath(...)", err)
	}
	// Each of 88 pairs reaches every node, one after the other: the
	// budget holds one search at a time.
	q = "MATCH (a {name: 'l00_00'}), (b) MATCH p = shortestPath((a)-[:CALLS*]-(b)) RETURN count(p)"
	res, err := e.Query(context.Background(), q, Options{MaxMemory: 16 << 10})
	if err != nil {
		t.Fatalf("with a 16 KiB budget: %v", err)
	}
	if n := res.Rows[0][0].Int(); n != 87 {
		t.Errorf("%d paths, want 87", n)
	}
}
