package analysis

import (
	"context"
	"math"
	"sort"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// QueryOptions bound a search.
type QueryOptions struct {
	Limit          int // groups
	MaxSymbols     int // symbols per group
	IncludeContent bool
	// Semantic adds vector search, fused with BM25; nil or not ready ranks
	// by BM25 alone.
	Semantic *search.Semantic
}

// QuerySymbol is a symbol a search found.
type QuerySymbol struct {
	SymbolInfo
	Score float64 `json:"score"`
}

// QueryGroup gathers the hits of one file.
type QueryGroup struct {
	File    string        `json:"file"`
	Module  string        `json:"module"`
	Score   float64       `json:"score"`
	Symbols []QuerySymbol `json:"symbols"`
}

// QueryResult is a ranked search answer.
type QueryResult struct {
	Query       string        `json:"query"`
	Ranking     string        `json:"ranking"` // how hits were ranked: "bm25", or "bm25+vector" (fused by reciprocal rank)
	Groups      []QueryGroup  `json:"groups"`
	Definitions []QuerySymbol `json:"definitions"` // types, constants and files found outside any group
	// Processes are the execution flows the hits are steps of, ranked by
	// the sum of their hits' scores with a small boost for cohesive
	// communities.
	Processes []QueryProcess `json:"processes"`
	Total     int            `json:"total_hits"`
	Truncated bool           `json:"truncated"`
	Note      string         `json:"note,omitempty"`
	// CommonWords are words of the query the full-text search left out:
	// so much of the index holds them that they rank little and cost much.
	CommonWords []string `json:"commonWords,omitempty"`
}

// Query searches the index: BM25 hits, fused with vector search hits when
// the index has embeddings, are grouped by file, callables forming the
// groups and other hits (types, constants, files) listed as definitions.
// Groups are ordered by their best hit. Hits that are steps of execution
// flows also group by process (query_flows.go).
func Query(ctx context.Context, r *store.Reader, g *memgraph.Graph, text string, opt QueryOptions) (*QueryResult, error) {
	if opt.Limit <= 0 {
		opt.Limit = 5
	}
	if opt.MaxSymbols <= 0 {
		opt.MaxSymbols = 10
	}
	ranked, err := search.Symbols(ctx, r, g, opt.Semantic, text, max(200, opt.Limit*opt.MaxSymbols*4))
	if err != nil {
		return nil, err
	}
	hits := ranked.Hits
	res := &QueryResult{Query: text, Ranking: ranked.Ranking, Groups: []QueryGroup{}, Definitions: []QuerySymbol{},
		Processes: []QueryProcess{}, Total: len(hits), Note: ranked.Note, CommonWords: r.CommonWords(text)}
	// Fused scores are sums of 1/(60+rank): keep enough digits to tell
	// neighbouring ranks apart.
	precision := 1000.0
	if ranked.Ranking == search.RankingFused {
		precision = 1e6
	}
	byFile := map[string]*QueryGroup{}
	var order []string
	flows := newProcessRanking(g)
	for _, h := range hits {
		nd := &g.Nodes[h.Node]
		qs := QuerySymbol{SymbolInfo: Info(g, h.Node), Score: math.Round(h.Score*precision) / precision}
		flows.add(h.Node, qs)
		if opt.IncludeContent && nd.Kind.IsSymbol() {
			if c, d, err := r.NodeText(ctx, g.Rid(h.Node)); err == nil {
				qs.Content, qs.Doc = c, d
			}
		}
		if !nd.Kind.IsCallable() {
			if len(res.Definitions) < opt.MaxSymbols*2 {
				res.Definitions = append(res.Definitions, qs)
			} else {
				res.Truncated = true
			}
			continue
		}
		grp := byFile[nd.FilePath]
		if grp == nil {
			mod, _ := ModuleOf(g, h.Node)
			grp = &QueryGroup{File: nd.FilePath, Module: mod, Score: qs.Score}
			byFile[nd.FilePath] = grp
			order = append(order, nd.FilePath)
		}
		if len(grp.Symbols) < opt.MaxSymbols {
			grp.Symbols = append(grp.Symbols, qs)
		} else {
			res.Truncated = true
		}
	}
	for _, f := range order {
		res.Groups = append(res.Groups, *byFile[f])
	}
	sort.SliceStable(res.Groups, func(i, j int) bool { return res.Groups[i].Score > res.Groups[j].Score })
	if len(res.Groups) > opt.Limit {
		res.Groups, res.Truncated = res.Groups[:opt.Limit], true
	}
	var cut bool
	res.Processes, cut = flows.ranked(opt.Limit, opt.MaxSymbols)
	res.Truncated = res.Truncated || cut
	return res, nil
}
