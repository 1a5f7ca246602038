package graph

import (
	"cmp"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestAddEdgeMerges checks how repeated (src, dst, type) edges merge: the
// best confidence and its reason win, and every site line is kept.
func TestAddEdgeMerges(t *testing.T) {
	type add struct {
		conf   float64
		reason Reason
		line   int
	}
	cases := []struct {
		name       string
		adds       []add
		wantConf   float64
		wantReason Reason
		wantLine   int
		wantMore   []int
	}{
		{"one site", []add{{0.95, ReasonSameFile, 12}}, 0.95, ReasonSameFile, 12, nil},
		{"sites in order", []add{{0.95, ReasonSameFile, 3}, {0.95, ReasonSameFile, 5}, {0.95, ReasonSameFile, 9}}, 0.95, ReasonSameFile, 3, []int{5, 9}},
		{"sites out of order, repeated", []add{{0.9, ReasonSameFile, 9}, {0.9, ReasonSameFile, 3}, {0.9, ReasonSameFile, 9}, {0.9, ReasonSameFile, 5}}, 0.9, ReasonSameFile, 3, []int{5, 9}},
		{"better confidence later keeps earlier sites", []add{{0.3, ReasonNameOnly, 4}, {0.95, ReasonImportResolved, 8}}, 0.95, ReasonImportResolved, 4, []int{8}},
		{"worse confidence later adds its site only", []add{{0.95, ReasonImportResolved, 8}, {0.3, ReasonNameOnly, 2}}, 0.95, ReasonImportResolved, 2, []int{8}},
		{"no site then a site", []add{{1, ReasonSyntax, 0}, {1, ReasonSyntax, 7}}, 1, ReasonSyntax, 7, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := New()
			g.AddNode(Node{ID: "Function:a.go:f", Kind: KindFunction, Name: "f"})
			g.AddNode(Node{ID: "Function:a.go:g", Kind: KindFunction, Name: "g"})
			for _, a := range c.adds {
				g.AddEdge(Edge{Src: "Function:a.go:f", Dst: "Function:a.go:g", Type: EdgeCalls, Confidence: a.conf, Reason: a.reason, Line: a.line})
			}
			es := g.Edges()
			if len(es) != 1 {
				t.Fatalf("%d edges, want 1", len(es))
			}
			e := es[0]
			if e.Confidence != c.wantConf || e.Reason != c.wantReason || e.Line != c.wantLine || !reflect.DeepEqual(e.More, c.wantMore) {
				t.Errorf("edge = %v %s line %d more %v, want %v %s line %d more %v",
					e.Confidence, e.Reason, e.Line, e.More, c.wantConf, c.wantReason, c.wantLine, c.wantMore)
			}
		})
	}
}

// TestSortedOrder: Nodes and Edges come in id order and (src, type, dst)
// order whatever order they were added in, with edges to missing nodes
// dropped, also when more are added after a first call.
func TestSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	g := New()
	add := func(nodes, edges int) {
		for i := 0; i < nodes; i++ {
			g.AddNode(Node{ID: fmt.Sprintf("Function:f%d.go:n%d", rng.Intn(40), rng.Intn(1000))})
		}
		for i := 0; i < edges; i++ {
			g.AddEdge(Edge{Src: fmt.Sprintf("Function:f%d.go:n%d", rng.Intn(40), rng.Intn(1000)),
				Dst: fmt.Sprintf("Function:f%d.go:n%d", rng.Intn(40), rng.Intn(1000)), Type: EdgeType(1 + rng.Intn(3))})
		}
	}
	for round := 0; round < 3; round++ {
		add(3000, 20000)
		// Before the sort, a node is where it was added (after the sorted
		// ones), and Node finds it there.
		for i, n := range g.nodes {
			if p, ok := g.Position(n.ID); !ok || p != i {
				t.Fatalf("round %d, unsorted: %s at %d, Position says %d", round, n.ID, i, p)
			}
			if got, _ := g.Node(n.ID); got.ID != n.ID {
				t.Fatalf("round %d, unsorted: Node(%s) is %s", round, n.ID, got.ID)
			}
		}
		nodes := g.Nodes()
		if !slices.IsSortedFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) }) {
			t.Fatalf("round %d: nodes out of order", round)
		}
		for i, n := range nodes {
			if p, ok := g.Position(n.ID); !ok || p != i {
				t.Fatalf("round %d: %s at %d, Position says %d", round, n.ID, i, p)
			}
			if got, _ := g.Node(n.ID); got.ID != n.ID {
				t.Fatalf("round %d: Node(%s) is %s", round, n.ID, got.ID)
			}
		}
		edges := g.Edges()
		if len(edges) == 0 {
			t.Fatal("no edge kept")
		}
		if !slices.IsSortedFunc(edges, func(a, b Edge) int {
			return cmp.Or(strings.Compare(a.Src, b.Src), cmp.Compare(a.Type, b.Type), strings.Compare(a.Dst, b.Dst))
		}) {
			t.Fatalf("round %d: edges out of order", round)
		}
		for _, e := range edges {
			if !g.HasNode(e.Src) || !g.HasNode(e.Dst) {
				t.Fatalf("round %d: edge to a missing node kept", round)
			}
		}
		// Merging into an edge after the sort finds it.
		e := edges[len(edges)/2]
		g.AddEdge(Edge{Src: e.Src, Dst: e.Dst, Type: e.Type, Line: 99999})
		if got := g.Edges(); len(got) != len(edges) {
			t.Fatalf("round %d: a merged edge was added again", round)
		}
	}
}

