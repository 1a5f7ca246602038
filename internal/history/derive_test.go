package history

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	_ "gitnexus.dev/gitnexus/internal/lang/c"
	_ "gitnexus.dev/gitnexus/internal/lang/golang"
	_ "gitnexus.dev/gitnexus/internal/lang/java"
	_ "gitnexus.dev/gitnexus/internal/lang/ruby"
	_ "gitnexus.dev/gitnexus/internal/lang/rust"
	_ "gitnexus.dev/gitnexus/internal/lang/typescript"
)

// TestDeriveMatchesFullParse reads the history of this repository (or of
// the one GITNEXUS_DERIVE_REPO names, its newest GITNEXUS_DERIVE_COMMITS
// commits) twice, once deriving each version before a commit from the
// version after it and once reading every version whole, and requires the
// same symbol changes: it checks the claim of the languages that declare
// their declarations stand-alone, on real edits.
func TestDeriveMatchesFullParse(t *testing.T) {
	if testing.Short() {
		t.Skip("replays this repository's history (12 s): not under -short")
	}
	root := os.Getenv("GITNEXUS_DERIVE_REPO")
	commits, _ := strconv.Atoi(os.Getenv("GITNEXUS_DERIVE_COMMITS"))
	if root == "" {
		out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			t.Skipf("not in a git work tree: %v", err)
		}
		root = strings.TrimSpace(string(out))
	}
	modes := []struct {
		name        string
		allBranches bool
		commits     int
	}{
		{"first parent", false, cmp.Or(commits, 60)},
		// Every branch: a branch's last version of a file is read after its
		// merge, so it is derived from the merged version through a line
		// diff (BlobsDiffed). The window reaches past the newest merge's
		// branch, however many commits came after it.
		{"all branches", true, cmp.Or(commits, max(150, newestMerge(t, root)+60))},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			opt := Options{MaxCommits: m.commits, Workers: 2, AllBranches: m.allBranches}
			derived, dst, err := Read(ctx, root, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.fullParses = true
			full, fst, err := Read(ctx, root, opt)
			if err != nil {
				t.Fatal(err)
			}
			if full == nil || derived == nil || len(full.Commits) < 20 {
				t.Skipf("%s has too short a history (a shallow clone?) to compare", root)
			}
			if dst.BlobsDerived == 0 || fst.BlobsDerived != 0 || fst.BlobsDiffed != 0 {
				t.Fatalf("derived %d blobs (full read: %d): the comparison checks nothing", dst.BlobsDerived, fst.BlobsDerived)
			}
			if m.allBranches && dst.BlobsDiffed == 0 && os.Getenv("GITNEXUS_DERIVE_REPO") == "" {
				t.Errorf("no version was derived through a line diff: the comparison does not check them")
			}
			if len(derived.Symbols) != len(full.Symbols) {
				t.Errorf("%d symbol changes derived, %d read whole", len(derived.Symbols), len(full.Symbols))
			}
			for i := range min(len(derived.Symbols), len(full.Symbols)) {
				if !reflect.DeepEqual(derived.Symbols[i], full.Symbols[i]) {
					t.Fatalf("symbol change %d:\n derived %+v\n    full %+v", i, derived.Symbols[i], full.Symbols[i])
				}
			}
			t.Logf("%d commits, %d blobs, %d derived, %d diffed, %d symbol changes", len(full.Commits), dst.BlobsParsed, dst.BlobsDerived, dst.BlobsDiffed, len(full.Symbols))
		})
	}
}

// newestMerge is how many commits of root's history (newest first, in
// topological order) come before its newest merge; 0 without one.
func newestMerge(t *testing.T, root string) int {
	t.Helper()
	merge, err := exec.Command("git", "-C", root, "rev-list", "--merges", "--max-count=1", "HEAD").Output()
	if err != nil || len(merge) == 0 {
		return 0
	}
	out, err := exec.Command("git", "-C", root, "rev-list", "--topo-order", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range strings.Fields(string(out)) {
		if h == strings.TrimSpace(string(merge)) {
			return i
		}
	}
	return 0
}
