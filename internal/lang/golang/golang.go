// Package golang is the Go language: extraction of symbols, imports, calls,
// bindings and references from Go source with tree-sitter, and the rules that
// resolve them (go.mod module paths, packages as directories, method sets
// with embedding, implicit interface satisfaction).
package golang

import (
	_ "embed"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/defs.scm
var defsSource string

//go:embed queries/facts.scm
var factsSource string

// Language is the registered Go language.
var Language lang.Language = goLanguage{}

func init() { lang.Register(Language) }

type goLanguage struct{}

func (goLanguage) Name() string         { return "go" }
func (goLanguage) Extensions() []string { return []string{".go"} }
func (goLanguage) Rules() lang.Rules    { return rules{} }

// StandAloneDeclarations: a Go declaration's symbols (a function, a method
// named after its receiver's type, a type with its fields, a const or var
// group) come from its own text.
func (goLanguage) StandAloneDeclarations() bool { return true }

// MemberBodies: the members of a struct type's field list stand alone in it
// (lang.MemberBodies).
func (goLanguage) MemberBodies() []string { return []string{"field_declaration_list"} }

// compiled holds the Go queries (lang.SplitQueries), compiled once per
// process and shared by every extractor.
var compiled = sync.OnceValue(func() *lang.SplitQueries {
	return lang.CompileSplit(ts.NewLanguage(tsgo.Language()), "go", defsSource, factsSource)
})

// Prepare compiles the queries (lang.Preparer).
func (goLanguage) Prepare(string) { compiled() }

func (goLanguage) NewExtractor() (lang.Extractor, error) {
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