// TestAddNewEdge: an edge appended without a lookup is found by a later
// AddEdge of the same relationship, whether the index existed or was left
// to be rebuilt.
func TestAddNewEdge(t *testing.T) {
	for _, sortFirst := range []bool{false, true} {
		g := New()
		for _, id := range []string{"a", "b", "c"} {
			g.AddNode(Node{ID: id})
		}
		g.AddEdge(Edge{Src: "a", Dst: "b", Type: EdgeCalls, Line: 1})
		if sortFirst {
			g.Edges()
		}
		g.AddNewEdge(Edge{Src: "b", Dst: "c", Type: EdgeMemberOf, Confidence: 1, Line: 4})
		g.AddEdge(Edge{Src: "b", Dst: "c", Type: EdgeMemberOf, Confidence: 1, Line: 2})
		es := g.Edges()
		if len(es) != 2 || es[1].Src != "b" || es[1].Line != 2 || !reflect.DeepEqual(es[1].More, []int{4}) {
			t.Errorf("sorted first %v: %+v", sortFirst, es)
		}
	}
}

// TestEdgeEnds: the ends of each edge are its source's and destination's
// positions in Nodes, after a sort, after nodes came without edges, and
// after edges came.
func TestEdgeEnds(t *testing.T) {
	g := New()
	check := func(when string) {
		t.Helper()
		nodes, edges, ends := g.Nodes(), g.Edges(), g.EdgeEnds()
		if len(ends) != len(edges) {
			t.Fatalf("%s: %d ends for %d edges", when, len(ends), len(edges))
		}
		for i, e := range edges {
			if nodes[ends[i][0]].ID != e.Src || nodes[ends[i][1]].ID != e.Dst {
				t.Errorf("%s: edge %s -> %s has ends %v", when, e.Src, e.Dst, ends[i])
			}
		}
	}
	for _, id := range []string{"m", "c", "x"} {
		g.AddNode(Node{ID: id})
	}
	g.AddEdge(Edge{Src: "x", Dst: "c", Type: EdgeCalls})
	g.AddEdge(Edge{Src: "c", Dst: "m", Type: EdgeCalls})
	check("sorted")
	g.AddNode(Node{ID: "a"}) // every position moves
	g.AddNode(Node{ID: "d"})
	check("nodes added")
	g.AddNewEdge(Edge{Src: "a", Dst: "x", Type: EdgeCalls})
	g.AddEdge(Edge{Src: "d", Dst: "c", Type: EdgeCalls})
	check("edges added")
}

