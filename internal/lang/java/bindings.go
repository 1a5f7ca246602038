package java

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Local names get a binding with their declared type (or, for `var`, their
// initializer), visible from the declaration to the end of the enclosing
// block or statement.

func (x *extraction) bind(at *ts.Node, name, typ string, value *lang.Expr, elem bool, from, to uint) {
	if name == "" || name == "_" {
		return
	}
	scope := x.container(uint32(at.StartByte()))
	if scope < 0 {
		return
	}
	b := lang.Binding{Scope: scope, Name: name, Byte: uint32(from), End: uint32(to)}
	if typ != "" && typ != "var" {
		b.Type = typ
	} else if value != nil {
		b.Value = value
		b.Elem = elem
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}

func (x *extraction) bindLocal(n *ts.Node) {
	typ := x.typeText(n.ChildByFieldName("type"))
	end := n.EndByte()
	if p := n.Parent(); p != nil {
		end = p.EndByte()
	}
	c := n.Walk()
	defer c.Close()
	for _, d := range n.ChildrenByFieldName("declarator", c) {
		t := typ
		if dims := d.ChildByFieldName("dimensions"); dims != nil && typ != "var" {
			t += x.text(dims)
		}
		var value *lang.Expr
		if v := d.ChildByFieldName("value"); v != nil && typ == "var" {
			value = x.expr(v, 0)
		}
		x.bind(n, x.text(d.ChildByFieldName("name")), t, value, false, d.EndByte(), end)
	}
}

func (x *extraction) bindForeach(n *ts.Node) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	typ := x.typeText(n.ChildByFieldName("type")) + x.text(n.ChildByFieldName("dimensions"))
	var value *lang.Expr
	if typ == "var" {
		value = x.expr(n.ChildByFieldName("value"), 0)
	}
	x.bind(n, x.text(name), typ, value, true, name.EndByte(), n.EndByte())
}

func (x *extraction) bindCatch(n *ts.Node) {
	var types []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if ch := n.NamedChild(i); ch.Kind() == "catch_type" {
			for j := uint(0); j < ch.NamedChildCount(); j++ {
				types = append(types, x.typeText(ch.NamedChild(j)))
			}
		}
	}
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	}
	end := n.EndByte()
	if p := n.Parent(); p != nil {
		end = p.EndByte()
	}
	x.bind(n, x.text(n.ChildByFieldName("name")), typ, nil, false, n.StartByte(), end)
}

func (x *extraction) bindResource(n *ts.Node) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return // an existing variable used as a resource
	}
	typ := x.typeText(n.ChildByFieldName("type"))
	var value *lang.Expr
	if typ == "var" {
		value = x.expr(n.ChildByFieldName("value"), 0)
	}
	end := n.EndByte()
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "try_with_resources_statement" {
			end = p.EndByte()
			break
		}
	}
	x.bind(n, x.text(name), typ, value, false, n.EndByte(), end)
}

// bindLambda binds lambda parameters inside the lambda: typed ones to their
// type, untyped ones to nothing (they still hide fields of the same name).
func (x *extraction) bindLambda(n *ts.Node) {
	params := n.ChildByFieldName("parameters")
	if params == nil {
		return
	}
	from, to := n.StartByte(), n.EndByte()
	switch params.Kind() {
	case "identifier":
		x.bindUntyped(n, x.text(params), from, to)
	case "inferred_parameters":
		for i := uint(0); i < params.NamedChildCount(); i++ {
			x.bindUntyped(n, x.text(params.NamedChild(i)), from, to)
		}
	case "formal_parameters":
		for _, p := range x.params(params) {
			if p.Type == "" || p.Type == "var" {
				x.bindUntyped(n, p.Name, from, to)
				continue
			}
			x.bind(n, p.Name, p.Type, nil, false, from, to)
		}
	}
}

func (x *extraction) bindUntyped(at *ts.Node, name string, from, to uint) {
	if name == "" || name == "_" {
		return
	}
	scope := x.container(uint32(at.StartByte()))
	if scope < 0 {
		return
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Byte: uint32(from), End: uint32(to)})
}

// bindInstanceof binds `x instanceof Foo f` for the rest of the enclosing
// block (which covers both `if (x instanceof Foo f) f.m();` and the
// early-return form).
func (x *extraction) bindInstanceof(n *ts.Node) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	x.bind(n, x.text(name), x.typeText(n.ChildByFieldName("right")), nil, false, n.EndByte(), enclosingBlockEnd(n))
}

// bindTypePattern binds a type pattern or record pattern component (`case
// Foo f ->`, `Point(int x, Foo y)`) inside its switch case, or the rest of
// the block for patterns in an instanceof.
func (x *extraction) bindTypePattern(n *ts.Node) {
	if n.NamedChildCount() < 2 {
		return
	}
	typeNode, name := n.NamedChild(0), n.NamedChild(n.NamedChildCount()-1)
	if name.Kind() != "identifier" {
		return
	}
	end := enclosingBlockEnd(n)
	for p := n.Parent(); p != nil; p = p.Parent() {
		if k := p.Kind(); k == "switch_rule" || k == "switch_block_statement_group" {
			end = p.EndByte()
			break
		}
	}
	x.bind(n, x.text(name), x.typeText(typeNode), nil, false, n.EndByte(), end)
}

// enclosingBlockEnd is the end of the innermost block-like node around n.
func enclosingBlockEnd(n *ts.Node) uint {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "block", "constructor_body", "switch_block_statement_group", "switch_rule", "lambda_expression",
			"class_body", "program":
			return p.EndByte()
		}
	}
	return n.EndByte()
}
