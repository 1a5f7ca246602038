//go:build sqlite_fts5

package main

// The product's query with the history's evidence (analysis.QueryHistory)
// under the leak rule: for each question, the commit search behind the
// evidence indexes only the commits older than the question's commit.
//
// That is exactly what the index as of the question's parent holds, with
// no replay: a commit's record (its message and the symbols it changed)
// depends on that commit alone, so the older commits' records are those
// an index built at the parent would have, and the question's own commit
// and the later ones are in neither the documents nor the terms'
// statistics. The records link an old change to the symbol at HEAD, which
// every ranking knows anyway: the answers are symbols at HEAD.

import (
	"context"
	"fmt"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
)

// buildQueryHistory ranks as the query tool does on an index with
// history, the history cut at each question's commit.
func buildQueryHistory(ctx context.Context, e *env) (rankFunc, error) {
	h := e.g.HistoryRecords()
	if h == nil || len(h.Commits) == 0 {
		return nil, nil
	}
	x := analysis.NewHistoryIndex(h, e.g)
	docs := x.CommitDocs()
	return func(ctx context.Context, asked *question, text string) ([]memgraph.NodeID, error) {
		at := x.CommitIndex(asked.hash)
		if at < 0 {
			return nil, fmt.Errorf("question %.12s is not a commit of the history", asked.hash)
		}
		first := at + 1 // commits are newest first: the older ones follow
		opt := analysis.QueryOptions{Limit: 2 * depth, MaxSymbols: depth, Semantic: e.sem,
			History: &analysis.QueryHistory{X: x, Commits: search.NewCorpus(docs[first:]), First: first}}
		res, err := analysis.Query(ctx, e.r, e.g, text, opt)
		if err != nil {
			return nil, err
		}
		return queryRanked(res, e.g.Lookup)
	}, nil
}
