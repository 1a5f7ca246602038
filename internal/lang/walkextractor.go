package lang

import ts "github.com/tree-sitter/go-tree-sitter"

// WalkExtractor is the extractor of a language whose facts are read by
// one walk of the syntax tree (C#, Kotlin, PHP, Ruby, Scala): the walk
// reads symbols, and with symbolsOnly false also calls, bindings and
// imports, so that the same walk serves the index and, symbols only, the
// history (SymbolReader).
type WalkExtractor struct {
	*TreeParser
	grammar *ts.Language
	read    func(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *FileFacts
}

// NewWalkExtractor makes the extractor of grammar whose walk is read.
func NewWalkExtractor(grammar *ts.Language, read func(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *FileFacts) (*WalkExtractor, error) {
	tp, err := NewTreeParser(grammar)
	if err != nil {
		return nil, err
	}
	return &WalkExtractor{TreeParser: tp, grammar: grammar, read: read}, nil
}

// Grammar is the tree-sitter language the files are parsed with.
func (e *WalkExtractor) Grammar(string) *ts.Language { return e.grammar }

// Extract parses one file and returns its facts.
func (e *WalkExtractor) Extract(path string, src []byte) (*FileFacts, error) {
	tree, err := e.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return e.ExtractTree(path, src, tree)
}

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *WalkExtractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*FileFacts, error) {
	return e.read(path, src, tree, false), nil
}

// ExtractSymbols reads the symbols of a tree of src alone: the same walk,
// recording no calls, bindings or imports.
func (e *WalkExtractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*FileFacts, error) {
	return e.read(path, src, tree, true), nil
}
