// Package ruby is the Ruby language: extraction of modules, classes,
// methods, attributes and constants from Ruby source with tree-sitter,
// and the rules that resolve them the way Ruby loads and dispatches:
// require_relative against the requiring file, require against the load
// path (lib/ and the repository root), Zeitwerk autoload paths (a
// constant Foo::BarBaz lives in foo/bar_baz.rb under app/models,
// app/controllers or lib), and method lookup through the class, its
// included modules and its superclass chain.
//
// Modules are Interface nodes: they hold methods that classes mix in
// (`include M`, `prepend M` and `extend M` are IMPLEMENTS edges) and nest
// constants.
// Dynamic dispatch (`send`, `public_send`, `method_missing`,
// `define_method`) gives no edges: the called name is data.
package ruby

import (
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsr "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Language is the registered Ruby language.
var Language lang.Language = rubyLanguage{}

func init() { lang.Register(Language) }

type rubyLanguage struct{}

func (rubyLanguage) Name() string { return "ruby" }
func (rubyLanguage) Extensions() []string {
	return []string{".rb", ".rake"}
}
func (rubyLanguage) Rules() lang.Rules { return rules{} }

// StandAloneDeclarations: a top-level Ruby declaration's symbols come
// from its own text (visibility and mixins are written inside a class
// body; a class reopened elsewhere is a declaration of its own).
func (rubyLanguage) StandAloneDeclarations() bool { return true }

var compiled = sync.OnceValue(func() *queries {
	l := ts.NewLanguage(tsr.Language())
	return &queries{lang: l}
})

// queries holds the grammar; Ruby's declarations are read by walking the
// tree (extract.go), as a class body's meaning depends on the order of
// its statements (`private` applies to the methods after it).
type queries struct {
	lang *ts.Language
}

// Prepare compiles the queries (lang.Preparer).
func (rubyLanguage) Prepare(string) { compiled() }

func (rubyLanguage) NewExtractor() (lang.Extractor, error) {
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
