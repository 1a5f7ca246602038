package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// expr reads an expression as far as calls need it.
func (x *extraction) expr(n *ts.Node) *lang.Expr {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		switch name := x.text(n); name {
		case "this":
			return &lang.Expr{Kind: lang.ExprSelf}
		case "super":
			return &lang.Expr{Kind: lang.ExprSuper}
		default:
			return &lang.Expr{Kind: lang.ExprIdent, Name: name}
		}
	case "wildcard":
		return &lang.Expr{Kind: lang.ExprIdent, Name: placeholder}
	case "field_expression":
		v, f := n.ChildByFieldName("value"), n.ChildByFieldName("field")
		if v == nil || f == nil {
			return nil
		}
		recv := x.expr(v)
		if recv == nil {
			return nil
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(f), X: recv}
	case "call_expression":
		fn := n.ChildByFieldName("function")
		for fn != nil && fn.Kind() == "generic_function" {
			fn = fn.ChildByFieldName("function")
		}
		f := x.expr(fn)
		if f == nil {
			return nil
		}
		if f.Kind == lang.ExprSelf {
			f = x.selfCallee(n)
		}
		var args []*lang.Expr
		if a := n.ChildByFieldName("arguments"); a != nil {
			args = x.arguments(a)
		}
		return &lang.Expr{Kind: lang.ExprCall, X: f, Args: args}
	case "generic_function":
		return x.expr(n.ChildByFieldName("function"))
	case "instance_expression":
		if t := instanceType(n); t != nil {
			return &lang.Expr{Kind: lang.ExprNew, Name: typeText(x, t)}
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0))
		}
	case "lambda_expression":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: functionLiteral}
	case "for_expression":
		return x.forValue(n)
	case "infix_expression":
		// `a op b` is a.op(b); an operator ending in ':' is b.op(a).
		l, op, r := n.ChildByFieldName("left"), n.ChildByFieldName("operator"), n.ChildByFieldName("right")
		if l == nil || op == nil || r == nil {
			return nil
		}
		if strings.HasSuffix(x.text(op), ":") {
			l, r = r, l
		}
		recv := viewed(x.expr(l), x.text(op))
		if recv == nil {
			return nil
		}
		return &lang.Expr{Kind: lang.ExprCall, X: &lang.Expr{Kind: lang.ExprMember, Name: x.text(op), X: recv},
			Args: []*lang.Expr{x.expr(r)}}
	case "string", "interpolated_string_expression":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "string"}
	case "integer_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "int"}
	case "floating_point_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "float"}
	case "boolean_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "character_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "char"}
	case "null_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "null"}
	}
	return nil
}

// forValue is the value of `for (a <- xs; b <- ys) yield e`: Scala
// rewrites it to `xs.flatMap(a => ys.map(b => e))` (`xs.map` with one
// generator), so its type is the result of the first generator's
// flatMap or map (a Parser's for a Parser, none for a library
// collection). The rewritten calls are not written and are no calls.
func (x *extraction) forValue(n *ts.Node) *lang.Expr {
	if !hasToken(n, "yield") {
		return nil
	}
	enums := lang.FirstNamed(n, "enumerators")
	if enums == nil {
		return nil
	}
	var first *ts.Node
	generators := 0
	for i := uint(0); i < enums.NamedChildCount(); i++ {
		if e := enums.NamedChild(i); e.Kind() == "enumerator" && hasToken(e, "<-") && e.NamedChildCount() >= 2 {
			if generators == 0 {
				first = e.NamedChild(1)
			}
			generators++
		}
	}
	if first == nil {
		return nil
	}
	recv := x.expr(first)
	if recv == nil {
		return nil
	}
	method := "flatMap"
	if generators == 1 {
		method = "map"
	}
	return &lang.Expr{Kind: lang.ExprCall, X: &lang.Expr{Kind: lang.ExprMember, Name: method, X: recv},
		Args: []*lang.Expr{{Kind: lang.ExprLiteral, Name: functionLiteral}}}
}
