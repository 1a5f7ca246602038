package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// code records the calls and local bindings in a piece of code; local
// defs and classes are read as declarations nested in the enclosing
// symbol. A name is recorded as a call where it is read as a value
// (Call.Bare when it has no argument list): the rules keep it only when
// it names a def.
func (x *extraction) code(n *ts.Node) {
	switch n.Kind() {
	case "function_definition", "function_declaration":
		x.addFunction(n, x.localParent(n.StartByte()), false, "")
		return
	case "class_definition", "trait_definition", "object_definition", "enum_definition":
		x.addType(n, x.localParent(n.StartByte()))
		return
	case "import_declaration":
		x.addImport(n)
		return
	case "annotation", "modifiers", "type_arguments", "type_parameters", "comment", "block_comment":
		return
	}
	if n.Kind() == "instance_expression" {
		if body := lang.FirstNamed(n, "template_body"); body != nil {
			// `new T(args) { ... }`: the construction, then an anonymous
			// subclass of T.
			if !x.symbolsOnly {
				x.newCall(n)
			}
			x.addAnonymous(n, body)
			return
		}
	}
	if x.symbolsOnly {
		x.children(n)
		return
	}
	switch n.Kind() {
	case "identifier":
		if name := x.text(n); name != "this" && name != "super" {
			x.addCall(n, &lang.Expr{Kind: lang.ExprIdent, Name: name}, nil, true)
		}
		return
	case "call_expression":
		x.callExpression(n)
		return
	case "field_expression":
		x.fieldExpression(n, true)
		return
	case "infix_expression":
		x.infixExpression(n)
		return
	case "instance_expression":
		x.instanceExpression(n)
		return
	case "val_definition", "var_definition":
		x.localValue(n)
		return
	case "lambda_expression":
		x.lambda(n)
		return
	case "case_clause":
		x.caseClause(n)
		return
	case "enumerator":
		x.enumerator(n)
		return
	case "interpolated_string_expression":
		// The interpolator (`s"..."`) is no name of the program.
		for _, c := range childrenByKind(n, "interpolated_string") {
			x.code(c)
		}
		return
	case "postfix_expression":
		// `xs toList`: the operand only; the method is not followed.
		if n.NamedChildCount() > 0 {
			x.code(n.NamedChild(0))
		}
		return
	case "assignment_expression":
		if l := n.ChildByFieldName("left"); l != nil && l.Kind() == "field_expression" {
			if v := l.ChildByFieldName("value"); v != nil {
				x.code(v)
			}
		}
		if r := n.ChildByFieldName("right"); r != nil {
			x.code(r)
		}
		return
	}
	if isTypeNode(n) {
		return
	}
	x.children(n)
}

// children reads the code of n's children, a def's detached body as the
// def's.
func (x *extraction) children(n *ts.Node) {
	skipped := x.detachBodies(n)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if !skipped[i] {
			x.code(n.NamedChild(i))
		}
	}
}

// addCall records one call site.
func (x *extraction) addCall(n *ts.Node, callee *lang.Expr, args []*lang.Expr, bare bool) {
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(n.StartByte()), Callee: callee,
		Args: len(args), ArgExprs: args, Line: lang.Line(n), Byte: uint32(n.StartByte()), Bare: bare})
}

// callExpression records `f(a)`, `x.f(a)`, `f[T](a)`, `f { ... }`; of a
// curried call `f(a)(b)` the first list is the call recorded.
func (x *extraction) callExpression(n *ts.Node) {
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return
	}
	for fn.Kind() == "generic_function" && fn.ChildByFieldName("function") != nil {
		fn = fn.ChildByFieldName("function")
	}
	var args []*lang.Expr
	if a := n.ChildByFieldName("arguments"); a != nil {
		args = x.arguments(a)
	}
	switch fn.Kind() {
	case "identifier":
		switch name := x.text(fn); name {
		case "this":
			x.addCall(n, x.selfCallee(n), args, false)
		case "super":
		default:
			x.addCall(n, &lang.Expr{Kind: lang.ExprIdent, Name: name}, args, false)
			x.expectedParameter(name, n.ChildByFieldName("arguments"))
		}
	case "field_expression":
		if callee := x.expr(fn); callee != nil {
			x.addCall(n, callee, args, false)
			x.elementArgument(callee.X, callee.Name, n.ChildByFieldName("arguments"))
		}
		x.fieldExpression(fn, false)
	default:
		x.code(fn)
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) != "function" {
			if c := n.Child(i); c.IsNamed() {
				x.code(c)
			}
		}
	}
}

