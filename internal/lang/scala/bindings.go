package scala

import (
	"unicode"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// localValue records a local `val`/`var` (its names visible to the end of
// the enclosing block) and the calls of its value.
func (x *extraction) localValue(n *ts.Node) {
	value := n.ChildByFieldName("value")
	end := n.EndByte()
	if p := n.Parent(); p != nil {
		end = p.EndByte()
	}
	if pat := n.ChildByFieldName("pattern"); pat != nil {
		if pat.Kind() == "identifier" {
			b := lang.Binding{Scope: x.callScope(n.StartByte()), Name: x.text(pat),
				Type: typeText(x, n.ChildByFieldName("type")), Byte: uint32(n.EndByte()), End: uint32(end)}
			if value != nil {
				b.Value = x.expr(value)
			}
			x.facts.Bindings = append(x.facts.Bindings, b)
		} else {
			x.bindPattern(pat, uint32(n.EndByte()), uint32(end))
		}
	}
	if value != nil {
		x.code(value)
	}
}

// bindPattern records the variables a pattern binds, without a type
// unless the pattern says it (`c: Circle`), visible from start to end.
func (x *extraction) bindPattern(pat *ts.Node, start, end uint32) {
	scope := x.callScope(pat.StartByte())
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		switch n.Kind() {
		case "identifier":
			if name := x.text(n); name != "" && !unicode.IsUpper([]rune(name)[0]) {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Byte: start, End: end})
			}
			return
		case "typed_pattern":
			if p, t := n.ChildByFieldName("pattern"), n.ChildByFieldName("type"); p != nil && p.Kind() == "identifier" {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: x.text(p),
					Type: typeText(x, t), Byte: start, End: end})
				return
			}
		case "binding":
			if p := n.ChildByFieldName("name"); p != nil {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: x.text(p),
					Type: typeText(x, n.ChildByFieldName("type")), Byte: start, End: end})
				return
			}
		case "stable_identifier", "field_expression", "type_identifier", "generic_type", "stable_type_identifier":
			return
		}
		if isTypeNode(n) {
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(pat)
}

// lambda binds a lambda's parameters inside it and walks its body.
func (x *extraction) lambda(n *ts.Node) {
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		if lp, ok := x.elementLambdas[n.StartByte()]; ok && ps.Kind() == "identifier" {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(ps.StartByte()), Name: x.text(ps),
				Value: lp.value, Elem: lp.elem, Byte: uint32(n.StartByte()), End: uint32(n.EndByte())})
		} else {
			x.bindPattern(ps, uint32(n.StartByte()), uint32(n.EndByte()))
		}
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) != "parameters" {
			if c := n.Child(i); c.IsNamed() {
				x.code(c)
			}
		}
	}
}

// caseClause binds the variables of a case pattern inside the clause.
func (x *extraction) caseClause(n *ts.Node) {
	if p := n.ChildByFieldName("pattern"); p != nil {
		x.bindPattern(p, uint32(n.StartByte()), uint32(n.EndByte()))
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) != "pattern" {
			if c := n.Child(i); c.IsNamed() {
				x.code(c)
			}
		}
	}
}

// enumerator binds the pattern of `p <- xs` or `p = e` in a for
// expression to its end.
func (x *extraction) enumerator(n *ts.Node) {
	end := n.EndByte()
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "for_expression" {
			end = p.EndByte()
			break
		}
	}
	first := true
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if first && (hasToken(n, "<-") || hasToken(n, "=")) {
			if c.Kind() == "identifier" && i+1 < n.NamedChildCount() {
				// `x <- xs` binds an element of xs, `x = e` the value of e.
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(c.StartByte()),
					Name: x.text(c), Value: x.expr(n.NamedChild(i + 1)), Elem: hasToken(n, "<-"),
					Byte: uint32(n.StartByte()), End: uint32(end)})
			} else {
				x.bindPattern(c, uint32(n.StartByte()), uint32(end))
			}
			first = false
			continue
		}
		first = false
		x.code(c)
	}
}

// selfAlias binds the name of a self type (`self =>`, `outer: T =>`) to
// the instance of the type owner whose body it opens, in that body (the
// defs of anonymous classes in it included): `self.f` is `this.f` of the
// outer type.
func (x *extraction) selfAlias(n *ts.Node, owner int) {
	if x.symbolsOnly || owner < 0 || n.NamedChildCount() == 0 {
		return
	}
	name := n.NamedChild(0)
	if name.Kind() != "identifier" || x.text(name) == "this" || x.text(name) == "_" {
		return
	}
	end := n.EndByte()
	if p := n.Parent(); p != nil {
		end = p.EndByte()
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: owner, Name: x.text(name),
		Value: &lang.Expr{Kind: lang.ExprSelf}, Byte: uint32(n.EndByte()), End: uint32(end)})
}
