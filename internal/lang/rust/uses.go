package rust

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records calls, macro invocations and local bindings, each
// attributed to the innermost enclosing function (closures are not nodes:
// their calls belong to the function around them).
func (x *extraction) readUses(q *lang.Query, matches []lang.Match) {
	var (
		cCall     = q.Capture("call")
		cCallee   = q.Capture("callee")
		cArgs     = q.Capture("args")
		cMacro    = q.Capture("macro")
		cLet      = q.Capture("let")
		cFor      = q.Capture("for")
		cLetCond  = q.Capture("letcond")
		cArm      = q.Capture("arm")
		cClosure  = q.Capture("closure")
		cClParams = q.Capture("params")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cCall) != nil:
			x.addCall(m.Node(cCall), m.Node(cCallee), m.Node(cArgs))
		case m.Node(cMacro) != nil:
			x.facts.Macros++
			x.noteMacro(m.Node(cMacro))
		case m.Node(cLet) != nil:
			x.bindLet(m.Node(cLet))
		case m.Node(cFor) != nil:
			x.bindFor(m.Node(cFor))
		case m.Node(cLetCond) != nil:
			x.bindLetCondition(m.Node(cLetCond))
		case m.Node(cArm) != nil:
			x.bindArm(m.Node(cArm))
		case m.Node(cClosure) != nil:
			x.bindClosure(m.Node(cClosure), m.Node(cClParams))
		}
	}
}

func (x *extraction) addCall(call, callee, args *ts.Node) {
	e := x.callee(callee)
	if e == nil {
		return
	}
	argExprs := x.argList(args)
	n := len(argExprs)
	pos := uint32(call.StartByte())
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope: x.scopes.CallScope(pos), Callee: e, Args: n, ArgExprs: argExprs,
		Line: lang.Line(callee), Byte: pos,
	})
}

// callee converts the function of a call: a name, a path or a method of a
// receiver; nil for anything else (closures called through a field, a
// call's result called).
func (x *extraction) callee(n *ts.Node) *lang.Expr {
	switch n.Kind() {
	case "generic_function":
		return x.callee(n.ChildByFieldName("function"))
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.name(n)}
	case "scoped_identifier":
		e := x.path(n, 0)
		if e.Kind == lang.ExprMember || e.Kind == lang.ExprIdent {
			return e
		}
	case "field_expression":
		field := n.ChildByFieldName("field")
		if field == nil || field.Kind() != "field_identifier" {
			return nil
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.name(field), X: x.expr(n.ChildByFieldName("value"), 0)}
	}
	return nil
}

// pathHead marks a name that starts a path (Lookup skips the locals).
const pathHead = "::"

// path converts a path used as a value: `a::b::C` → Member(Member(a, b),
// C), with crate, self and super as names the rules know, `Self::x` as a
// member of the receiver's type, and `<T as Trait>::x` as T's member.
func (x *extraction) path(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "scoped_identifier", "scoped_type_identifier":
		name := x.name(n.ChildByFieldName("name"))
		p := n.ChildByFieldName("path")
		if p == nil {
			return &lang.Expr{Kind: lang.ExprIdent, Name: name} // `::name`
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: name, X: x.path(p, depth+1)}
	case "generic_type":
		return x.path(n.ChildByFieldName("type"), depth+1)
	case "bracketed_type":
		if n.NamedChildCount() == 1 {
			inner := n.NamedChild(0)
			if inner.Kind() == "qualified_type" {
				return x.path(inner.ChildByFieldName("type"), depth+1)
			}
			return x.path(inner, depth+1)
		}
	case "identifier", "type_identifier":
		name := x.name(n)
		if name == "Self" {
			return &lang.Expr{Kind: lang.ExprSelf}
		}
		if depth > 0 {
			// The head of a path names a module or a type, never a
			// local: `ast::visit(ast)` with a parameter ast.
			return &lang.Expr{Kind: lang.ExprIdent, Name: pathHead + name}
		}
		return &lang.Expr{Kind: lang.ExprIdent, Name: name}
	case "crate", "super":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "self":
		return &lang.Expr{Kind: lang.ExprIdent, Name: "self"}
	}
	return &lang.Expr{}
}

