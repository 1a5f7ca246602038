package c

import (
	"embed"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/*.scm
var queries embed.FS

// Language is the registered C language.
//
// Its top-level declarations stand alone: their symbols come from their
// own text. A preprocessor conditional that spans several declarations is
// a top-level node of its own: the history re-reads it whole when a
// commit touches it, so its declarations keep their lines. The members of
// a struct or union's field list stand alone in it (lang.MemberBodies).
var Language = lang.Define(lang.Spec[*lang.SplitQueries]{
	Name:         "c",
	Extensions:   []string{".c", ".h"},
	RulesOf:      func() lang.Rules { return family },
	Grammar:      func() *ts.Language { return ts.NewLanguage(tsc.Language()) },
	Compile:      lang.SplitCompiler("c", queries),
	NewExtractor: func(b *lang.ExtractorBase[*lang.SplitQueries]) lang.TreeExtractor { return &extractor{b} },
	StandAlone:   true,
	MemberBodies: []string{"field_declaration_list"},
})

// extractor reads C files with the queries (e.Q).
type extractor struct {
	*lang.ExtractorBase[*lang.SplitQueries]
}
