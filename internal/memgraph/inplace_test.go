package memgraph_test

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestInPlaceWriteEqualsNewFile saves a series of random graphs into one
// index changed in place (store.Save) and writes each into a new file
// (store.Write); the two must read back the same: the in-memory graph
// (nodes in order, edges, communities and processes in order), the text of
// every node, search results with their order, and the stable views. The
// graphs add nodes whose ids sort before the existing ones, remove nodes,
// change their text and the edges' attributes, and rename communities, so
// the in-place index numbers its rows in another order than a new file.
func TestInPlaceWriteEqualsNewFile(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(7))
	inc, full := t.TempDir(), t.TempDir()
	live := map[int]bool{}
	for i := 20; i < 40; i++ {
		live[i] = true
	}
	meta := store.Meta{Writer: "test"}
	version := map[int]int{}
	for step := 0; step < 12; step++ {
		if step > 0 {
			for k := 0; k < 4; k++ {
				switch i := rng.Intn(60); {
				case live[i]:
					if rng.Intn(2) == 0 {
						delete(live, i)
					} else {
						version[i]++
					}
				default:
					live[i] = true
				}
			}
		}
		g := randomGraph(rng, live, version, step)
		wi, err := store.Save(ctx, inc, g, nil, meta, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if step > 0 && wi.Update == nil {
			t.Fatalf("step %d: written anew: %s", step, wi.Rewritten)
		}
		if _, err := store.Write(ctx, full, randomGraphAgain(g), meta); err != nil {
			t.Fatal(err)
		}
		a, b := readBack(t, inc), readBack(t, full)
		if !reflect.DeepEqual(a, b) {
			for k := range a {
				if !reflect.DeepEqual(a[k], b[k]) {
					t.Fatalf("step %d: %s differ\nin place: %v\nnew file: %v", step, k, a[k], b[k])
				}
			}
		}
	}
}

// randomGraph makes functions f<i> (alive ones) in files by i%5, calls
// between them with attributes that change with step, two communities
// named by step and a process.
func randomGraph(rng *rand.Rand, live map[int]bool, version map[int]int, step int) *graph.Graph {
	g := graph.New()
	var ids []string
	for i := 0; i < 60; i++ {
		if !live[i] {
			continue
		}
		file := fmt.Sprintf("d/m%d.go", i%5)
		g.AddNode(graph.Node{ID: graph.FileID(file), Kind: graph.KindFile, Name: file[2:], QualifiedName: file, FilePath: file, Language: "go"})
		id := graph.SymbolID(graph.KindFunction, file, fmt.Sprintf("f%02d", i))
		name := fmt.Sprintf("f%02d", i)
		if i%7 == 0 {
			name = "twin" // equal names and text: search ties
		}
		body := fmt.Sprintf("func %s() { body %d }", name, version[i])
		if i%7 == 0 {
			body = "func twin() {}"
		}
		g.AddNode(graph.Node{ID: id, Kind: graph.KindFunction, Name: name, QualifiedName: "d." + name, FilePath: file,
			StartLine: i, EndLine: i + 2, Signature: "func " + name + "()", Content: body, Language: "go", Exported: i%2 == 0})
		g.AddEdge(graph.Edge{Src: graph.FileID(file), Dst: id, Type: graph.EdgeDefines, Confidence: 1, Reason: graph.ReasonDeclared})
		ids = append(ids, id)
	}
	for k := 0; k < len(ids)*2; k++ {
		a, b := ids[rng.Intn(len(ids))], ids[rng.Intn(len(ids))]
		conf, reason := 1.0, graph.ReasonImportResolved
		if rng.Intn(3) == 0 {
			conf, reason = 0.5, graph.ReasonNameOnly
		}
		g.AddEdge(graph.Edge{Src: a, Dst: b, Type: graph.EdgeCalls, Confidence: conf, Reason: reason, Line: 1 + rng.Intn(3)})
	}
	// c1 keeps its rid, c2 gets a new one whose id sorts first: rid order
	// is then not node order.
	c1, c2 := "Community:z", fmt.Sprintf("Community:b%d", step%3)
	f := &graph.Flows{}
	for i, c := range []string{c1, c2} {
		g.AddNode(graph.Node{ID: c, Kind: graph.KindCommunity, Name: c[10:], QualifiedName: c[10:]})
		var members []string
		for j, id := range ids {
			if j%2 == i {
				g.AddEdge(graph.Edge{Src: id, Dst: c, Type: graph.EdgeMemberOf, Confidence: 1, Reason: graph.ReasonCommunity})
				members = append(members, id)
			}
		}
		f.Communities = append(f.Communities, graph.CommunityFacts{ID: c, Label: c[10:], Cohesion: 0.5, SymbolCount: len(members), Keywords: []string{"k"}})
	}
	if len(ids) >= 2 {
		p := fmt.Sprintf("Process:p%d", step%4)
		g.AddNode(graph.Node{ID: p, Kind: graph.KindProcess, Name: "p", QualifiedName: "p"})
		steps := []string{ids[0], ids[len(ids)-1]}
		for s, id := range steps {
			g.AddEdge(graph.Edge{Src: id, Dst: p, Type: graph.EdgeStepInProcess, Confidence: 1, Reason: graph.ReasonTrace, Line: s + 1})
		}
		f.Processes = append(f.Processes, graph.ProcessFacts{ID: p, Label: "p", Type: graph.ProcessIntraCommunity, Steps: steps})
	}
	g.SetFlows(f)
	return g
}

// randomGraphAgain copies g (a write sorts a graph's slices in place).
func randomGraphAgain(g *graph.Graph) *graph.Graph {
	c := g.Copy()
	c.SetFlows(g.Flows())
	return c
}

// readBack reads an index the way the tools do.
func readBack(t *testing.T, repo string) map[string]any {
	t.Helper()
	ctx := context.Background()
	r, g := testrepo.Load(t, repo)
	out := map[string]any{}
	var nodes, texts, edges []string
	for n := range g.Nodes {
		nd := g.Nodes[n]
		nodes = append(nodes, fmt.Sprintf("%+v", nd))
		content, doc, err := r.NodeText(ctx, g.Rid(memgraph.NodeID(n)))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, content+"|"+doc)
		for _, e := range g.Out(memgraph.NodeID(n)) {
			edges = append(edges, fmt.Sprintf("%s %s %s %v %s %v", nd.ID, g.Nodes[e.To].ID, e.Type, e.Confidence, g.Reason(e), g.Lines(e)))
		}
	}
	out["nodes"], out["texts"], out["edges"] = nodes, texts, edges
	var comms, procs []string
	for _, c := range g.Communities() {
		comms = append(comms, fmt.Sprintf("%s %s %d", g.Nodes[c.Node].ID, c.Label, c.SymbolCount))
	}
	for _, p := range g.Processes() {
		procs = append(procs, fmt.Sprintf("%s %s %s", g.Nodes[p.Node].ID, g.Nodes[p.Entry].ID, g.Nodes[p.Terminal].ID))
	}
	out["communities"], out["processes"] = comms, procs
	for _, q := range []string{"twin", "f0", "body", "m1"} {
		hits, err := search.BM25(ctx, r, g, q, 3)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, h := range hits {
			s = append(s, fmt.Sprintf("%s %.6f", g.Nodes[h.Node].ID, h.Score))
		}
		out["search "+q] = s
	}
	for _, view := range []string{"nodes", "edges", "communities", "processes", "process_steps", "search_common"} {
		out["view "+view] = testrepo.Rows(t, r.DB(), "SELECT * FROM "+view)
	}
	return out
}
