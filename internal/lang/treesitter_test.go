package lang_test

import (
	"os"
	"path/filepath"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestParseMatchesBindings checks that lang.Parse builds the same tree as
// the bindings' own Parse, on real files and on edge cases.
func TestParseMatchesBindings(t *testing.T) {
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(ts.NewLanguage(tsgo.Language())); err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{
		"empty":      {},
		"nul":        []byte("package a\x00\nfunc f() {}\n"),
		"invalid8":   []byte("package a\n// \xff\xfe\nfunc f() {}\n"),
		"unfinished": []byte("package a\nfunc f( {"),
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = b
	}
	for name, src := range inputs {
		want := p.Parse(src, nil)
		got := lang.Parse(p, src)
		if got == nil || want == nil {
			t.Fatalf("%s: nil tree", name)
		}
		if g, w := got.RootNode().ToSexp(), want.RootNode().ToSexp(); g != w {
			t.Errorf("%s: trees differ:\n got %s\nwant %s", name, g, w)
		}
		got.Close()
		want.Close()
	}
}

func TestCap(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"ab日本", 3, "ab…"},  // 日 is 3 bytes: not cut inside it
		{"ab日本", 5, "ab日…"}, // 2 + 3
		{"ab日本", 4, "ab…"},
		{"日本", 1, "…"},
	} {
		if got := lang.Cap(c.s, c.n); got != c.want {
			t.Errorf("Cap(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
