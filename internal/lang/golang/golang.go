package golang

import (
	"embed"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/*.scm
var queries embed.FS

// Language is the registered Go language.
//
// Its top-level declarations stand alone: a declaration's symbols (a
// function, a method named after its receiver's type, a type with its
// fields, a const or var group) come from its own text; so do the members
// of a struct type's field list (lang.MemberBodies).
var Language = lang.Define(lang.Spec[*lang.SplitQueries]{
	Name:         "go",
	Extensions:   []string{".go"},
	Rules:        rules{},
	Grammar:      func() *ts.Language { return ts.NewLanguage(tsgo.Language()) },
	Compile:      lang.SplitCompiler("go", queries),
	NewExtractor: func(b *lang.ExtractorBase[*lang.SplitQueries]) lang.TreeExtractor { return &extractor{b} },
	StandAlone:   true,
	MemberBodies: []string{"field_declaration_list"},
})

// extractor reads Go files with the queries (e.Q).
type extractor struct {
	*lang.ExtractorBase[*lang.SplitQueries]
}
