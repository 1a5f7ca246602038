package ruby

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// How a Ruby file becomes facts:
//
//   - `module M` is an Interface, `class C < B` a Class whose Bases are,
//     in Ruby's lookup order, the modules it prepends, includes and
//     extends, last written first (implements), then the superclass
//     (extends). Names
//     nest with '.': `module A; class B` and `class A::B` are both A.B.
//   - `def m` in a class or module is a Method (`initialize` the
//     Constructor); `def self.m` and the defs of `class << self` are
//     Static methods; a def at file level is a Function.
//   - `attr_reader :x` (writer, accessor) declares Property x; `X = v` in
//     a class, module or at file level declares Const X.
//   - A method is exported unless `private`/`protected` precede it in
//     its body, or `private :m` names it.
//   - Calls: `C.new` constructs C; `r.m` is a member call on r; a bare
//     `m` or `m(...)` is an identifier call that the rules look up
//     through self's class, then as a file-level function; `super` calls
//     the enclosing method's name on the superclass.
//   - `require_relative "x"` and `require "x"` are side-effect imports
//     (Path "./x" for the relative form).

// extract is the walk of one file: its symbols and, unless symbolsOnly,
// its calls, bindings and imports.
func extract(path string, src []byte, tree *ts.Tree, symbolsOnly bool) *lang.FileFacts {
	root := tree.RootNode()
	x := &extraction{src: src, facts: lang.NewFileFacts("ruby", path, src, root), symbolsOnly: symbolsOnly}
	x.body(root, scope{sym: -1, typ: -1, locals: map[string]bool{}})
	return x.facts
}

type extraction struct {
	src   []byte
	facts *lang.FileFacts
	refs  map[refKey]bool // the constant reads recorded, once per scope
	// symbolsOnly: record declarations, not calls, bindings or imports.
	symbolsOnly bool
}

// scope is where a statement is: the enclosing symbol, the type it
// belongs to, whether defs are static there, and the enclosing method's
// name (for super) and locals (a bare name assigned before is a local).
type scope struct {
	sym    int    // innermost enclosing symbol, -1 at file level
	typ    int    // innermost enclosing class or module, -1 outside
	static bool   // inside `class << self`
	method string // enclosing method's name
	locals map[string]bool
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// body reads the statements of a program, class, module or singleton
// class body in order, tracking visibility.
func (x *extraction) body(n *ts.Node, sc scope) {
	private := false
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "body_statement" {
			x.body(c, sc)
			continue
		}
		if c.Kind() == "identifier" && sc.typ >= 0 && sc.method == "" {
			switch x.text(c) {
			case "private", "protected":
				private = true
				continue
			case "public":
				private = false
				continue
			}
		}
		x.statement(c, sc, &private)
	}
}

// statement reads one statement of a body.
func (x *extraction) statement(n *ts.Node, sc scope, private *bool) {
	switch n.Kind() {
	case "class", "module":
		x.typeDecl(n, sc)
	case "singleton_class":
		inner := sc
		inner.static = true
		if b := n.ChildByFieldName("body"); b != nil {
			x.body(b, inner)
		}
	case "method", "singleton_method":
		x.method(n, sc, !*private)
	case "assignment":
		if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "constant" && sc.method == "" {
			x.constant(n, l, sc)
			return
		}
		x.uses(n, sc)
	case "call":
		if x.declarative(n, sc, private) {
			return
		}
		x.uses(n, sc)
	default:
		x.uses(n, sc)
	}
}

func (x *extraction) add(s lang.Symbol) int {
	x.facts.Symbols = append(x.facts.Symbols, s)
	return len(x.facts.Symbols) - 1
}

func (x *extraction) qual(parent int, name string) string {
	if parent < 0 {
		return name
	}
	return x.facts.Symbols[parent].Qual + "." + name
}

// typeDecl reads a class or module and its body.
func (x *extraction) typeDecl(n *ts.Node, sc scope) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	path := constPath(x.text(nameNode))
	path[0] = strings.TrimPrefix(path[0], "::")
	name := path[len(path)-1]
	kind := graph.KindClass
	if n.Kind() == "module" {
		kind = graph.KindInterface
	}
	qual := x.qual(sc.sym, strings.Join(path, "."))
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: qual, Parent: sc.sym, Span: lang.SpanOf(n),
		Signature: lang.OneLine(firstLine(x.text(n))), Doc: x.doc(n), Exported: true,
		Content: lang.Content(x.src, lang.SpanOf(n)),
	}
	if sup := n.ChildByFieldName("superclass"); sup != nil && sup.NamedChildCount() > 0 {
		s.Bases = append(s.Bases, lang.Base{Type: strings.Join(constPath(x.text(sup.NamedChild(0))), "."), Kind: lang.BaseExtends})
	}
	id := x.add(s)
	inner := scope{sym: id, typ: id, locals: map[string]bool{}}
	if b := n.ChildByFieldName("body"); b != nil {
		x.body(b, inner)
	}
}

