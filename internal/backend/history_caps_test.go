package backend

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestHistoryListsAreCapped: a commit that touches more files and symbols
// than an answer lists is answered with at most 100 of each, the totals,
// and a line saying what was cut; the callers still start from every
// changed symbol.
func TestHistoryListsAreCapped(t *testing.T) {
	newHome(t)
	root := filepath.Join(t.TempDir(), "r")
	files := map[string]string{"go.mod": "module example.com/m\n"}
	for i := range 120 {
		// f000 calls nothing; every other file's function calls the previous one.
		call := ""
		if i > 0 {
			call = fmt.Sprintf("\tF%03d()\n", i-1)
		}
		files[fmt.Sprintf("p/f%03d.go", i)] = fmt.Sprintf("package p\n\nfunc F%03d() {\n%s}\n", i, call)
	}
	var big strings.Builder
	big.WriteString("package p\n")
	for i := range 130 {
		fmt.Fprintf(&big, "\nfunc G%03d() {}\n", i)
	}
	files["p/big.go"] = big.String()
	testrepo.Write(t, root, files)
	testrepo.Git(t, root, "init", "-q", "-b", "main")
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-03-01", "commit", "-q", "-m", "add everything")
	hash := strings.TrimSpace(testrepo.Git(t, root, "rev-parse", "HEAD"))
	testrepo.IndexHistory(t, root)
	b := newBackend(t, Options{IdleTimeout: -1})

	res, err := b.CallTool(context.Background(), "get_commit_impact", map[string]any{"hash": hash})
	if err != nil {
		t.Fatal(err)
	}
	ci := res.Data.(analysis.CommitImpactResult)
	if len(ci.Files) != 100 || ci.TotalFiles != 122 || len(ci.Symbols) != 100 || ci.TotalSymbols != 250 {
		t.Errorf("commit impact: %d of %d files, %d of %d symbols; want 100 of 122, 100 of 250",
			len(ci.Files), ci.TotalFiles, len(ci.Symbols), ci.TotalSymbols)
	}
	for _, want := range []string{"### Files (122)", "The first 100, in git's order", "### Symbols (250)", "The first 100;"} {
		if !strings.Contains(res.Markdown(), want) {
			t.Errorf("commit impact does not say %q", want)
		}
	}

	res, err = b.CallTool(context.Background(), "get_recent_changes", map[string]any{"since": "2024-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	rc := res.Data.(analysis.RecentChangesResult)
	if len(rc.Files) != 100 || rc.TotalFiles != 122 || rc.TotalSymbols != 250 {
		t.Errorf("recent changes: %d of %d files, %d symbols; want 100 of 122, 250", len(rc.Files), rc.TotalFiles, rc.TotalSymbols)
	}
	listed := map[string]bool{}
	for _, f := range rc.Files {
		listed[f.Path] = true
	}
	if !listed["p/big.go"] { // the file with the most changed symbols is kept
		t.Errorf("p/big.go is not listed")
	}
	if !strings.Contains(res.Markdown(), "changed 250 symbols in 122 files") || !strings.Contains(res.Markdown(), "Only the 100 files with the most changed symbols are listed") {
		t.Errorf("recent changes text:\n%s", res.Markdown()[:min(600, len(res.Markdown()))])
	}
}
