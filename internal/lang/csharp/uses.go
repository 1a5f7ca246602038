package csharp

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// code records the calls and local bindings in a piece of code. Lambdas
// and local functions are not nodes: their calls belong to the enclosing
// member.
func (x *extraction) code(n *ts.Node) {
	if n == nil || x.symbolsOnly {
		return
	}
	switch n.Kind() {
	case "invocation_expression":
		if callee := x.callee(n.ChildByFieldName("function")); callee != nil {
			x.addCall(n, callee)
		}
	case "object_creation_expression":
		if t := typeName(x.text(n.ChildByFieldName("type"))); t != "" {
			x.addCall(n, &lang.Expr{Kind: lang.ExprNew, Name: t})
		}
	case "local_declaration_statement", "using_statement":
		x.locals(n)
	case "foreach_statement":
		x.foreach(n)
	case "class_declaration", "struct_declaration", "record_declaration", "interface_declaration", "enum_declaration":
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i))
	}
}

// callee is the expression of a called function: `M`, `x.M`, `this.M`,
// `base.M`, `T.M`; generic arguments are dropped.
func (x *extraction) callee(n *ts.Node) *lang.Expr {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "generic_name":
		if n.NamedChildCount() > 0 {
			return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n.NamedChild(0))}
		}
	case "member_access_expression":
		name, obj := n.ChildByFieldName("name"), n.ChildByFieldName("expression")
		if name == nil || obj == nil {
			return nil
		}
		m := name
		if m.Kind() == "generic_name" && m.NamedChildCount() > 0 {
			m = m.NamedChild(0)
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(m), X: x.expr(obj, 0)}
	case "conditional_access_expression":
		return x.conditionalAccess(n, 0)
	}
	return nil
}

// conditionalAccess reads `x?.M`: the member M of x.
func (x *extraction) conditionalAccess(n *ts.Node, depth int) *lang.Expr {
	cond := n.ChildByFieldName("condition")
	for i := uint(0); cond != nil && i < n.NamedChildCount(); i++ {
		if b := n.NamedChild(i); b.Kind() == "member_binding_expression" {
			if name := b.ChildByFieldName("name"); name != nil && name.Kind() == "identifier" {
				return &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: x.expr(cond, depth+1)}
			}
		}
	}
	return nil
}

// expr converts a receiver expression into the resolver's expression tree.
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "this_expression", "this":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "base_expression", "base":
		return &lang.Expr{Kind: lang.ExprSuper}
	case "member_access_expression":
		name, obj := n.ChildByFieldName("name"), n.ChildByFieldName("expression")
		if name != nil && obj != nil {
			return &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: x.expr(obj, depth+1)}
		}
	case "invocation_expression":
		if c := x.callee(n.ChildByFieldName("function")); c != nil {
			return &lang.Expr{Kind: lang.ExprCall, X: c}
		}
	case "object_creation_expression":
		if t := typeName(x.text(n.ChildByFieldName("type"))); t != "" {
			return &lang.Expr{Kind: lang.ExprNew, Name: t}
		}
	case "cast_expression":
		if t := typeName(x.text(n.ChildByFieldName("type"))); t != "" {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "conditional_access_expression":
		if e := x.conditionalAccess(n, depth); e != nil {
			return e
		}
	}
	return &lang.Expr{}
}

// constructorInitializer records `: base(...)` (a base class constructor)
// and `: this(...)` (another constructor of the class) and the calls in
// their arguments.
func (x *extraction) constructorInitializer(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	kind := lang.ExprSuper
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Kind() == "this" {
			kind = lang.ExprSelf
		}
	}
	x.addCall(n, &lang.Expr{Kind: kind})
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i))
	}
}

func (x *extraction) addCall(n *ts.Node, callee *lang.Expr) {
	pos := uint32(n.StartByte())
	args := 0
	a := n.ChildByFieldName("arguments")
	for i := uint(0); a == nil && i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "argument_list" {
			a = c
		}
	}
	if a != nil {
		for i := uint(0); i < a.NamedChildCount(); i++ {
			if a.NamedChild(i).Kind() == "argument" {
				args++
			}
		}
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.scopes.CallScope(pos), Callee: callee,
		Args: args, Line: lang.Line(n), Byte: pos})
}

// locals records `T x = v;` and `var x = v;`: x has the declared type,
// else the value's, from its declaration on.
func (x *extraction) locals(n *ts.Node) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		decl := n.NamedChild(i)
		if decl.Kind() != "variable_declaration" {
			continue
		}
		typ := typeName(x.text(decl.ChildByFieldName("type")))
		for j := uint(0); j < decl.NamedChildCount(); j++ {
			v := decl.NamedChild(j)
			if v.Kind() != "variable_declarator" {
				continue
			}
			name := v.ChildByFieldName("name")
			if name == nil {
				continue
			}
			b := lang.Binding{Scope: x.scopes.CallScope(uint32(v.StartByte())), Name: x.text(name), Type: typ,
				Byte: uint32(v.StartByte())}
			if typ == "" {
				for k := uint(0); k < v.NamedChildCount(); k++ {
					if c := v.NamedChild(k); c != name {
						b.Value = x.expr(c, 0)
					}
				}
				if b.Value == nil || b.Value.Kind == lang.ExprUnknown {
					continue
				}
			}
			x.facts.Bindings = append(x.facts.Bindings, b)
		}
	}
}

// foreach records `foreach (T x in xs)` (x is a T) and `foreach (var x in
// xs)` (x is an element of xs), visible in the loop.
func (x *extraction) foreach(n *ts.Node) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || right == nil || left.Kind() != "identifier" {
		return
	}
	b := lang.Binding{Scope: x.scopes.CallScope(uint32(n.StartByte())), Name: x.text(left),
		Byte: uint32(n.StartByte()), End: uint32(n.EndByte())}
	if t := typeName(x.text(n.ChildByFieldName("type"))); t != "" {
		b.Type = t
	} else {
		b.Value, b.Elem = x.expr(right, 0), true
		if b.Value.Kind == lang.ExprUnknown {
			return
		}
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}