// constPath splits `A::B` into its names. An absolute path `::A::B`
// keeps the `::` on its first name: it is looked up at top level only.
func constPath(s string) []string {
	s = strings.TrimSpace(s)
	abs := strings.HasPrefix(s, "::")
	parts := strings.Split(strings.TrimPrefix(s, "::"), "::")
	if abs {
		parts[0] = "::" + parts[0]
	}
	return parts
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// doc is the block of `#` comments right above n.
func (x *extraction) doc(n *ts.Node) string {
	var lines []string
	line := int(n.StartPosition().Row)
	prev := n.PrevSibling()
	if prev == nil && n.Parent() != nil && n.Parent().Kind() == "body_statement" {
		// Comments before a body's first statement precede the body.
		prev = n.Parent().PrevSibling()
	}
	for p := prev; p != nil && p.Kind() == "comment" && int(p.EndPosition().Row) == line-1; p = p.PrevSibling() {
		lines = append([]string{strings.TrimSpace(strings.TrimLeft(x.text(p), "#"))}, lines...)
		line = int(p.StartPosition().Row)
	}
	return lang.FirstParagraph(lines)
}

// method reads a def and its body.
func (x *extraction) method(n *ts.Node, sc scope, exported bool) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	static := sc.static || n.Kind() == "singleton_method"
	kind := graph.KindFunction
	if sc.typ >= 0 {
		kind = graph.KindMethod
		if name == "initialize" && !static {
			kind = graph.KindConstructor
		}
	}
	sig := x.text(n)
	if b := n.ChildByFieldName("body"); b != nil {
		sig = string(x.src[n.StartByte():b.StartByte()])
	}
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: x.qual(sc.sym, name), Parent: sc.sym, Span: lang.SpanOf(n),
		Signature: lang.OneLine(firstLine(strings.TrimSpace(sig))), Doc: x.doc(n), Exported: exported,
		Static: static, Content: lang.Content(x.src, lang.SpanOf(n)),
	}
	locals := map[string]bool{}
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			prm := lang.Param{}
			switch p.Kind() {
			case "identifier":
				prm.Name = x.text(p)
			case "optional_parameter", "keyword_parameter":
				if nn := p.ChildByFieldName("name"); nn != nil {
					prm.Name = x.text(nn)
				}
				prm.Optional = true
			case "splat_parameter", "hash_splat_parameter", "block_parameter":
				if nn := p.ChildByFieldName("name"); nn != nil {
					prm.Name = x.text(nn)
				}
				prm.Variadic = true
			default:
				continue
			}
			if prm.Name != "" {
				s.Params = append(s.Params, prm)
				locals[prm.Name] = true
			}
		}
	}
	id := x.add(s)
	inner := scope{sym: id, typ: sc.typ, static: static, method: name, locals: locals}
	if b := n.ChildByFieldName("body"); b != nil {
		x.uses(b, inner)
		// A method whose last expression constructs a class (a factory:
		// `def self.build; new; end`) returns an instance of it.
		if k := b.NamedChildCount(); k > 0 {
			if e := x.expr(b.NamedChild(k-1), inner); e != nil && e.Kind == lang.ExprNew {
				x.facts.Symbols[id].Returns = []string{e.Name}
			}
		}
	}
}

// constant reads `X = value` in a body.
func (x *extraction) constant(n, left *ts.Node, sc scope) {
	name := x.text(left)
	s := lang.Symbol{
		Kind: graph.KindConst, Name: name, Qual: x.qual(sc.sym, name), Parent: sc.sym, Span: lang.SpanOf(n),
		Signature: lang.OneLine(firstLine(x.text(n))), Doc: x.doc(n), Exported: true,
		Content: lang.Content(x.src, lang.SpanOf(n)),
		// A constant of a class or module belongs to it, not its instances.
		Static: sc.typ >= 0,
	}
	if r := n.ChildByFieldName("right"); r != nil {
		s.Value = x.expr(r, sc)
		x.uses(r, sc)
	}
	x.add(s)
}
