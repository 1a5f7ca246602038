package cpp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// code records the calls and local bindings in a piece of code. Lambdas
// and local classes are not nodes: their calls belong to the enclosing
// function.
func (x *extraction) code(n *ts.Node) {
	if n == nil || x.symbolsOnly {
		return
	}
	switch n.Kind() {
	case "call_expression":
		x.call(n)
	case "new_expression":
		if t := typeName(x, n.ChildByFieldName("type")); t != "" {
			x.addCall(n, &lang.Expr{Kind: lang.ExprNew, Name: t}, n.ChildByFieldName("arguments"))
		}
	case "compound_literal_expression":
		if t := typeName(x, n.ChildByFieldName("type")); t != "" {
			x.addCall(n, &lang.Expr{Kind: lang.ExprNew, Name: t}, n.ChildByFieldName("value"))
		}
	case "declaration":
		x.locals(n)
	case "for_range_loop":
		x.rangeLoop(n)
	case "using_declaration":
		x.addUsing(n, context{parent: -1})
		return
	case "identifier":
		x.addRef(n, &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)})
	case "qualified_identifier":
		x.addRef(n, x.qualified(n, 0))
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i))
	}
}

// call records a call expression. A call of a function-like macro of the
// file or of an upper-case name is a macro invocation, counted apart;
// the calls in its arguments are still recorded (code walks them).
func (x *extraction) call(n *ts.Node) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil {
		return
	}
	if fn.Kind() == "identifier" {
		if name := x.text(fn); x.macros[name] || c.IsMacroName(name) {
			x.facts.Macros++
			return
		}
	}
	if t := madeType(x, fn); t != "" {
		x.addCall(n, &lang.Expr{Kind: lang.ExprNew, Name: t}, args)
		return
	}
	if e := x.callee(fn, 0); e != nil {
		x.addCall(n, e, args)
	}
}

// madeType is the type std::make_unique<T> and std::make_shared<T>
// construct, "" for other callees.
func madeType(x *extraction, fn *ts.Node) string {
	if fn.Kind() == "qualified_identifier" {
		if s := fn.ChildByFieldName("scope"); s == nil || x.text(s) != "std" {
			return ""
		}
		fn = fn.ChildByFieldName("name")
	}
	if fn == nil || fn.Kind() != "template_function" {
		return ""
	}
	name, targs := fn.ChildByFieldName("name"), fn.ChildByFieldName("arguments")
	if name == nil || targs == nil || targs.NamedChildCount() == 0 {
		return ""
	}
	switch x.text(name) {
	case "make_unique", "make_shared":
		return typeName(x, targs.NamedChild(0))
	}
	return ""
}

// callee is the expression of a called function: `f`, `x.f`, `p->f`,
// `this->f`, `A::f`, `a::b::f`, `f<int>`.
func (x *extraction) callee(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "template_function":
		if name := n.ChildByFieldName("name"); name != nil {
			return x.callee(name, depth+1)
		}
	case "qualified_identifier":
		return x.qualified(n, depth)
	case "field_expression":
		obj, field := n.ChildByFieldName("argument"), n.ChildByFieldName("field")
		if obj == nil || field == nil {
			return nil
		}
		name := x.memberName(field)
		if name == "" {
			return nil
		}
		if field.Kind() == "qualified_identifier" {
			// obj.Base::f(): Base's f, whatever obj's dynamic type.
			if e := x.qualified(field, depth); e != nil {
				return e
			}
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: name, X: x.expr(obj, depth+1)}
	case "parenthesized_expression":
		return &lang.Expr{} // (*fp)(), (obj.*pm)(): through a pointer
	}
	return &lang.Expr{}
}

// memberName is the name of a member in a field expression.
func (x *extraction) memberName(n *ts.Node) string {
	for depth := 0; n != nil && depth < 8; depth++ {
		switch n.Kind() {
		case "field_identifier", "identifier", "destructor_name", "type_identifier":
			return x.text(n)
		case "template_method", "template_function":
			n = n.ChildByFieldName("name")
		case "dependent_name":
			if n.NamedChildCount() == 0 {
				return ""
			}
			n = n.NamedChild(0)
		case "qualified_identifier":
			n = n.ChildByFieldName("name")
		case "operator_name":
			return strings.Join(strings.Fields(x.text(n)), "")
		default:
			return ""
		}
	}
	return ""
}

// qualified reads `a::b::f` as the member f of the member b of a; `::f`
// is f of the global namespace, looked up as a plain name.
func (x *extraction) qualified(n *ts.Node, depth int) *lang.Expr {
	var e *lang.Expr
	for d := 0; n != nil && d < 16; d++ {
		if n.Kind() != "qualified_identifier" {
			name := x.memberName(n)
			if name == "" {
				return &lang.Expr{}
			}
			if e == nil {
				return &lang.Expr{Kind: lang.ExprIdent, Name: name}
			}
			return &lang.Expr{Kind: lang.ExprMember, Name: name, X: e}
		}
		if scope := n.ChildByFieldName("scope"); scope != nil {
			part := x.scopeName(scope)
			if part == "" {
				return &lang.Expr{}
			}
			if e == nil {
				e = &lang.Expr{Kind: lang.ExprIdent, Name: part}
			} else {
				e = &lang.Expr{Kind: lang.ExprMember, Name: part, X: e}
			}
		}
		n = n.ChildByFieldName("name")
	}
	return &lang.Expr{}
}