// elementMethods return one element of the value they are called on:
// Option and Result unwrapping, a lock's or a cell's content.
var elementMethods = map[string]bool{
	"unwrap": true, "expect": true, "unwrap_or_default": true, "unwrap_unchecked": true,
	"borrow": true, "borrow_mut": true,
}

// sameMethods return the value they are called on, as far as its methods
// go: references, clones, iterators over a container, guards of a lock.
var sameMethods = map[string]bool{
	"as_ref": true, "as_mut": true, "clone": true, "to_owned": true, "iter": true, "iter_mut": true,
	"into_iter": true, "by_ref": true, "as_deref": true, "as_deref_mut": true, "lock": true,
	"read": true, "write": true, "get_mut": true,
}

// conversions are the sameMethods that convert a value of a type that
// implements them (AsRef, Borrow): `self.as_ref()` in such an impl is
// another type.
var conversions = map[string]bool{"as_ref": true, "as_mut": true}

// expr converts an expression into the resolver's expression tree.
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.name(n)}
	case "self":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "scoped_identifier":
		return x.path(n, depth+1)
	case "field_expression":
		return &lang.Expr{Kind: lang.ExprMember, Name: x.name(n.ChildByFieldName("field")),
			X: x.expr(n.ChildByFieldName("value"), depth+1)}
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn != nil && fn.Kind() == "field_expression" {
			recv := fn.ChildByFieldName("value")
			switch name := x.text(fn.ChildByFieldName("field")); {
			case elementMethods[name]:
				return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(recv, depth+1)}
			case sameMethods[name] && (recv == nil || recv.Kind() != "self" || !conversions[name]):
				return x.expr(recv, depth+1)
			}
		}
		callee := x.callee(fn)
		if callee == nil {
			return &lang.Expr{}
		}
		if callee.Kind == lang.ExprMember && callee.Name == "default" && fn.Kind() == "scoped_identifier" {
			// `T::default()` is a T, whether its Default is derived
			// (outside the index) or written.
			return &lang.Expr{Kind: lang.ExprComposite, Name: lang.OneLine(x.text(fn.ChildByFieldName("path")))}
		}
		return &lang.Expr{Kind: lang.ExprCall, X: callee, Args: x.argList(n.ChildByFieldName("arguments"))}
	case "try_expression":
		if n.NamedChildCount() > 0 {
			return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(n.NamedChild(0), depth+1)}
		}
	case "await_expression":
		if n.NamedChildCount() > 0 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "reference_expression":
		return x.expr(n.ChildByFieldName("value"), depth+1)
	case "unary_expression":
		if op := n.Child(0); op != nil && op.Kind() == "*" && n.NamedChildCount() > 0 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "struct_expression":
		return &lang.Expr{Kind: lang.ExprComposite, Name: lang.OneLine(x.text(n.ChildByFieldName("name")))}
	case "index_expression":
		if n.NamedChildCount() > 0 {
			return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(n.NamedChild(0), depth+1)}
		}
	case "type_cast_expression":
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: lang.OneLine(x.text(n.ChildByFieldName("type")))}
	case "string_literal", "raw_string_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "str"}
	case "integer_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "i32"}
	case "float_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "f64"}
	case "boolean_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "char_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "char"}
	}
	return &lang.Expr{}
}

// argList converts the arguments of a call: the rules choose among
// same-named candidates (a type's `from` for several `From<T>`) by them.
func (x *extraction) argList(args *ts.Node) []*lang.Expr {
	if args == nil {
		return nil
	}
	var out []*lang.Expr
	for i := uint(0); i < args.NamedChildCount(); i++ {
		switch a := args.NamedChild(i); a.Kind() {
		case "line_comment", "block_comment", "attribute_item":
		default:
			out = append(out, x.expr(a, 1))
		}
	}
	return out
}
