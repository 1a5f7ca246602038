// Package python is the Python language: extraction of symbols, imports,
// calls, bindings and references from Python source with tree-sitter, and
// the rules that resolve them (modules as files, packages as directories
// with __init__.py, source roots, relative imports, re-exports through
// __init__.py, scopes that skip class bodies, builtins).
package python

import (
	_ "embed"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/defs.scm
var defsSource string

//go:embed queries/facts.scm
var factsSource string

// Language is the registered Python language. It claims `.py` only: stub
// files (`.pyi`) restate declarations that a `.py` file of the repository
// usually defines too, and indexing both would give every stubbed name two
// definitions and every call two targets.
var Language lang.Language = pythonLanguage{}

func init() { lang.Register(Language) }

type pythonLanguage struct{}

func (pythonLanguage) Name() string         { return "python" }
func (pythonLanguage) Extensions() []string { return []string{".py"} }
func (pythonLanguage) Rules() lang.Rules    { return rules{} }

// compiled holds the language and queries, compiled once per process and
// shared by every extractor.
var compiled = sync.OnceValue(func() *queries {
	l := ts.NewLanguage(tspython.Language())
	all, bounds := lang.NewQueryParts(l, "python/*.scm", defsSource, factsSource)
	return &queries{lang: l, all: all, defsPatterns: bounds[0], statements: newStatementKinds(l)}
})

// queries is defs.scm and facts.scm compiled as one query, so the tree is
// walked once; patterns below defsPatterns come from defs.scm.
type queries struct {
	lang         *ts.Language
	all          *lang.Query
	defsPatterns int
	// statements are the node kinds ExtractSymbols walks.
	statements *statementKinds
}

// Prepare compiles the queries (lang.Preparer).
func (pythonLanguage) Prepare(string) { compiled() }

func (pythonLanguage) NewExtractor() (lang.Extractor, error) {
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
