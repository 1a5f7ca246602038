package search

import (
	"context"
	"fmt"
	"sync"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Rankings say how hits were ranked.
const (
	RankingBM25  = "bm25"
	RankingFused = "bm25+vector"
)

// Semantic is what vector search needs for one index: its vectors and an
// embedder of the same identity for the query. When either is missing,
// Unavailable says why and search ranks by BM25 alone.
type Semantic struct {
	Vectors     *Vectors
	Embedder    embed.Embedder
	Unavailable string
}

// Ready reports whether vector search can run.
func (s *Semantic) Ready() bool { return s != nil && s.Vectors != nil && s.Embedder != nil }

// Ranked is a ranked answer and how it was ranked.
type Ranked struct {
	Hits    []Hit
	Ranking string // RankingBM25 or RankingFused
	// Note says what ranked the hits, and why vector search did not run
	// when it did not.
	Note string
}

// Symbols ranks the symbols and files of the index for query: BM25 and,
// when sem is ready, vector search over the symbols at the same time,
// fused by reciprocal rank; test code then ranks below the rest unless
// the question asks for tests (DemoteTests), and hits gain from the hits
// they call, are called by or share a file with (Propagate). A failure of the vector side
// (the embedding endpoint is down) degrades to BM25 and says so.
func Symbols(ctx context.Context, r *store.Reader, g *memgraph.Graph, sem *Semantic, query string, limit int) (Ranked, error) {
	res, err := hybrid(ctx, sem, query,
		func() ([]Hit, error) { return BM25(ctx, r, g, query, limit) },
		func(q []float32) []Hit { return sem.Vectors.SearchSymbols(q, limit) },
		limit, "names, signatures, docs, content and paths")
	res.Hits = Propagate(g, DemoteTests(g, query, res.Hits))
	return res, err
}

// Commits ranks commits the same way; bm25 is the commits' BM25 ranking.
func Commits(ctx context.Context, sem *Semantic, query string, limit int, bm25 func() []Hit) (Ranked, error) {
	return hybrid(ctx, sem, query,
		func() ([]Hit, error) { return bm25(), nil },
		func(q []float32) []Hit { return sem.Vectors.SearchCommits(q, limit) },
		limit, "commit messages and the names of the symbols they changed")
}

func hybrid(ctx context.Context, sem *Semantic, query string, lexical func() ([]Hit, error),
	semantic func(q []float32) []Hit, limit int, over string) (Ranked, error) {
	bm25Note := "ranked by BM25 alone over " + over + ": "
	if !sem.Ready() {
		why := "vector search is not configured"
		if sem != nil && sem.Unavailable != "" {
			why = sem.Unavailable
		}
		hits, err := lexical()
		return Ranked{Hits: hits, Ranking: RankingBM25, Note: bm25Note + why}, err
	}
	var (
		wg      sync.WaitGroup
		vecHits []Hit
		vecErr  error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		q, err := sem.Embedder.Embed(ctx, []string{query})
		if err != nil {
			vecErr = err
			return
		}
		vecHits = semantic(q[0])
	}()
	hits, err := lexical()
	wg.Wait()
	if err != nil {
		return Ranked{}, err
	}
	if vecErr != nil {
		if ctx.Err() != nil {
			return Ranked{}, ctx.Err()
		}
		return Ranked{Hits: hits, Ranking: RankingBM25, Note: bm25Note + "embedding the query failed: " + vecErr.Error()}, nil
	}
	search := "exact"
	if sem.Vectors.Approximate() {
		search = "HNSW"
	}
	note := fmt.Sprintf("BM25 over %s and vector search (%s, %s) fused by reciprocal rank (k=%d)",
		over, sem.Vectors.Meta.Identity, search, RRFK)
	return Ranked{Hits: Fuse(limit, hits, vecHits), Ranking: RankingFused, Note: note}, nil
}
