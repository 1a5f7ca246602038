package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/repofiles"
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
		"bundle.js": SkipMinified, "ok.go": "", "go.mod": "", "notes.txt": "", "gone.go": repofiles.SkipVanished}
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
