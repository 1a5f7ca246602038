package lang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestKindsMatchAQuery checks that lang.Kinds gives the matches a
// tree-sitter query of the same single-node patterns gives, in the same
// order and parts, on this package's own files and on broken source.
func TestKindsMatchAQuery(t *testing.T) {
	l := ts.NewLanguage(tsgo.Language())
	parts := [][]lang.KindPattern{
		{{Kind: "function_declaration", Capture: "func"}, {Kind: "method_declaration", Capture: "func"}, {Kind: "type_spec", Capture: "type"}},
		{{Kind: "call_expression", Capture: "call"}, {Kind: "identifier", Capture: "ident"}, {Kind: "function_declaration", Capture: "scope"}, {Kind: "identifier", Capture: "name"}},
	}
	var srcs []string
	for _, part := range parts {
		var b strings.Builder
		for _, p := range part {
			fmt.Fprintf(&b, "(%s) @%s\n", p.Kind, p.Capture)
		}
		srcs = append(srcs, b.String())
	}
	q, bounds := lang.NewQueryParts(l, "reference", srcs...)
	defer q.Close()
	k := lang.NewKinds(l, "go", parts...)
	tp, err := lang.NewTreeParser(l)
	if err != nil {
		t.Fatal(err)
	}
	defer tp.Close()
	files, _ := filepath.Glob("*.go")
	sources := []string{"package p\nfunc f( { g(h(x)) }\ntype T struct{ a b", ""}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	matched := 0
	for i, src := range sources {
		tree, err := tp.Parse("x.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		root := tree.RootNode()
		want := q.CollectParts(tp.Cursor, root, []byte(src), bounds...)
		got := k.CollectParts(root)
		for p := range want {
			w, g := show(q.Capture, want[p]), show(k.Capture, got[p])
			if w != g {
				t.Errorf("source %d, part %d:\nquery:\n%s\nkinds:\n%s", i, p, w, g)
			}
			matched += len(want[p])
		}
		tree.Close()
	}
	if matched < 1000 {
		t.Errorf("only %d matches in all", matched)
	}
	defer func() {
		if recover() == nil {
			t.Error("a kind the grammar lacks did not panic")
		}
	}()
	lang.NewKinds(l, "go", []lang.KindPattern{{Kind: "no_such_node", Capture: "x"}})
}

// show prints matches as pattern, capture name and node span, one a line.
func show(capture func(string) uint32, ms []lang.Match) string {
	var b strings.Builder
	for _, m := range ms {
		for _, c := range m.Captures {
			name := ""
			for _, n := range []string{"func", "type", "call", "ident", "scope", "name"} {
				if capture(n) == c.Index {
					name = n
				}
			}
			fmt.Fprintf(&b, "%d @%s %s %d-%d\n", m.Pattern, name, c.Node.Kind(), c.Node.StartByte(), c.Node.EndByte())
		}
	}
	return b.String()
}