// expr converts a receiver or value expression into the resolver's
// expression tree.
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "this":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "field_expression", "qualified_identifier":
		return x.callee(n, depth)
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil {
			return &lang.Expr{}
		}
		if t := madeType(x, fn); t != "" {
			return &lang.Expr{Kind: lang.ExprNew, Name: t}
		}
		if t := castType(x, fn); t != "" {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
		c := &lang.Expr{Kind: lang.ExprCall, X: x.callee(fn, depth+1)}
		if args := n.ChildByFieldName("arguments"); args != nil {
			for i := uint(0); i < args.NamedChildCount(); i++ {
				if a := args.NamedChild(i); a.Kind() != "comment" {
					c.Args = append(c.Args, x.expr(a, depth+1))
				}
			}
		}
		return c
	case "new_expression", "compound_literal_expression":
		if t := typeName(x, n.ChildByFieldName("type")); t != "" {
			return &lang.Expr{Kind: lang.ExprNew, Name: t}
		}
	case "cast_expression":
		if t := typeName(x, n.ChildByFieldName("type")); t != "" {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
	case "parenthesized_expression", "pointer_expression":
		if n.NamedChildCount() > 0 {
			if n.Kind() == "pointer_expression" {
				return x.expr(n.ChildByFieldName("argument"), depth+1)
			}
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "subscript_expression":
		return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(n.ChildByFieldName("argument"), depth+1)}
	case "number_literal":
		t := strings.ToLower(x.text(n))
		if !strings.HasPrefix(t, "0x") && strings.ContainsAny(t, ".e") || strings.HasSuffix(t, "f") && !strings.HasPrefix(t, "0x") {
			return &lang.Expr{Kind: lang.ExprLiteral, Name: "float"}
		}
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "int"}
	case "string_literal", "raw_string_literal", "concatenated_string":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "string"}
	case "char_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "char"}
	case "true", "false":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "null", "nullptr":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "null"}
	}
	return &lang.Expr{}
}

// castType is the target type of static_cast<T>, dynamic_cast<T> and
// reinterpret_cast<T>, "" for other callees.
func castType(x *extraction, fn *ts.Node) string {
	if fn.Kind() != "template_function" {
		return ""
	}
	name, targs := fn.ChildByFieldName("name"), fn.ChildByFieldName("arguments")
	if name == nil || targs == nil || targs.NamedChildCount() == 0 {
		return ""
	}
	switch x.text(name) {
	case "static_cast", "dynamic_cast", "reinterpret_cast", "const_cast":
		return typeName(x, targs.NamedChild(0))
	}
	return ""
}

// typeName is a type as written, for the rules' ParseType: `A`, `a::A`,
// `Box<int>`, `std::unique_ptr<A>`; "" for primitive types and `auto`.
func typeName(x *extraction, n *ts.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind() == "type_descriptor" {
		n = n.ChildByFieldName("type")
		if n == nil {
			return ""
		}
	}
	switch n.Kind() {
	case "primitive_type", "placeholder_type_specifier", "sized_type_specifier", "auto":
		return ""
	}
	return strings.Join(strings.Fields(x.text(n)), " ")
}

// addCall records a call with its arguments.
func (x *extraction) addCall(n *ts.Node, callee *lang.Expr, args *ts.Node) {
	pos := uint32(n.StartByte())
	call := lang.Call{Scope: x.scopes.CallScope(pos), Callee: callee, Line: lang.Line(n), Byte: pos}
	if args != nil {
		for i := uint(0); i < args.NamedChildCount(); i++ {
			if a := args.NamedChild(i); a.Kind() != "comment" {
				call.ArgExprs = append(call.ArgExprs, x.expr(a, 0))
			}
		}
		call.Args = len(call.ArgExprs)
	}
	x.facts.Calls = append(x.facts.Calls, call)
}

// fieldInitializers records a constructor's initializers: `Base(x)` calls
// the constructor of a base class (a field's initializer names no type
// and gets no edge).
func (x *extraction) fieldInitializers(list *ts.Node) {
	for i := uint(0); i < list.NamedChildCount(); i++ {
		fi := list.NamedChild(i)
		if fi.Kind() != "field_initializer" || fi.NamedChildCount() < 2 {
			continue
		}
		name, args := fi.NamedChild(0), fi.NamedChild(fi.NamedChildCount()-1)
		switch name.Kind() {
		case "field_identifier", "type_identifier", "qualified_identifier", "template_method", "template_type":
			t := strings.Join(strings.Fields(x.text(name)), "")
			if name.Kind() == "field_identifier" && isMemberName(t) {
				break
			}
			x.addCall(fi, &lang.Expr{Kind: lang.ExprNew, Name: t}, args)
		}
		x.code(args)
	}
}

// isMemberName reports whether an initializer's name is written the way
// data members usually are (`v_`, `m_v`): not a base class.
func isMemberName(s string) bool {
	return strings.HasSuffix(s, "_") || strings.HasPrefix(s, "m_")
}