// selfCallee is what `this(args)` at n calls: another constructor in an
// auxiliary constructor, else the apply of the enclosing class.
func (x *extraction) selfCallee(n *ts.Node) *lang.Expr {
	self := &lang.Expr{Kind: lang.ExprSelf}
	if i := x.callScope(n.StartByte()); i >= 0 && x.facts.Symbols[i].Kind == graph.KindConstructor {
		return self
	}
	return &lang.Expr{Kind: lang.ExprMember, Name: "apply", X: self}
}

// fieldExpression walks `x.f`; when record, `x.f` itself is a call
// written without arguments.
func (x *extraction) fieldExpression(n *ts.Node, record bool) {
	if record {
		if callee := x.expr(n); callee != nil && callee.Kind == lang.ExprMember {
			x.addCall(n, callee, nil, true)
		}
	}
	if v := n.ChildByFieldName("value"); v != nil {
		x.code(v)
	}
}

// infixExpression records `a f b` as a.f(b), and `a :: b` (an operator
// ending in ':') as b.::(a).
func (x *extraction) infixExpression(n *ts.Node) {
	l, op, r := n.ChildByFieldName("left"), n.ChildByFieldName("operator"), n.ChildByFieldName("right")
	if l == nil || op == nil || r == nil {
		return
	}
	name := x.text(op)
	recv, arg := l, r
	if strings.HasSuffix(name, ":") {
		recv, arg = r, l
	}
	if rx := viewed(x.expr(recv), name); rx != nil {
		x.addCall(n, &lang.Expr{Kind: lang.ExprMember, Name: name, X: rx}, []*lang.Expr{x.expr(arg)}, false)
		x.elementArgument(rx, name, arg)
	}
	x.code(l)
	x.code(r)
}

// instanceExpression records `new C(args)` and the calls in its
// arguments.
func (x *extraction) instanceExpression(n *ts.Node) {
	x.newCall(n)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); !isTypeNode(c) {
			x.code(c)
		}
	}
}

// newCall records the constructor call of `new C(args)`, with the calls
// in its arguments.
func (x *extraction) newCall(n *ts.Node) {
	var args []*lang.Expr
	a := n.ChildByFieldName("arguments")
	if a != nil {
		args = x.arguments(a)
	}
	if t := instanceType(n); t != nil {
		x.addCall(n, &lang.Expr{Kind: lang.ExprNew, Name: typeText(x, firstOfCompound(t))}, args, false)
	}
	if a != nil && n.Kind() == "instance_expression" && lang.FirstNamed(n, "template_body") != nil {
		x.code(a)
	}
}

// arguments reads the argument expressions of an argument list; a block
// argument (`f { ... }`) is one argument.
func (x *extraction) arguments(a *ts.Node) []*lang.Expr {
	if a.Kind() != "arguments" {
		return []*lang.Expr{functionArg(a)}
	}
	args := []*lang.Expr{} // `f()`: no arguments, but an argument list
	for i := uint(0); i < a.NamedChildCount(); i++ {
		c := a.NamedChild(i)
		if strings.HasSuffix(c.Kind(), "comment") {
			continue
		}
		if c.Kind() == "assignment_expression" {
			args = append(args, nil) // a named argument
			continue
		}
		args = append(args, x.expr(c))
	}
	return args
}

// functionArg is the argument a block passes when it is a function
// literal (`f { x => ... }`, `f { case ... }`), nil for a block of other
// code (a by-name argument, whose type is the block's value).
func functionArg(b *ts.Node) *lang.Expr {
	if b.Kind() == "case_block" || (b.NamedChildCount() == 1 && b.NamedChild(0).Kind() == "lambda_expression") {
		return &lang.Expr{Kind: lang.ExprLiteral, Name: functionLiteral}
	}
	return nil
}

// functionLiteral names the type of a lambda or a block of cases.
const functionLiteral = "function"
