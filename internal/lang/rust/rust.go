// Package rust is the Rust language: extraction of items, use declarations,
// calls and local bindings from Rust source with tree-sitter, and the rules
// that resolve them the way rustc does: crates from Cargo.toml (libraries,
// binaries, workspaces), the module tree from `mod` declarations, `use`
// paths (crate::, self::, super::, groups, aliases, globs, re-exports),
// methods attached to their type by `impl` blocks anywhere in the crate,
// and trait implementations for dispatch.
package rust

import (
	_ "embed"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/defs.scm
var defsSource string

//go:embed queries/uses.scm
var usesSource string

// Language is the registered Rust language.
var Language lang.Language = rustLanguage{}

func init() { lang.Register(Language) }

type rustLanguage struct{}

func (rustLanguage) Name() string         { return "rust" }
func (rustLanguage) Extensions() []string { return []string{".rs"} }
func (rustLanguage) Rules() lang.Rules    { return rules{} }

// StandAloneDeclarations: a Rust item's symbols (a function, a type with
// its fields or variants, a trait with its methods, an impl block with its
// methods named after the impl's type, an inline module with its items)
// come from its own text.
func (rustLanguage) StandAloneDeclarations() bool { return true }

// MemberBodies: the members of the body of an impl, a trait or a module stand alone in it
// (lang.MemberBodies).
func (rustLanguage) MemberBodies() []string { return []string{"declaration_list"} }

// compiled holds the Rust queries (lang.SplitQueries), compiled once per
// process and shared by every extractor.
var compiled = sync.OnceValue(func() *lang.SplitQueries {
	return lang.CompileSplit(ts.NewLanguage(tsrust.Language()), "rust", defsSource, usesSource)
})

// Prepare compiles the queries (lang.Preparer).
func (rustLanguage) Prepare(string) { compiled() }

func (rustLanguage) NewExtractor() (lang.Extractor, error) {
	q := compiled()
	tp, err := lang.NewTreeParser(q.Lang)
	if err != nil {
		return nil, err
	}
	return &extractor{TreeParser: tp, q: q}, nil
}

type extractor struct {
	*lang.TreeParser
	q *lang.SplitQueries
}
