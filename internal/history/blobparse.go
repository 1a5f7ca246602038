package history

import (
	"fmt"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// blobParser turns blobs into symbol tables for one worker: the language
// extractors and, for extractors that read trees, a parser per grammar,
// so that the syntax units of each version are known and the version
// before a commit can be derived from the version after it (derive.go).
type blobParser struct {
	extractors map[string]lang.Extractor
	parsers    map[*ts.Language]*lang.TreeParser
	bodies     map[string]map[string]bool // by language: bodyKinds
	// full forces whole-file extraction (tests compare it with derivation).
	full bool
}

func newBlobParser(full bool) *blobParser {
	return &blobParser{extractors: map[string]lang.Extractor{}, parsers: map[*ts.Language]*lang.TreeParser{},
		bodies: map[string]map[string]bool{}, full: full}
}

func (b *blobParser) close() {
	for _, ex := range b.extractors {
		ex.Close()
	}
	for _, p := range b.parsers {
		p.Close()
	}
}

func (b *blobParser) extractor(l lang.Language) (lang.Extractor, error) {
	if ex, ok := b.extractors[l.Name()]; ok {
		return ex, nil
	}
	ex, err := l.NewExtractor()
	if err != nil {
		return nil, fmt.Errorf("%s extractor: %w", l.Name(), err)
	}
	b.extractors[l.Name()] = ex
	return ex, nil
}

// bodyKinds are the kinds of member bodies of l (lang.MemberBodies), as
// a set; nil for none.
func (b *blobParser) bodyKinds(l lang.Language) map[string]bool {
	kinds, ok := b.bodies[l.Name()]
	if !ok {
		if mb, isMB := l.(lang.MemberBodies); isMB {
			kinds = map[string]bool{}
			for _, k := range mb.MemberBodies() {
				kinds[k] = true
			}
		}
		b.bodies[l.Name()] = kinds
	}
	return kinds
}

func (b *blobParser) treeParser(g *ts.Language) (*lang.TreeParser, error) {
	if p, ok := b.parsers[g]; ok {
		return p, nil
	}
	p, err := lang.NewTreeParser(g)
	if err != nil {
		return nil, err
	}
	b.parsers[g] = p
	return p, nil
}

// parse reads a whole blob. A panic in an extractor is an error for that
// blob only.
func (b *blobParser) parse(l lang.Language, path string, src []byte) (t *symbolTable, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("extract %s: %v", path, p)
		}
	}()
	ex, err := b.extractor(l)
	if err != nil {
		return nil, err
	}
	tx, ok := ex.(lang.TreeExtractor)
	if !ok {
		f, err := ex.Extract(path, src)
		if err != nil {
			return nil, err
		}
		return newSymbolTable(f, nil), nil
	}
	f, units, err := b.extractTree(l, tx, path, src)
	if err != nil {
		return nil, err
	}
	return newSymbolTable(f, units), nil
}

// extractTree parses src, lists its syntax units (unitsOf; none when they
// are not known to stand alone: a syntax error, lang.StandAloneTree) and
// extracts it.
func (b *blobParser) extractTree(l lang.Language, tx lang.TreeExtractor, path string, src []byte) (*lang.FileFacts, []unit, error) {
	tp, err := b.treeParser(tx.Grammar(path))
	if err != nil {
		return nil, nil, err
	}
	tree, err := tp.Parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	defer tree.Close()
	var f *lang.FileFacts
	if sr, ok := tx.(lang.SymbolReader); ok {
		f, err = sr.ExtractSymbols(path, src, tree)
	} else {
		f, err = tx.ExtractTree(path, src, tree)
	}
	if err != nil {
		return nil, nil, err
	}
	root := tree.RootNode()
	var units []unit
	if sa, ok := l.(lang.StandAloneTree); !root.HasError() && (!ok || sa.StandsAlone(root)) {
		units = unitsOf(root, src, b.bodyKinds(l), l)
	}
	return f, units, nil
}

// nodeLines is the lines of a node, without the line its trailing newline
// ends on.
func nodeLines(n *ts.Node) lineRange {
	start, end := n.StartPosition(), n.EndPosition()
	r := lineRange{start: int32(start.Row) + 1, end: int32(end.Row) + 1}
	if end.Column == 0 && end.Row > start.Row {
		r.end-- // ends with its newline
	}
	return r
}

// unitsOf lists the units of a tree, ascending: each top-level node, and
// for a top-level node whose body holds members (memberBody, with the
// kinds of bodies given) that stand alone (lang.MemberBodyChecker), its
// head, each member and its foot.
func unitsOf(root *ts.Node, src []byte, bodyKinds map[string]bool, l lang.Language) []unit {
	check, _ := l.(lang.MemberBodyChecker)
	n := root.ChildCount()
	out := make([]unit, 0, n)
	for i := uint(0); i < n; i++ {
		c := root.Child(i)
		if c == nil {
			continue
		}
		r := nodeLines(c)
		if body := memberBody(c, bodyKinds); body != nil && (check == nil || check.MembersStandAlone(body, src)) {
			if parts, ok := containerUnits(r, body); ok {
				out = append(out, parts...)
				continue
			}
		}
		out = append(out, unit{start: r.start, end: r.end, part: partNode})
	}
	return out
}

// memberBody finds the body of members of a top-level node (a node of
// one of the kinds the language names: lang.MemberBodies), within three
// levels of it (a class with modifiers, a type declaration's spec); nil
// when it has none.
func memberBody(n *ts.Node, bodyKinds map[string]bool) *ts.Node {
	if len(bodyKinds) == 0 {
		return nil // the language declares none: no walk
	}
	level := []*ts.Node{n}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		var next []*ts.Node
		for _, p := range level {
			for i := uint(0); i < p.NamedChildCount(); i++ {
				c := p.NamedChild(i)
				if c == nil {
					continue
				}
				if bodyKinds[c.Kind()] {
					return c
				}
				next = append(next, c)
			}
		}
		level = next
	}
	return nil
}

// containerUnits splits a top-level node of lines r with a body into its
// head (up to the line its body opens on), the body's members and its foot
// (from the line its body closes on); ok is false when a member shares a
// line with the body's opening or closing.
func containerUnits(r lineRange, body *ts.Node) ([]unit, bool) {
	open := int32(body.StartPosition().Row) + 1
	closing := int32(body.EndPosition().Row) + 1
	if open < r.start || closing > r.end || closing-open < 2 {
		return nil, false
	}
	out := []unit{{start: r.start, end: open, part: partHead}}
	for i := uint(0); i < body.ChildCount(); i++ {
		c := body.Child(i)
		if c == nil || !c.IsNamed() {
			continue // the braces, separators
		}
		m := nodeLines(c)
		if m.start <= open || m.end >= closing {
			return nil, false
		}
		out = append(out, unit{start: m.start, end: m.end, part: partMember})
	}
	return append(out, unit{start: closing, end: r.end, part: partFoot}), true
}
