package search

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/vector"
)

// Vectors are an index's embeddings loaded for search: the symbols' and
// the commits' vectors, and the symbols' HNSW when the index stored one.
type Vectors struct {
	Meta store.EmbeddingMeta

	symbols     *vector.Set
	symbolNodes []memgraph.NodeID
	ann         *vector.HNSW
	commits     *vector.Set
	commitNodes []memgraph.NodeID
}

// LoadVectors reads the embeddings of the index r (whose graph is g); nil
// when it has none.
func LoadVectors(ctx context.Context, r *store.Reader, g *memgraph.Graph) (*Vectors, error) {
	em := r.Meta().Embeddings
	if em == nil {
		return nil, nil
	}
	v := &Vectors{Meta: *em, symbols: vector.NewSet(em.Dimensions), commits: vector.NewSet(em.Dimensions)}
	// The HNSW links the symbols' vectors in node order, which is rid
	// order only in an index written as a new file: one changed in place
	// gives new nodes higher rids.
	type stored struct {
		node   memgraph.NodeID
		commit bool
		codes  []int8
		scale  float32
	}
	var all []stored
	err := r.ScanVectors(ctx, func(sv *store.StoredVector) error {
		n, ok := g.NodeOfRid(sv.Rid)
		if !ok {
			return fmt.Errorf("read embeddings: a vector for node %d, which the graph does not have", sv.Rid)
		}
		all = append(all, stored{n, sv.Commit, sv.Codes, sv.Scale})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b stored) int { return cmp.Compare(a.node, b.node) })
	for _, sv := range all {
		set, nodes := v.symbols, &v.symbolNodes
		if sv.commit {
			set, nodes = v.commits, &v.commitNodes
		}
		*nodes = append(*nodes, sv.node)
		if err := set.Add(sv.codes, sv.scale); err != nil {
			return nil, err
		}
	}
	b, err := r.VectorIndex(ctx, store.SymbolVectorIndex)
	if err != nil {
		return nil, err
	}
	if b != nil {
		if v.ann, err = vector.DecodeHNSW(b, v.symbols.Len()); err != nil {
			return nil, fmt.Errorf("%w: run `gitnexus analyze --force`", err)
		}
	}
	return v, nil
}

// SymbolSet is the symbols' vectors in node order (what the HNSW links).
func (v *Vectors) SymbolSet() *vector.Set { return v.symbols }

// Symbols is the number of symbol vectors.
func (v *Vectors) Symbols() int { return v.symbols.Len() }

// Approximate reports whether symbol search goes through the HNSW.
func (v *Vectors) Approximate() bool { return v.ann != nil }

// SearchSymbols returns the k symbols whose vectors are most similar to
// the unit vector q, best first: through the HNSW when the index has one,
// else by an exact scan. Scores are cosine similarities.
func (v *Vectors) SearchSymbols(q []float32, k int) []Hit {
	var ms []vector.Match
	if v.ann != nil {
		ms = v.ann.Search(v.symbols, q, k, max(vector.DefaultEf, k))
	} else {
		ms = v.symbols.Exact(q, k, nil)
	}
	return hitsOf(ms, v.symbolNodes)
}

// SearchSymbolsExact is SearchSymbols by an exact scan whatever the
// index holds (to measure the HNSW's recall).
func (v *Vectors) SearchSymbolsExact(q []float32, k int) []Hit {
	return hitsOf(v.symbols.Exact(q, k, nil), v.symbolNodes)
}

// SearchCommits returns the k commits most similar to q, best first.
func (v *Vectors) SearchCommits(q []float32, k int) []Hit {
	return hitsOf(v.commits.Exact(q, k, nil), v.commitNodes)
}

func hitsOf(ms []vector.Match, nodes []memgraph.NodeID) []Hit {
	out := make([]Hit, len(ms))
	for i, m := range ms {
		out[i] = Hit{Node: nodes[m.Index], Score: float64(m.Score)}
	}
	return out
}
