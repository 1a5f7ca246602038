// Package search ranks the symbols and files of an index for a free-text
// query: BM25 over the full-text index the store keeps (names split on case
// and separators, qualified names, signatures, docs, content, paths).
// Vector search joins it when embeddings exist (a later feature), fused by
// reciprocal rank.
package search

import (
	"context"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Hit is one ranked node; higher scores are better.
type Hit struct {
	Node  memgraph.NodeID
	Score float64
}

// BM25 returns up to limit nodes of g matching query, best first.
func BM25(ctx context.Context, r *store.Reader, g *memgraph.Graph, query string, limit int) ([]Hit, error) {
	rows, err := r.Search(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, 0, len(rows))
	for _, row := range rows {
		n := memgraph.NodeID(row.Rid - 1)
		if row.Rid < 1 || int(n) >= g.Len() {
			continue
		}
		out = append(out, Hit{Node: n, Score: row.Score})
	}
	return out, nil
}
