//go:build sqlite_fts5

package main

import "gitnexus.dev/gitnexus/internal/memgraph"

// depth is how far a ranking is read, in callables: a first answer below
// it counts 0 in MRR.
const depth = 200

// metrics is one question's score for one ranked list, or (in an
// aggregate) the mean over questions.
type metrics struct {
	r1, r5, r10 float64 // share of the answers among the first 1, 5, 10 callables
	mrr         float64 // 1 / rank of the first answer, 0 when it is below depth
	fileR10     float64 // share of the answers' files among the files of the first 10 callables
}

// rankedNode says what the metrics need of a ranked node.
type rankedNode struct {
	callable bool
	file     string
	test     bool // in a test file (graph.IsTestPath)
}

// measure scores a ranked list against the answers and their files. Only
// callables (functions, methods, constructors) take a rank; other nodes
// (types, files, constants) are passed over, in every ranking alike. A
// node listed twice counts once, at its first rank.
func measure(ranked []memgraph.NodeID, info func(memgraph.NodeID) rankedNode, answers map[memgraph.NodeID]bool, files map[string]bool) metrics {
	var m metrics
	rank := 0
	seen := map[memgraph.NodeID]bool{}
	topFiles := map[string]bool{}
	for _, n := range ranked {
		nd := info(n)
		if !nd.callable || seen[n] {
			continue
		}
		seen[n] = true
		rank++
		if rank > depth {
			break
		}
		if rank <= 10 {
			topFiles[nd.file] = true
		}
		if !answers[n] {
			continue
		}
		if m.mrr == 0 {
			m.mrr = 1 / float64(rank)
		}
		share := 1 / float64(len(answers))
		if rank <= 1 {
			m.r1 += share
		}
		if rank <= 5 {
			m.r5 += share
		}
		if rank <= 10 {
			m.r10 += share
		}
	}
	if len(files) > 0 {
		hit := 0
		for f := range files {
			if topFiles[f] {
				hit++
			}
		}
		m.fileR10 = float64(hit) / float64(len(files))
	}
	return m
}

// add adds o to m (for sums).
func (m *metrics) add(o metrics) {
	m.r1 += o.r1
	m.r5 += o.r5
	m.r10 += o.r10
	m.mrr += o.mrr
	m.fileR10 += o.fileR10
}

// scale multiplies every metric by f (a sum by 1/n is a mean).
func (m metrics) scale(f float64) metrics {
	return metrics{r1: m.r1 * f, r5: m.r5 * f, r10: m.r10 * f, mrr: m.mrr * f, fileR10: m.fileR10 * f}
}
