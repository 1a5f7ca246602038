package kotlin

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered Kotlin language.
//
// Kotlin is not lang.StandAlone: where a top-level declaration starts
// depends on the code before it (the grammar may read the annotations
// above a function as part of the property declared before it), so a
// declaration read alone can get other lines than in its file. Checked
// with history.TestDeriveMatchesFullParse on square/kotlinpoet.
var Language = lang.Define(lang.Spec[struct{}]{
	Name:       "kotlin",
	Extensions: []string{".kt", ".kts"},
	Rules:      rules{},
	Grammar:    grammar,
	Walk:       extract,
})

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and imports.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	facts := lang.NewFileFacts("kotlin", path, src, root)
	x := &extraction{src: src, facts: facts, scopes: lang.NewScopeFinder(&facts.Symbols), symbolsOnly: symbolsOnly}
	x.declarations(root, -1, false)
	return x.facts
}
