package memgraph

import (
	"context"
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// TestFlowsRoundTrip writes a graph with a community and a process and
// reads them back through the store: properties, membership and steps.
func TestFlowsRoundTrip(t *testing.T) {
	g := graph.New()
	for _, n := range []string{"a", "b", "c"} {
		g.AddNode(graph.Node{ID: "Function:x.go:" + n, Kind: graph.KindFunction, Name: n, FilePath: "x.go"})
	}
	g.AddNode(graph.Node{ID: "Community:x", Kind: graph.KindCommunity, Name: "x", QualifiedName: "x"})
	g.AddNode(graph.Node{ID: "Process:p", Kind: graph.KindProcess, Name: "a → c", QualifiedName: "a → c"})
	for _, n := range []string{"a", "b"} {
		g.AddEdge(graph.Edge{Src: "Function:x.go:" + n, Dst: "Community:x", Type: graph.EdgeMemberOf, Confidence: 1, Reason: graph.ReasonCommunity})
	}
	// Steps added out of order: the step is the edge's line.
	for i, n := range []string{"c", "a", "b"} {
		step := []int{3, 1, 2}[i]
		g.AddEdge(graph.Edge{Src: "Function:x.go:" + n, Dst: "Process:p", Type: graph.EdgeStepInProcess, Confidence: 0.9,
			Reason: graph.ReasonTrace, Line: step})
	}
	g.SetFlows(&graph.Flows{
		Communities: []graph.CommunityFacts{{ID: "Community:x", Label: "x", Cohesion: 0.75, SymbolCount: 2, Keywords: []string{"alpha", "beta"}}},
		Processes: []graph.ProcessFacts{{ID: "Process:p", Label: "a → c", Type: graph.ProcessIntraCommunity,
			Steps: []string{"Function:x.go:a", "Function:x.go:b", "Function:x.go:c"}}},
	})
	repo := t.TempDir()
	if _, err := store.Write(context.Background(), repo, g, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The views outside tools read.
	var label, entry, terminal string
	var steps int
	if err := r.DB().QueryRow(`SELECT label, step_count, entry_id, terminal_id FROM processes`).Scan(&label, &steps, &entry, &terminal); err != nil ||
		label != "a → c" || steps != 3 || entry != "Function:x.go:a" || terminal != "Function:x.go:c" {
		t.Errorf("processes view: %q %d %q %q %v", label, steps, entry, terminal, err)
	}
	var ordered string
	if err := r.DB().QueryRow(`SELECT group_concat(symbol_id, ' ') FROM (SELECT symbol_id FROM process_steps ORDER BY step)`).Scan(&ordered); err != nil ||
		ordered != "Function:x.go:a Function:x.go:b Function:x.go:c" {
		t.Errorf("process_steps view: %q %v", ordered, err)
	}
	var kw string
	if err := r.DB().QueryRow(`SELECT keywords FROM communities WHERE id = 'Community:x'`).Scan(&kw); err != nil || kw != "alpha beta" {
		t.Errorf("communities view: %q %v", kw, err)
	}
	for _, load := range []func(context.Context, *store.Reader) (*Graph, error){Load, loadTables} {
		lg, err := load(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		id := func(s string) NodeID {
			n, ok := lg.Lookup(s)
			if !ok {
				t.Fatalf("no node %s", s)
			}
			return n
		}
		c, ok := lg.CommunityInfo(id("Community:x"))
		if !ok || c.Label != "x" || c.Cohesion != 0.75 || c.SymbolCount != 2 || !reflect.DeepEqual(c.Keywords, []string{"alpha", "beta"}) {
			t.Errorf("community = %+v, %v", c, ok)
		}
		p, ok := lg.ProcessInfo(id("Process:p"))
		if !ok || p.Label != "a → c" || p.Type != graph.ProcessIntraCommunity || p.StepCount != 3 ||
			p.Entry != id("Function:x.go:a") || p.Terminal != id("Function:x.go:c") || p.Rank != 1 {
			t.Errorf("process = %+v, %v", p, ok)
		}
		if got, want := lg.Steps(id("Process:p")), []NodeID{id("Function:x.go:a"), id("Function:x.go:b"), id("Function:x.go:c")}; !reflect.DeepEqual(got, want) {
			t.Errorf("steps = %v, want %v", got, want)
		}
		if got := lg.ProcessesOf(id("Function:x.go:b")); !reflect.DeepEqual(got, []ProcessStep{{Process: id("Process:p"), Step: 2}}) {
			t.Errorf("processes of b = %v", got)
		}
		if cm, ok := lg.CommunityOf(id("Function:x.go:a")); !ok || cm != id("Community:x") {
			t.Errorf("community of a = %v, %v", cm, ok)
		}
		if _, ok := lg.CommunityOf(id("Function:x.go:c")); ok {
			t.Error("c has a community")
		}
		if len(lg.Communities()) != 1 || len(lg.Processes()) != 1 {
			t.Errorf("%d communities, %d processes", len(lg.Communities()), len(lg.Processes()))
		}
	}
}
