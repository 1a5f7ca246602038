package python

import (
	"strings"
	"unicode"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Assignments declare: at module level a Variable (a Const when the name is
// UPPER_CASE), in a class body a class attribute, and `self.x = ...` in a
// method an instance attribute of the method's class. Each name is declared
// once per module or class, by its first assignment; later assignments only
// fill in a missing value.

// target is one name an assignment binds.
type target struct {
	node  *ts.Node
	name  string
	field bool     // `self.name`: an attribute of the receiver
	value *ts.Node // the value bound to this name alone, nil when unknown
	elem  *ts.Node // the name is bound to one element of this value
}

// assignedValue is the value of an assignment, through chains `a = b = v`.
func assignedValue(n *ts.Node) *ts.Node {
	v := n.ChildByFieldName("right")
	for v != nil && v.Kind() == "assignment" {
		v = v.ChildByFieldName("right")
	}
	return v
}

// targets lists the names bound by the left side of an assignment (or a
// for loop, with statement...), pairing tuple targets with the elements of
// a tuple value of the same length. scope decides what the receiver is.
func (x *extraction) targets(left, value *ts.Node, scope int) []target {
	var out []target
	var walk func(n, v *ts.Node, elemOf *ts.Node)
	walk = func(n, v *ts.Node, elemOf *ts.Node) {
		switch n.Kind() {
		case "identifier":
			out = append(out, target{node: n, name: x.text(n), value: v, elem: elemOf})
		case "attribute":
			obj := n.ChildByFieldName("object")
			if obj == nil || obj.Kind() != "identifier" {
				return
			}
			if r, _ := x.receiverAt(scope); r != "" && x.text(obj) == r {
				out = append(out, target{node: n, name: x.text(n.ChildByFieldName("attribute")), field: true, value: v, elem: elemOf})
			}
		case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression":
			items := namedChildren(n)
			var values []*ts.Node
			if v != nil {
				switch v.Kind() {
				case "expression_list", "tuple", "list":
					values = namedChildren(v)
				}
			}
			for i, item := range items {
				switch {
				case len(values) == len(items):
					walk(item, values[i], nil)
				case v != nil && item.Kind() != "list_splat_pattern":
					walk(item, nil, v)
				default:
					walk(item, nil, nil)
				}
			}
		case "list_splat_pattern":
			if n.NamedChildCount() > 0 {
				walk(n.NamedChild(0), nil, nil)
			}
		}
	}
	walk(left, value, nil)
	return out
}

// namedChildren lists the named children of n, without comments.
func namedChildren(n *ts.Node) []*ts.Node {
	var out []*ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// addAssignment declares what an assignment declares at its scope.
func (x *extraction) addAssignment(n *ts.Node) {
	left := n.ChildByFieldName("left")
	if left == nil {
		return
	}
	scope := x.scopes.at(uint32(n.StartByte()))
	value := assignedValue(n)
	typ := x.annotation(n.ChildByFieldName("type"))
	switch {
	case scope < 0:
		for _, t := range x.targets(left, value, scope) {
			if !t.field {
				x.addModuleVar(n, t, typ)
			}
		}
		if left.Kind() == "identifier" && x.text(left) == "__all__" {
			x.addAll(value)
		}
	case x.facts.Symbols[scope].Kind.IsType():
		for _, t := range x.targets(left, value, scope) {
			if !t.field {
				x.addAttribute(n, scope, t, typ)
			}
		}
	default:
		for _, t := range x.targets(left, value, scope) {
			if !t.field {
				continue
			}
			if _, method := x.receiverAt(scope); method >= 0 {
				if class := x.facts.Symbols[method].Parent; class >= 0 {
					x.addAttribute(n, class, target{node: t.node, name: t.name}, typ)
				}
			}
		}
	}
}

// isUpperName reports whether a name is written in UPPER_CASE: at least one
// letter and no lower-case letter.
func isUpperName(name string) bool {
	letter := false
	for _, r := range name {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letter = true
		}
	}
	return letter
}

func (x *extraction) assignSignature(n *ts.Node) string {
	s := lang.OneLine(x.text(n))
	if len(s) > 200 {
		s = lang.ValidUTF8(s[:200]) + "…"
	}
	return s
}

// valueExpr is the initializer a symbol records: the value bound to the
// name, when it can be typed.
func (x *extraction) valueExpr(t target, scope int) *lang.Expr {
	var e *lang.Expr
	switch {
	case t.value != nil:
		e = x.expr(t.value, scope)
	case t.elem != nil:
		e = &lang.Expr{Kind: lang.ExprIndex, X: x.expr(t.elem, scope)}
	default:
		return nil
	}
	if !typeable(e) {
		return nil
	}
	return e
}

func (x *extraction) addModuleVar(n *ts.Node, t target, typ string) {
	if prev, ok := x.moduleVars[t.name]; ok {
		s := &x.facts.Symbols[prev]
		if !x.symbolsOnly && s.Type == "" && s.Value == nil {
			s.Type = typ
			s.Value = x.valueExpr(t, -1)
		}
		return
	}
	kind := graph.KindVariable
	if isUpperName(t.name) {
		kind = graph.KindConst
	}
	sp := lang.SpanOf(n)
	s := lang.Symbol{Kind: kind, Name: t.name, Parent: -1, Span: sp, Exported: exportedName(t.name), Type: typ}
	if !x.symbolsOnly {
		s.Signature, s.Doc, s.Content = x.assignSignature(n), x.commentDoc(n), lang.Content(x.src, sp)
		s.Value = x.valueExpr(t, -1)
	}
	x.moduleVars[t.name] = x.add(s, symInfo{})
}

// addAttribute declares a class or instance attribute of class, once per
// name; an instance attribute's value is typed from its field bindings.
func (x *extraction) addAttribute(n *ts.Node, class int, t target, typ string) {
	if x.members[class][t.name] {
		return
	}
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: graph.KindProperty, Name: t.name, Qual: x.facts.Symbols[class].Qual + "." + t.name, Parent: class,
		Span: sp, Exported: exportedName(t.name), Type: typ,
	}
	if !x.symbolsOnly {
		s.Signature, s.Doc, s.Content = x.assignSignature(n), x.commentDoc(n), lang.Content(x.src, sp)
		if t.value != nil || t.elem != nil {
			s.Value = x.valueExpr(t, class)
		}
	}
	x.add(s, symInfo{})
}

// commentDoc is the first paragraph of the comments right above the
// statement holding an assignment.
func (x *extraction) commentDoc(n *ts.Node) string {
	stmt := n
	if p := n.Parent(); p != nil && p.Kind() == "expression_statement" {
		stmt = p
	}
	texts := lang.CommentsBefore(stmt, x.src, func(c *ts.Node) bool { return c.Kind() == "comment" })
	lines := lang.CleanComment(texts)
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, ":") // Sphinx `#:` attribute comments
	}
	return lang.FirstParagraph(lines)
}

// addAll records the names listed in `__all__ = [...]` as the module's
// exports.
func (x *extraction) addAll(value *ts.Node) {
	if value == nil {
		return
	}
	switch value.Kind() {
	case "list", "tuple", "parenthesized_expression":
	default:
		return
	}
	for _, item := range namedChildren(value) {
		if item.Kind() != "string" {
			continue
		}
		if name := stringValue(x.text(item)); name != "" {
			x.facts.Exports = append(x.facts.Exports, lang.Export{Name: name, Local: name, Line: lang.Line(item)})
		}
	}
}
