package analysis

import (
	"context"
	"math"
	"path"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// QueryOptions bound a search.
type QueryOptions struct {
	Limit          int // symbols in Results
	MaxSymbols     int // symbols listed per process
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

// QueryHit is one symbol of a search's answer.
type QueryHit struct {
	Rank int `json:"rank"`
	QuerySymbol
	// Matched names where the question's words are in the symbol: name,
	// type (the name of the type it belongs to), signature, doc, content,
	// path (its file's); and "test code (ranked lower)" when it is test
	// code the question does not ask about.
	Matched []string `json:"matched"`
}

// QueryGroup is a file the results are in, with its results.
type QueryGroup struct {
	File   string `json:"file"`
	Module string `json:"module"`
	Layer  string `json:"layer,omitempty"` // see LayerOf
	// Score is the file's best result's; Ranks are its results' ranks.
	Score float64 `json:"score"`
	Ranks []int   `json:"ranks"`
}

// QueryFile is a file whose path holds words of the question.
type QueryFile struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
}

// QueryResult is a ranked search answer.
type QueryResult struct {
	Query   string `json:"query"`
	Ranking string `json:"ranking"` // how hits were ranked: "bm25", or "bm25+vector" (fused by reciprocal rank)
	// Results are the symbols found, best first: at most Limit.
	Results []QueryHit `json:"results"`
	// Groups are the files of the results, in the order of their best.
	Groups []QueryGroup `json:"groups"`
	// Files are files whose paths matched, ranked among the symbols.
	Files []QueryFile `json:"files"`
	// Processes are the execution flows the results are steps of, ranked
	// by the sum of their results' scores with a small boost for cohesive
	// communities.
	Processes []QueryProcess `json:"processes"`
	// Total counts the symbols among the ranked candidates (the best
	// max(200, 4×Limit) hits).
	Total int `json:"total_hits"`
	// Truncated: more symbols matched than Results lists.
	Truncated bool   `json:"truncated"`
	Note      string `json:"note,omitempty"`
	// CommonWords are words of the query the full-text search left out:
	// so much of the index holds them that they rank little and cost much.
	CommonWords []string `json:"commonWords,omitempty"`
}

// Query searches the index: BM25 hits, fused with vector search hits when
// the index has embeddings, test code below the rest unless the question
// asks for tests. The answer is the symbols best first; then the files
// they are in, the files whose paths matched, and the execution flows the
// symbols are steps of (query_flows.go).
func Query(ctx context.Context, r *store.Reader, g *memgraph.Graph, text string, opt QueryOptions) (*QueryResult, error) {
	if opt.Limit <= 0 {
		opt.Limit = 10
	}
	if opt.MaxSymbols <= 0 {
		opt.MaxSymbols = 10
	}
	ranked, err := search.Symbols(ctx, r, g, opt.Semantic, text, max(200, opt.Limit*4))
	if err != nil {
		return nil, err
	}
	hits := ranked.Hits
	res := &QueryResult{Query: text, Ranking: ranked.Ranking, Results: []QueryHit{}, Groups: []QueryGroup{},
		Files: []QueryFile{}, Processes: []QueryProcess{}, Note: ranked.Note, CommonWords: r.CommonWords(text)}
	// Fused scores are sums of 1/(60+rank): keep enough digits to tell
	// neighbouring ranks apart.
	precision := 1000.0
	if ranked.Ranking == search.RankingFused {
		precision = 1e6
	}
	words := map[string]bool{}
	for _, w := range search.Words(text) {
		words[w] = true
	}
	tests := search.AsksForTests(text)
	byFile := map[string]int{}
	flows := newProcessRanking(g)
	for _, h := range hits {
		nd := &g.Nodes[h.Node]
		score := math.Round(h.Score*precision) / precision
		if nd.Kind == graph.KindFile {
			if len(res.Files) < opt.Limit {
				res.Files = append(res.Files, QueryFile{Path: nd.FilePath, Score: score})
			}
			continue
		}
		if !nd.Kind.IsSymbol() {
			continue
		}
		res.Total++
		if len(res.Results) == opt.Limit {
			res.Truncated = true
			continue
		}
		qs := QuerySymbol{SymbolInfo: Info(g, h.Node), Score: score}
		content, doc, _ := r.NodeText(ctx, g.Rid(h.Node))
		if opt.IncludeContent {
			qs.Content, qs.Doc = content, doc
		}
		hit := QueryHit{Rank: len(res.Results) + 1, QuerySymbol: qs, Matched: matched(words, nd, content, doc)}
		if !tests && IsTestPath(nd.FilePath) {
			hit.Matched = append(hit.Matched, "test code (ranked lower)")
		}
		res.Results = append(res.Results, hit)
		flows.add(h.Node, qs)
		i, ok := byFile[nd.FilePath]
		if !ok {
			mod, _ := ModuleOf(g, h.Node)
			i = len(res.Groups)
			byFile[nd.FilePath] = i
			res.Groups = append(res.Groups, QueryGroup{File: nd.FilePath, Module: mod, Layer: factsOf(g).fileLayer(h.Node), Score: score})
		}
		res.Groups[i].Ranks = append(res.Groups[i].Ranks, hit.Rank)
	}
	res.Processes, _ = flows.ranked(opt.Limit, opt.MaxSymbols)
	return res, nil
}

// matched lists the fields of a symbol that hold words of the question.
func matched(words map[string]bool, nd *memgraph.Node, content, doc string) []string {
	out := []string{}
	has := func(text string) bool {
		for _, w := range search.Words(text) {
			if words[w] {
				return true
			}
		}
		return false
	}
	owner := ""
	if q := strings.TrimSuffix(nd.QualifiedName, "."+nd.Name); q != nd.QualifiedName && (nd.Kind == graph.KindMethod || nd.Kind == graph.KindConstructor || nd.Kind == graph.KindProperty) {
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			q = q[i+1:]
		}
		owner = q
	}
	for _, f := range []struct{ name, text string }{{"name", nd.Name}, {"type", owner}, {"signature", nd.Signature},
		{"doc", doc}, {"content", content}, {"path", strings.TrimSuffix(nd.FilePath, path.Ext(nd.FilePath))}} {
		if f.text != "" && has(f.text) {
			out = append(out, f.name)
		}
	}
	return out
}
