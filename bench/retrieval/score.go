//go:build sqlite_fts5

package main

import (
	"context"
	"log"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// depth is how many hits each ranking is read to (MRR counts a first
// answer below it as 0).
const depth = 200

type scored struct {
	name        string
	recall, mrr float64
	hitAt10     int
}

// score ranks every query three ways (BM25 alone when e or vs is nil)
// and averages recall@10 and the reciprocal rank of the first answer.
// Only functions, methods and constructors count as ranks, in every
// ranking.
func score(ctx context.Context, r *store.Reader, g *memgraph.Graph, vs *search.Vectors, e embed.Embedder, qs []query) []scored {
	out := []scored{{name: "BM25"}}
	if e != nil && vs != nil {
		out = append(out, scored{name: "vector (" + e.Identity() + ")"}, scored{name: "BM25 + vector, RRF k=60"})
	}
	for _, q := range qs {
		bm25, err := search.BM25(ctx, r, g, q.text, depth)
		if err != nil {
			log.Fatalf("BM25 %q: %v", q.text, err)
		}
		rankings := [][]search.Hit{bm25}
		if len(out) > 1 {
			v, err := e.Embed(ctx, []string{q.text})
			if err != nil {
				log.Fatal(err)
			}
			vec := vs.SearchSymbols(v[0], depth)
			rankings = append(rankings, vec, search.Fuse(depth, bm25, vec))
		}
		for i, hits := range rankings {
			rec, rr := metrics(g, hits, q.answers)
			out[i].recall += rec
			out[i].mrr += rr
			if rec > 0 {
				out[i].hitAt10++
			}
		}
	}
	for i := range out {
		out[i].recall /= float64(len(qs))
		out[i].mrr /= float64(len(qs))
	}
	return out
}

// metrics are the share of answers among the first 10 callables of hits,
// and 1/rank of the first answer.
func metrics(g *memgraph.Graph, hits []search.Hit, answers map[memgraph.NodeID]bool) (recall, rr float64) {
	rank, found := 0, 0
	for _, h := range hits {
		if !g.Nodes[h.Node].Kind.IsCallable() {
			continue
		}
		rank++
		if answers[h.Node] {
			if rr == 0 {
				rr = 1 / float64(rank)
			}
			if rank <= 10 {
				found++
			}
		}
	}
	return float64(found) / float64(len(answers)), rr
}
