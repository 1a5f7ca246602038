package csharp

import (
	ts "github.com/tree-sitter/go-tree-sitter"
	tscs "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered C# language.
//
// Its top-level declarations stand alone: the symbols of a C# declaration
// (a namespace block, a type with its members and nested types) come from
// its own text: Quals name enclosing types only, never the namespace, and
// the parts of a partial class are symbols of their own declarations.
var Language = lang.Define(lang.Spec[struct{}]{
	Name:       "csharp",
	Extensions: []string{".cs"},
	Rules:      rules{},
	Grammar:    func() *ts.Language { return ts.NewLanguage(tscs.Language()) },
	Walk:       extract,
	StandAlone: true,
})

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and imports.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	facts := lang.NewFileFacts("csharp", path, src, root)
	x := &extraction{src: src, facts: facts, scopes: lang.NewScopeFinder(&facts.Symbols), symbolsOnly: symbolsOnly}
	x.declarations(root, -1, "")
	return x.facts
}
