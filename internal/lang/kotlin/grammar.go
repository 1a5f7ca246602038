package kotlin

import (
	"sync"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	ts "github.com/tree-sitter/go-tree-sitter"
)

// grammar is the Kotlin grammar (tree-sitter-grammars/tree-sitter-kotlin
// v1.1.0, ABI 14), loaded once.
var grammar = sync.OnceValue(func() *ts.Language { return ts.NewLanguage(tskotlin.Language()) })
