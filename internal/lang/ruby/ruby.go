package ruby

import (
	ts "github.com/tree-sitter/go-tree-sitter"
	tsr "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered Ruby language. Its declarations are read by
// walking the tree (extract.go), as a class body's meaning depends on the
// order of its statements (`private` applies to the methods after it).
//
// Its top-level declarations stand alone: their symbols come from their
// own text (visibility and mixins are written inside a class body; a
// class reopened elsewhere is a declaration of its own).
var Language = lang.Define(lang.Spec[struct{}]{
	Name:       "ruby",
	Extensions: []string{".rb", ".rake"},
	Rules:      rules{},
	Grammar:    func() *ts.Language { return ts.NewLanguage(tsr.Language()) },
	Compile:    lang.NoQueries,
	Walk:       extract,
	StandAlone: true,
})
