package python

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// receiverRef is the receiver visible in a scope: the name of the method's
// first parameter, and the method.
type receiverRef struct {
	name   string
	method int
}

// receiverAt returns the name standing for the instance (or, in a class
// method, the class) inside scope, and the method that declares it: the
// first parameter of the method that scope is or is nested in. A class body
// between them hides it, and so does a closure parameter of the same name.
func (x *extraction) receiverAt(scope int) (string, int) {
	if r, ok := x.receivers[scope]; ok {
		return r.name, r.method
	}
	r := receiverRef{method: -1}
	syms := x.facts.Symbols
	for s := scope; s >= 0; s = syms[s].Parent {
		if syms[s].Kind.IsType() {
			break
		}
		if name := x.info[s].receiver; name != "" {
			r = receiverRef{name: name, method: s}
			break
		}
	}
	if r.method >= 0 {
		for s := scope; s != r.method; s = syms[s].Parent {
			for _, p := range syms[s].Params {
				if p.Name == r.name {
					r = receiverRef{method: -1}
				}
			}
			if r.method < 0 {
				break
			}
		}
	}
	x.receivers[scope] = r
	return r.name, r.method
}

// expr converts an expression node into the resolver's expression tree, as
// seen from scope (which decides what `self` is).
func (x *extraction) expr(n *ts.Node, scope int) *lang.Expr {
	return x.exprDepth(n, scope, 0)
}

func (x *extraction) exprDepth(n *ts.Node, scope, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier":
		name := x.text(n)
		if r, _ := x.receiverAt(scope); r != "" && name == r {
			return &lang.Expr{Kind: lang.ExprSelf}
		}
		return &lang.Expr{Kind: lang.ExprIdent, Name: name}
	case "attribute":
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(n.ChildByFieldName("attribute")),
			X: x.exprDepth(n.ChildByFieldName("object"), scope, depth+1)}
	case "call":
		return x.callExpr(n, scope, depth)
	case "subscript":
		return &lang.Expr{Kind: lang.ExprIndex, X: x.exprDepth(n.ChildByFieldName("value"), scope, depth+1)}
	case "await":
		if n.NamedChildCount() == 1 {
			return &lang.Expr{Kind: lang.ExprAwait, X: x.exprDepth(n.NamedChild(0), scope, depth+1)}
		}
	case "parenthesized_expression":
		if c := namedChildren(n); len(c) == 1 {
			return x.exprDepth(c[0], scope, depth+1)
		}
	case "string", "concatenated_string":
		return literal(stringType(x.text(n)))
	case "integer":
		return literal("int")
	case "float":
		return literal("float")
	case "true", "false":
		return literal("bool")
	case "none":
		return literal("null")
	case "list", "list_comprehension":
		return literal("list")
	case "dictionary", "dictionary_comprehension":
		return literal("dict")
	case "set", "set_comprehension":
		return literal("set")
	case "tuple":
		return literal("tuple")
	case "boolean_operator":
		// `app or default_app`: either operand (value flow only).
		if op := n.ChildByFieldName("operator"); op != nil && x.text(op) == "or" {
			return either(x.exprDepth(n.ChildByFieldName("left"), scope, depth+1),
				x.exprDepth(n.ChildByFieldName("right"), scope, depth+1))
		}
	case "conditional_expression":
		// `a if cond else b`: either branch (value flow only).
		if c := namedChildren(n); len(c) == 3 {
			return either(x.exprDepth(c[0], scope, depth+1), x.exprDepth(c[2], scope, depth+1))
		}
	case "binary_operator":
		// "%s" % x, "a" + b: string formatting keeps the string type.
		if l := x.exprDepth(n.ChildByFieldName("left"), scope, depth+1); l.Kind == lang.ExprLiteral && (l.Name == "str" || l.Name == "bytes") {
			return l
		}
	}
	return &lang.Expr{}
}

// either is an ExprEither of the alternatives that may hold a callable
// (names, attributes, calls, nested alternatives), or unknown when none
// does.
func either(alts ...*lang.Expr) *lang.Expr {
	e := &lang.Expr{Kind: lang.ExprEither}
	for _, a := range alts {
		switch a.Kind {
		case lang.ExprUnknown, lang.ExprLiteral:
			continue
		case lang.ExprEither:
			e.Args = append(e.Args, a.X)
			e.Args = append(e.Args, a.Args...)
		default:
			e.Args = append(e.Args, a)
		}
	}
	if len(e.Args) == 0 {
		return &lang.Expr{}
	}
	e.X, e.Args = e.Args[0], e.Args[1:]
	if len(e.Args) == 0 {
		e.Args = nil
	}
	return e
}

func literal(typ string) *lang.Expr { return &lang.Expr{Kind: lang.ExprLiteral, Name: typ} }

// stringType is "bytes" for a bytes literal, else "str".
func stringType(lit string) string {
	i := strings.IndexAny(lit, `"'`)
	if i > 0 && strings.ContainsAny(lit[:i], "bB") {
		return "bytes"
	}
	return "str"
}

// callExpr converts a call: `super()` is the base class, `cls()` in a class
// method constructs the class, `cast(T, v)` is v seen as a T.
func (x *extraction) callExpr(n *ts.Node, scope, depth int) *lang.Expr {
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return &lang.Expr{}
	}
	if fn.Kind() == "identifier" {
		switch name := x.text(fn); {
		case name == "super":
			return &lang.Expr{Kind: lang.ExprSuper}
		case name == "cast":
			if t := x.castType(n); t != "" {
				return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
			}
		default:
			if r, _ := x.receiverAt(scope); r != "" && name == r {
				if e := x.classConstruction(scope); e.Kind == lang.ExprNew {
					return e
				}
			}
		}
	}
	if fn.Kind() == "attribute" && x.isTypingCast(fn) {
		if t := x.castType(n); t != "" {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
	}
	return &lang.Expr{Kind: lang.ExprCall, X: x.exprDepth(fn, scope, depth+1)}
}

// isTypingCast reports whether an attribute names typing's cast:
// `typing.cast`, or `t.cast` where the file imports typing as t (an
// import at file level, read before any expression).
func (x *extraction) isTypingCast(fn *ts.Node) bool {
	obj := fn.ChildByFieldName("object")
	if obj == nil || x.text(fn.ChildByFieldName("attribute")) != "cast" {
		return false
	}
	name := x.text(obj)
	if name == "typing" {
		return true
	}
	if obj.Kind() != "identifier" {
		return false
	}
	for _, imp := range x.facts.Imports {
		if imp.Kind == lang.ImportModule && imp.Path == "typing" && imp.Alias == name && imp.Scope < 0 {
			return true
		}
	}
	return false
}

// classConstruction is what calling the receiver in scope means: in a
// class method, constructing the class; otherwise nothing we follow.
func (x *extraction) classConstruction(scope int) *lang.Expr {
	_, method := x.receiverAt(scope)
	if method < 0 || !x.info[method].classReceiver {
		return &lang.Expr{}
	}
	class := x.facts.Symbols[method].Parent
	if class < 0 {
		return &lang.Expr{}
	}
	return &lang.Expr{Kind: lang.ExprNew, Name: x.info[class].typePath}
}

// castType is the type named by the first argument of `cast(T, v)`.
func (x *extraction) castType(call *ts.Node) string {
	args := call.ChildByFieldName("arguments")
	if args == nil {
		return ""
	}
	items := namedChildren(args)
	if len(items) != 2 {
		return ""
	}
	switch items[0].Kind() {
	case "identifier", "attribute", "string", "subscript":
		return lang.OneLine(x.text(items[0]))
	}
	return ""
}
