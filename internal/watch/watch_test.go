package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestRelevantChanges drives a real repository through edits, git commands
// and changes that must go unnoticed, one step at a time.
func TestRelevantChanges(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), map[string]string{
		"a.go": "package a\n", ".gitignore": "build/\n*.log\n", "vendor/v.go": "package v\n",
	})
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if err := os.MkdirAll(filepath.Join(root, ".gitnexus"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := New(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	events := make(chan string, 1000)
	go w.Run(ctx, func(p string) { events <- p })

	write := func(rel, body string) func(t *testing.T) {
		return func(t *testing.T) { testrepo.Write(t, root, map[string]string{rel: body}) }
	}
	gitCmd := func(args ...string) func(t *testing.T) {
		return func(t *testing.T) { testrepo.Git(t, root, args...) }
	}
	steps := []struct {
		name string
		do   func(t *testing.T)
		want string // a path (relative to root) that must be reported; "" for none at all
	}{
		{"edit", write("a.go", "package a\n\nfunc A() {}\n"), "a.go"},
		{"index dir", write(".gitnexus/graph.db", "x"), ""},
		{"ignored dir", write("build/out.go", "package out\n"), ""},
		{"vendored", write("vendor/v.go", "package v\n\nfunc V() {}\n"), ""},
		{"staging touches only git's index", gitCmd("add", "a.go"), ""},
		{"commit moves a ref", gitCmd("commit", "-q", "-m", "A"), ".git/refs/heads/main"},
		{"new directories", write("pkg/sub/b.go", "package sub\n"), "pkg"},
		{"file in the new directory", write("pkg/sub/c.go", "package sub\n"), "pkg/sub/c.go"},
		{"new ignored directory", func(t *testing.T) {
			testrepo.Write(t, root, map[string]string{".gitignore": "build/\n*.log\ngen/\n"})
			drain(events, 300*time.Millisecond)
			testrepo.Write(t, root, map[string]string{"gen/x.go": "package gen\n"})
			drain(events, 300*time.Millisecond)
			testrepo.Write(t, root, map[string]string{"gen/y.go": "package gen\n"})
		}, ""},
		{"branch switch", gitCmd("checkout", "-q", "-b", "feature"), ".git/HEAD"},
		{"branch in a folder", gitCmd("branch", "team/x"), ".git/refs/heads/team"},
	}
	for _, s := range steps {
		drain(events, 50*time.Millisecond)
		s.do(t)
		if s.want == "" {
			if got := drain(events, 250*time.Millisecond); len(got) > 0 {
				t.Errorf("%s: reported %q", s.name, got)
			}
			continue
		}
		want := filepath.Join(root, filepath.FromSlash(s.want))
		var got []string
		timeout := time.After(2 * time.Second)
	wait:
		for {
			select {
			case e := <-events:
				got = append(got, e)
				if e == want {
					break wait
				}
			case <-timeout:
				t.Errorf("%s: %s not among %q", s.name, s.want, got)
				break wait
			}
		}
	}
}

// drain collects what arrives within d.
func drain(events chan string, d time.Duration) []string {
	var out []string
	deadline := time.After(d)
	for {
		select {
		case e := <-events:
			out = append(out, e)
		case <-deadline:
			return out
		}
	}
}

// TestGitLocked: the index lock is git at work.
func TestGitLocked(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), map[string]string{"a.go": "package a\n"})
	w, err := New(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.GitLocked() {
		t.Fatal("locked without a lock")
	}
	lock := filepath.Join(root, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !w.GitLocked() || !strings.HasSuffix(lock, "index.lock") {
		t.Fatal("the index lock is not seen")
	}
}
