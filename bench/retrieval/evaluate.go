//go:build sqlite_fts5

package main

import (
	"context"
	"fmt"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
)

// runConfig is what every repository of a run is measured with.
type runConfig struct {
	embedder     embed.Embedder // nil: no vectors
	provider     string
	tokens       int
	maxQuestions int
	reuse        string
	rankings     []ranking
}

// variant is one way of asking a question.
type variant struct {
	name string
	text func(q *question) string
}

// variants: the whole message, and the message with the answers' names
// cut out (cutNames), which asks what a ranking finds when the question
// does not name the code.
var variants = []variant{
	{"full message", func(q *question) string { return q.text }},
	{"names cut", func(q *question) string { return q.cut }},
}

// views of a question: as ranked with every answer, and with test code
// (graph.IsTestPath) dropped from both the ranked list and the answers
// (a question whose answers are all test code is left out of that view).
const (
	asRanked = iota
	testsDropped
	views
)

// row is one ranking's mean metrics on one repository.
type row struct {
	ranking string
	// m[variant][view] are the means over the questions.
	m [][views]metrics
	// millis is the mean time of one ranked list, in milliseconds; built
	// is the time the ranking took to build (the baseline's corpus).
	millis float64
	built  time.Duration
}

// repoResult is one repository's measurement.
type repoResult struct {
	repo    repo
	head    string
	commits int // first-parent commits in the index's history
	// questions counts the questions of each view.
	questions [views]int
	reused    bool
	indexTook time.Duration
	rows      []row
	// qs and g are kept for -questions.
	qs []question
	g  *memgraph.Graph
}

// evaluate indexes (or reuses the index of) one checkout, asks its
// questions in every variant of every ranking, and averages the metrics.
func evaluate(ctx context.Context, rp repo, cfg runConfig) (*repoResult, error) {
	ix, g, err := openGraph(ctx, rp.root, cfg.embedder, cfg.provider, cfg.tokens, cfg.reuse)
	if err != nil {
		return nil, err
	}
	defer ix.r.Close()
	e := &env{root: rp.root, r: ix.r, g: g, emb: cfg.embedder}
	if cfg.embedder != nil {
		vs, err := search.LoadVectors(ctx, ix.r, g)
		if err != nil {
			return nil, err
		}
		e.sem = &search.Semantic{Vectors: vs, Embedder: cfg.embedder}
	}
	qs := questions(g, cfg.maxQuestions)
	if len(qs) == 0 {
		return nil, fmt.Errorf("no questions: the index of %s has no commits that changed 1 to %d functions still at HEAD", rp.root, maxAnswers)
	}
	res := &repoResult{repo: rp, head: ix.head, reused: ix.reused, indexTook: ix.took, qs: qs, g: g}
	if h := g.HistoryRecords(); h != nil {
		res.commits = len(h.Commits)
	}
	isTest := map[string]bool{}
	info := func(n memgraph.NodeID) rankedNode {
		nd := &g.Nodes[n]
		t, ok := isTest[nd.FilePath]
		if !ok {
			t = graph.IsTestPath(nd.FilePath)
			isTest[nd.FilePath] = t
		}
		return rankedNode{callable: nd.Kind.IsCallable(), file: nd.FilePath, test: t}
	}
	// The questions of each view: their answers and the answers' files.
	type asked struct {
		q       *question
		answers map[memgraph.NodeID]bool
		files   map[string]bool
	}
	var byView [views][]asked
	for i := range qs {
		q := &qs[i]
		byView[asRanked] = append(byView[asRanked], asked{q, q.answers, q.files})
		answers, files := map[memgraph.NodeID]bool{}, map[string]bool{}
		for n := range q.answers {
			if nd := info(n); !nd.test {
				answers[n], files[nd.file] = true, true
			}
		}
		if len(answers) > 0 {
			byView[testsDropped] = append(byView[testsDropped], asked{q, answers, files})
		}
	}
	for view := range views {
		res.questions[view] = len(byView[view])
	}
	for _, rk := range cfg.rankings {
		built := time.Now()
		rank, err := rk.build(ctx, e)
		if err != nil {
			return nil, fmt.Errorf("ranking %q: %w", rk.name, err)
		}
		if rank == nil {
			continue
		}
		rw := row{ranking: rk.name, m: make([][views]metrics, len(variants)), built: time.Since(built)}
		var took time.Duration
		asks := 0
		for vi, v := range variants {
			ranked := map[*question][]memgraph.NodeID{}
			for i := range qs {
				q := &qs[i]
				start := time.Now()
				list, err := rank(ctx, q, v.text(q))
				took += time.Since(start)
				asks++
				if err != nil {
					return nil, fmt.Errorf("ranking %q, question %.12s: %w", rk.name, q.hash, err)
				}
				ranked[q] = list
			}
			for view := range views {
				for _, a := range byView[view] {
					list := ranked[a.q]
					if view == testsDropped {
						list = dropTests(list, info)
					}
					rw.m[vi][view].add(measure(list, info, a.answers, a.files))
				}
				if n := len(byView[view]); n > 0 {
					rw.m[vi][view] = rw.m[vi][view].scale(1 / float64(n))
				}
			}
		}
		rw.millis = float64(took.Microseconds()) / 1000 / float64(asks)
		res.rows = append(res.rows, rw)
		logf("%s: %s built in %s, %.1f ms a question", rp.name, rk.name, rw.built.Round(time.Millisecond), rw.millis)
	}
	return res, nil
}

// dropTests returns the ranked nodes that are not in test files.
func dropTests(ranked []memgraph.NodeID, info func(memgraph.NodeID) rankedNode) []memgraph.NodeID {
	out := make([]memgraph.NodeID, 0, len(ranked))
	for _, n := range ranked {
		if !info(n).test {
			out = append(out, n)
		}
	}
	return out
}
