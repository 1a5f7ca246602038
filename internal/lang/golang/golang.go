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

// compiled holds the language and the query, compiled once per process and
// shared by every extractor (queries are read-only once built). The two
// query files run as one query, so the tree is walked once; patterns below
// defsPatterns come from defs.scm.
var compiled = sync.OnceValue(func() *queries {
	l := ts.NewLanguage(tsgo.Language())
	all, bounds := lang.NewQueryParts(l, "go/*.scm", defsSource, factsSource)
	return &queries{lang: l, all: all, defsPatterns: bounds[0], defs: lang.MustQuery(l, "go/defs.scm", defsSource)}
})

type queries struct {
	lang         *ts.Language
	all          *lang.Query
	defsPatterns int
	// defs is defs.scm alone, for reading symbols without their uses.
	defs *lang.Query
}

func (goLanguage) NewExtractor() (lang.Extractor, error) {
	q := compiled()
	tp, err := lang.NewTreeParser(q.lang)
	if err != nil {
		return nil, err
	}
	return &extractor{TreeParser: tp, q: q}, nil
}

type extractor struct {
	*lang.TreeParser
	q *queries
}
