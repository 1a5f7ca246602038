package scala

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered Scala language.
//
// Scala is not lang.StandAlone: the symbols of a declaration depend on
// the declarations before it (an object is a companion, whose members
// are static members of a class, only when the class is declared before
// it in the same body; a package clause changes the package of every
// declaration after it).
var Language = lang.Define(lang.Spec[struct{}]{
	Name:       "scala",
	Extensions: []string{".scala", ".sc"},
	Rules:      rules{},
	Grammar:    grammar,
	Walk:       extract,
})

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and imports.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	facts := lang.NewFileFacts("scala", path, src, root)
	x := &extraction{src: src, facts: facts, scopes: lang.NewScopeFinder(&facts.Symbols),
		symbolsOnly: symbolsOnly, valueOwner: -1, anonCount: map[int]int{}}
	x.compilationUnit(root)
	return x.facts
}
