// Package search ranks the symbols and files of an index for a free-text
// query: BM25 over the full-text index the store keeps (names split on case
// and separators, qualified names, signatures, docs, content, paths).
// Vector search joins it when embeddings exist (a later feature), fused by
// reciprocal rank.
package search

import (
	"cmp"
	"context"
	"slices"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Hit is one ranked node; higher scores are better.
type Hit struct {
	Node  memgraph.NodeID
	Score float64
}

// BM25 returns up to limit nodes of g matching query, best first; nodes
// of equal score come in node order (by id), so that the answer does not
// depend on the rids the store gave them (an index changed in place and
// one written anew number nodes differently). Rows that tie with the last
// one kept are all read before the cut.
func BM25(ctx context.Context, r *store.Reader, g *memgraph.Graph, query string, limit int) ([]Hit, error) {
	if limit <= 0 {
		return nil, nil
	}
	fetch := 2*limit + 1 // room for ties at the cut: one query, nearly always
	var rows []store.SearchHit
	for {
		var err error
		rows, err = r.Search(ctx, query, fetch)
		if err != nil {
			return nil, err
		}
		if len(rows) < fetch || rows[fetch-1].Score != rows[limit-1].Score {
			break
		}
		fetch *= 2
	}
	out := make([]Hit, 0, len(rows))
	for _, row := range rows {
		n, ok := g.NodeOfRid(row.Rid)
		if !ok {
			continue
		}
		out = append(out, Hit{Node: n, Score: row.Score})
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node, b.Node)) })
	return out[:min(limit, len(out))], nil
}
