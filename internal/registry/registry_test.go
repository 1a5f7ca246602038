package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestUpsertIDs(t *testing.T) {
	t.Setenv("GITNEXUS_HOME", t.TempDir())
	a, err := Upsert(Entry{Name: "App", Path: "/src/one/App"})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "app" {
		t.Errorf("first id = %q, want app", a.ID)
	}
	b, err := Upsert(Entry{Name: "app", Path: "/src/two/app"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "app-" + PathTag("/src/two/app"); b.ID != want || len(PathTag("/x")) != 6 {
		t.Errorf("second id = %q, want %q", b.ID, want)
	}
	// Two paths with a long common prefix still get different tags.
	if PathTag("/work/corpora/a/app") == PathTag("/work/corpora/b/app") {
		t.Error("path tags collide on a shared prefix")
	}
	// Re-indexing keeps the id and replaces the entry.
	again, err := Upsert(Entry{Name: "app", Path: "/src/two/app", LastCommit: "c2"})
	if err != nil || again.ID != b.ID {
		t.Errorf("re-upsert id = %q (%v), want %q", again.ID, err, b.ID)
	}
	list, _ := List()
	if len(list) != 2 || list[1].LastCommit != "c2" {
		t.Errorf("list = %+v", list)
	}
	removed, err := Remove("/src/one/App")
	if err != nil || !removed {
		t.Errorf("remove: %v %v", removed, err)
	}
	if list, _ := List(); len(list) != 1 {
		t.Errorf("after remove: %+v", list)
	}
}

// TestConcurrentUpserts: writers in parallel lose no entry (run with -race).
func TestConcurrentUpserts(t *testing.T) {
	t.Setenv("GITNEXUS_HOME", t.TempDir())
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := Upsert(Entry{Name: fmt.Sprintf("r%d", i), Path: fmt.Sprintf("/r/%d", i)}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	list, err := List()
	if err != nil || len(list) != 16 {
		t.Fatalf("entries = %d (%v), want 16", len(list), err)
	}
}

func TestResolve(t *testing.T) {
	entries := []Entry{
		{ID: "api", Name: "api", Path: "/src/api"},
		{ID: "web", Name: "Web", Path: "/src/web"},
		{ID: "web-abc123", Name: "web", Path: "/other/web"},
		{ID: "payments", Name: "payments", Path: "/src/payments"},
	}
	cases := []struct {
		ref, cwd, want string
		err            error
		msg            string
	}{
		{ref: "api", want: "api"},
		{ref: "web-abc123", want: "web-abc123"},
		{ref: "PAYMENTS", want: "payments"},
		{ref: "/src/api/internal/x", want: "api"},
		{ref: "pay", want: "payments"},
		{ref: "web", want: "web"}, // exact id wins over names
		{ref: "WEB", err: ErrAmbiguous, msg: "use the id"},
		{ref: "a", err: ErrAmbiguous, msg: "matches"},
		{ref: "nope", err: ErrNotFound, msg: `Repository "nope" not found. Available: api, web, web-abc123, payments`},
		{ref: "", cwd: "/src/payments/lib", want: "payments"},
		{ref: "", cwd: "/elsewhere", err: ErrAmbiguous, msg: `Multiple repositories indexed. Specify which one with the "repo" parameter`},
	}
	for _, c := range cases {
		got, err := Resolve(entries, c.ref, c.cwd, "repo")
		if c.err != nil {
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Resolve(%q, %q) error = %v, want %v containing %q", c.ref, c.cwd, err, c.err, c.msg)
			}
			continue
		}
		if err != nil || got.ID != c.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", c.ref, c.cwd, got.ID, err, c.want)
		}
	}
	if _, err := Resolve(nil, "", "", "repo"); !errors.Is(err, ErrNoRepos) || err.Error() != "No indexed repositories. Run: gitnexus analyze" {
		t.Errorf("empty registry: %v", err)
	}
	one := entries[:1]
	if got, err := Resolve(one, "", filepath.Join("/", "tmp"), "repo"); err != nil || got.ID != "api" {
		t.Errorf("single repository: %v %v", got.ID, err)
	}
}

// TestResolveNeverAnswersForAnotherRepository: without a repo, a call made
// in a git work tree that has no index is refused, even when exactly one
// other repository is indexed; relative paths name repositories from cwd.
func TestResolveNeverAnswersForAnotherRepository(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"indexed/.git", "indexed/sub/nested/.git", "indexed/x", "unindexed/.git", "unindexed/deep", "plain"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A worktree or submodule has a .git file, not a directory.
	if err := os.MkdirAll(filepath.Join(tmp, "worktree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "worktree", ".git"), []byte("gitdir: ../indexed/.git/worktrees/w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries := []Entry{{ID: "indexed", Name: "indexed", Path: filepath.Join(tmp, "indexed")}}
	cases := []struct {
		ref, cwd, want string
		err            error
		msg            string
	}{
		{cwd: "unindexed", err: ErrNotIndexed, msg: "This repository (" + filepath.Join(tmp, "unindexed") + ") is not indexed: run `gitnexus analyze"},
		{cwd: "unindexed/deep", err: ErrNotIndexed, msg: "name an indexed one with --repo (indexed: indexed)"},
		{cwd: "indexed/sub/nested", err: ErrNotIndexed, msg: "(" + filepath.Join(tmp, "indexed/sub/nested") + ") is not indexed"},
		{cwd: "worktree", err: ErrNotIndexed, msg: "is not indexed"},
		{cwd: "indexed/x", want: "indexed"},
		{cwd: "indexed/sub", want: "indexed"},
		{cwd: "plain", want: "indexed"}, // no work tree: the only repository
		{ref: "unindexed", cwd: "unindexed", err: ErrNotFound, msg: `Repository "unindexed" not found`},
		{ref: "indexed", cwd: "unindexed", want: "indexed"}, // named: answered
		{ref: "./indexed", cwd: ".", want: "indexed"},
		{ref: "../indexed/x", cwd: "plain", want: "indexed"},
		{ref: "./plain", cwd: ".", err: ErrNotFound, msg: "No indexed repository at " + filepath.Join(tmp, "plain") + ` ("./plain")`},
	}
	for _, c := range cases {
		got, err := Resolve(entries, c.ref, filepath.Join(tmp, c.cwd), "--repo")
		if c.err != nil {
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Resolve(%q) in %s: error = %v, want %v containing %q", c.ref, c.cwd, err, c.err, c.msg)
			}
			continue
		}
		if err != nil || got.ID != c.want {
			t.Errorf("Resolve(%q) in %s = %q, %v; want %q", c.ref, c.cwd, got.ID, err, c.want)
		}
	}
}
