package typescript

import (
	"fmt"
	"strings"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// TypeScript and JavaScript are the registered languages.
var (
	TypeScript lang.Language = language{name: "typescript", exts: []string{".ts", ".tsx", ".mts", ".cts"}}
	JavaScript lang.Language = language{name: "javascript", exts: []string{".js", ".jsx", ".mjs", ".cjs"}}
)

func init() {
	lang.Register(TypeScript)
	lang.Register(JavaScript)
}

type language struct {
	name string
	exts []string
}

func (l language) Name() string         { return l.name }
func (l language) Extensions() []string { return l.exts }

// Rules is shared by both languages: rules{} values are equal, so the
// pipeline resolves .ts and .js files as one family.
func (language) Rules() lang.Rules { return rules{} }

// StandAloneDeclarations: a top-level declaration's symbols come from its
// own text, but for overload signatures (StandsAlone).
func (language) StandAloneDeclarations() bool { return true }

// StandsAlone rejects files with function signatures at module level (in
// the file, a namespace or an ambient module or global block): of a run
// of overloads, the first signature is a symbol unless an implementation
// follows, and another signature of its name earlier in the file makes it
// none, so a signature's symbol depends on other top-level declarations.
// Checked with history.TestDeriveMatchesFullParse on colinhacks/zod,
// fastify/fastify and sindresorhus/got (300 commits each).
func (language) StandsAlone(root *ts.Node) bool { return !hasModuleSignature(root) }

// MemberBodies: the members of a class or interface body, or of an object
// type, stand alone in it, but for those that share a name
// (MembersStandAlone).
func (language) MemberBodies() []string {
	return []string{"class_body", "interface_body", "object_type"}
}

// MembersStandAlone rejects a body two of whose members share a name: a
// run of overload signatures is one symbol, and a signature the class
// implements is none, so such a member's symbol depends on the others.
// Properties that a method's `this.x = ...` makes are the history's to
// notice (they lie inside another member's lines).
func (language) MembersStandAlone(body *ts.Node, src []byte) bool {
	seen := map[string]bool{}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		if c == nil {
			continue
		}
		n := c.ChildByFieldName("name")
		if n == nil {
			continue
		}
		name := lang.Text(n, src)
		if seen[name] {
			return false
		}
		seen[name] = true
	}
	return true
}

// hasModuleSignature reports a function signature among the statements
// of n at module level.
func hasModuleSignature(n *ts.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "function_signature":
			return true
		case "export_statement", "ambient_declaration", "expression_statement", "internal_module", "module", "statement_block":
			if hasModuleSignature(c) {
				return true
			}
		}
	}
	return false
}

// grammar is one tree-sitter grammar with the patterns the extractor
// reads.
type grammar struct {
	lang *ts.Language
	// all is the declarations, module statements and uses, found in one
	// walk of the tree and split back into the three parts.
	all *lang.Kinds
	// symbols is the declarations and the assignments, all that the
	// symbols of a file depend on (symbols.go).
	symbols *lang.Kinds
	// typed: the grammar has TypeScript's node kinds.
	typed bool
	// shapes complete the single-node matches (shapes.go).
	shapes *shapes
}

func compile(l *ts.Language, label string, typed bool) *grammar {
	defer timeline.Mark("%s patterns ready", label)
	defs := jsDefs
	if typed {
		defs = tsDefs
	}
	return &grammar{lang: l, typed: typed, all: lang.NewKinds(l, label, defs, modulePatterns, usePatterns),
		symbols: lang.NewKinds(l, label, defs, assignPatterns), shapes: newShapes(l)}
}

// The grammars are made ready once per process and shared by every
// extractor.
var (
	tsGrammar  = sync.OnceValue(func() *grammar { return compile(ts.NewLanguage(tsts.LanguageTypescript()), "typescript", true) })
	tsxGrammar = sync.OnceValue(func() *grammar { return compile(ts.NewLanguage(tsts.LanguageTSX()), "tsx", true) })
	jsGrammar  = sync.OnceValue(func() *grammar { return compile(ts.NewLanguage(tsjs.Language()), "javascript", false) })
)

// NewExtractor returns an extractor that makes a parser for each grammar
// (TypeScript, TSX or JavaScript) when its first file comes: a re-index of
// one .ts file does not make the others.
func (l language) NewExtractor() (lang.Extractor, error) {
	return &extractor{language: l.name, parsers: map[*grammar]*lang.TreeParser{}}, nil
}

type extractor struct {
	language string
	parsers  map[*grammar]*lang.TreeParser
}

// parser returns the extractor's parser for g, made on first use.
func (e *extractor) parser(g *grammar) (*lang.TreeParser, error) {
	if p, ok := e.parsers[g]; ok {
		return p, nil
	}
	p, err := lang.NewTreeParser(g.lang)
	if err != nil {
		return nil, fmt.Errorf("%s parser: %w", e.language, err)
	}
	e.parsers[g] = p
	return p, nil
}

// grammarFor picks the grammar of a file by its extension.
func (e *extractor) grammarFor(path string) *grammar { return grammarFor(e.language, path) }

func grammarFor(language, path string) *grammar {
	if language != "typescript" {
		return jsGrammar()
	}
	if strings.HasSuffix(strings.ToLower(path), ".tsx") {
		return tsxGrammar()
	}
	return tsGrammar()
}

// Prepare makes ready the grammar a file of this path needs
// (lang.Preparer).
func (l language) Prepare(path string) { grammarFor(l.name, path) }

func (e *extractor) Close() {
	for _, p := range e.parsers {
		p.Close()
	}
}

// isDeclarationFile reports .d.ts, .d.mts and .d.cts files.
func isDeclarationFile(path string) bool {
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}
