// Package golang is the Go language: extraction of symbols, imports, calls,
// bindings and references from Go source with tree-sitter, and the rules that
// resolve them (go.mod module paths, packages as directories, method sets
// with embedding, implicit interface satisfaction).
package golang
