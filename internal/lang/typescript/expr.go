package typescript

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// literal is the value of a literal of a builtin type. It is written as a
// conversion to that type, which the rules resolve to an external value:
// a receiver known to be a string or an array never gets a name-only guess.
func literal(typ string) *lang.Expr { return &lang.Expr{Kind: lang.ExprTypeAssert, Name: typ} }

// expr converts an expression node into the resolver's expression tree.
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 || x.symbolsOnly {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier", "type_identifier", "shorthand_property_identifier":
		name := x.text(n)
		if name == "undefined" {
			return &lang.Expr{}
		}
		return &lang.Expr{Kind: lang.ExprIdent, Name: name}
	case "this":
		if !x.thisIsInstance(n) {
			return &lang.Expr{}
		}
		return &lang.Expr{Kind: lang.ExprSelf}
	case "super":
		return &lang.Expr{Kind: lang.ExprSuper}
	case "member_expression":
		return &lang.Expr{Kind: lang.ExprMember, Name: x.memberName(n.ChildByFieldName("property")),
			X: x.expr(n.ChildByFieldName("object"), depth+1)}
	case "subscript_expression":
		obj := x.expr(n.ChildByFieldName("object"), depth+1)
		if idx := n.ChildByFieldName("index"); idx != nil && idx.Kind() == "string" {
			return &lang.Expr{Kind: lang.ExprMember, Name: x.stringValue(idx), X: obj}
		}
		return &lang.Expr{Kind: lang.ExprIndex, X: obj}
	case "call_expression":
		if alias, ok := x.requires[n.Id()]; ok {
			return &lang.Expr{Kind: lang.ExprIdent, Name: alias}
		}
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Kind() == "import" {
			return &lang.Expr{}
		}
		if f := x.boundFunction(fn); f != nil {
			return x.expr(f, depth+1)
		}
		return &lang.Expr{Kind: lang.ExprCall, X: x.expr(fn, depth+1)}
	case "new_expression":
		if c := n.ChildByFieldName("constructor"); c != nil && isNameExpr(c) {
			return &lang.Expr{Kind: lang.ExprNew, Name: lang.OneLine(x.text(c))}
		}
	case "await_expression":
		if n.NamedChildCount() > 0 {
			return &lang.Expr{Kind: lang.ExprAwait, X: x.expr(n.NamedChild(0), depth+1)}
		}
	case "parenthesized_expression", "non_null_expression", "satisfies_expression":
		if n.NamedChildCount() > 0 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "as_expression":
		if n.NamedChildCount() < 2 {
			if n.NamedChildCount() == 1 {
				return x.expr(n.NamedChild(0), depth+1) // `x as const`
			}
			break
		}
		t := n.NamedChild(1)
		if tt := x.text(t); tt == "any" || tt == "unknown" {
			return x.expr(n.NamedChild(0), depth+1)
		}
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: lang.OneLine(x.text(t))}
	case "type_assertion":
		if args := childOfKind(n, "type_arguments"); args != nil && args.NamedChildCount() == 1 {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: lang.OneLine(x.text(args.NamedChild(0)))}
		}
	case "assignment_expression":
		return x.expr(n.ChildByFieldName("right"), depth+1)
	case "sequence_expression":
		if c := n.NamedChildCount(); c > 0 {
			return x.expr(n.NamedChild(c-1), depth+1)
		}
	case "string", "template_string":
		return literal("String")
	case "number":
		return literal("Number")
	case "true", "false":
		return literal("Boolean")
	case "regex":
		return literal("RegExp")
	case "array":
		return literal("Array")
	case "object":
		return literal("Object")
	case "arrow_function", "function_expression", "generator_function", "function":
		return literal("Function")
	}
	return &lang.Expr{}
}

// boundFunction returns f of a callee `f.bind`, f a name or a member path
// (`obj.method.bind(obj)`): the bound function calls f, so `const g =
// f.bind(x)` holds f for calls of g (immer exports its API as
// `immer.produce.bind(immer)`). The arguments bound are not followed.
func (x *extraction) boundFunction(fn *ts.Node) *ts.Node {
	if fn.Kind() != "member_expression" {
		return nil
	}
	prop, obj := fn.ChildByFieldName("property"), fn.ChildByFieldName("object")
	if prop == nil || obj == nil || x.text(prop) != "bind" || !isPath(obj) {
		return nil
	}
	return obj
}

// isPath reports a name or a member path from a name or `this`.
func isPath(n *ts.Node) bool {
	switch n.Kind() {
	case "identifier":
		return true
	case "member_expression":
		o := n.ChildByFieldName("object")
		return o != nil && (o.Kind() == "this" || isPath(o))
	}
	return false
}

// thisIsInstance reports whether `this` at n is the instance of the
// enclosing class: arrow functions see the `this` of their surroundings,
// while a function expression or an object-literal method that is not a
// node has a `this` of its own, which the resolver cannot type.
func (x *extraction) thisIsInstance(n *ts.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "arrow_function", "class_body", "class_static_block":
			if p.Kind() != "arrow_function" {
				return true
			}
		case "function_expression", "generator_function", "function", "function_declaration",
			"generator_function_declaration":
			_, isNode := x.symAt[p.Id()]
			return isNode
		case "method_definition":
			if b := p.Parent(); b != nil && b.Kind() == "class_body" {
				return true
			}
			return false
		case "program":
			return false
		}
	}
	return false
}

// stringValue is the content of a string literal node.
func (x *extraction) stringValue(n *ts.Node) string {
	s := x.text(n)
	if len(s) >= 2 {
		switch s[0] {
		case '"', '\'', '`':
			if s[len(s)-1] == s[0] {
				s = s[1 : len(s)-1]
			}
		}
	}
	return s
}

// requirePath returns the module specifier of `require('x')`, or "".
func (x *extraction) requirePath(call *ts.Node) string {
	if call == nil || call.Kind() != "call_expression" {
		return ""
	}
	fn := call.ChildByFieldName("function")
	if fn == nil || fn.Kind() != "identifier" || x.text(fn) != "require" {
		return ""
	}
	return x.firstStringArg(call)
}

// importCallPath returns the module specifier of a dynamic `import('x')`.
func (x *extraction) importCallPath(call *ts.Node) string {
	if call == nil || call.Kind() != "call_expression" {
		return ""
	}
	fn := call.ChildByFieldName("function")
	if fn == nil || fn.Kind() != "import" {
		return ""
	}
	return x.firstStringArg(call)
}

func (x *extraction) firstStringArg(call *ts.Node) string {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() != 1 || args.NamedChild(0).Kind() != "string" {
		return ""
	}
	return x.stringValue(args.NamedChild(0))
}

// isImportValue reports declarator values that are imports: require('x'),
// require('x').name, and (await) import('x').
func isImportValue(x *extraction, v *ts.Node) bool {
	v = unwrap(v)
	if v == nil {
		return false
	}
	if v.Kind() == "await_expression" && v.NamedChildCount() > 0 {
		return x.importCallPath(unwrap(v.NamedChild(0))) != ""
	}
	if v.Kind() == "member_expression" {
		return x.requirePath(unwrap(v.ChildByFieldName("object"))) != ""
	}
	return x.requirePath(v) != ""
}

// isExportsTarget reports the left side of a CommonJS export assignment:
// module.exports, module.exports.x, exports.x.
func isExportsTarget(t string) bool {
	return t == "module.exports" || strings.HasPrefix(t, "module.exports.") || strings.HasPrefix(t, "exports.")
}
