//go:build sqlite_fts5

package main

import (
	"regexp"
	"strings"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// question is a commit message and the functions the commit changed.
type question struct {
	hash string
	// parent is the commit's first parent: the state of the repository
	// the question is asked against under the leak rule (RESULTS.md).
	parent string
	text   string // the whole message
	// cut is the message without the answers' names (cutNames).
	cut     string
	answers map[memgraph.NodeID]bool
	files   map[string]bool // the answers' files
}

// Most changed functions a commit may have to count as a question:
// commits changing more are refactorings or mass edits, not one behaviour.
const maxAnswers = 10

// notBehaviour matches subjects that describe no behaviour: merges,
// reverts, releases, version bumps, formatting.
var notBehaviour = regexp.MustCompile(`(?i)^(merge|revert|release|bump|prepare|version|v?\d+\.\d+|update (changelog|version|deps|dependencies)|gofmt|fmt|lint|typo|wip)\b`)

// questions picks the commits of g's history whose message describes a
// behaviour (at least four words, not a merge, revert, release or
// formatting) and that changed between 1 and maxAnswers functions,
// methods or constructors still at HEAD; the newest max of them (all
// when max is 0).
func questions(g *memgraph.Graph, max int) []question {
	h := g.HistoryRecords()
	if h == nil {
		return nil
	}
	changed := map[string][]memgraph.NodeID{}
	names := map[string][]string{} // commit → the names its answers had then
	for _, s := range h.Symbols {
		if n, ok := g.Lookup(s.NodeID); ok && g.Nodes[n].Kind.IsCallable() {
			changed[s.Commit] = append(changed[s.Commit], n)
			names[s.Commit] = append(names[s.Commit], s.Name, s.Qual, g.Nodes[n].Name)
		}
	}
	var out []question
	for _, c := range h.Commits { // newest first
		if c.IsMerge() || notBehaviour.MatchString(strings.TrimSpace(c.Subject)) || countWords(c.Message) < 4 {
			continue
		}
		ans := map[memgraph.NodeID]bool{}
		files := map[string]bool{}
		for _, n := range changed[c.Hash] {
			ans[n] = true
			files[g.Nodes[n].FilePath] = true
		}
		if len(ans) == 0 || len(ans) > maxAnswers {
			continue
		}
		q := question{hash: c.Hash, text: strings.TrimSpace(c.Message), answers: ans, files: files}
		if len(c.Parents) > 0 {
			q.parent = c.Parents[0]
		}
		q.cut = cutNames(q.text, cutSet(names[c.Hash]))
		out = append(out, q)
		if len(out) == max {
			break
		}
	}
	return out
}

// cutSet is the set of identifiers the names-cut variant removes, from
// the answers' names: each answer's simple name at HEAD, and its simple
// and qualified name inside its file when the commit changed it
// (Raft.runSnapshots, Request._attachAbortListener.abort; a Ruby or Rust
// module written around it in the file counts, a Go package, Python
// module or Java package does not). Every identifier (run of letters,
// digits and underscores) of those names is cut, lower-cased: a Ruby
// empty? gives empty.
func cutSet(names []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range names {
		for _, id := range identifiers(s) {
			out[strings.ToLower(id)] = true
		}
	}
	return out
}

// cutNames removes from text every identifier that is, case aside, one
// of names: whole identifiers only (with names = {send}, send_request,
// sendRequest and resend stay; Send and SEND go). A qualified form such
// as Client.send or Client::send goes with its parts, leaving its
// punctuation. Each cut identifier becomes nothing; the rest of the text
// is kept byte for byte.
func cutNames(text string, names map[string]bool) string {
	var b strings.Builder
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !isIdentRune(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && isIdentRune(rs[j]) {
			j++
		}
		if !names[strings.ToLower(string(rs[i:j]))] {
			b.WriteString(string(rs[i:j]))
		}
		i = j
	}
	return b.String()
}

// identifiers returns the runs of letters, digits and underscores of s.
func identifiers(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isIdentRune(r) })
}
