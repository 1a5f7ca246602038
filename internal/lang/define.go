package lang

import (
	"fmt"
	"io/fs"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Spec declares a language for Define: what it is called, the files it
// reads, its rules, its grammar, how its extractors are made, and the
// claims the history relies on. Q is the type of the language's compiled
// queries (SplitQueries for most; struct{} for a language that has none).
type Spec[Q any] struct {
	Name       string
	Extensions []string
	Rules      Rules
	// RulesOf, when set, stands for Rules: the rules of a language whose
	// family another package joins at init (C and C++).
	RulesOf func() Rules
	// Grammar loads the tree-sitter grammar; Define calls it once.
	Grammar func() *ts.Language
	// Compile compiles the queries of the grammar, once per process, on
	// the first Prepare or NewExtractor; every extractor shares them. A
	// language with Compile is a Preparer.
	Compile func(*ts.Language) Q
	// NewExtractor makes an extractor around base, which parses files and
	// holds the queries; Extract reads with the extractor's ExtractTree.
	NewExtractor func(base *ExtractorBase[Q]) TreeExtractor
	// Walk is, for a language without NewExtractor, the walk of one file
	// that a WalkExtractor runs (with Compile, typically NoQueries, the
	// language is still a Preparer: Prepare loads its grammar).
	Walk func(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *FileFacts

	// StandAlone: the language's top-level declarations stand alone
	// (StandAlone).
	StandAlone bool
	// MemberBodies names the bodies whose members stand alone
	// (MemberBodies); StandAlone languages only.
	MemberBodies []string
	// NumberedName says which symbols are named by their order (Numbered);
	// languages with MemberBodies only.
	NumberedName func(name string) bool
	// ClaimsContent claims files named with another language's extension
	// (ContentClaimer).
	ClaimsContent func(path string, src []byte) bool
}

// Define registers the language spec declares and returns it. The value
// implements the optional interfaces (Preparer, StandAlone, MemberBodies,
// Numbered, ContentClaimer) that the spec's fields ask for, and no other;
// it panics on a combination no language has needed yet.
func Define[Q any](spec Spec[Q]) Language {
	l := newDefined(spec)
	Register(l)
	return l
}

// newDefined makes the language spec declares, unregistered.
func newDefined[Q any](spec Spec[Q]) Language {
	d := &defined[Q]{spec: spec, grammar: sync.OnceValue(spec.Grammar)}
	d.compiled = sync.OnceValue(func() Q {
		var q Q
		if spec.Compile != nil {
			q = spec.Compile(d.grammar())
		}
		return q
	})
	prepares := spec.Compile != nil
	var l Language
	switch {
	case spec.ClaimsContent != nil && !prepares && !spec.StandAlone:
		l = claiming[Q]{d}
	case spec.NumberedName != nil && prepares && spec.StandAlone && spec.MemberBodies != nil:
		l = numbered[Q]{members[Q]{preparedStandAlone[Q]{prepared[Q]{d}}}}
	case spec.MemberBodies != nil && prepares && spec.StandAlone && spec.NumberedName == nil:
		l = members[Q]{preparedStandAlone[Q]{prepared[Q]{d}}}
	case spec.MemberBodies != nil || spec.NumberedName != nil || spec.ClaimsContent != nil:
		panic("lang: Define has no language type for the claims of " + spec.Name)
	case prepares && spec.StandAlone:
		l = preparedStandAlone[Q]{prepared[Q]{d}}
	case prepares:
		l = prepared[Q]{d}
	case spec.StandAlone:
		l = standAlone[Q]{d}
	default:
		l = d
	}
	return l
}

// defined is a language Define made; the types below add the optional
// interfaces its spec asks for.
type defined[Q any] struct {
	spec     Spec[Q]
	grammar  func() *ts.Language
	compiled func() Q
}

func (d *defined[Q]) Name() string         { return d.spec.Name }
func (d *defined[Q]) Extensions() []string { return d.spec.Extensions }

func (d *defined[Q]) Rules() Rules {
	if d.spec.RulesOf != nil {
		return d.spec.RulesOf()
	}
	return d.spec.Rules
}

// NewExtractor makes the spec's extractor around a new ExtractorBase, or a
// WalkExtractor of the spec's walk.
func (d *defined[Q]) NewExtractor() (Extractor, error) {
	if d.spec.NewExtractor == nil {
		return NewWalkExtractor(d.grammar(), d.spec.Walk)
	}
	q := d.compiled()
	tp, err := NewTreeParser(d.grammar())
	if err != nil {
		return nil, err
	}
	b := &ExtractorBase[Q]{TreeParser: tp, Q: q, lang: d.grammar()}
	x := d.spec.NewExtractor(b)
	b.read = x.ExtractTree
	return x, nil
}

type prepared[Q any] struct{ *defined[Q] }

// Prepare compiles the queries (Preparer).
func (p prepared[Q]) Prepare(string) { p.compiled() }

type standAlone[Q any] struct{ *defined[Q] }

func (s standAlone[Q]) StandAloneDeclarations() bool { return s.spec.StandAlone }

type preparedStandAlone[Q any] struct{ prepared[Q] }

func (s preparedStandAlone[Q]) StandAloneDeclarations() bool { return s.spec.StandAlone }

type members[Q any] struct{ preparedStandAlone[Q] }

func (m members[Q]) MemberBodies() []string { return m.spec.MemberBodies }

type numbered[Q any] struct{ members[Q] }

func (n numbered[Q]) NumberedName(name string) bool { return n.spec.NumberedName(name) }

type claiming[Q any] struct{ *defined[Q] }

func (c claiming[Q]) ClaimsContent(path string, src []byte) bool {
	return c.spec.ClaimsContent(path, src)
}

// ExtractorBase is what the extractor of a Define'd language is built on: a
// parser, the language's compiled queries, and Extract and Grammar
// written once. The extractor embeds it and adds ExtractTree (and, for
// the history, ExtractSymbols).
type ExtractorBase[Q any] struct {
	*TreeParser
	// Q are the language's queries, compiled once per process.
	Q    Q
	lang *ts.Language
	read func(path string, src []byte, tree *ts.Tree) (*FileFacts, error)
}

// Grammar is the tree-sitter language the files are parsed with.
func (b *ExtractorBase[Q]) Grammar(string) *ts.Language { return b.lang }

// Extract parses one file and reads its facts off the tree with the
// extractor's ExtractTree.
func (b *ExtractorBase[Q]) Extract(path string, src []byte) (*FileFacts, error) {
	return b.ExtractParsed(path, src, b.read)
}

// NoQueries is the Compile of a language that reads its trees by walking
// them: it has nothing to compile, but Prepare still loads its grammar.
func NoQueries(*ts.Language) struct{} { return struct{}{} }

// SplitCompiler is the Compile of a language with a declarations query
// and a uses query (CompileSplit): queries/defs.scm and the one other
// .scm file of queries/ in fsys, the language's embedded files.
func SplitCompiler(name string, fsys fs.FS) func(*ts.Language) *SplitQueries {
	return func(l *ts.Language) *SplitQueries {
		defs, uses := QuerySources(name, fsys)
		return CompileSplit(l, name, defs, uses)
	}
}

// QuerySources reads a language's two embedded queries: queries/defs.scm
// and the one other .scm file of queries/ in fsys. A missing or extra
// file is a programming error: it panics.
func QuerySources(name string, fsys fs.FS) (defs, uses string) {
	paths, err := fs.Glob(fsys, "queries/*.scm")
	if err != nil || len(paths) != 2 || paths[0] != "queries/defs.scm" && paths[1] != "queries/defs.scm" {
		panic(fmt.Sprintf("lang: %s: want queries/defs.scm and one other query, have %v", name, paths))
	}
	read := func(p string) string {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			panic(fmt.Sprintf("lang: %s: %v", name, err))
		}
		return string(b)
	}
	if paths[0] == "queries/defs.scm" {
		return read(paths[0]), read(paths[1])
	}
	return read(paths[1]), read(paths[0])
}

// NewFileFacts starts the facts of one file of language, src parsed into
// root: its path, line count and syntax errors.
func NewFileFacts(language, path string, src []byte, root *ts.Node) *FileFacts {
	return &FileFacts{Path: path, Language: language, Lines: CountLines(src), SyntaxErrors: CountSyntaxErrors(root)}
}
