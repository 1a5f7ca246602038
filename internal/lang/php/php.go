package php

import (
	ts "github.com/tree-sitter/go-tree-sitter"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered PHP language, read with the grammar of PHP
// code with HTML around it.
var Language = lang.Define(lang.Spec[struct{}]{
	Name:       "php",
	Extensions: []string{".php", ".phtml"},
	Rules:      rules{},
	Grammar:    func() *ts.Language { return ts.NewLanguage(tsphp.LanguagePHP()) },
	Walk:       extract,
})

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and imports.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	facts := lang.NewFileFacts("php", path, src, root)
	x := &extraction{
		src:         src,
		facts:       facts,
		scopes:      lang.NewScopeFinder(&facts.Symbols),
		names:       newNameTable(),
		symbolsOnly: symbolsOnly,
	}
	x.statements(root, -1)
	return x.facts
}
