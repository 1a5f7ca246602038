package ingest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/lang"
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
			w, err := walkWith(context.Background(), root, untracked)
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

func TestIgnoreRules(t *testing.T) {
	var r ignoreRules
	r.add("", "*.log\n!important.log\n/root-only.txt\ndocs/**/draft.md\nbuild/\nsub/deep/\n\\#hash\ntrailing   \n")
	r.add("nested", "local.txt\n/anchored.txt\n")
	cases := []struct {
		path  string
		dir   bool
		want  bool
		about string
	}{
		{"a.log", false, true, "glob"},
		{"x/y/a.log", false, true, "glob at depth"},
		{"important.log", false, false, "negation"},
		{"root-only.txt", false, true, "anchored"},
		{"x/root-only.txt", false, false, "anchored elsewhere"},
		{"docs/draft.md", false, true, "** matches zero dirs"},
		{"docs/a/b/draft.md", false, true, "** matches dirs"},
		{"build", true, true, "dir-only on a dir"},
		{"build", false, false, "dir-only on a file"},
		{"sub/deep", true, true, "anchored dir"},
		{"#hash", false, true, "escaped hash"},
		{"trailing", false, true, "trailing spaces trimmed"},
		{"nested/local.txt", false, true, "nested file applies below its dir"},
		{"nested/x/local.txt", false, true, "nested unanchored at depth"},
		{"local.txt", false, false, "nested file does not apply above"},
		{"nested/anchored.txt", false, true, "nested anchored"},
		{"nested/x/anchored.txt", false, false, "nested anchored not deeper"},
	}
	for _, c := range cases {
		if got := r.ignored(c.path, c.dir); got != c.want {
			t.Errorf("%s (%s): ignored = %v, want %v", c.path, c.about, got, c.want)
		}
	}
}

