// Package grammartest checks what a tree-sitter grammar makes of sources:
// the trees an extractor relies on, and the limits it works around. It
// imports no language, so a language's own tests can use it.
package grammartest

import (
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// CheckShapes parses each case, {name, source, tree}, with l and fails
// where the tree differs from the one given (as Node.ToSexp prints it): a
// grammar upgrade that renames a node kind or moves a child fails there
// first.
func CheckShapes(t *testing.T, l *ts.Language, cases [][3]string) {
	t.Helper()
	p := newParser(t, l)
	defer p.Close()
	for _, c := range cases {
		name, src, want := c[0], c[1], c[2]
		t.Run(name, func(t *testing.T) {
			tree := p.Parse([]byte(src), nil)
			defer tree.Close()
			if got := tree.RootNode().ToSexp(); got != want {
				t.Errorf("tree of %q:\n got %s\nwant %s", src, got, want)
			}
		})
	}
}

// CheckStillFails parses each source with l and fails when one parses
// without an ERROR node: the grammar limits an extractor works around
// are recorded this way, so that an upgrade that lifts one is noticed.
func CheckStillFails(t *testing.T, l *ts.Language, srcs []string) {
	t.Helper()
	p := newParser(t, l)
	defer p.Close()
	for _, src := range srcs {
		tree := p.Parse([]byte(src), nil)
		if !tree.RootNode().HasError() {
			t.Errorf("%q parses now: %s", src, tree.RootNode().ToSexp())
		}
		tree.Close()
	}
}

func newParser(t *testing.T, l *ts.Language) *ts.Parser {
	t.Helper()
	p := ts.NewParser()
	if err := p.SetLanguage(l); err != nil {
		p.Close()
		t.Fatal(err)
	}
	return p
}
