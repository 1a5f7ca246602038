package freshness

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

var files = map[string]string{"go.mod": "module example.com/a\n\ngo 1.22\n", "a.go": "package a\n\nfunc A() {}\n", "dir/b.go": "package dir\n"}

// indexed describes an index of root built now, holding the files given.
func indexed(t *testing.T, root string, held ...string) Index {
	t.Helper()
	gs := ReadGitState(context.Background(), root)
	return Index{ToolVersion: "v1", Commit: gs.Commit, Dirty: gs.Dirty, IndexedAt: time.Now(), Generation: 1,
		HasFile: func(rel string) bool { return slices.Contains(held, rel) },
		Missing: func(root string) ([]string, error) {
			var out []string
			for _, rel := range held {
				if _, err := os.Stat(filepath.Join(root, rel)); os.IsNotExist(err) {
					out = append(out, rel)
				}
			}
			return out, nil
		}}
}

// later makes sure what a test writes next is newer than the index (file
// times have a coarse granularity on some file systems).
func later() { time.Sleep(20 * time.Millisecond) }

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	testrepo.Write(t, root, map[string]string{rel: body})
}

// TestReadGitState reads real work trees: clean, with every kind of change
// (paths with spaces too), detached, without commits, and outside git.
func TestReadGitState(t *testing.T) {
	ctx := context.Background()
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	head := testrepo.Git(t, root, "rev-parse", "HEAD")
	if gs := ReadGitState(ctx, root); !gs.Git || gs.Commit != head || gs.Branch != "main" || gs.Dirty || len(gs.Changed) != 0 {
		t.Fatalf("clean repository: %+v", gs)
	}
	write(t, root, "a.go", "package a\n\nfunc A() { B() }\n")
	write(t, root, "new file.go", "package a\n")
	testrepo.Git(t, root, "mv", "dir/b.go", "dir/c.go")
	testrepo.Git(t, root, "rm", "-q", "go.mod")
	gs := ReadGitState(ctx, root)
	want := []string{"a.go", "dir/c.go", "go.mod", "new file.go"}
	got := slices.Sorted(slices.Values(gs.Changed))
	if !gs.Dirty || !slices.Equal(got, want) {
		t.Errorf("changed = %q, want %q", got, want)
	}
	if !slices.Equal(gs.Untracked, []string{"new file.go"}) {
		t.Errorf("untracked = %q, want the new file alone", gs.Untracked)
	}
	testrepo.Git(t, root, "checkout", "-q", "-f", "--detach", "HEAD")
	if gs := ReadGitState(ctx, root); gs.Branch != "" || gs.Commit != head {
		t.Errorf("detached: %+v", gs)
	}
	empty := t.TempDir()
	testrepo.Git(t, empty, "init", "-q", "-b", "main")
	if gs := ReadGitState(ctx, empty); !gs.Git || gs.Commit != "" || gs.Branch != "main" {
		t.Errorf("no commits: %+v", gs)
	}
	if gs := ReadGitState(ctx, t.TempDir()); gs.Git {
		t.Errorf("outside git: %+v", gs)
	}
}

