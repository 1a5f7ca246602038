package testrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/registry"
)

// CommitAt runs a git command (commit, revert, merge) that commits, with a fixed author and committer
// dates, so that the hashes (and the golden answers) never change.
func CommitAt(t testing.TB, dir, date string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Zoë Ünal", "GIT_AUTHOR_EMAIL=zoe@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE="+date+"T10:00:00+01:00", "GIT_COMMITTER_DATE="+date+"T10:00:00+01:00")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// HistoryShop is the shop with five commits: the initial one, an edit
// inside Store.Get, the cache file renamed and given a Purge function,
// Purge deleted, and a revert of the Store.Get edit.
func HistoryShop(t testing.TB) (root string, hashes []string) {
	t.Helper()
	root = filepath.Join(t.TempDir(), "shop")
	Write(t, root, Shop)
	Git(t, root, "init", "-q", "-b", "main")
	Git(t, root, "add", "-A")
	CommitAt(t, root, "2024-01-01", "commit", "-q", "-m", "initial")
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(root, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s has no %q", rel, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("store/store.go", "\tit, ok := s.items[id]\n", "\tgets++\n\tit, ok := s.items[id]\n")
	edit("store/store.go", "// Store holds", "var gets int\n\n// Store holds")
	Git(t, root, "add", "-A")
	CommitAt(t, root, "2024-01-02", "commit", "-q", "-m", "store: count gets")
	Git(t, root, "mv", "cache/cache.go", "cache/memo.go")
	edit("cache/memo.go", "// Warm fills", "// Purge empties the cache.\nfunc Purge(c *Cache) {\n\tc.m = nil\n}\n\n// Warm fills")
	Git(t, root, "add", "-A")
	CommitAt(t, root, "2024-01-03", "commit", "-q", "-m", "cache: rename to memo.go, add Purge")
	edit("cache/memo.go", "// Purge empties the cache.\nfunc Purge(c *Cache) {\n\tc.m = nil\n}\n\n", "")
	Git(t, root, "add", "-A")
	CommitAt(t, root, "2024-01-04", "commit", "-q", "-m", "cache: drop Purge")
	second := Git(t, root, "rev-parse", "HEAD~2")
	CommitAt(t, root, "2024-01-05", "revert", "--no-edit", second)
	for _, h := range strings.Fields(Git(t, root, "rev-list", "HEAD")) {
		hashes = append(hashes, h)
	}
	return root, hashes // newest first
}

// IndexHistory indexes root with its git history and registers it.
func IndexHistory(t testing.TB, root string) registry.Entry {
	t.Helper()
	return IndexWith(t, ingest.Options{Root: root, MaxFileSize: 512 << 10, History: &history.Options{}})
}

// EditHistory commits n edits of a Go package to a new repository at root,
// one a day from 2025-01-01, the same commits (hashes included) wherever it
// is made: in a.go one of four functions changes at each commit; in b.go
// functions are added every third commit and one of them is deleted now
// and then; halfway, b.go is renamed to c.go. Every commit changes files.
func EditHistory(t testing.TB, root string, n int) {
	t.Helper()
	body := func(f string, v int) string { return fmt.Sprintf("\nfunc %s() int {\n\treturn %d\n}\n", f, v) }
	for step := 0; step < n; step++ {
		a := "package main\n"
		for f := 0; f < 4; f++ {
			v := 0
			if f == step%4 {
				v = step + 1
			}
			a += body(fmt.Sprintf("F%d", f), v)
		}
		b := "package main\n"
		for g := 0; g <= step/3; g++ {
			if g != step%5 {
				b += body(fmt.Sprintf("G%d", g), g+step/4)
			}
		}
		name := "b.go"
		if step >= n/2 {
			name = "c.go"
		}
		switch {
		case step == 0:
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			Git(t, root, "init", "-q", "-b", "main")
		case step == n/2:
			Git(t, root, "mv", "b.go", "c.go")
		}
		Write(t, root, map[string]string{"go.mod": "module m\n", "a.go": a, name: b})
		Git(t, root, "add", "-A")
		CommitAt(t, root, time.Date(2025, 1, 1+step, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), "commit", "-q", "-m", fmt.Sprintf("step %d", step))
	}
}
