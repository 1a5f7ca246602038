// Package lang holds what every supported language shares: the plain facts an
// extractor reads off one file (facts.go), the Language interface and its
// registry, the declaration of a language from a Spec (define.go),
// tree-sitter plumbing, and the resolver that turns the facts of
// all files into graph nodes and edges (program.go, resolve*.go).
//
// Each language lives in its own subpackage (golang, python, typescript,
// java) with its tree-sitter queries in .scm files, its extraction code, the
// rules it adds to the resolver, and its own fixtures.
package lang

import (
	"path"
	"sort"
	"strings"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Language is one supported language.
type Language interface {
	// Name is the language's name as stored on nodes ("go", "python",
	// "typescript", "javascript", "java").
	Name() string
	// Extensions are the lower-case file extensions, with the dot.
	Extensions() []string
	// NewExtractor returns an extractor owned by one goroutine.
	NewExtractor() (Extractor, error)
	// Rules returns the resolution rules of the language's family. Languages
	// that import each other (TypeScript and JavaScript) return the same
	// Rules value, and their files are resolved together.
	Rules() Rules
}

// Extractor turns one file into facts. It is not safe for concurrent use;
// the ingest pipeline creates one per worker.
type Extractor interface {
	Extract(path string, src []byte) (*FileFacts, error)
	Close()
}

// TreeExtractor is an Extractor that also reads trees its caller parsed:
// the history parses each version of a file itself, to know its top-level
// nodes, and hands the tree over.
type TreeExtractor interface {
	Extractor
	// Grammar is the tree-sitter language of a file.
	Grammar(path string) *ts.Language
	// ExtractTree is Extract on a tree of src parsed with Grammar(path).
	// The tree stays the caller's.
	ExtractTree(path string, src []byte, tree *ts.Tree) (*FileFacts, error)
}

// SymbolReader is an Extractor that can also read a file's symbols alone
// (kinds, names, qualified names, lines, parameters), skipping calls,
// bindings and references: what the history needs of each version of a
// file. A test checks that the symbols are those Extract finds.
type SymbolReader interface {
	ExtractSymbols(path string, src []byte, tree *ts.Tree) (*FileFacts, error)
}

// StandAlone is implemented by languages whose top-level declarations
// stand alone: the symbols a declaration makes depend on its own text only
// (not on other declarations of the file), so extracting a file whose
// other lines are empty yields that declaration's symbols with their
// lines. The history then re-reads only the declarations a commit touched.
// history.TestDeriveMatchesFullParse checks the claim on real edits.
type StandAlone interface {
	StandAloneDeclarations() bool
}

// StandAloneTree is implemented by StandAlone languages whose claim has
// exceptions that a file's syntax tree shows: a TypeScript overload
// signature is a symbol or not depending on the declarations after it and
// on the signatures of the same name before it. The history reads a file
// whole, before and after a commit, when StandsAlone rejects its tree, or
// the tree of the declarations the commit touched read alone.
type StandAloneTree interface {
	StandsAlone(root *ts.Node) bool
}

// MemberBodies is implemented by StandAlone languages whose type (or
// namespace) bodies hold members that stand alone as top-level
// declarations do, in the context of the type's head: MemberBodies names
// the kinds of those bodies' syntax nodes. The history then re-reads only
// the members a commit touched, with the head and the foot of their type.
// history.TestDeriveMatchesFullParse checks the claim on real edits.
type MemberBodies interface {
	MemberBodies() []string
}

// MemberBodyChecker is implemented by MemberBodies languages whose bodies'
// members stand alone in some bodies only: MembersStandAlone says whether
// those of body (a node of src) do. The history reads a body it rejects
// whole.
type MemberBodyChecker interface {
	MembersStandAlone(body *ts.Node, src []byte) bool
}

// Numbered is implemented by StandAlone languages that name some symbols
// by their order in the enclosing type (Java's anonymous and local
// classes: Outer$1, Outer$1Local). The members of a class that holds such
// symbols do not stand alone: the history reads the class whole.
type Numbered interface {
	NumberedName(name string) bool
}

// ContentClaimer is implemented by a language that also reads files
// named with another language's extension when their content is written
// in it: C++ headers named `.h`, an extension C registers. ForFile asks it
// before going by the extension.
type ContentClaimer interface {
	// ClaimsContent reports whether the file at path, with content src,
	// is written in this language.
	ClaimsContent(path string, src []byte) bool
}

var (
	registryMu sync.RWMutex
	languages  []Language
	byExt      = map[string]Language{}
	claimers   []Language
)

// Register adds a language. It panics when an extension is claimed twice,
// which is a programming error.
func Register(l Language) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, ext := range l.Extensions() {
		if prev, ok := byExt[ext]; ok {
			panic("lang: extension " + ext + " registered by " + prev.Name() + " and " + l.Name())
		}
		byExt[ext] = l
	}
	languages = append(languages, l)
	sort.Slice(languages, func(i, j int) bool { return languages[i].Name() < languages[j].Name() })
	if _, ok := l.(ContentClaimer); ok {
		claimers = append(claimers, l)
		sort.Slice(claimers, func(i, j int) bool { return claimers[i].Name() < claimers[j].Name() })
	}
}

// ForFile returns the language of a file by its content where a language
// claims it (ContentClaimer), else by its extension, or nil.
func ForFile(p string, src []byte) Language {
	registryMu.RLock()
	cs := claimers
	registryMu.RUnlock()
	for _, l := range cs {
		if l.(ContentClaimer).ClaimsContent(p, src) {
			return l
		}
	}
	return ForPath(p)
}

// Preparer is a Language that can get ready for a file before one is
// extracted: compile the queries its grammar needs (once per process, tens
// of milliseconds for TypeScript), while the caller waits for something
// else instead of the first file's extraction waiting for it.
type Preparer interface {
	Prepare(path string)
}

// Prepare gets the languages of these files ready (Preparer), each grammar
// once; files of other languages are passed over.
func Prepare(paths []string) {
	done := map[string]bool{} // by language and extension
	for _, p := range paths {
		l := ForPath(p)
		pr, ok := l.(Preparer)
		if !ok {
			continue
		}
		if k := l.Name() + strings.ToLower(path.Ext(p)); !done[k] {
			done[k] = true
			pr.Prepare(p)
		}
	}
}

// ForPath returns the language of a file by its extension, or nil.
func ForPath(p string) Language {
	ext := strings.ToLower(path.Ext(p))
	if ext == "" {
		return nil
	}
	registryMu.RLock()
	defer registryMu.RUnlock()
	return byExt[ext]
}

// ByName returns the language registered under this name (Language.Name,
// FileFacts.Language), or nil.
func ByName(name string) Language {
	registryMu.RLock()
	defer registryMu.RUnlock()
	for _, l := range languages {
		if l.Name() == name {
			return l
		}
	}
	return nil
}

// All returns the registered languages sorted by name.
func All() []Language {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return append([]Language(nil), languages...)
}
