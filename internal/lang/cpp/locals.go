package cpp

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// locals records what a declaration in a function binds, and the
// constructions it writes: `A a(1);` and `A a{1};` call A's constructor
// and bind a, an object of exactly A (its calls do not dispatch);
// `A* p = ...` and `A& r = ...` bind a pointer or reference to an A or a
// subclass; `auto x = v` binds the value of v. `A a;` binds a but records
// no call: it runs a default constructor that no argument list names, as
// the oracle reads it too (bench/oracle/cpp).
func (x *extraction) locals(n *ts.Node) {
	typ := n.ChildByFieldName("type")
	if typ == nil {
		return
	}
	written := typeName(x, typ)
	auto := typ.Kind() == "placeholder_type_specifier"
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		d := n.NamedChild(i)
		if fd := functionDeclarator(d); fd != nil {
			x.vexingConstruction(n, fd, written)
			continue
		}
		name := variableName(d)
		if name == nil {
			continue
		}
		b := lang.Binding{Scope: x.scopes.CallScope(uint32(d.StartByte())), Name: x.text(name), Byte: uint32(d.EndByte())}
		var value *ts.Node
		if d.Kind() == "init_declarator" {
			value = d.ChildByFieldName("value")
		}
		byValue := d.Kind() == "identifier" || d.Kind() == "init_declarator" && variableName(d.ChildByFieldName("declarator")) == d.ChildByFieldName("declarator")
		switch {
		case auto && value != nil:
			b.Value = x.expr(value, 0)
		case written != "" && byValue:
			b.Value = &lang.Expr{Kind: lang.ExprNew, Name: written}
		case written != "":
			b.Type = x.typeText(n, typ, d)
		}
		if written != "" && value != nil && (value.Kind() == "argument_list" || value.Kind() == "initializer_list") {
			x.addCall(d, &lang.Expr{Kind: lang.ExprNew, Name: written}, value)
		}
		if b.Value != nil && b.Value.Kind == lang.ExprUnknown {
			continue
		}
		if b.Value != nil || b.Type != "" {
			x.facts.Bindings = append(x.facts.Bindings, b)
		}
	}
}

// rangeLoop records `for (A& a : as)` (a is an A) and `for (auto& a :
// as)` (a is an element of as), visible in the loop.
func (x *extraction) rangeLoop(n *ts.Node) {
	typ, d, right := n.ChildByFieldName("type"), n.ChildByFieldName("declarator"), n.ChildByFieldName("right")
	name := variableName(d)
	if typ == nil || name == nil || right == nil {
		return
	}
	b := lang.Binding{Scope: x.scopes.CallScope(uint32(n.StartByte())), Name: x.text(name),
		Byte: uint32(d.EndByte()), End: uint32(n.EndByte())}
	if t := typeName(x, typ); t != "" {
		b.Type = x.typeText(n, typ, d)
	} else {
		b.Value, b.Elem = x.expr(right, 0), true
		if b.Value.Kind == lang.ExprUnknown {
			return
		}
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}

// vexingConstruction reads `A a(b);` and `A a(K::v);`, which the grammar
// parses as the prototype of a function a taking a parameter of type b:
// when every parameter is a bare or qualified name (no declared name, no
// builtin type), it is the construction of a from the values of those
// names, as a compiler reads it where they name variables. A real
// block-scope prototype (`int f(int n);`) declares names or builtin
// types.
func (x *extraction) vexingConstruction(n, fd *ts.Node, written string) {
	params, name := fd.ChildByFieldName("parameters"), fd.ChildByFieldName("declarator")
	if written == "" || params == nil || name == nil || name.Kind() != "identifier" || params.NamedChildCount() == 0 {
		return
	}
	var args []*lang.Expr
	for i := uint(0); i < params.NamedChildCount(); i++ {
		prm := params.NamedChild(i)
		typ := prm.ChildByFieldName("type")
		if prm.Kind() != "parameter_declaration" || prm.ChildByFieldName("declarator") != nil || typ == nil ||
			prm.NamedChildCount() != 1 {
			return
		}
		switch typ.Kind() {
		case "type_identifier":
			args = append(args, &lang.Expr{Kind: lang.ExprIdent, Name: x.text(typ)})
		case "qualified_identifier":
			args = append(args, x.qualified(typ, 0)) // `A a(Kind::Value);`
		default:
			return
		}
	}
	pos := uint32(fd.StartByte())
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.scopes.CallScope(pos), Callee: &lang.Expr{Kind: lang.ExprNew, Name: written},
		Args: len(args), ArgExprs: args, Line: lang.Line(fd), Byte: pos})
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.scopes.CallScope(pos), Name: x.text(name),
		Value: &lang.Expr{Kind: lang.ExprNew, Name: written}, Byte: uint32(fd.EndByte())})
}
