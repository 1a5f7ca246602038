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
