package repofiles

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// tree builds the same layout for the git and the plain-directory cases.
func tree(t *testing.T, root string) {
	write(t, root, "main.go", "package main\n")
	write(t, root, "pkg/a.go", "package pkg\n")
	write(t, root, "pkg/gen/skip.go", "package gen\n")
	write(t, root, "vendor/x/x.go", "package x\n")
	write(t, root, "web/node_modules/lib/index.js", "module.exports = 1\n")
	write(t, root, "third_party/t.py", "x = 1\n")
	write(t, root, "build/out.js", "x\n")
	write(t, root, "docs/readme.md", "# hi\n")
	write(t, root, "docs/keep.tmp", "kept by negation\n")
	write(t, root, "docs/drop.tmp", "dropped\n")
	write(t, root, ".gitignore", "build/\n")
	write(t, root, ".gitnexusignore", "# ours\npkg/gen/\n*.tmp\n!keep.tmp\n")
	write(t, root, ".gitnexus/graph.db", "not indexed\n")
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "outside.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("main.go", filepath.Join(root, "inside.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop2", filepath.Join(root, "loop1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop1", filepath.Join(root, "loop2")); err != nil {
		t.Fatal(err)
	}
}

// TestWalk lists the same tree with git (asked for every file, or for the
// tracked ones with the untracked ones from git status, or from itself when
// status could not tell) and without.
func TestWalk(t *testing.T) {
	wantFiles := []string{".gitignore", ".gitnexusignore", "docs/keep.tmp", "docs/readme.md", "main.go", "pkg/a.go"}
	wantSkipped := map[string]int{SkipVendored: 3, SkipIgnored: 2, SkipSymlinkOutside: 1, SkipSymlinkInside: 1, SkipSymlinkLoop: 2}
	for _, mode := range []string{"git", "git-status", "git-no-status", "plain"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			tree(t, root)
			if mode != "plain" {
				git(t, root, "init", "-q")
				git(t, root, "add", "main.go")
				git(t, root, "commit", "-qm", "x")
			}
			var untracked func() ([]string, bool)
			switch mode {
			case "git-status":
				untracked = func() ([]string, bool) { return statusUntracked(t, root), true }
			case "git-no-status":
				untracked = func() ([]string, bool) { return nil, false }
			}
			w, err := listWith(context.Background(), root, untracked)
			if err != nil {
				t.Fatal(err)
			}
			if w.Git != (mode != "plain") {
				t.Errorf("Git = %v", w.Git)
			}
			if !reflect.DeepEqual(w.Files, wantFiles) {
				t.Errorf("files:\n got %v\nwant %v", w.Files, wantFiles)
			}
			if !reflect.DeepEqual(w.Skipped, wantSkipped) {
				t.Errorf("skipped:\n got %v\nwant %v", w.Skipped, wantSkipped)
			}
			if len(w.Infos) != len(w.Files) {
				t.Fatalf("%d infos for %d files", len(w.Infos), len(w.Files))
			}
			for i, fi := range w.Infos {
				if fi == nil || fi.Name() != filepath.Base(w.Files[i]) || !fi.Mode().IsRegular() {
					t.Errorf("info %d of %s: %v", i, w.Files[i], fi)
				}
			}
		})
	}
}

// statusUntracked returns the untracked files git status lists in root.
func statusUntracked(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "-c", "core.quotePath=false", "status", "--porcelain=v2", "-z", "--untracked-files=all")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range strings.Split(string(out), "\x00") {
		if p, ok := strings.CutPrefix(f, "? "); ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		t.Fatal("git status lists no untracked file")
	}
	return paths
}
