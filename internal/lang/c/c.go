// Package c is the C language: extraction of functions, types, globals,
// macros and #include directives from C source with tree-sitter, and the
// rules that resolve them the way a C compiler and linker do: #include
// paths against the including file's directory and the include
// directories (compile_commands.json `-I` flags, else the usual layouts),
// calls against the file's own static functions first, then the one
// external definition of the name in the repository.
package c

import (
	_ "embed"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/defs.scm
var defsSource string

//go:embed queries/uses.scm
var usesSource string

// Language is the registered C language.
var Language lang.Language = cLanguage{}

func init() { lang.Register(Language) }

type cLanguage struct{}

func (cLanguage) Name() string         { return "c" }
func (cLanguage) Extensions() []string { return []string{".c", ".h"} }
func (cLanguage) Rules() lang.Rules    { return family }

// StandAloneDeclarations: a top-level C declaration's symbols come from
// its own text. A preprocessor conditional that spans several
// declarations is a top-level node of its own: the history re-reads it
// whole when a commit touches it, so its declarations keep their lines.
func (cLanguage) StandAloneDeclarations() bool { return true }

// MemberBodies: the members of a struct or union's field list stand alone in it
// (lang.MemberBodies).
func (cLanguage) MemberBodies() []string { return []string{"field_declaration_list"} }

// compiled holds the C queries (lang.SplitQueries), compiled once per
// process and shared by every extractor.
var compiled = sync.OnceValue(func() *lang.SplitQueries {
	return lang.CompileSplit(ts.NewLanguage(tsc.Language()), "c", defsSource, usesSource)
})

// Prepare compiles the queries (lang.Preparer).
func (cLanguage) Prepare(string) { compiled() }

func (cLanguage) NewExtractor() (lang.Extractor, error) {
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
