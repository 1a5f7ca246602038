package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestRepoRootAgreesWithGit finds the root of work trees, linked work
// trees, submodule-like .git files, subdirectories, nested repositories,
// configurations that move the work tree, and plain directories, with and
// without git rev-parse: the answers must be the same.
func TestRepoRootAgreesWithGit(t *testing.T) {
	ctx := context.Background()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	main := testrepo.New(t, filepath.Join(base, "main"), map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n"})
	linked := filepath.Join(base, "linked")
	testrepo.Git(t, main, "worktree", "add", "-q", linked)
	nested := filepath.Join(main, "sub", "nested")
	testrepo.New(t, nested, map[string]string{"c.go": "package c\n"})
	plain := filepath.Join(base, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	moved := testrepo.New(t, filepath.Join(base, "moved"), map[string]string{"d.go": "package d\n"})
	testrepo.Git(t, moved, "config", "core.worktree", filepath.Join(moved, "sub"))
	if err := os.MkdirAll(filepath.Join(moved, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(base, "stray")
	if err := os.MkdirAll(filepath.Join(stray, ".git"), 0o755); err != nil { // not a repository
		t.Fatal(err)
	}

	for _, tc := range []struct {
		dir, want string
		fast      bool // found without git
	}{
		{main, main, true},
		{filepath.Join(main, "sub"), main, false},
		{linked, linked, true},
		{nested, nested, true},
		{plain, plain, false},
		{moved, filepath.Join(moved, "sub"), false},
		{stray, stray, false},
	} {
		got, err := repoRoot(ctx, tc.dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		if got != tc.want {
			t.Errorf("repoRoot(%s) = %s, want %s", tc.dir, got, tc.want)
		}
		if isTopLevel(tc.dir) != tc.fast {
			t.Errorf("isTopLevel(%s) = %v, want %v", tc.dir, !tc.fast, tc.fast)
		}
		if top, err := gitOutput(ctx, tc.dir, "rev-parse", "--show-toplevel"); tc.fast && (err != nil || top != tc.want) {
			t.Errorf("git rev-parse in %s: %q, %v; the fast path says %s", tc.dir, top, err, tc.want)
		}
	}
	t.Setenv("GIT_DIR", filepath.Join(main, ".git"))
	if isTopLevel(linked) {
		t.Error("with GIT_DIR set, the work tree is found without git")
	}
}
