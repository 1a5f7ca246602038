package scala

import (
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
)

// grammar is the Scala grammar (tree-sitter/tree-sitter-scala v0.24.0,
// ABI 14), loaded once.
var grammar = sync.OnceValue(func() *ts.Language { return ts.NewLanguage(tsscala.Language()) })