// TestSortInRounds adds nodes and edges in rounds, sorting after each, as
// the pipeline does (code, then communities and processes, then history):
// each round's Nodes, Edges and EdgeEnds must be those of a graph given
// everything at once and sorted once. Some edges name a node that is not
// there at the sort (dropped for good), some a node that comes later.
func TestSortInRounds(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	g := New()
	var nodes []Node
	var edges []Edge
	types := []EdgeType{EdgeCalls, EdgeContains, EdgeImports}
	kept := 0
	for round := range 8 {
		for range 1 + rng.Intn(40) {
			n := Node{ID: fmt.Sprintf("n%03d", rng.Intn(120))}
			if g.AddNode(n) {
				nodes = append(nodes, n)
			}
		}
		for range 60 + rng.Intn(80) {
			e := Edge{Src: fmt.Sprintf("n%03d", rng.Intn(120)), Dst: fmt.Sprintf("n%03d", rng.Intn(120)),
				Type: types[rng.Intn(len(types))], Line: 1}
			if rng.Intn(2) == 0 {
				g.AddEdge(e)
			} else if !slices.ContainsFunc(edges, func(o Edge) bool { return o.Src == e.Src && o.Dst == e.Dst && o.Type == e.Type }) {
				g.AddNewEdge(e)
			} else {
				continue
			}
			if !slices.ContainsFunc(edges, func(o Edge) bool { return o.Src == e.Src && o.Dst == e.Dst && o.Type == e.Type }) {
				edges = append(edges, e)
			}
		}
		once := New()
		for _, n := range nodes {
			once.AddNode(n)
		}
		edges = slices.DeleteFunc(edges, func(e Edge) bool { return !once.HasNode(e.Src) || !once.HasNode(e.Dst) })
		for _, e := range edges {
			once.AddEdge(e)
		}
		// Alternate which is asked first: a node sort between two edge
		// sorts must move the ends along.
		if round%2 == 0 {
			g.Nodes()
		}
		ge, ends := g.Edges(), g.EdgeEnds()
		same := func(a, b any, n int) bool { return n == 0 || reflect.DeepEqual(a, b) }
		if !reflect.DeepEqual(g.Nodes(), once.Nodes()) {
			t.Fatalf("round %d: nodes differ from a sort of all at once", round)
		}
		if len(ge) != len(once.Edges()) || !same(ge, once.Edges(), len(ge)) {
			t.Fatalf("round %d: edges differ from a sort of all at once:\n got %v\nwant %v", round, ge, once.Edges())
		}
		if len(ends) != len(ge) || !same(ends, once.EdgeEnds(), len(ends)) {
			t.Fatalf("round %d: edge ends differ from a sort of all at once", round)
		}
		kept += len(ge)
	}
	if kept < 100 {
		t.Errorf("only %d edges kept over the rounds: the test hardly tests", kept)
	}
}

// TestCopy: a copy has the same nodes and edges (site lines included) and
// no flows, and adding to it leaves the original as it was.
func TestCopy(t *testing.T) {
	g := New()
	g.AddNode(Node{ID: "a"})
	g.AddNode(Node{ID: "b"})
	g.AddEdge(Edge{Src: "a", Dst: "b", Type: EdgeCalls, Confidence: 0.9, Line: 3, More: []int{7, 5}})
	g.SetFlows(&Flows{})
	c := g.Copy()
	if !reflect.DeepEqual(c.Nodes(), g.Nodes()) || !reflect.DeepEqual(c.Edges(), g.Edges()) || c.Flows() != nil {
		t.Fatalf("copy: nodes %v edges %v flows %v", c.Nodes(), c.Edges(), c.Flows())
	}
	c.AddNode(Node{ID: "c"})
	c.AddEdge(Edge{Src: "a", Dst: "b", Type: EdgeCalls, Line: 9})
	if len(g.Nodes()) != 2 || !reflect.DeepEqual(g.Edges()[0].More, []int{5, 7}) {
		t.Errorf("the original changed: %v %v", g.Nodes(), g.Edges())
	}
}

// TestSortLarge sorts graphs large enough for the sorts and the edges'
// lookups to run on two cores (parallelMin), twice (the second merges
// what came since), against a plain sort of the same ids and keys.
func TestSortLarge(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	g := New()
	ids := map[string]bool{}
	type key struct {
		src string
		t   EdgeType
		dst string
	}
	keys := map[key]bool{}
	types := []EdgeType{EdgeCalls, EdgeDefines, EdgeReferences}
	for round := range 2 {
		for range 3 * parallelMin / 2 {
			id := fmt.Sprintf("n%07d", rng.Intn(1<<22))
			g.AddNode(Node{ID: id})
			ids[id] = true
		}
		for range 4 * parallelMin {
			// One edge in eight names a node that is not there: dropped.
			k := key{fmt.Sprintf("n%07d", rng.Intn(1<<22)), types[rng.Intn(len(types))], fmt.Sprintf("n%07d", rng.Intn(1<<22))}
			if rng.Intn(8) > 0 {
				k.src = g.nodes[rng.Intn(len(g.nodes))].ID
				k.dst = g.nodes[rng.Intn(len(g.nodes))].ID
			}
			g.AddEdge(Edge{Src: k.src, Dst: k.dst, Type: k.t})
			if ids[k.src] && ids[k.dst] {
				keys[key{k.src, k.t, k.dst}] = true
			}
		}
		wantIDs := slices.Sorted(func(yield func(string) bool) {
			for id := range ids {
				if !yield(id) {
					return
				}
			}
		})
		var gotIDs []string
		for _, n := range g.Nodes() {
			gotIDs = append(gotIDs, n.ID)
		}
		if !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("round %d: %d nodes, not in id order (%d ids)", round, len(gotIDs), len(wantIDs))
		}
		at := map[string]int{}
		for i, id := range wantIDs {
			at[id] = i
		}
		var want []key
		for k := range keys {
			want = append(want, k)
		}
		slices.SortFunc(want, func(a, b key) int {
			return cmp.Or(cmp.Compare(at[a.src], at[b.src]), cmp.Compare(a.t, b.t), cmp.Compare(at[a.dst], at[b.dst]))
		})
		edges, ends := g.Edges(), g.EdgeEnds()
		if len(edges) != len(want) || len(ends) != len(want) {
			t.Fatalf("round %d: %d edges and %d ends, want %d", round, len(edges), len(ends), len(want))
		}
		for i, e := range edges {
			if (key{e.Src, e.Type, e.Dst}) != want[i] || ends[i] != [2]int32{int32(at[e.Src]), int32(at[e.Dst])} {
				t.Fatalf("round %d: edge %d is %s %s %s at %v, want %v", round, i, e.Src, e.Type, e.Dst, ends[i], want[i])
			}
		}
	}
}

