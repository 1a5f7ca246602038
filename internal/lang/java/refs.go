package java

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// References: names read or written in callables that may be static fields
// or constants (`LIMIT`, `Config.LIMIT`, `Color.RED`). The resolver keeps
// those that resolve to static members or constants.

type refKey struct {
	scope int
	expr  string
}

type refSet map[refKey]bool

// identRef records a simple name used as an expression.
func (x *extraction) identRef(n *ts.Node, seen refSet) {
	p := n.Parent()
	if p == nil {
		return
	}
	is := func(field string) bool {
		c := p.ChildByFieldName(field)
		return c != nil && c.Id() == n.Id()
	}
	write := false
	switch p.Kind() {
	case "method_invocation", "field_access":
		if !is("object") {
			return
		}
	case "variable_declarator":
		if !is("value") {
			return
		}
	case "assignment_expression":
		write = is("left")
	case "instanceof_expression":
		if !is("left") {
			return
		}
	case "cast_expression":
		if !is("value") {
			return
		}
	case "lambda_expression":
		if !is("body") {
			return
		}
	case "enhanced_for_statement":
		if !is("value") {
			return
		}
	case "update_expression":
		write = true
	case "argument_list", "binary_expression", "unary_expression", "return_statement",
		"parenthesized_expression", "array_access", "ternary_expression", "array_initializer",
		"throw_statement", "yield_statement", "assert_statement", "dimensions_expr", "guard",
		"expression_statement":
	default:
		return
	}
	if inAnnotation(n) {
		return
	}
	x.addRef(n, &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}, write, seen)
}

// fieldRef records `a.B.NAME` where the qualifier is a chain of names (a
// type, a package-qualified type or a static field).
func (x *extraction) fieldRef(n *ts.Node, seen refSet) {
	field := n.ChildByFieldName("field")
	if field == nil || field.Kind() != "identifier" || !isNameChain(n.ChildByFieldName("object")) || inAnnotation(n) {
		return
	}
	write := false
	if p := n.Parent(); p != nil && p.Kind() == "assignment_expression" {
		if l := p.ChildByFieldName("left"); l != nil && l.Id() == n.Id() {
			write = true
		}
	}
	x.addRef(n, x.expr(n, 0), write, seen)
}

// inAnnotation reports whether n is part of an annotation (whose
// arguments are constants of the declaration, not reads by its body).
func inAnnotation(n *ts.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "annotation", "marker_annotation":
			return true
		case "block", "class_body", "constructor_body", "program":
			return false
		}
	}
	return false
}

func isNameChain(n *ts.Node) bool {
	for n != nil {
		switch n.Kind() {
		case "identifier":
			return true
		case "field_access":
			if f := n.ChildByFieldName("field"); f == nil || f.Kind() != "identifier" {
				return false
			}
			n = n.ChildByFieldName("object")
		default:
			return false
		}
	}
	return false
}

func (x *extraction) addRef(n *ts.Node, e *lang.Expr, write bool, seen refSet) {
	scope := x.container(uint32(n.StartByte()))
	if scope < 0 || !x.facts.Symbols[scope].Kind.IsCallable() {
		return
	}
	k := refKey{scope, x.text(n)}
	if seen[k] {
		return
	}
	seen[k] = true
	x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: lang.Line(n), Write: write})
}
