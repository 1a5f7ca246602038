//go:build sqlite_fts5

package main

import (
	"context"
	"fmt"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestCommitQuestions builds a history in which one commit brings in a
// bad line and a later one fixes it: the fix is the one question, the
// commit that wrote the line its answer, and the rankings see only the
// commits before the fix.
func TestCommitQuestions(t *testing.T) {
	root := t.TempDir()
	parse := func(offset string) string {
		return "package rec\n\n// Parse reads a record.\nfunc Parse(size int) int {\n\toffset := " + offset + "\n\treturn offset\n}\n"
	}
	testrepo.New(t, root, map[string]string{"parse.go": parse("1"), "parse_test.go": "package rec\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\t_ = Parse(1)\n}\n"})
	hashes := []string{testrepo.Git(t, root, "rev-parse", "HEAD")}
	step := func(msg string, files map[string]string) {
		testrepo.Write(t, root, files)
		testrepo.Git(t, root, "add", "-A")
		testrepo.Git(t, root, "commit", "-q", "-m", msg)
		hashes = append(hashes, testrepo.Git(t, root, "rev-parse", "HEAD"))
	}
	step("add a tokenizer that splits words on spaces", map[string]string{"tok.go": "package rec\n\nimport \"strings\"\n\n// Split splits words.\nfunc Split(s string) []string { return strings.Fields(s) }\n"})
	step("compute the header offset from the record size", map[string]string{"parse.go": parse("size * 2")})
	step("describe the record layout in the readme file", map[string]string{"README.md": "records\n"})
	step("fix wrong header offset for empty records", map[string]string{"parse.go": parse("size*2 + 4")})
	step("fix a crash in the parse test when given a zero size", map[string]string{"parse_test.go": "package rec\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\t_ = Parse(0)\n}\n"})

	ctx := context.Background()
	ix, err := openIndex(ctx, root, nil, "", 0, reuseNever)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.r.Close()
	g, err := memgraph.Load(ctx, ix.r)
	if err != nil {
		t.Fatal(err)
	}
	x := analysis.NewHistoryIndex(g.HistoryRecords(), g)
	at := func(hash string) int {
		t.Helper()
		i := x.CommitIndex(hash)
		if i < 0 {
			t.Fatalf("commit %.12s is not in the history", hash)
		}
		return i
	}
	qs, fixes, err := commitQuestions(ctx, root, x, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Two messages say "fix"; the second changed test code only.
	if fixes != 2 || len(qs) != 1 {
		t.Fatalf("fixes %d, questions %d: want 2 and 1", fixes, len(qs))
	}
	q := qs[0]
	if q.fix != at(hashes[4]) || fmt.Sprint(q.answers) != fmt.Sprint(map[int]bool{at(hashes[2]): true}) || q.lines != 1 {
		t.Fatalf("question %d with answers %v (%d lines), want %d with {%d: true} (1 line)", q.fix, q.answers, q.lines, at(hashes[4]), at(hashes[2]))
	}
	ce := &commitEnv{root: root, x: x}
	older := []int{at(hashes[3]), at(hashes[2]), at(hashes[1]), at(hashes[0])}
	for _, rk := range commitRankings {
		var docs [][]string
		if rk.docs != nil {
			if docs, err = rk.docs(ce); err != nil {
				t.Fatal(err)
			}
		}
		ranked := rankCommits(rk, docs, len(x.H.Commits), q)
		for _, c := range ranked {
			if c <= q.fix {
				t.Errorf("%s ranks commit %d, not older than the fix %d", rk.name, c, q.fix)
			}
		}
		m := measureCommits(ranked, q.answers)
		switch {
		case rk.recency:
			if fmt.Sprint(ranked) != fmt.Sprint(older) || m.mrr != 0.5 || m.r1 != 0 || m.r5 != 1 {
				t.Errorf("recency: %v %+v, want %v with MRR 0.5", ranked, m, older)
			}
		case len(ranked) == 0 || ranked[0] != at(hashes[2]) || m.r1 != 1 || m.mrr != 1:
			t.Errorf("%s: %v %+v, want the offset commit %d first", rk.name, ranked, m, at(hashes[2]))
		}
	}
	lt, err := ce.changedLineTerms()
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(lt[at(hashes[4])]); got != "[offset size]" {
		t.Errorf("terms of the fix's changed lines: %s", got)
	}
}
