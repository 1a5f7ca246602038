package backend

import (
	"context"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestSymbolHistoryThroughMerges: in a first-parent history a merge stands
// for its branch; the symbol's history names, for the merge, the commits
// of the branch that changed the symbol (and not those that changed other
// code of its file), as `git log -L` does.
func TestSymbolHistoryThroughMerges(t *testing.T) {
	newHome(t)
	root := t.TempDir()
	files := func(total, other string) map[string]string {
		return map[string]string{"go.mod": "module m\n",
			"price.go": "package m\n\n// Total adds the prices.\nfunc Total(a, b int) int {\n\treturn " + total + "\n}\n\n" +
				"// Other does something else.\nfunc Other() int {\n\treturn " + other + "\n}\n"}
	}
	testrepo.Write(t, root, files("a + b", "1"))
	testrepo.Git(t, root, "init", "-q", "-b", "main")
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-02-01", "commit", "-q", "-m", "initial")
	testrepo.Git(t, root, "checkout", "-q", "-b", "feature")
	testrepo.Write(t, root, files("a + b + 0", "1"))
	testrepo.CommitAt(t, root, "2024-02-02", "commit", "-q", "-am", "price: make Total explicit")
	fix := testrepo.Git(t, root, "rev-parse", "HEAD")
	testrepo.Write(t, root, files("a + b + 0", "2"))
	testrepo.CommitAt(t, root, "2024-02-03", "commit", "-q", "-am", "other: return 2")
	testrepo.Git(t, root, "checkout", "-q", "main")
	testrepo.Write(t, root, map[string]string{"README": "shop\n"})
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-02-04", "commit", "-q", "-m", "readme")
	testrepo.CommitAt(t, root, "2024-02-05", "merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
	merge := testrepo.Git(t, root, "rev-parse", "HEAD")
	testrepo.IndexHistory(t, root)
	b := newBackend(t, Options{IdleTimeout: -1})

	res, err := b.CallTool(context.Background(), "get_symbol_history", map[string]any{"name": "Total"})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(analysis.SymbolHistoryResult)
	if len(d.Commits) != 2 || d.Commits[0].Hash != merge {
		t.Fatalf("the history of Total: %+v; want the merge, then the initial commit", d.Commits)
	}
	from := d.Commits[0].MergedFrom
	if len(from) != 1 || from[0].Hash != fix || from[0].Subject != "price: make Total explicit" || from[0].Date != "2024-02-02T10:00:00+01:00" {
		t.Fatalf("the merge brought in %+v; want only %s (price: make Total explicit)", from, fix[:7])
	}
	if d.Commits[1].MergedFrom != nil {
		t.Errorf("a commit that is not a merge names merged commits: %+v", d.Commits[1].MergedFrom)
	}
	want := "Merge " + merge[:7] + " brought in the change from:\n- " + fix[:7] + " 2024-02-02 Zoë Ünal: price: make Total explicit\n"
	if text := res.Markdown(); !strings.Contains(text, want) {
		t.Errorf("the answer does not say which commit the merge brought in (want %q):\n%s", want, text)
	}

	// Other was changed by the branch's second commit only.
	res, err = b.CallTool(context.Background(), "get_symbol_history", map[string]any{"name": "Other"})
	if err != nil {
		t.Fatal(err)
	}
	d = res.Data.(analysis.SymbolHistoryResult)
	if len(d.Commits) == 0 || len(d.Commits[0].MergedFrom) != 1 || d.Commits[0].MergedFrom[0].Subject != "other: return 2" {
		t.Fatalf("the history of Other: %+v", d.Commits)
	}
}