// BenchmarkFirstSort sorts a graph the size of the Go standard library's
// code part (230,000 nodes, 870,000 edges) for the first time, as the
// pipeline does after resolution.
func BenchmarkFirstSort(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	const n = 230_000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("Function:pkg%04d/file.go:F%07d", rng.Intn(2000), i)
	}
	edges := make([]Edge, 870_000)
	for i := range edges {
		edges[i] = Edge{Src: ids[rng.Intn(n)], Dst: ids[rng.Intn(n)], Type: EdgeType(1 + rng.Intn(4))}
	}
	for b.Loop() {
		b.StopTimer()
		g := NewSized(n, len(edges), len(edges))
		for _, id := range ids {
			g.AddNode(Node{ID: id})
		}
		for _, e := range edges {
			g.AddNewEdge(e)
		}
		b.StartTimer()
		g.Nodes()
		g.Edges()
	}
}

func TestParseNamesRoundTrip(t *testing.T) {
	for _, k := range AllKinds() {
		if got := ParseKind(k.String()); got != k {
			t.Errorf("ParseKind(%q) = %v", k.String(), got)
		}
	}
	for _, e := range AllEdgeTypes() {
		if got := ParseEdgeType(e.String()); got != e {
			t.Errorf("ParseEdgeType(%q) = %v", e.String(), got)
		}
	}
	for _, s := range []string{"", "calls", "Function ", "NOPE"} {
		if ParseKind(s) != KindInvalid || ParseEdgeType(s) != EdgeInvalid {
			t.Errorf("%q parses as a kind or an edge type", s)
		}
	}
	if len(AllKinds()) < 10 || len(AllEdgeTypes()) < 16 {
		t.Errorf("%d kinds and %d edge types", len(AllKinds()), len(AllEdgeTypes()))
	}
}

// TestPermuteMerged: a permutation that merges an ordered prefix with the
// rest reorders as permute does, and so does any other (the fallback).
func TestPermuteMerged(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for round := range 200 {
		n := rng.Intn(40)
		p := 0
		if n > 0 {
			p = rng.Intn(n + 1)
		}
		// Merge positions: the prefix in order, the rest shuffled, then
		// interleaved at random; one round in four any permutation.
		rest := rng.Perm(n - p)
		perm := make([]int32, 0, n)
		i, j := 0, 0
		for i < p || j < len(rest) {
			if j == len(rest) || i < p && rng.Intn(2) == 0 {
				perm = append(perm, int32(i))
				i++
			} else {
				perm = append(perm, int32(p+rest[j]))
				j++
			}
		}
		if round%4 == 0 {
			for k, v := range rng.Perm(n) {
				perm[k] = int32(v)
			}
		}
		want := make([]string, n)
		for k := range want {
			want[k] = fmt.Sprint("e", perm[k])
		}
		got := make([]string, n)
		for k := range got {
			got[k] = fmt.Sprint("e", k)
		}
		permuteMerged(got, slices.Clone(perm), p)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (n %d, p %d, perm %v): %v, want %v", round, n, p, perm, got, want)
		}
		// The same merge seen from the other end: the elements from
		// n-p on keep their order (reversing both ends of the perm).
		rev := make([]int32, n)
		for k := range perm {
			rev[n-1-k] = int32(n-1) - perm[k]
		}
		for k := range want {
			want[k] = fmt.Sprint("e", rev[k])
			got[k] = fmt.Sprint("e", k)
		}
		permuteMergedSuffix(got, slices.Clone(rev), n-p)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, suffix (n %d, q %d, perm %v): %v, want %v", round, n, n-p, rev, got, want)
		}
	}
}

