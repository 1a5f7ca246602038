package community

import (
	"math"
	"math/rand"
	"reflect"
	"testing"
	"time"
)

// clique returns the edges of a clique over nodes [from, from+k).
func clique(from, k int) []Edge {
	var out []Edge
	for i := from; i < from+k; i++ {
		for j := i + 1; j < from+k; j++ {
			out = append(out, Edge{int32(i), int32(j), 1})
		}
	}
	return out
}

// samePartition reports whether two partitions group the nodes the same
// way, whatever the ids.
func samePartition(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int32]int32{}, map[int32]int32{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

func TestDetect(t *testing.T) {
	ringOfCliques := func(cliques, k int) ([]Edge, []int32) {
		var edges []Edge
		var want []int32
		for c := 0; c < cliques; c++ {
			edges = append(edges, clique(c*k, k)...)
			edges = append(edges, Edge{int32(c * k), int32(((c + 1) % cliques) * k), 1})
			for i := 0; i < k; i++ {
				want = append(want, int32(c))
			}
		}
		return edges, want
	}
	ring, ringWant := ringOfCliques(12, 5)
	cases := []struct {
		name  string
		n     int
		edges []Edge
		want  []int32
	}{
		{"two triangles and a bridge", 6, append(append(clique(0, 3), clique(3, 3)...), Edge{2, 3, 1}), []int32{0, 0, 0, 1, 1, 1}},
		{"ring of cliques", 60, ring, ringWant},
		{"components are never merged", 7, append(clique(0, 3), clique(3, 3)...), []int32{0, 0, 0, 1, 1, 1, 2}},
		{"no edges: singletons", 3, nil, []int32{0, 1, 2}},
		{"parallel edges merge", 4, []Edge{{0, 1, 1}, {1, 0, 1}, {0, 1, 1}, {2, 3, 1}, {1, 2, 0.1}}, []int32{0, 0, 1, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGraph(c.n, c.edges)
			res := Detect(g, Options{Seed: 1})
			if !samePartition(res.Community, c.want) {
				t.Errorf("partition %v, want %v (Q=%.4f)", res.Community, c.want, res.Modularity)
			}
			if q := Modularity(g, res.Community, 1); math.Abs(q-res.Modularity) > 1e-9 {
				t.Errorf("reported modularity %v, recomputed %v", res.Modularity, q)
			}
		})
	}
}

func TestModularityValue(t *testing.T) {
	g := NewGraph(6, append(append(clique(0, 3), clique(3, 3)...), Edge{2, 3, 1}))
	// m = 7; each side: 3 internal edges, degree 7.
	want := 2 * (3.0/7 - 0.25)
	if q := Modularity(g, []int32{0, 0, 0, 1, 1, 1}, 1); math.Abs(q-want) > 1e-12 {
		t.Errorf("modularity %v, want %v", q, want)
	}
	coh := Cohesion(g, []int32{0, 0, 0, 1, 1, 1}, 2)
	if math.Abs(coh[0]-6.0/7) > 1e-12 || math.Abs(coh[1]-6.0/7) > 1e-12 {
		t.Errorf("cohesion %v, want 6/7 each", coh)
	}
}

// plantedPartition draws groups of size k with dense inside and sparse
// outside edges.
func plantedPartition(groups, k int, pIn, pOut float64, seed int64) ([]Edge, []int32) {
	rng := rand.New(rand.NewSource(seed))
	n := groups * k
	var edges []Edge
	want := make([]int32, n)
	for i := 0; i < n; i++ {
		want[i] = int32(i / k)
		for j := i + 1; j < n; j++ {
			p := pOut
			if i/k == j/k {
				p = pIn
			}
			if rng.Float64() < p {
				edges = append(edges, Edge{int32(i), int32(j), 1 + rng.Float64()})
			}
		}
	}
	return edges, want
}

func TestPlantedPartitionAndDeterminism(t *testing.T) {
	edges, want := plantedPartition(10, 30, 0.4, 0.005, 7)
	g := NewGraph(300, edges)
	a := Detect(g, Options{Seed: 42})
	if !samePartition(a.Community, want) {
		t.Errorf("planted partition not found: %d communities, Q=%.4f", a.Count, a.Modularity)
	}
	b := Detect(g, Options{Seed: 42})
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with the same seed differ")
	}
	for c, members := range groupsOf(a.Community) {
		if !connected(g, members) {
			t.Errorf("community %d is not connected", c)
		}
	}
}

func groupsOf(part []int32) map[int32][]int32 {
	out := map[int32][]int32{}
	for i, c := range part {
		out[c] = append(out[c], int32(i))
	}
	return out
}

func connected(g *Graph, members []int32) bool {
	in := map[int32]bool{}
	for _, m := range members {
		in[m] = true
	}
	seen := map[int32]bool{members[0]: true}
	stack := []int32{members[0]}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k := g.off[i]; k < g.off[i+1]; k++ {
			if j := g.adj[k]; in[j] && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return len(seen) == len(members)
}

func TestBudget(t *testing.T) {
	edges, _ := plantedPartition(40, 50, 0.2, 0.002, 3)
	g := NewGraph(2000, edges)
	res := Detect(g, Options{Seed: 1, Budget: time.Nanosecond})
	if !res.Stopped {
		t.Error("a 1 ns budget did not stop the run")
	}
	if res.Count <= 1 || len(res.Community) != 2000 {
		t.Errorf("partition after the budget: %d communities over %d nodes", res.Count, len(res.Community))
	}
}

func FuzzDetect(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 0, 3, 4}, int64(1))
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		n := 12
		var edges []Edge
		for i := 0; i+1 < len(data); i += 2 {
			edges = append(edges, Edge{int32(data[i]) % int32(n), int32(data[i+1]) % int32(n), float64(data[i]%3) + 0.5})
		}
		g := NewGraph(n, edges)
		res := Detect(g, Options{Seed: seed})
		if len(res.Community) != n || res.Count < 1 || res.Count > n {
			t.Fatalf("bad partition %v", res)
		}
		for c, members := range groupsOf(res.Community) {
			if !connected(g, members) && len(members) > 1 {
				t.Fatalf("community %d %v is not connected", c, members)
			}
		}
		if q := Modularity(g, res.Community, 1); q < Modularity(g, identity(n), 1)-1e-9 {
			t.Fatalf("modularity %v below the singletons' %v", q, Modularity(g, identity(n), 1))
		}
	})
}
