package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestRenamePlanTextSearch: a plan's text search stops at its time limit
// and says how far it got; without a limit it reads every file, and in
// neither case does it read a file through a symlink that leads outside
// the repository.
func TestRenamePlanTextSearch(t *testing.T) {
	_, root := shop(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n\n// Get the secret.\nfunc Get() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"escape": outside, "alias.go": filepath.Join(outside, "secret.go")} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	_, g := testrepo.Load(t, root)
	n, ok := g.Lookup("Method:store/store.go:Store.Get")
	if !ok {
		t.Fatal("no Store.Get")
	}
	listed, err := repofiles.List(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	// The walk does not list symlinks; a caller's list might.
	files := append(listed.Files, "escape/secret.go", "alias.go")
	plan := func(deadline time.Time) *analysis.RenameResult {
		res, err := analysis.Rename(context.Background(), g, root, n, func() ([]string, error) { return files, nil },
			analysis.RenameOptions{NewName: "Fetch", DryRun: true, PlanDeadline: deadline})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full := plan(time.Time{})
	if full.TextFiles != 0 || full.TextEdits == 0 {
		t.Errorf("without a limit: searched %d of %d files, %d text edits", full.TextSearched, full.TextFiles, full.TextEdits)
	}
	for _, e := range full.Edits {
		if strings.HasPrefix(e.File, "escape/") || e.File == "alias.go" {
			t.Errorf("an edit through a symlink leading outside: %+v", e)
		}
	}
	cut := plan(time.Now())
	if cut.TextFiles != len(files) || cut.TextSearched >= cut.TextFiles || cut.GraphEdits != full.GraphEdits {
		t.Errorf("at the limit: searched %d of %d files (want fewer than %d), %d graph edits (want %d)",
			cut.TextSearched, cut.TextFiles, len(files), cut.GraphEdits, full.GraphEdits)
	}
}
