//go:build sqlite_fts5

package main

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// rankFunc ranks the nodes of one index for a question (text, one
// variant of asked), best first. It
// need not stop at depth callables, nor list callables only: the metrics
// read the first depth callables and pass over the rest.
type rankFunc func(ctx context.Context, asked *question, text string) ([]memgraph.NodeID, error)

// env is what a ranking is built from: one repository's checkout, index
// and graph, and vector search when the index has embeddings and an
// embedder of the same identity is configured (nil otherwise).
type env struct {
	root string
	r    *store.Reader
	g    *memgraph.Graph
	sem  *search.Semantic
	emb  embed.Embedder
}

// ranking is one way of ranking, by name.
type ranking struct {
	name string
	// baseline marks the plain BM25 the others are compared with.
	baseline bool
	// build makes the ranking for one repository; nil, nil when it does
	// not apply there (vector rankings without embeddings).
	build func(ctx context.Context, e *env) (rankFunc, error)
}

// rankings is the list every repository is measured with, in the order
// of the tables. Add a ranking by appending here.
var rankings = []ranking{
	{name: "BM25 (plain baseline)", baseline: true, build: buildBaseline},
	{name: "query", build: buildQuery}, // text evidence alone: no History
	{name: "search.BM25", build: buildSearchBM25},
	{name: "query + history", build: buildQueryHistory}, // reads history: history_evidence.go,
	{name: "vector", build: buildVector},
	{name: "search.BM25 + vector, RRF k=60", build: buildFused},
}

func buildBaseline(ctx context.Context, e *env) (rankFunc, error) {
	x, err := baselineIndex(e.root, e.g)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, _ *question, q string) ([]memgraph.NodeID, error) {
		return x.search(tokens(q), 4*depth), nil
	}, nil
}

// buildQuery ranks as the product's query tool does: analysis.Query, its
// answer flattened into one list (queryRanked). Limit 2 × depth results:
// the tool puts test code after the rest, so that depth callables remain
// in most answers with tests dropped; MaxSymbols (per process) does not
// bear on the ranking.
func buildQuery(ctx context.Context, e *env) (rankFunc, error) {
	return func(ctx context.Context, _ *question, q string) ([]memgraph.NodeID, error) {
		res, err := analysis.Query(ctx, e.r, e.g, q, analysis.QueryOptions{Limit: 2 * depth, MaxSymbols: depth, Semantic: e.sem})
		if err != nil {
			return nil, err
		}
		return queryRanked(res, e.g.Lookup)
	}, nil
}

// buildSearchBM25 is the index's full-text ranking as it is
// (search.BM25 over FTS5), read to 4 × depth nodes so that depth
// callables remain when types, files and tests are passed over.
func buildSearchBM25(ctx context.Context, e *env) (rankFunc, error) {
	return func(ctx context.Context, _ *question, q string) ([]memgraph.NodeID, error) {
		hits, err := search.BM25(ctx, e.r, e.g, q, 4*depth)
		return hitNodes(hits), err
	}, nil
}

func buildVector(ctx context.Context, e *env) (rankFunc, error) {
	if !e.sem.Ready() {
		return nil, nil
	}
	return func(ctx context.Context, _ *question, q string) ([]memgraph.NodeID, error) {
		v, err := e.emb.Embed(ctx, []string{q})
		if err != nil {
			return nil, err
		}
		return hitNodes(e.sem.Vectors.SearchSymbols(v[0], 4*depth)), nil
	}, nil
}

func buildFused(ctx context.Context, e *env) (rankFunc, error) {
	if !e.sem.Ready() {
		return nil, nil
	}
	return func(ctx context.Context, _ *question, q string) ([]memgraph.NodeID, error) {
		ranked, err := search.Symbols(ctx, e.r, e.g, e.sem, q, 4*depth)
		return hitNodes(ranked.Hits), err
	}, nil
}

func hitNodes(hits []search.Hit) []memgraph.NodeID {
	out := make([]memgraph.NodeID, len(hits))
	for i, h := range hits {
		out[i] = h.Node
	}
	return out
}

// queryRanked flattens the answer of analysis.Query into one ranked
// list. Since 557bd58 the answer begins with a flat list of symbols, best
// first (Results, whose elements carry a UID, directly or in a
// SymbolInfo): the list is it. An answer without that field (the one
// before: symbols grouped by file, and definitions) is flattened by
// sorting the symbols of every group and the definitions by score,
// stably, so that equal (rounded) scores keep the answer's order. The
// fields are read by reflection so that the bench compiles, and measures
// the same thing, on either side of that change.
func queryRanked(res any, lookup func(uid string) (memgraph.NodeID, bool)) ([]memgraph.NodeID, error) {
	v := reflect.Indirect(reflect.ValueOf(res))
	if results := v.FieldByName("Results"); results.IsValid() {
		out := make([]memgraph.NodeID, 0, results.Len())
		for i := range results.Len() {
			n, err := uidNode(lookup, results.Index(i))
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
		return out, nil
	}
	type scoredNode struct {
		node  memgraph.NodeID
		score float64
	}
	var all []scoredNode
	collect := func(list reflect.Value) error {
		if !list.IsValid() || list.Kind() != reflect.Slice {
			return fmt.Errorf("query: an answer of type %s has neither Results nor Groups with Symbols and Definitions", v.Type())
		}
		for i := range list.Len() {
			el := list.Index(i)
			n, err := uidNode(lookup, el)
			if err != nil {
				return err
			}
			all = append(all, scoredNode{n, el.FieldByName("Score").Float()})
		}
		return nil
	}
	groups := v.FieldByName("Groups")
	if !groups.IsValid() || groups.Kind() != reflect.Slice {
		return nil, fmt.Errorf("query: an answer of type %s has neither Results nor Groups", v.Type())
	}
	for i := range groups.Len() {
		if err := collect(groups.Index(i).FieldByName("Symbols")); err != nil {
			return nil, err
		}
	}
	if err := collect(v.FieldByName("Definitions")); err != nil {
		return nil, err
	}
	slices.SortStableFunc(all, func(a, b scoredNode) int { return cmp.Compare(b.score, a.score) })
	out := make([]memgraph.NodeID, len(all))
	for i, s := range all {
		out[i] = s.node
	}
	return out, nil
}

// uidNode finds the node a result element names by its UID field (its
// own or its SymbolInfo's).
func uidNode(lookup func(uid string) (memgraph.NodeID, bool), el reflect.Value) (memgraph.NodeID, error) {
	if el.Kind() == reflect.Pointer {
		el = el.Elem()
	}
	f := el.FieldByName("UID") // its own, or promoted from an embedded SymbolInfo
	if info := el.FieldByName("SymbolInfo"); !f.IsValid() && info.IsValid() {
		f = reflect.Indirect(info).FieldByName("UID")
	}
	if !f.IsValid() || f.Kind() != reflect.String {
		return 0, fmt.Errorf("query: a result of type %s has no UID", el.Type())
	}
	n, ok := lookup(f.String())
	if !ok {
		return 0, fmt.Errorf("query: result %q is not a node of the graph", f.String())
	}
	return n, nil
}
