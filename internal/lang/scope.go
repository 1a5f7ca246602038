package lang

import (
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// ScopeFinder answers "which symbol encloses this byte offset" for the
// symbols of one file. Symbols must be appended in document order with each
// parent before its children, which is how every extractor emits them.
type ScopeFinder struct {
	syms *[]Symbol
}

// NewScopeFinder returns a finder over *syms; it sees symbols appended later.
func NewScopeFinder(syms *[]Symbol) ScopeFinder { return ScopeFinder{syms: syms} }

// Innermost returns the index of the innermost symbol whose span contains
// pos and for which accept returns true, or -1.
func (f ScopeFinder) Innermost(pos uint32, accept func(*Symbol) bool) int {
	syms := *f.syms
	// The last symbol starting at or before pos. Spans nest properly, so any
	// symbol containing pos is that symbol or one of its ancestors.
	i := sort.Search(len(syms), func(i int) bool { return syms[i].StartByte > pos }) - 1
	for j := i; j >= 0; j = syms[j].Parent {
		if syms[j].Contains(pos) && accept(&syms[j]) {
			return j
		}
	}
	return -1
}

// CallScope returns the innermost callable enclosing pos, else the innermost
// type, else -1 (file level). Calls and references are attributed to it.
func (f ScopeFinder) CallScope(pos uint32) int {
	if i := f.Innermost(pos, func(s *Symbol) bool { return s.Kind.IsCallable() }); i >= 0 {
		return i
	}
	return f.Innermost(pos, func(s *Symbol) bool { return s.Kind.IsType() })
}

// CommentsBefore returns the text of the comments that end on the line just
// above n (or on the line above the previous comment, repeatedly), in source
// order. It is the usual shape of a doc comment in Go, Java and TS.
func CommentsBefore(n *ts.Node, src []byte, isComment func(*ts.Node) bool) []string {
	var out []string
	line := int(n.StartPosition().Row)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		if !isComment(p) {
			break
		}
		end := p.EndPosition()
		endRow := int(end.Row)
		if end.Column == 0 && endRow > int(p.StartPosition().Row) {
			endRow--
		}
		if endRow != line-1 && endRow != line {
			break
		}
		out = append(out, Text(p, src))
		line = int(p.StartPosition().Row)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// DocBlock is the first paragraph of the last `/** */` comment (a node
// of kind comment) right above n: the doc of a declaration in Kotlin,
// Scala and PHP.
func DocBlock(n *ts.Node, src []byte, comment string) string {
	texts := CommentsBefore(n, src, func(c *ts.Node) bool {
		return c.Kind() == comment && strings.HasPrefix(Text(c, src), "/**")
	})
	if len(texts) == 0 {
		return ""
	}
	return FirstParagraph(CleanComment(texts[len(texts)-1:]))
}

// CleanComment strips comment markers (//, #, /* */, /** */, leading *) from
// comment texts and returns the lines.
func CleanComment(texts []string) []string {
	var lines []string
	for _, t := range texts {
		t = strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(t, "/*"):
			t = strings.TrimPrefix(t, "/**")
			t = strings.TrimPrefix(t, "/*")
			t = strings.TrimSuffix(t, "*/")
			for _, l := range strings.Split(t, "\n") {
				l = strings.TrimSpace(l)
				l = strings.TrimPrefix(l, "*")
				lines = append(lines, strings.TrimSpace(l))
			}
		case strings.HasPrefix(t, "//"):
			lines = append(lines, strings.TrimSpace(strings.TrimLeft(t, "/")))
		case strings.HasPrefix(t, "#"):
			lines = append(lines, strings.TrimSpace(strings.TrimLeft(t, "#")))
		default:
			lines = append(lines, t)
		}
	}
	return lines
}
