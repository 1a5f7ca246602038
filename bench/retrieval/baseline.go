//go:build sqlite_fts5

package main

// The plain BM25 baseline: what a textbook ranker finds from the source
// text alone, so that a ranking is judged against something that knows
// nothing of the graph, the names' fields or the index's query rules.
// Documents are the non-test functions, methods and constructors, each
// the text of its lines in the file at HEAD; tokens.go tokenises them and
// the question alike. Okapi BM25 with k1 = 1.2 and b = 0.75, and the
// non-negative idf ln(1 + (N − df + 0.5) / (df + 0.5)); each distinct
// question token counts once. It lives here, not in internal/search, so
// that a change to the product cannot move the baseline.

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25Index is a BM25 index over documents that are graph nodes.
type bm25Index struct {
	nodes []memgraph.NodeID // document → node
	lens  []int             // tokens per document
	avg   float64
	posts map[string][]posting // token → documents holding it, in document order
}

type posting struct {
	doc int32
	tf  int32
}

// newBM25Index indexes docs[i], the tokens of nodes[i].
func newBM25Index(nodes []memgraph.NodeID, docs [][]string) *bm25Index {
	x := &bm25Index{nodes: nodes, lens: make([]int, len(docs)), posts: map[string][]posting{}}
	total := 0
	for i, toks := range docs {
		x.lens[i] = len(toks)
		total += len(toks)
		tf := map[string]int32{}
		var order []string
		for _, t := range toks {
			if tf[t] == 0 {
				order = append(order, t)
			}
			tf[t]++
		}
		for _, t := range order {
			x.posts[t] = append(x.posts[t], posting{doc: int32(i), tf: tf[t]})
		}
	}
	if len(docs) > 0 {
		x.avg = float64(total) / float64(len(docs))
	}
	return x
}

// search returns the nodes of the best k documents for the query's
// tokens, best first; equal scores in document order.
func (x *bm25Index) search(query []string, k int) []memgraph.NodeID {
	all := x.scores(query)
	out := make([]memgraph.NodeID, 0, min(k, len(all)))
	for _, s := range all[:min(k, len(all))] {
		out = append(out, x.nodes[s.doc])
	}
	return out
}

type scoredDoc struct {
	doc   int32
	score float64
}

// scores scores every document holding a token of the query, best
// first; equal scores in document order.
func (x *bm25Index) scores(query []string) []scoredDoc {
	n := float64(len(x.lens))
	scores := map[int32]float64{}
	seen := map[string]bool{}
	for _, t := range query {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := x.posts[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			scores[p.doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(x.lens[p.doc])/x.avg))
		}
	}
	all := make([]scoredDoc, 0, len(scores))
	for d, s := range scores {
		all = append(all, scoredDoc{d, s})
	}
	slices.SortFunc(all, func(a, b scoredDoc) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc)) })
	return all
}

// baselineIndex indexes the non-test callables of g by the text of their
// lines in the files under root (the checkout the index was built from).
func baselineIndex(root string, g *memgraph.Graph) (*bm25Index, error) {
	files := map[string][][]byte{}
	var nodes []memgraph.NodeID
	var docs [][]string
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		if !nd.Kind.IsCallable() || graph.IsTestPath(nd.FilePath) || nd.FilePath == "" {
			continue
		}
		lines, ok := files[nd.FilePath]
		if !ok {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(nd.FilePath)))
			if err != nil {
				return nil, fmt.Errorf("baseline: read the source of %s: %w", nd.ID, err)
			}
			lines = bytes.SplitAfter(src, []byte("\n"))
			files[nd.FilePath] = lines
		}
		text := symbolLines(lines, int(nd.StartLine), int(nd.EndLine))
		nodes = append(nodes, memgraph.NodeID(i))
		docs = append(docs, tokens(string(text)))
	}
	return newBM25Index(nodes, docs), nil
}

// symbolLines joins lines start to end (1-based, inclusive), clamped to
// the file.
func symbolLines(lines [][]byte, start, end int) []byte {
	start = max(start, 1)
	end = min(end, len(lines))
	if start > end {
		return nil
	}
	return bytes.Join(lines[start-1:end], nil)
}