// TestAppendNewEdgesAt: edges appended with their ends' positions sort
// as the same edges appended to be looked up do, in order or not, with
// ends that are not in the graph, with nodes added before the sort, and
// after a sort already gave the graph a sorted prefix.
func TestAppendNewEdgesAt(t *testing.T) {
	tests := []struct {
		name                           string
		nodes, copied                  int
		shuffle, missing, late, prefix bool
	}{
		{"in order", 300, 900, false, false, false, false},
		{"out of order", 300, 900, true, false, false, false},
		{"ends not in the graph", 300, 900, false, true, false, false},
		{"nodes added before the sort", 300, 900, false, false, true, false},
		{"after a sorted prefix", 300, 900, false, true, true, true},
		{"large, split sorts", 20_000, 3 * parallelMin, false, true, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(tc.nodes + tc.copied)))
			lookedUp, placed := New(), New()
			both := func(f func(g *Graph)) { f(lookedUp); f(placed) }
			ids := make([]string, tc.nodes)
			for i := range ids {
				ids[i] = fmt.Sprintf("n%06d", rng.Intn(1<<20))
			}
			both(func(g *Graph) {
				for _, id := range ids {
					g.AddNode(Node{ID: id})
				}
			})
			resolved := func() {
				r := rand.New(rand.NewSource(7))
				both(func(g *Graph) {
					*r = *rand.New(rand.NewSource(7))
					for range tc.nodes {
						g.AddEdge(Edge{Src: ids[r.Intn(len(ids))], Dst: ids[r.Intn(len(ids))], Type: EdgeCalls})
					}
				})
			}
			resolved()
			if tc.prefix {
				both(func(g *Graph) { g.Edges() })
				both(func(g *Graph) {
					g.AddEdge(Edge{Src: ids[0], Dst: ids[1], Type: EdgeDefines})
				})
			}
			nodes := placed.Nodes()
			lookedUp.Nodes()
			// The copied edges: REFERENCES, which nothing else adds, with
			// distinct ends, in the graph's order unless shuffled.
			type pair struct{ src, dst int32 }
			seen := map[pair]bool{}
			var ps []pair
			for len(ps) < tc.copied {
				p := pair{int32(rng.Intn(len(nodes))), int32(rng.Intn(len(nodes)))}
				if !seen[p] {
					seen[p] = true
					ps = append(ps, p)
				}
			}
			slices.SortFunc(ps, func(a, b pair) int { return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.dst, b.dst)) })
			if tc.shuffle {
				rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
			}
			var es []Edge
			var ends [][2]int32
			for i, p := range ps {
				e := Edge{Src: nodes[p.src].ID, Dst: nodes[p.dst].ID, Type: EdgeReferences, Line: i + 1}
				end := [2]int32{p.src, p.dst}
				if tc.missing && i%50 == 7 {
					e.Dst, end[1] = "zz-missing", -1
				}
				es = append(es, e)
				ends = append(ends, end)
			}
			lookedUp.AppendNewEdges(slices.Clone(es))
			placed.AppendNewEdgesAt(es, ends)
			if tc.late {
				var late []string
				for i := range 40 {
					late = append(late, fmt.Sprintf("n%06d-late%d", rng.Intn(1<<20), i))
				}
				both(func(g *Graph) {
					for _, id := range late {
						g.AddNode(Node{ID: id})
					}
				})
			}
			want, wantEnds := lookedUp.Edges(), lookedUp.EdgeEnds()
			got, gotEnds := placed.Edges(), placed.EdgeEnds()
			if len(got) != len(want) {
				t.Fatalf("%d edges, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i].Src != want[i].Src || got[i].Dst != want[i].Dst || got[i].Type != want[i].Type ||
					got[i].Line != want[i].Line || gotEnds[i] != wantEnds[i] {
					t.Fatalf("edge %d: %v at %v, want %v at %v", i, got[i], gotEnds[i], want[i], wantEnds[i])
				}
			}
			gn := placed.Nodes()
			for i, e := range got {
				if gn[gotEnds[i][0]].ID != e.Src || gn[gotEnds[i][1]].ID != e.Dst {
					t.Fatalf("edge %d: its ends are not its nodes", i)
				}
			}
		})
	}
}
