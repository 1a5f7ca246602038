package lang

/*
#include <stdlib.h>
#include <stdint.h>
// Declared by the tree-sitter runtime that go-tree-sitter links in.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
static void gitnexus_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// The go-tree-sitter bindings route every allocation of the C runtime through
// Go callbacks. Resetting the runtime to libc malloc, once, before any parser
// exists, parses about 1.5x faster (measured on the Go standard library). The
// bindings' own init has run by the time this one does, as it is a dependency.
func init() {
	C.gitnexus_use_libc_allocator()
	// Parse relies on Parser and Tree being a single C pointer, as they are
	// in go-tree-sitter v0.25.0; fail loudly if an upgrade changes that.
	if unsafe.Sizeof(ts.Parser{}) != unsafe.Sizeof(uintptr(0)) || unsafe.Sizeof(ts.Tree{}) != unsafe.Sizeof(uintptr(0)) {
		panic("lang: go-tree-sitter's Parser or Tree layout changed; revisit lang.Parse")
	}
}

// Parse parses src in one call to ts_parser_parse_string. The bindings'
// Parser.Parse feeds the text through a Go read callback that copies the
// rest of the file into C memory on every call; parsing the whole buffer in
// place avoids those copies (tree-sitter keeps no pointer to the text once
// parsing returns, so passing Go memory for the duration of the call is
// within cgo's rules). It returns nil when the parser gives up.
func Parse(p *ts.Parser, src []byte) *ts.Tree {
	inner := *(*unsafe.Pointer)(unsafe.Pointer(p))
	var data *C.char
	if len(src) > 0 {
		data = (*C.char)(unsafe.Pointer(&src[0]))
	}
	t := C.ts_parser_parse_string((*C.TSParser)(inner), nil, data, C.uint32_t(len(src)))
	if t == nil {
		return nil
	}
	tree := new(ts.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(tree)) = unsafe.Pointer(t)
	return tree
}

// Query is a compiled tree-sitter query with its capture names indexed.
// A compiled query is immutable and may be shared by all workers; each use
// needs its own cursor.
type Query struct {
	q       *ts.Query
	capture map[string]uint32
}

// NewQuery compiles src for language l. The error names the query and the
// position of the problem.
func NewQuery(l *ts.Language, name, src string) (*Query, error) {
	q, qerr := ts.NewQuery(l, src)
	if qerr != nil {
		return nil, fmt.Errorf("query %s: %s", name, qerr.Error())
	}
	out := &Query{q: q, capture: map[string]uint32{}}
	for i, n := range q.CaptureNames() {
		out.capture[n] = uint32(i)
	}
	return out, nil
}

// MustQuery is NewQuery for queries embedded in the binary, where a compile
// error is a programming error caught by every test.
func MustQuery(l *ts.Language, name, src string) *Query {
	q, err := NewQuery(l, name, src)
	if err != nil {
		panic(err)
	}
	return q
}

// Capture returns the index of a capture name; it panics on an unknown name
// so that a typo fails every test at once.
func (q *Query) Capture(name string) uint32 {
	i, ok := q.capture[name]
	if !ok {
		panic("lang: query has no capture @" + name)
	}
	return i
}

// PatternCount is the number of patterns in the query.
func (q *Query) PatternCount() int { return int(q.q.PatternCount()) }

// Match is one query match: the pattern index and its captures. The nodes
// are copies and stay valid while the tree is alive.
type Match struct {
	Pattern  int
	Captures []ts.QueryCapture
}

// Node returns the first node captured with index c, or nil.
func (m *Match) Node(c uint32) *ts.Node {
	for i := range m.Captures {
		if m.Captures[i].Index == c {
			return &m.Captures[i].Node
		}
	}
	return nil
}

// Nodes returns every node captured with index c.
func (m *Match) Nodes(c uint32) []*ts.Node {
	var out []*ts.Node
	for i := range m.Captures {
		if m.Captures[i].Index == c {
			out = append(out, &m.Captures[i].Node)
		}
	}
	return out
}

// Run executes the query over root and calls fn for each match, in the order
// tree-sitter finds them (by start position). It uses Matches, not Captures:
// the bindings' Captures leaks C memory on every capture.
func (q *Query) Run(cursor *ts.QueryCursor, root *ts.Node, src []byte, fn func(m *Match)) {
	matches := cursor.Matches(q.q, root, src)
	var m Match
	for qm := matches.Next(); qm != nil; qm = matches.Next() {
		m.Pattern = int(qm.PatternIndex)
		m.Captures = append(m.Captures[:0], qm.Captures...)
		fn(&m)
	}
}

// Collect runs the query and returns every match with its captures copied,
// so that a caller can process them in several passes while the tree lives.
func (q *Query) Collect(cursor *ts.QueryCursor, root *ts.Node, src []byte) []Match {
	var out []Match
	q.Run(cursor, root, src, func(m *Match) {
		out = append(out, Match{Pattern: m.Pattern, Captures: append([]ts.QueryCapture(nil), m.Captures...)})
	})
	return out
}

// CollectSplit runs a query built from two sources (declarations, then
// uses) in one walk of the tree and returns the matches of the first n
// patterns and of the others apart, each in document order. One walk costs
// about half of two: query matching is a large part of extraction.
func (q *Query) CollectSplit(cursor *ts.QueryCursor, root *ts.Node, src []byte, n int) (first, rest []Match) {
	parts := q.CollectParts(cursor, root, src, n)
	return parts[0], parts[1]
}

// CollectParts is CollectSplit for a query built from several sources:
// bounds are the pattern counts at which each source after the first
// starts, and part i holds the matches of source i.
func (q *Query) CollectParts(cursor *ts.QueryCursor, root *ts.Node, src []byte, bounds ...int) [][]Match {
	parts := make([][]Match, len(bounds)+1)
	for _, m := range q.Collect(cursor, root, src) {
		part := 0
		for part < len(bounds) && m.Pattern >= bounds[part] {
			part++
		}
		parts[part] = append(parts[part], m)
	}
	return parts
}

// NewQueryParts compiles several query sources as one query and returns the
// pattern counts at which each source after the first starts (for
// CollectParts).
func NewQueryParts(l *ts.Language, name string, sources ...string) (*Query, []int) {
	// The query is compiled once; which part a pattern comes from is told
	// by where it starts in the joined source (compiling each part again
	// to count its patterns doubled the compile time).
	var ends []uint // byte offset where each part but the last ends
	off := 0
	for _, src := range sources[:len(sources)-1] {
		off += len(src) + 1 // the newline that joins it to the next
		ends = append(ends, uint(off))
	}
	q := MustQuery(l, name, strings.Join(sources, "\n"))
	n := q.q.PatternCount()
	bounds := make([]int, len(ends))
	p := uint(0)
	for k, end := range ends {
		for p < n && q.q.StartByteForPattern(p) < end {
			p++
		}
		bounds[k] = int(p)
	}
	return q, bounds
}

// Close releases the query.
func (q *Query) Close() { q.q.Close() }

// Text returns the source text of n as a valid UTF-8 string.
func Text(n *ts.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return ValidUTF8(string(src[n.StartByte():n.EndByte()]))
}

// ValidUTF8 replaces invalid byte sequences so that every string we store is
// valid UTF-8.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// SpanOf returns the span of n.
func SpanOf(n *ts.Node) Span {
	s, e := n.StartPosition(), n.EndPosition()
	endLine := int(e.Row) + 1
	// A node that ends at column 0 ends on the previous line (a trailing
	// newline belongs to it).
	if e.Column == 0 && e.Row > s.Row {
		endLine--
	}
	return Span{StartLine: int(s.Row) + 1, EndLine: endLine, StartByte: uint32(n.StartByte()), EndByte: uint32(n.EndByte())}
}

// Line returns the 1-based line on which n starts.
func Line(n *ts.Node) int { return int(n.StartPosition().Row) + 1 }

// CountSyntaxErrors counts ERROR and MISSING nodes below root, visiting only
// subtrees that contain errors.
func CountSyntaxErrors(root *ts.Node) int {
	if !root.HasError() {
		return 0
	}
	count := 0
	c := root.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsError() || n.IsMissing() {
			count++
		}
		if n.HasError() && !n.IsError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return count
			}
		}
	}
}

// MaxContent is the cap on a symbol's stored source, in bytes.
const MaxContent = 4096

// Content returns the source of a span capped at MaxContent bytes, cut at a
// line boundary when possible and always valid UTF-8.
func Content(src []byte, sp Span) string {
	b := src[sp.StartByte:sp.EndByte]
	if len(b) > MaxContent {
		cut := b[:MaxContent]
		if i := strings.LastIndexByte(string(cut), '\n'); i > MaxContent/2 {
			cut = cut[:i+1]
		}
		b = cut
	}
	return ValidUTF8(string(b))
}

// Cap bounds s to n bytes, cut at a character boundary, with an ellipsis
// when it was cut: a stored string stays valid UTF-8.
func Cap(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// OneLine collapses whitespace runs (including newlines) to single spaces,
// for signatures.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// FirstParagraph returns the first paragraph of a cleaned doc comment: the
// lines up to the first blank line, joined with spaces.
func FirstParagraph(lines []string) string {
	var out []string
	started := false
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			if started {
				break
			}
			continue
		}
		started = true
		out = append(out, l)
	}
	return ValidUTF8(strings.Join(out, " "))
}

// CountLines returns the number of lines in src (a final line without a
// newline counts).
func CountLines(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte{'\n'})
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// TreeParser is what an extractor owns to read files of one grammar: a
// parser and a query cursor, neither safe for concurrent use.
type TreeParser struct {
	parser *ts.Parser
	Cursor *ts.QueryCursor
}

// NewTreeParser returns a parser for grammar l.
func NewTreeParser(l *ts.Language) (*TreeParser, error) {
	p := ts.NewParser()
	if err := p.SetLanguage(l); err != nil {
		p.Close()
		return nil, err
	}
	return &TreeParser{parser: p, Cursor: ts.NewQueryCursor()}, nil
}

// Parse parses one file (with Parse); the caller closes the tree.
func (t *TreeParser) Parse(path string, src []byte) (*ts.Tree, error) {
	tree := Parse(t.parser, src)
	if tree == nil {
		return nil, fmt.Errorf("parse %s: the parser returned no tree", path)
	}
	return tree, nil
}

// ExtractParsed is the Extract of an extractor that reads parsed trees:
// it parses src, reads the facts off the tree with read (the extractor's
// ExtractTree) and closes the tree.
func (t *TreeParser) ExtractParsed(path string, src []byte, read func(path string, src []byte, tree *ts.Tree) (*FileFacts, error)) (*FileFacts, error) {
	tree, err := t.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return read(path, src, tree)
}

// Close releases the parser and the cursor.
func (t *TreeParser) Close() {
	t.Cursor.Close()
	t.parser.Close()
}

// SplitQueries are a language's declarations query (defs.scm) and its
// uses query compiled once per process and shared by every extractor:
// All runs both as one query, so a tree is walked once, and its patterns
// below DefsPatterns are the declarations'; Defs is the declarations'
// query alone, for reading symbols without their uses.
type SplitQueries struct {
	Lang         *ts.Language
	All          *Query
	DefsPatterns int
	Defs         *Query
}

// Read runs the declarations and uses queries over root as one query and
// hands their matches to defs, then to uses: the declarations must all be
// known before uses are attributed to them.
func (q *SplitQueries) Read(c *ts.QueryCursor, root *ts.Node, src []byte, defs, uses func(*Query, []Match)) {
	d, u := q.All.CollectSplit(c, root, src, q.DefsPatterns)
	defs(q.All, d)
	uses(q.All, u)
}

// ReadDefs runs the declarations' query alone over root and hands its
// matches to defs: the symbols of a file without their uses.
func (q *SplitQueries) ReadDefs(c *ts.QueryCursor, root *ts.Node, src []byte, defs func(*Query, []Match)) {
	defs(q.Defs, q.Defs.Collect(c, root, src))
}

// CompileSplit compiles a language's declarations and uses queries; name
// labels them in errors ("go" gives go/defs.scm).
func CompileSplit(l *ts.Language, name, defs, uses string) *SplitQueries {
	all, bounds := NewQueryParts(l, name+"/*.scm", defs, uses)
	return &SplitQueries{Lang: l, All: all, DefsPatterns: bounds[0], Defs: MustQuery(l, name+"/defs.scm", defs)}
}
