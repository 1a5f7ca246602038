package analysis

import (
	"cmp"
	"context"
	"math"
	"path"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// RankingHistory is added to a query's ranking ("bm25+history") when the
// history's evidence was fused in (QueryHistory).
const RankingHistory = "+history"

// QueryOptions bound a search.
type QueryOptions struct {
	Limit          int // symbols in Results
	MaxSymbols     int // symbols listed per process
	IncludeContent bool
	// Semantic adds vector search, fused with BM25; nil or not ready ranks
	// by BM25 alone.
	Semantic *search.Semantic
	// History adds the history's evidence (QueryHistory); nil for none.
	History *QueryHistory
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

// QueryHistory is what query reads of the git history: the commits whose
// message and changed symbols' names best match the question vote for the
// symbols they changed, and those votes re-rank the text ranking's
// symbols by reciprocal rank (k = 60), weighing HistoryWeight against its
// 1. Commits is a search.Corpus of the CommitTerms of X's
// commits from First on, in order (all of them: First 0).
type QueryHistory struct {
	X       *HistoryIndex
	Commits *search.Corpus
	First   int
}

// The history's evidence as measured with bench/retrieval on its tuning
// set (tests dropped, full messages): MRR 0.406 → 0.459, R@10 0.562 →
// 0.612; with the answers' names cut from the question, MRR 0.302 →
// 0.368, R@10 0.452 → 0.500 (RESULTS.md). A weight of 0.5 gave the same MRR and a
// lower R@10, 1 lowered both on httpx; spreading a commit's vote over the
// symbols it changed, and letting votes add symbols the text ranking did
// not find, each changed MRR and R@10 by less than 0.003: the vote is
// spread (an initial import votes for everything, faintly) and adds
// nothing (so that a small repository's answer is not filled with code
// that shares no word with the question).
const (
	HistoryWeight = 0.3
	HistoryVoters = 20 // the best matching commits that vote
)

// votes gives the rank (0 best) of each symbol among candidates that the
// best HistoryVoters commits for text changed: each commit's score is
// spread evenly over the symbols it changed (test code only when the
// question asks for tests), a symbol's votes are summed, and equal sums
// share a rank (so that the symbols of one commit gain alike).
func (h *QueryHistory) votes(g *memgraph.Graph, text string, candidates map[memgraph.NodeID]bool) map[memgraph.NodeID]int {
	tests := search.AsksForTests(text)
	score := map[memgraph.NodeID]float64{}
	var voted []memgraph.NodeID
	for _, c := range h.Commits.Search(search.Terms(text), HistoryVoters) {
		voted = voted[:0]
		for _, s := range h.X.SymbolsOf(h.First + int(c.Doc)) {
			n, ok := g.Lookup(s.NodeID)
			if !ok || !g.Nodes[n].Kind.IsSymbol() || (!tests && IsTestPath(g.Nodes[n].FilePath)) {
				continue
			}
			voted = append(voted, n)
		}
		for _, n := range voted {
			if candidates[n] {
				score[n] += c.Score / float64(len(voted))
			}
		}
	}
	sums := make([]float64, 0, len(score))
	for _, v := range score {
		sums = append(sums, v)
	}
	slices.SortFunc(sums, func(a, b float64) int { return cmp.Compare(b, a) })
	rank := make(map[memgraph.NodeID]int, len(score))
	for n, v := range score {
		// The number of greater sums: competition ranking.
		rank[n], _ = slices.BinarySearchFunc(sums, v, func(e, t float64) int { return cmp.Compare(t, e) })
	}
	return rank
}

// fuseHistory re-ranks the symbols among hits by reciprocal rank: a
// symbol's rank among the hits' symbols (files and other nodes keep their
// place and take no rank), plus HistoryWeight for its rank among the
// votes (votes). Equal scores keep the hits' order.
func fuseHistory(g *memgraph.Graph, hits []search.Hit, votes map[memgraph.NodeID]int) []search.Hit {
	const k = 60
	if len(votes) == 0 {
		return hits
	}
	score := make(map[memgraph.NodeID]float64, len(hits))
	var symbols []int // indexes into hits
	for i, h := range hits {
		if g.Nodes[h.Node].Kind.IsSymbol() {
			score[h.Node] = 1 / float64(k+len(symbols)+1)
			symbols = append(symbols, i)
		}
	}
	for n, r := range votes {
		score[n] += HistoryWeight / float64(k+r+1)
	}
	ranked := make([]search.Hit, len(symbols))
	for j, i := range symbols {
		ranked[j] = search.Hit{Node: hits[i].Node, Score: score[hits[i].Node]}
	}
	slices.SortStableFunc(ranked, func(a, b search.Hit) int { return cmp.Compare(b.Score, a.Score) })
	out := slices.Clone(hits)
	for j, i := range symbols {
		out[i] = ranked[j]
	}
	return out
}

// Query searches the index: BM25 hits, fused with vector search hits when
// the index has embeddings, test code below the rest unless the question
// asks for tests, re-ranked by the history's votes when opt.History is
// set (QueryHistory). The answer is the symbols best first; then the files
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
	if h := opt.History; h != nil && h.Commits != nil {
		candidates := make(map[memgraph.NodeID]bool, len(hits))
		for _, h := range hits {
			candidates[h.Node] = true
		}
		if votes := h.votes(g, text, candidates); len(votes) > 0 {
			hits = fuseHistory(g, hits, votes)
			precision = 1e6
			res.Ranking += RankingHistory
			res.Note += "; then re-ranked by the commits whose messages best match the question: the symbols they changed gain"
		}
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
