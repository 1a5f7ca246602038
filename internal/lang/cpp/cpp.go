package cpp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// Language is the registered C++ language.
var Language = lang.Define(lang.Spec[struct{}]{
	Name:          "cpp",
	Extensions:    []string{".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"},
	Rules:         familyRules,
	Grammar:       grammar,
	NewExtractor:  func(b *lang.ExtractorBase[struct{}]) lang.TreeExtractor { return &extractor{b} },
	ClaimsContent: claimsContent,
})

func init() { c.JoinFamily(familyRules) }

// claimsContent: a `.h` file is C++ when a line of its code declares a
// class, a namespace or a template, or uses `::`.
func claimsContent(path string, src []byte) bool {
	return strings.HasSuffix(strings.ToLower(path), ".h") && c.IsCPlusPlusHeader(path, src)
}

// grammar is the C++ grammar (tree-sitter-cpp v0.23.4).
func grammar() *ts.Language { return ts.NewLanguage(tscpp.Language()) }

// extractor reads C++ files: the file is parsed with its export macros
// specifier macros blanked (macros.go) and its text read as written.
type extractor struct {
	*lang.ExtractorBase[struct{}]
}

// Extract parses one file and returns its facts.
func (e *extractor) Extract(path string, src []byte) (*lang.FileFacts, error) {
	return e.read(path, src, nil, false)
}

// ExtractTree reads the facts off a tree of src the caller parsed; a
// file with export macros is parsed again without them.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	return e.read(path, src, tree, false)
}

// ExtractSymbols reads the symbols alone: the same walk, recording no
// calls, bindings or imports.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	return e.read(path, src, tree, true)
}

func (e *extractor) read(path string, src []byte, tree *ts.Tree, symbolsOnly bool) (*lang.FileFacts, error) {
	parsed := withoutSpecifierMacros(src)
	if tree == nil || len(parsed) > 0 && &parsed[0] != &src[0] {
		own, err := e.Parse(path, parsed)
		if err != nil {
			return nil, err
		}
		defer own.Close()
		tree = own
	}
	return extract(path, src, tree, symbolsOnly), nil
}

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and includes.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	facts := lang.NewFileFacts("cpp", path, src, root)
	x := &extraction{src: src, facts: facts, scopes: lang.NewScopeFinder(&facts.Symbols),
		symbolsOnly: symbolsOnly, macros: map[string]bool{}, refs: map[refKey]bool{}}
	x.declarations(root, context{parent: -1})
	return x.facts
}
