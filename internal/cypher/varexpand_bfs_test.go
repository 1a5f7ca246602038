package cypher

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestDistinctEndsMatchPaths checks the breadth-first expansion against
// the enumeration of every trail: on a random graph with cycles and
// self-loops, from every node, for every bound and direction, DISTINCT
// ends and count(DISTINCT) agree, and so do EXISTS predicates.
func TestDistinctEndsMatchPaths(t *testing.T) {
	const n = 40
	rng := rand.New(rand.NewSource(7))
	g := graph.New()
	for i := 0; i < n; i++ {
		kind := graph.KindFunction
		if i%5 == 0 {
			kind = graph.KindMethod
		}
		g.AddNode(graph.Node{ID: fmt.Sprintf("%s:r.go:f%02d", kind, i), Kind: kind, Name: fmt.Sprintf("f%02d", i), FilePath: "r.go"})
	}
	nodes := g.Nodes()
	for k := 0; k < 110; k++ {
		a, b := nodes[rng.Intn(n)].ID, nodes[rng.Intn(n)].ID
		if k%17 == 0 {
			b = a // self-loops
		}
		typ := graph.EdgeCalls
		if k%9 == 0 {
			typ = graph.EdgeReferences
		}
		g.AddEdge(graph.Edge{Src: a, Dst: b, Type: typ, Confidence: 0.9, Reason: graph.ReasonSameFile})
	}
	dir := t.TempDir()
	if _, err := store.Write(context.Background(), dir, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	_, mg := testrepo.Load(t, dir)
	e := New(mg, nil)
	run := func(q string, params map[string]any, allPaths bool) ([]string, string) {
		enumerateAllPaths = allPaths
		defer func() { enumerateAllPaths = false }()
		res, err := e.Query(context.Background(), q, Options{Params: params, MaxRows: 100000})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var out []string
		for _, row := range res.Rows {
			out = append(out, res.Format(row[0]))
		}
		slices.Sort(out)
		return out, res.Plan
	}
	checked := 0
	for _, bounds := range []string{"*0..1", "*0..3", "*1..1", "*1..2", "*..3", "*1..4", "*"} {
		for _, arrow := range [][2]string{{"-", "->"}, {"<-", "-"}} {
			for _, target := range []string{"(b)", "(b:Method)"} {
				pattern := "(a {id: $id})" + arrow[0] + "[:CALLS" + bounds + "]" + arrow[1] + target
				for _, q := range []string{
					"MATCH " + pattern + " RETURN DISTINCT b.id",
					"MATCH " + pattern + " RETURN count(DISTINCT b) AS n, min(b.id) AS lo",
					"MATCH (a {id: $id}), (b) WHERE EXISTS { " + pattern + " } RETURN b.id",
				} {
					for _, nd := range mg.Nodes {
						p := map[string]any{"id": nd.ID}
						fast, plan := run(q, p, false)
						slow, slowPlan := run(q, p, true)
						if !strings.Contains(plan, "(each end once)") || strings.Contains(slowPlan, "(each end once)") {
							t.Fatalf("%s: the plans do not compare the two expansions:\n%s\n%s", q, plan, slowPlan)
						}
						if !slices.Equal(fast, slow) {
							t.Fatalf("%s from %s:\nbreadth first %v\nall paths     %v\n%s", q, nd.ID, fast, slow, plan)
						}
						checked++
					}
				}
			}
		}
	}
	t.Logf("%d queries agree", checked)
}
