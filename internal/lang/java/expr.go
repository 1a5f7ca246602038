package java

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// expr converts an expression node into the resolver's expression tree.
// Literals carry their Java type ("int", "String", "null", ...); lambdas and
// method references are literals of type "lambda" (they only fit functional
// interfaces, which matters when choosing an overload).
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	lit := func(t string) *lang.Expr { return &lang.Expr{Kind: lang.ExprLiteral, Name: t} }
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "this":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "super":
		return &lang.Expr{Kind: lang.ExprSuper}
	case "field_access":
		obj, field := n.ChildByFieldName("object"), n.ChildByFieldName("field")
		if field == nil || obj == nil {
			break
		}
		if field.Kind() == "this" {
			// Outer.this: the enclosing instance of Outer.
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: x.typeText(obj)}
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(field), X: x.expr(obj, depth+1)}
	case "method_invocation":
		name := n.ChildByFieldName("name")
		callee := &lang.Expr{Kind: lang.ExprIdent, Name: x.text(name)}
		if obj := n.ChildByFieldName("object"); obj != nil {
			callee = &lang.Expr{Kind: lang.ExprMember, Name: callee.Name, X: x.invocationObject(n, obj)}
		}
		return &lang.Expr{Kind: lang.ExprCall, X: callee, Args: x.argsAt(n.ChildByFieldName("arguments"), depth)}
	case "object_creation_expression":
		return &lang.Expr{Kind: lang.ExprNew, Name: x.typeText(n.ChildByFieldName("type")),
			Args: x.argsAt(n.ChildByFieldName("arguments"), depth)}
	case "array_creation_expression":
		dims := 0
		for i := uint(0); i < n.NamedChildCount(); i++ {
			switch ch := n.NamedChild(i); ch.Kind() {
			case "dimensions_expr":
				dims++
			case "dimensions":
				dims += strings.Count(x.text(ch), "[")
			}
		}
		return &lang.Expr{Kind: lang.ExprNew, Name: x.typeText(n.ChildByFieldName("type")) + strings.Repeat("[]", max(dims, 1))}
	case "cast_expression":
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: x.typeText(n.ChildByFieldName("type"))}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "array_access":
		return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(n.ChildByFieldName("array"), depth+1)}
	case "ternary_expression":
		e := x.expr(n.ChildByFieldName("consequence"), depth+1)
		if e.Kind == lang.ExprLiteral && e.Name == "null" {
			e = x.expr(n.ChildByFieldName("alternative"), depth+1)
		}
		return e
	case "assignment_expression":
		return x.expr(n.ChildByFieldName("right"), depth+1)
	case "string_literal", "text_block":
		return lit("String")
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		if t := x.text(n); strings.HasSuffix(t, "l") || strings.HasSuffix(t, "L") {
			return lit("long")
		}
		return lit("int")
	case "decimal_floating_point_literal", "hex_floating_point_literal":
		if t := x.text(n); strings.HasSuffix(t, "f") || strings.HasSuffix(t, "F") {
			return lit("float")
		}
		return lit("double")
	case "true", "false", "instanceof_expression":
		return lit("boolean")
	case "character_literal":
		return lit("char")
	case "null_literal":
		return lit("null")
	case "class_literal":
		return lit("Class")
	case "lambda_expression", "method_reference":
		return lit("lambda")
	case "binary_expression":
		return x.binaryType(n, depth)
	case "unary_expression":
		operand := x.expr(n.ChildByFieldName("operand"), depth+1)
		switch x.text(n.ChildByFieldName("operator")) {
		case "!":
			return lit("boolean")
		case "-", "+", "~":
			return &lang.Expr{Kind: lang.ExprLiteral, Name: "op-", Args: []*lang.Expr{operand}}
		}
	case "update_expression":
		if n.NamedChildCount() == 1 {
			return &lang.Expr{Kind: lang.ExprLiteral, Name: "op-", Args: []*lang.Expr{x.expr(n.NamedChild(0), depth+1)}}
		}
	}
	return &lang.Expr{}
}

// numericRank orders the primitive numeric types by widening.
var numericRank = map[string]int{"byte": 1, "short": 2, "char": 2, "int": 3, "long": 4, "float": 5, "double": 6}

// binaryType types a binary expression: comparisons are boolean, `+` with
// a String literal is a String; other operators become a literal named
// "op" plus the operator with the operands as Args, typed during
// resolution when the operand types are known.
func (x *extraction) binaryType(n *ts.Node, depth int) *lang.Expr {
	op := x.text(n.ChildByFieldName("operator"))
	switch op {
	case "==", "!=", "<", ">", "<=", ">=", "&&", "||":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "boolean"}
	}
	l, r := x.expr(n.ChildByFieldName("left"), depth+1), x.expr(n.ChildByFieldName("right"), depth+1)
	if op == "+" && ((l.Kind == lang.ExprLiteral && l.Name == "String") || (r.Kind == lang.ExprLiteral && r.Name == "String")) {
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "String"}
	}
	return &lang.Expr{Kind: lang.ExprLiteral, Name: "op" + op, Args: []*lang.Expr{l, r}}
}

// argsAt converts the arguments of a nested call; nil when there are none.
func (x *extraction) argsAt(list *ts.Node, depth int) []*lang.Expr {
	if list == nil || depth > 8 {
		return nil
	}
	var out []*lang.Expr
	for i := uint(0); i < list.NamedChildCount(); i++ {
		a := list.NamedChild(i)
		if k := a.Kind(); k == "line_comment" || k == "block_comment" {
			continue
		}
		out = append(out, x.expr(a, depth+1))
	}
	return out
}
