package typescript

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// The history reads the symbols of every version of every changed file
// (lang.SymbolReader). Of the three passes of Extract, the declarations
// make nearly all of them; the module statements make none (they mark
// symbols exported, which the history does not read); the uses make one
// kind: a Property for `this.x = ...` in a method of a class that
// declares no member x. ExtractSymbols walks the tree once for the
// declarations and the assignments only, and reads `this.x = ...` among
// the assignments as the uses pass would, and leaves out what the history
// does not read (docs, signatures, contents, values: symbolsOnly). Reading
// zod's 2,110 commits with one worker took 72-86 s of CPU with Extract,
// 44-48 s with ExtractSymbols, parsing (about 25 s) included.

// assignPatterns are the assignments, among which ExtractSymbols finds
// those to `this.x`.
var assignPatterns = []lang.KindPattern{{Kind: "assignment_expression", Capture: "assign"}}

// Parse parses src with the grammar of path; the tree is the caller's to
// close.
func (e *extractor) Parse(path string, src []byte) (*ts.Tree, error) {
	p, err := e.parser(e.grammarFor(path))
	if err != nil {
		return nil, err
	}
	return p.Parse(path, src)
}

// ExtractSymbols reads the symbols of a tree of src parsed with
// Grammar(path), the ones Extract finds, without calls, bindings,
// references, imports or exports.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	g := e.grammarFor(path)
	root := tree.RootNode()
	x := e.newExtraction(g, path, src, root)
	x.symbolsOnly = true
	parts := g.symbols.CollectParts(root)
	x.readDefs(g.symbols, g.paramProperties(g.symbols, parts[0]))
	x.readThisProperties(g.assignments(parts[1]))
	x.facts.Symbols = append(x.facts.Symbols, x.deferred...)
	return x.facts, nil
}

// assignments completes the assignment matches as uses does, in the same
// order relative to each other: order sorts by where tree-sitter reports
// a match, stably, so a subset keeps its order.
func (g *grammar) assignments(matches []lang.Match) []found {
	s := g.shapes
	out := make([]found, 0, len(matches))
	for i := range matches {
		n := matches[i].Captures[0].Node
		f := found{kind: useAssign, node: n, a: n.ChildByFieldId(s.left), b: n.ChildByFieldId(s.right)}
		if !wildcard(f.a) || !wildcard(f.b) || !is(f.a, s.memberExpression) {
			continue
		}
		f.at = f.b.StartByte()
		out = append(out, f)
	}
	return order(out)
}

// readThisProperties adds the Properties that `this.x = ...` declares
// (bindAssignment, noteThisProperty).
func (x *extraction) readThisProperties(found []found) {
	for i := range found {
		n, left := &found[i].node, found[i].a
		obj := left.ChildByFieldName("object")
		if obj == nil || obj.Kind() != "this" {
			continue
		}
		scope := x.callScope(uint32(n.StartByte()))
		if scope < 0 {
			continue
		}
		x.noteThisProperty(scope, x.memberName(left.ChildByFieldName("property")), n)
	}
}