func TestParseOneClassifies(t *testing.T) {
	root := t.TempDir()
	write(t, root, "bin.go", "package x\x00binary")
	write(t, root, "big.go", "package x\n"+strings.Repeat("// pad\n", 1000))
	write(t, root, "app.min.js", "var a=1;")
	write(t, root, "bundle.js", strings.Repeat("x", 4500)+"\n")
	write(t, root, "ok.go", "package x\nfunc F() {}\n")
	write(t, root, "go.mod", "module m\n")
	write(t, root, "notes.txt", "text\n")
	cfg := &configNames{}
	cfg.add("go.mod")
	cases := map[string]string{"bin.go": SkipBinary, "big.go": SkipTooLarge, "app.min.js": SkipMinified,
		"bundle.js": SkipMinified, "ok.go": "", "go.mod": "", "notes.txt": "", "gone.go": SkipVanished}
	for rel, want := range cases {
		r, err := parseOne(root, rel, nil, 5000, cfg, nil, map[string]langExtractor{}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if r.skip != want {
			t.Errorf("%s: skip = %q, want %q", rel, r.skip, want)
		}
	}
	r, _ := parseOne(root, "go.mod", nil, 1000, cfg, nil, map[string]langExtractor{}, time.Now())
	if string(r.config) != "module m\n" {
		t.Errorf("go.mod config not kept: %q", r.config)
	}
	r, _ = parseOne(root, "ok.go", nil, 1000, cfg, nil, map[string]langExtractor{}, time.Now())
	if r.facts == nil || len(r.facts.Symbols) != 1 {
		t.Errorf("ok.go: facts %+v", r.facts)
	}
}

// FuzzIgnoreRules: any ignore file and any path must neither panic nor
// loop.
func FuzzIgnoreRules(f *testing.F) {
	f.Add("*.log\n!keep.log\n/a/**/b/\n\\#x\n[a-", "a/x/b/c.log", true)
	f.Add("**\n!**/\n", "deep/path/file", false)
	f.Fuzz(func(t *testing.T, rules, path string, dir bool) {
		var r ignoreRules
		r.add("", rules)
		r.add("sub", rules)
		r.ignored(path, dir)
		r.ignored("sub/"+path, dir)
	})
}

// TestUnchangedFilesAreNotRead: a file whose signature (size, times,
// inode) is the one the extraction cache recorded is taken from the cache
// without being read; a write changes the signature; a file changed too
// recently before the run keeps no signature (filesig.go).
func TestUnchangedFilesAreNotRead(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.go", "package x\nfunc F() {}\n")
	write(t, root, "go.mod", "module m\n")
	cfg := &configNames{}
	cfg.add("go.mod")
	later := time.Now().Add(time.Hour) // every file settled long before
	ex := map[string]langExtractor{}
	first, err := parseOne(root, "a.go", nil, 5000, cfg, nil, ex, later)
	if err != nil || first.facts == nil {
		t.Fatalf("a.go: %+v %v", first, err)
	}
	if first.sig == (fileSig{}) {
		t.Fatal("a.go settled long before the run has no signature")
	}
	if now, _ := parseOne(root, "a.go", nil, 5000, cfg, nil, ex, time.Now()); now.sig != (fileSig{}) {
		t.Errorf("a.go written just now has a signature: %+v", now.sig)
	}
	// A cache whose facts for a.go are not what a.go holds: taking them
	// shows the file was not read.
	other := lang.AppendFacts(nil, &lang.FileFacts{Path: "a.go", Language: "go", Lines: 42})
	c := NewExtractCache("k")
	c.add("a.go", first.hash, other, first.sig)
	r, _ := parseOne(root, "a.go", nil, 5000, cfg, c, ex, later)
	if !r.reused || !r.unread || r.facts == nil || r.facts.Lines != 42 || r.lang == nil || r.lang.Name() != "go" || r.sig != first.sig {
		t.Errorf("a.go with its signature unchanged: reused %v, facts %+v, sig %+v", r.reused, r.facts, r.sig)
	}
	// The same content written again: new times, so it is read (and its
	// facts, found by content hash, are the cache's).
	write(t, root, "a.go", "package x\nfunc F() {}\n")
	r, _ = parseOne(root, "a.go", nil, 5000, cfg, c, ex, later)
	if r.sig == first.sig {
		t.Fatalf("writing a.go kept its signature %+v", r.sig)
	}
	if !r.reused || r.unread || r.facts.Lines != 42 {
		t.Errorf("a.go rewritten with the same content: reused %v, unread %v, facts %+v", r.reused, r.unread, r.facts)
	}
	// Other content: read and extracted.
	write(t, root, "a.go", "package x\nfunc G() {}\nfunc H() {}\n")
	r, _ = parseOne(root, "a.go", nil, 5000, cfg, c, ex, later)
	if r.reused || r.facts == nil || len(r.facts.Symbols) != 2 {
		t.Errorf("a.go edited: reused %v, facts %+v", r.reused, r.facts)
	}
	// A configuration file is always read: resolvers need its content.
	mod, _ := parseOne(root, "go.mod", nil, 5000, cfg, nil, ex, later)
	c.add("go.mod", mod.hash, other, mod.sig)
	if r, _ := parseOne(root, "go.mod", nil, 5000, cfg, c, ex, later); string(r.config) != "module m\n" {
		t.Errorf("go.mod not read: %q", r.config)
	}
}

// TestChangedFilesAreParsedFirst checks that the files git lists as
// changed are handed out first and that the results keep the files'
// order either way.
func TestChangedFilesAreParsedFirst(t *testing.T) {
	files := []string{"a.go", "b.go", "c.go", "d.go"}
	for _, tc := range []struct {
		first map[string]bool
		want  []int
	}{
		{nil, []int{0, 1, 2, 3}},
		{map[string]bool{"c.go": true}, []int{2, 0, 1, 3}},
		{map[string]bool{"d.go": true, "b.go": true, "gone.go": true}, []int{1, 3, 0, 2}},
	} {
		if got := dispatchOrder(files, tc.first); !slices.Equal(got, tc.want) {
			t.Errorf("dispatchOrder(%v) = %v, want %v", tc.first, got, tc.want)
		}
	}
	root := t.TempDir()
	for _, f := range files {
		write(t, root, f, "package x\nfunc "+strings.ToUpper(f[:1])+"() {}\n")
	}
	out, err := parseAll(context.Background(), root, files, nil, map[string]bool{"d.go": true}, 2, 5000, &configNames{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out {
		if r.path != files[i] || r.facts == nil || len(r.facts.Symbols) != 1 || r.facts.Symbols[0].Name != strings.ToUpper(files[i][:1]) {
			t.Errorf("result %d: %s with %+v, want %s", i, r.path, r.facts, files[i])
		}
	}
}
