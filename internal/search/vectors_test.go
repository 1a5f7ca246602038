package search

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
	"gitnexus.dev/gitnexus/internal/vector"
)

// TestVectorsInPlace searches an index whose vectors and nearest-neighbour
// graph were changed in place: new nodes (whose ids sort first, so every
// symbol's place in node order moves) get rids above the others, and the
// graph, built over the vectors in node order, must still lead each
// symbol's own vector to that symbol.
func TestVectorsInPlace(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	const dims = 16
	rng := rand.New(rand.NewSource(3))
	vecs := map[string][]float32{}
	save := func(ids []string) *store.WriteResult {
		t.Helper()
		g := graph.New()
		g.AddNode(graph.Node{ID: "File:f.go", Kind: graph.KindFile, Name: "f.go", FilePath: "f.go"})
		v := &store.Vectors{Meta: store.EmbeddingMeta{Provider: "test", Identity: "test:random", Dimensions: dims, Search: "hnsw"}}
		set := vector.NewSet(dims)
		for _, id := range ids {
			g.AddNode(graph.Node{ID: id, Kind: graph.KindFunction, Name: id[len(id)-3:], FilePath: "f.go"})
		}
		for _, n := range g.Nodes() { // node order
			if n.Kind != graph.KindFunction {
				continue
			}
			if vecs[n.ID] == nil {
				f := make([]float32, dims)
				for i := range f {
					f[i] = float32(rng.NormFloat64())
				}
				vecs[n.ID] = f
			}
			codes, scale := vector.Quantize(vecs[n.ID])
			v.Items = append(v.Items, store.VectorItem{NodeID: n.ID, Hash: []byte(n.ID), Codes: codes, Scale: scale})
			if err := set.Add(codes, scale); err != nil {
				t.Fatal(err)
			}
		}
		h, err := vector.BuildHNSW(ctx, set, vector.DefaultM, vector.DefaultEfConstruction)
		if err != nil {
			t.Fatal(err)
		}
		if v.Index, err = h.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		res, err := store.Save(ctx, repo, g, v, store.Meta{Writer: "w"}, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var ids []string
	for i := 1000; i < 4000; i++ {
		ids = append(ids, fmt.Sprintf("Function:f.go:f%d", i))
	}
	save(ids)
	for i := 100; i < 110; i++ {
		ids = append(ids, fmt.Sprintf("Function:f.go:f0%d", i))
	}
	if res := save(ids[5:]); res.Update == nil || res.Update.VectorsWritten != 10 || res.Update.VectorsRemoved != 5 {
		t.Fatalf("the second save was not in place, or changed other vectors: %+v, %q", res.Update, res.Rewritten)
	}
	r, g := testrepo.Load(t, repo)
	v, err := LoadVectors(ctx, r, g)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Approximate() || v.Symbols() != len(ids)-5 {
		t.Fatalf("approximate %v, %d symbols", v.Approximate(), v.Symbols())
	}
	misses := 0
	for _, id := range ids[5:] {
		var norm float64
		for _, x := range vecs[id] {
			norm += float64(x) * float64(x)
		}
		q := make([]float32, dims)
		for i, x := range vecs[id] {
			q[i] = float32(float64(x) / math.Sqrt(norm))
		}
		hits := v.SearchSymbols(q, 1)
		if len(hits) != 1 || g.Nodes[hits[0].Node].ID != id {
			got := ""
			if len(hits) > 0 {
				got = g.Nodes[hits[0].Node].ID
			}
			if misses++; misses <= 5 {
				t.Errorf("the vector of %s finds %s", id, got)
			}
		}
	}
	if misses > 0 {
		t.Errorf("%d of %d vectors do not find their own symbol", misses, len(ids)-5)
	}
}