// TestCheck: what makes an index stale, one change at a time.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		tool   string
		change func(t *testing.T, root string)
		want   []string // substrings of the reasons, in order; none: fresh
	}{
		{name: "fresh", tool: "v1"},
		{name: "another version", tool: "v2", want: []string{"written by gitnexus v1, this is v2"}},
		{name: "version not compared", tool: ""},
		{name: "edited", change: func(t *testing.T, root string) { write(t, root, "a.go", "package a\n") },
			want: []string{"1 file(s) changed since it was built: a.go"}},
		{name: "untracked", change: func(t *testing.T, root string) { write(t, root, "n.go", "package a\n") },
			want: []string{"n.go"}},
		{name: "deleted", change: func(t *testing.T, root string) { os.Remove(filepath.Join(root, "a.go")) },
			want: []string{"a.go (deleted)"}},
		{name: "committed", change: func(t *testing.T, root string) {
			write(t, root, "a.go", "package a\n")
			testrepo.Git(t, root, "commit", "-q", "-am", "edit")
		}, want: []string{"HEAD moved from "}},
		{name: "six files", change: func(t *testing.T, root string) {
			for _, n := range []string{"1", "2", "3", "4", "5", "6"} {
				write(t, root, "f"+n+".go", "package a\n")
			}
		}, want: []string{"6 file(s) changed since it was built: f1.go, f2.go, f3.go, f4.go, f5.go and 1 more"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
			idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
			later()
			if c.change != nil {
				c.change(t, root)
			}
			tool := c.tool
			if tool == "" && c.change != nil {
				tool = "v1"
			}
			rep := Check(ctx, root, idx, tool, ReadGitState(ctx, root))
			if rep.Fresh != (len(c.want) == 0) {
				t.Fatalf("fresh = %v, reasons %q", rep.Fresh, rep.Reasons)
			}
			all := strings.Join(rep.Reasons, "; ")
			for _, w := range c.want {
				i := strings.Index(all, w)
				if i < 0 {
					t.Fatalf("reasons %q lack %q", all, w)
				}
				all = all[i+len(w):]
			}
		})
	}
}

// TestCheckDirtyIndex: an index built with changes in the work tree is
// fresh while they are there, and stale once they are gone.
func TestCheckDirtyIndex(t *testing.T) {
	ctx := context.Background()
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	write(t, root, "a.go", "package a\n\nfunc A() { A() }\n")
	later()
	idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	if rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root)); !rep.Fresh {
		t.Fatalf("dirty index of the same tree: %q", rep.Reasons)
	}
	testrepo.Git(t, root, "checkout", "-q", "--", "a.go")
	rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root))
	if rep.Fresh || !strings.Contains(strings.Join(rep.Reasons, ";"), "the working-tree changes it indexed are gone") {
		t.Fatalf("changes reverted: %q", rep.Reasons)
	}
}

// TestCheckRestoredFile: of the files changed when the index was built,
// one restored to HEAD's while others stay changed makes it stale (git no
// longer lists it, and its time may be anything), and is named.
func TestCheckRestoredFile(t *testing.T) {
	ctx := context.Background()
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	write(t, root, "a.go", "package a\n\nfunc A() { A() }\n")
	if err := os.Remove(filepath.Join(root, "dir", "b.go")); err != nil {
		t.Fatal(err)
	}
	later()
	idx := indexed(t, root, "a.go", "go.mod")
	idx.DirtyPaths = ReadGitState(ctx, root).Changed
	if rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root)); !rep.Fresh {
		t.Fatalf("dirty index of the same tree: %q", rep.Reasons)
	}
	testrepo.Git(t, root, "checkout", "-q", "--", "dir/b.go")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "dir", "b.go"), old, old); err != nil {
		t.Fatal(err)
	}
	rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root))
	if rep.Fresh || rep.Changed != 1 || !strings.Contains(strings.Join(rep.Reasons, ";"), "1 file(s) changed since it was built: dir/b.go") {
		t.Fatalf("dir/b.go restored: fresh %v, %d changed, %q", rep.Fresh, rep.Changed, rep.Reasons)
	}
}

// TestCheckOutsideGit: a directory without git is compared file by file.
func TestCheckOutsideGit(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "plain")
	testrepo.Write(t, root, files)
	idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	later()
	if rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root)); !rep.Fresh {
		t.Fatalf("unchanged: %q", rep.Reasons)
	}
	write(t, root, "a.go", "package a\n")
	os.Remove(filepath.Join(root, "dir", "b.go"))
	rep := Check(ctx, root, idx, "v1", ReadGitState(ctx, root))
	if rep.Fresh || !strings.Contains(rep.Reasons[0], "a.go") || !strings.Contains(rep.Reasons[0], "dir/b.go (deleted)") {
		t.Fatalf("changed outside git: %q", rep.Reasons)
	}
}
