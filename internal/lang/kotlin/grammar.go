// Package kotlin will be the Kotlin language. For now it holds only the
// Kotlin grammar (tree-sitter-grammars/tree-sitter-kotlin v1.1.0, ABI 14)
// and a test that pins the syntax the extractor is to read; it is not
// registered with the ingest pipeline, so Kotlin files are not indexed yet.
package kotlin

import (
	"sync"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	ts "github.com/tree-sitter/go-tree-sitter"
)

// grammar is the Kotlin grammar, loaded once.
var grammar = sync.OnceValue(func() *ts.Language { return ts.NewLanguage(tskotlin.Language()) })
