package rust

import (
	"embed"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/*.scm
var queries embed.FS

// Language is the registered Rust language.
//
// Its items stand alone: an item's symbols (a function, a type with its
// fields or variants, a trait with its methods, an impl block with its
// methods named after the impl's type, an inline module with its items)
// come from its own text; so do the members of the body of an impl, a
// trait or a module (lang.MemberBodies).
var Language = lang.Define(lang.Spec[*lang.SplitQueries]{
	Name:         "rust",
	Extensions:   []string{".rs"},
	Rules:        rules{},
	Grammar:      func() *ts.Language { return ts.NewLanguage(tsrust.Language()) },
	Compile:      lang.SplitCompiler("rust", queries),
	NewExtractor: func(b *lang.ExtractorBase[*lang.SplitQueries]) lang.TreeExtractor { return &extractor{b} },
	StandAlone:   true,
	MemberBodies: []string{"declaration_list"},
})

// extractor reads Rust files with the queries (e.Q).
type extractor struct {
	*lang.ExtractorBase[*lang.SplitQueries]
}
