package golang

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// What the Go extractor records for the value flow of callables
// (lang.Features.ValueFlow, internal/lang/flow.go): the arguments of each
// call, the keyed fields of composite literals (`Config{Skip: skip}`, as
// ExprKeyword arguments of the ExprComposite; the struct literals in a
// slice or map literal as ExprComposite arguments), and stores that no local
// binding holds: `x.f = v` and a composite literal a function returns.
// Both are bindings without a name (lang.Binding), which no lookup finds.

// argExprs converts the arguments of a call: each as an expression, an
// argument that cannot name a callable (a literal, a function literal,
// an operation) as an unknown expression that keeps the positions, and
// `xs...` as the spread "*". A call whose arguments can carry no callable
// is recorded without them.
func (x *extraction) argExprs(args *ts.Node, scope int) []*lang.Expr {
	c := args.Walk()
	defer c.Close()
	items := args.NamedChildren(c)
	out := make([]*lang.Expr, 0, len(items))
	useful := false
	for i := range items {
		a := &items[i]
		var e *lang.Expr
		switch a.Kind() {
		case "comment":
			continue
		case "variadic_argument":
			e = &lang.Expr{Kind: lang.ExprKeyword, Name: "*", X: &lang.Expr{}}
		default:
			e = x.flowValue(a, scope)
			useful = useful || e.Kind != lang.ExprUnknown
		}
		out = append(out, e)
	}
	if !useful {
		return nil
	}
	return out
}

// flowValue is the expression of a value that may be a callable: a name,
// a selector (a function of a package, a method value, a field), or a
// composite literal with keyed fields; else an unknown expression.
func (x *extraction) flowValue(n *ts.Node, scope int) *lang.Expr {
	for n != nil && (n.Kind() == "parenthesized_expression" ||
		n.Kind() == "unary_expression" && x.text(n.ChildByFieldName("operator")) == "&") {
		if n.Kind() == "parenthesized_expression" {
			n = n.NamedChild(0)
		} else {
			n = n.ChildByFieldName("operand")
		}
	}
	if n == nil {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier":
		if x.text(n) == "nil" {
			return &lang.Expr{}
		}
	case "selector_expression":
	case "composite_literal":
		e := x.expr(n, 0)
		if len(e.Args) == 0 {
			return &lang.Expr{}
		}
		return e
	default:
		return &lang.Expr{}
	}
	e := x.expr(n, 0)
	x.markReceiver(scope, e)
	return e
}

// literalFields are what a composite literal of type typ stores in fields:
// for a struct, its `Name: value` elements whose value may be a callable,
// as ExprKeyword expressions; for a slice, array or map, the elements
// written as literals of the element type (`[]Route{{Path: "/", Handler:
// h}}`, a test table), as ExprComposite expressions of that type.
func (x *extraction) literalFields(typ, body *ts.Node, depth int) []*lang.Expr {
	if body == nil || depth > 4 {
		return nil
	}
	var elem *ts.Node
	if typ != nil {
		switch typ.Kind() {
		case "slice_type", "array_type", "implicit_length_array_type":
			elem = typ.ChildByFieldName("element")
		case "map_type":
			elem = typ.ChildByFieldName("value")
		}
	}
	c := body.Walk()
	defer c.Close()
	var out []*lang.Expr
	for _, el := range body.NamedChildren(c) {
		var k, v *ts.Node
		switch el.Kind() {
		case "keyed_element":
			key, val := el.ChildByFieldName("key"), el.ChildByFieldName("value")
			if key == nil || val == nil || key.NamedChildCount() != 1 || val.NamedChildCount() != 1 {
				continue
			}
			k, v = key.NamedChild(0), val.NamedChild(0)
		case "literal_element":
			if el.NamedChildCount() != 1 {
				continue
			}
			v = el.NamedChild(0)
		default:
			continue
		}
		if elem != nil {
			// An element of a container: a literal of the element type.
			if v.Kind() == "literal_value" {
				if args := x.literalFields(elem, v, depth+1); len(args) > 0 {
					out = append(out, &lang.Expr{Kind: lang.ExprComposite, Name: x.compositeType(elem), Args: args})
				}
			}
			continue
		}
		if k == nil || k.Kind() != "identifier" {
			continue
		}
		switch v.Kind() {
		case "identifier", "selector_expression":
			if x.text(v) == "nil" {
				continue
			}
			out = append(out, &lang.Expr{Kind: lang.ExprKeyword, Name: x.text(k), X: x.expr(v, 1)})
		}
	}
	return out
}

// storeFields records `x.f = v` (and each pair of `x.f, y.g = v, w`) where
// v may be a callable, as a nameless binding whose value is the keyword
// f=v with the object x as its argument.
func (x *extraction) storeFields(stmt, left, right *ts.Node) {
	scope := x.localScope(stmt)
	if scope < 0 || left == nil || right == nil || left.NamedChildCount() != right.NamedChildCount() {
		return
	}
	if op := stmt.ChildByFieldName("operator"); op == nil || x.text(op) != "=" {
		return
	}
	c := stmt.Walk()
	defer c.Close()
	names, values := left.NamedChildren(c), right.NamedChildren(c)
	for i := range names {
		if names[i].Kind() != "selector_expression" {
			continue
		}
		v := x.flowValue(&values[i], scope)
		if v.Kind == lang.ExprUnknown {
			continue
		}
		obj := x.expr(names[i].ChildByFieldName("operand"), 1)
		if recv, ok := x.receivers[scope]; ok && obj.Kind == lang.ExprIdent && obj.Name == recv {
			obj = &lang.Expr{Kind: lang.ExprSelf}
		} else {
			x.markReceiver(scope, obj)
		}
		field := x.text(names[i].ChildByFieldName("field"))
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Byte: uint32(stmt.StartByte()),
			Value: &lang.Expr{Kind: lang.ExprKeyword, Name: field, X: v, Args: []*lang.Expr{obj}},
		})
	}
}

// storeReturned records each composite literal with keyed fields that a
// return statement returns, as a nameless binding.
func (x *extraction) storeReturned(stmt, results *ts.Node) {
	scope := x.localScope(stmt)
	if scope < 0 || results == nil {
		return
	}
	c := stmt.Walk()
	defer c.Close()
	for _, r := range results.NamedChildren(c) {
		v := x.flowValue(&r, scope)
		if v.Kind != lang.ExprComposite {
			continue
		}
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Byte: uint32(stmt.StartByte()), Value: v})
	}
}
