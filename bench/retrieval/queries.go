//go:build sqlite_fts5

package main

import (
	"regexp"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// query is a commit message and the functions the commit changed.
type query struct {
	hash    string
	text    string
	answers map[memgraph.NodeID]bool
}

// Most changed functions a commit may have to count as a query: commits
// changing more are refactorings or mass edits, not one behaviour.
const maxAnswers = 10

// notBehaviour matches subjects that describe no behaviour: merges,
// reverts, releases, version bumps, formatting.
var notBehaviour = regexp.MustCompile(`(?i)^(merge|revert|release|bump|prepare|version|v?\d+\.\d+|update (changelog|version|deps|dependencies)|gofmt|fmt|lint|typo|wip)\b`)

// commitQueries picks the commits whose message describes a behaviour
// (at least four words, not a merge, revert, release or formatting) and
// that changed between 1 and maxAnswers functions still at HEAD; the
// newest max of them.
func commitQueries(gr *graph.Graph, g *memgraph.Graph, max int) []query {
	parents := map[string]int{}
	changed := map[string][]string{}
	for _, e := range gr.Edges() {
		switch e.Type {
		case graph.EdgeParentOf:
			parents[e.Dst]++
		case graph.EdgeChanges:
			if k := graph.KindOfID(e.Dst); k.IsCallable() {
				changed[e.Src] = append(changed[e.Src], e.Dst)
			}
		}
	}
	h := gr.History()
	if h == nil {
		return nil
	}
	var out []query
	for _, c := range h.Commits { // newest first
		id := graph.CommitID(c.Hash)
		subject := strings.TrimSpace(c.Subject)
		if parents[id] > 1 || notBehaviour.MatchString(subject) || countWords(c.Message) < 4 {
			continue
		}
		ans := map[memgraph.NodeID]bool{}
		for _, s := range changed[id] {
			if n, ok := g.Lookup(s); ok {
				ans[n] = true
			}
		}
		if len(ans) == 0 || len(ans) > maxAnswers {
			continue
		}
		out = append(out, query{hash: c.Hash, text: strings.TrimSpace(c.Message), answers: ans})
		if len(out) == max {
			break
		}
	}
	return out
}
