package python

import (
	"embed"

	ts "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

//go:embed queries/*.scm
var queryFiles embed.FS

// Language is the registered Python language. It claims `.py` only: stub
// files (`.pyi`) restate declarations that a `.py` file of the repository
// usually defines too, and indexing both would give every stubbed name two
// definitions and every call two targets.
var Language = lang.Define(lang.Spec[*queries]{
	Name:         "python",
	Extensions:   []string{".py"},
	Rules:        rules{},
	Grammar:      func() *ts.Language { return ts.NewLanguage(tspython.Language()) },
	Compile:      compile,
	NewExtractor: func(b *lang.ExtractorBase[*queries]) lang.TreeExtractor { return &extractor{b} },
})

// queries is defs.scm and facts.scm compiled as one query, so the tree is
// walked once; patterns below defsPatterns come from defs.scm.
type queries struct {
	all          *lang.Query
	defsPatterns int
	// statements are the node kinds ExtractSymbols walks.
	statements *statementKinds
}

func compile(l *ts.Language) *queries {
	defs, facts := lang.QuerySources("python", queryFiles)
	all, bounds := lang.NewQueryParts(l, "python/*.scm", defs, facts)
	return &queries{all: all, defsPatterns: bounds[0], statements: newStatementKinds(l)}
}

// extractor reads Python files with the queries (e.Q).
type extractor struct {
	*lang.ExtractorBase[*queries]
}
