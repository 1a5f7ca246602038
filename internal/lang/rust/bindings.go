package rust

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Local bindings: the names `let`, `for`, `if let`, `while let`, match
// arms and closures introduce, each visible from where it is bound to the
// end of its block, typed by its declared type or its value.

// localScope is the innermost function containing n, or -1.
func (x *extraction) localScope(n *ts.Node) int {
	return x.scopes.Innermost(uint32(n.StartByte()), func(s *lang.Symbol) bool { return s.Kind.IsCallable() })
}

// bindLet binds the names of a let pattern from the end of the statement
// to the end of its block.
func (x *extraction) bindLet(n *ts.Node) {
	scope := x.localScope(n)
	if scope < 0 {
		return
	}
	end := uint32(0)
	if b := n.Parent(); b != nil && b.Kind() == "block" {
		end = uint32(b.EndByte())
	}
	typ := lang.OneLine(x.text(n.ChildByFieldName("type")))
	var value *lang.Expr
	if v := n.ChildByFieldName("value"); v != nil {
		value = x.expr(v, 0)
	}
	x.bindPattern(scope, n.ChildByFieldName("pattern"), typ, value, false, uint32(n.EndByte()), end)
}

// bindFor binds the loop variable to an element of what the loop walks.
func (x *extraction) bindFor(n *ts.Node) {
	scope := x.localScope(n)
	pat := n.ChildByFieldName("pattern")
	if scope < 0 || pat == nil {
		return
	}
	value := n.ChildByFieldName("value")
	from := uint32(pat.EndByte())
	if value != nil {
		from = uint32(value.EndByte()) // `for x in x.iter()` walks the outer x
	}
	x.bindPattern(scope, pat, "", x.expr(value, 0), true, from, uint32(n.EndByte()))
}

// bindLetCondition binds `if let` / `while let` patterns inside the
// expression they guard.
func (x *extraction) bindLetCondition(n *ts.Node) {
	scope := x.localScope(n)
	pat := n.ChildByFieldName("pattern")
	if scope < 0 || pat == nil {
		return
	}
	end := uint32(n.EndByte())
	for p := n.Parent(); p != nil; p = p.Parent() {
		if k := p.Kind(); k == "if_expression" || k == "while_expression" {
			end = uint32(p.EndByte())
			break
		}
	}
	value := n.ChildByFieldName("value")
	from := uint32(pat.EndByte())
	if value != nil {
		from = uint32(value.EndByte()) // `if let Some(x) = x.next()` reads the outer x
	}
	x.bindPattern(scope, pat, "", x.expr(value, 0), false, from, end)
}

// bindArm binds the names of a match arm's pattern inside the arm.
func (x *extraction) bindArm(n *ts.Node) {
	scope := x.localScope(n)
	pat := n.ChildByFieldName("pattern")
	if scope < 0 || pat == nil {
		return
	}
	var value *lang.Expr
	if block := n.Parent(); block != nil {
		if m := block.Parent(); m != nil && m.Kind() == "match_expression" {
			value = x.expr(m.ChildByFieldName("value"), 0)
		}
	}
	if pat.Kind() == "match_pattern" && pat.NamedChildCount() > 0 {
		pat = pat.NamedChild(0)
	}
	x.bindPattern(scope, pat, "", value, false, uint32(pat.StartByte()), uint32(n.EndByte()))
}

// bindClosure binds a closure's parameters inside it: typed ones to their
// type, the others to nothing, so that they hide outer names.
func (x *extraction) bindClosure(n, params *ts.Node) {
	scope := x.localScope(n)
	if scope < 0 || params == nil {
		return
	}
	c := params.Walk()
	defer c.Close()
	for _, p := range params.NamedChildren(c) {
		if p.Kind() == "parameter" {
			x.bindPattern(scope, p.ChildByFieldName("pattern"), lang.OneLine(x.text(p.ChildByFieldName("type"))), nil, false,
				uint32(n.StartByte()), uint32(n.EndByte()))
			continue
		}
		x.bindPattern(scope, &p, "", nil, false, uint32(n.StartByte()), uint32(n.EndByte()))
	}
}

// bindPattern binds the names a pattern introduces. A plain name gets the
// type or value; `Some(v)` and `Ok(v)` bind v to an element of the value;
// the names of other patterns are bound to nothing (they hide outer
// names). elem: the pattern matches one element of value (a for loop).
func (x *extraction) bindPattern(scope int, pat *ts.Node, typ string, value *lang.Expr, elem bool, from, end uint32) {
	if pat == nil {
		return
	}
	switch pat.Kind() {
	case "identifier":
		name := x.name(pat)
		if name == "_" {
			return
		}
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Type: typ, Value: value,
			Elem: elem && typ == "", Byte: from, End: end})
		return
	case "mut_pattern", "ref_pattern":
		if pat.NamedChildCount() > 0 {
			x.bindPattern(scope, pat.NamedChild(pat.NamedChildCount()-1), typ, value, elem, from, end)
		}
		return
	case "tuple_struct_pattern":
		t := x.text(pat.ChildByFieldName("type"))
		if (t == "Some" || t == "Ok") && pat.NamedChildCount() == 2 && typ == "" && value != nil && !elem {
			x.bindPattern(scope, pat.NamedChild(1), "", value, true, from, end)
			return
		}
	}
	x.shadowNames(scope, pat, from, end, 0)
}

// shadowNames binds every name a pattern introduces to nothing.
func (x *extraction) shadowNames(scope int, n *ts.Node, from, end uint32, depth int) {
	if depth > 16 {
		return
	}
	switch n.Kind() {
	case "identifier", "shorthand_field_identifier":
		if name := x.text(n); name != "_" {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Byte: from, End: end})
		}
		return
	case "scoped_identifier", "type_identifier", "scoped_type_identifier", "generic_type":
		return // a path: a variant, a struct, a constant
	case "field_pattern":
		if p := n.ChildByFieldName("pattern"); p != nil {
			x.shadowNames(scope, p, from, end, depth+1)
		} else if nm := n.ChildByFieldName("name"); nm != nil {
			x.shadowNames(scope, nm, from, end, depth+1)
		}
		return
	}
	c := n.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	for {
		ch := c.Node()
		if ch.IsNamed() && c.FieldName() != "type" && c.FieldName() != "name" {
			x.shadowNames(scope, ch, from, end, depth+1)
		}
		if !c.GotoNextSibling() {
			break
		}
	}
}
