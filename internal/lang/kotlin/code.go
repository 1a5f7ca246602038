package kotlin

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// addImport reads `import a.b.C`, `import a.b.*` and `import a.b.C as D`.
// Path is the dotted name (the package for a star import), Name the name
// it binds.
func (x *extraction) addImport(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	q := lang.FirstNamed(n, "qualified_identifier", "identifier")
	if q == nil {
		return
	}
	path := strings.Join(strings.Fields(x.text(q)), "")
	imp := lang.Import{Kind: lang.ImportName, Path: path, Name: path[strings.LastIndexByte(path, '.')+1:],
		Line: lang.Line(n), Scope: -1}
	if strings.HasSuffix(strings.TrimSpace(x.text(n)), "*") {
		imp.Kind, imp.Name = lang.ImportWildcard, ""
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "identifier" && c.StartByte() > q.StartByte() {
			imp.Alias, imp.Name = x.text(c), x.text(c)
		}
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}

// callScope is the symbol a call or binding at n belongs to: the
// constructor while its parameters' default values are read, else the
// innermost callable or type around n.
func (x *extraction) callScope(n *ts.Node) int {
	if x.inDefaults {
		return x.defaultsScope
	}
	return x.scopes.CallScope(uint32(n.StartByte()))
}

// code records the calls and local bindings in a piece of code; local
// functions and classes are read as declarations nested in the
// enclosing symbol.
func (x *extraction) code(n *ts.Node, owner int) {
	switch n.Kind() {
	case "function_declaration":
		x.addFunction(n, x.callScope(n), false)
		return
	case "class_declaration", "object_declaration":
		x.addType(n, x.callScope(n))
		return
	}
	if x.symbolsOnly {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			x.code(n.NamedChild(i), owner)
		}
		return
	}
	switch n.Kind() {
	case "call_expression":
		x.addCall(n)
		x.addScopeLambda(n)
	case "when_expression", "if_expression":
		x.addSmartCasts(n)
	case "constructor_invocation":
		if t := lang.FirstNamed(n, "user_type"); t != nil {
			// A supertype's constructor run by the class header.
			var args []*lang.Expr
			if va := lang.FirstNamed(n, "value_arguments"); va != nil {
				args = x.arguments(va)
			}
			x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(n),
				Callee: &lang.Expr{Kind: lang.ExprIdent, Name: lastPart(x.text(t))},
				Args:   len(args), ArgExprs: args, Line: lang.Line(n), Byte: uint32(n.StartByte())})
		}
	case "property_declaration":
		if n.Parent() != nil && n.Parent().Kind() != "class_body" && n.Parent().Kind() != "enum_class_body" && n.Parent().Kind() != "source_file" {
			x.addBinding(n)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i), owner)
	}
}

// addBinding records a local `val`/`var`, visible to the end of its block.
func (x *extraction) addBinding(n *ts.Node) {
	vd := lang.FirstNamed(n, "variable_declaration")
	if vd == nil {
		return
	}
	name := lang.FirstNamed(vd, "identifier")
	if name == nil {
		return
	}
	b := lang.Binding{Scope: x.callScope(n), Name: x.text(name),
		Type: x.typeText(typeChild(vd)), Byte: uint32(n.EndByte()), End: uint32(n.Parent().EndByte())}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() != "modifiers" && c.Kind() != "variable_declaration" {
			b.Value = x.expr(c)
			break
		}
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}

// arguments reads the argument expressions of value_arguments; nil
// stands for an argument whose type the rules cannot know from its
// position (a named argument) or that the extractor does not read.
func (x *extraction) arguments(va *ts.Node) []*lang.Expr {
	var args []*lang.Expr
	for j := uint(0); j < va.NamedChildCount(); j++ {
		a := va.NamedChild(j)
		if a.Kind() != "value_argument" || a.NamedChildCount() == 0 {
			continue
		}
		if a.NamedChildCount() > 1 {
			args = append(args, nil)
			continue
		}
		args = append(args, x.expr(a.NamedChild(0)))
	}
	return args
}

// classConversions are the standard library's properties that turn a
// KClass into a Class and back, and the type they give.
var classConversions = map[string]string{"java": "Class", "javaClass": "Class", "kotlin": "KClass"}

// collectionFactories are the standard library's functions that make
// collections, and the type of what they make: the repository's
// extensions of that type (or of a supertype) are found on the value
// (`val names = mutableListOf<String>()` then `names.toImmutableList()`).
var collectionFactories = map[string]string{
	"listOf": "List", "emptyList": "List", "listOfNotNull": "List",
	"mutableListOf": "MutableList", "arrayListOf": "MutableList",
	"setOf": "Set", "emptySet": "Set",
	"mutableSetOf": "MutableSet", "hashSetOf": "MutableSet", "linkedSetOf": "MutableSet", "sortedSetOf": "MutableSet",
	"mapOf": "Map", "emptyMap": "Map",
	"mutableMapOf": "MutableMap", "hashMapOf": "MutableMap", "linkedMapOf": "MutableMap",
}

// trailingLambdaOf is the lambda the grammar reads as a call of the call
// n (`f(x) { }` is read as (f(x)) { }), or nil.
func trailingLambdaOf(n *ts.Node) *ts.Node {
	parent := n.Parent()
	if parent == nil || parent.Kind() != "call_expression" || parent.NamedChildCount() != 2 {
		return nil
	}
	if first := parent.NamedChild(0); first == nil || first.StartByte() != n.StartByte() || first.EndByte() != n.EndByte() {
		return nil
	}
	if al := parent.NamedChild(1); al.Kind() == "annotated_lambda" {
		return al
	}
	return nil
}

// scopeResult is the value of `apply { }` and `also { }` calls, which
// return their receiver: `x.apply { }` is x and a bare `apply { }` this
// (`fun add(...) = apply { ... }` returns the builder). Nil for other
// calls.
func scopeResult(callee *lang.Expr, call *ts.Node) *lang.Expr {
	if call.NamedChildCount() != 2 || call.NamedChild(1).Kind() != "annotated_lambda" {
		return nil
	}
	switch {
	case callee.Kind == lang.ExprIdent && (callee.Name == "apply" || callee.Name == "also"):
		return &lang.Expr{Kind: lang.ExprSelf}
	case callee.Kind == lang.ExprMember && (callee.Name == "apply" || callee.Name == "also"):
		return callee.X
	}
	return nil
}

// callArguments reads the arguments of a call: its value arguments and
// a trailing lambda (nil: its type is not read).
func (x *extraction) callArguments(n *ts.Node) []*lang.Expr {
	var args []*lang.Expr
	for i := uint(1); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "value_arguments":
			args = append(args, x.arguments(c)...)
		case "annotated_lambda":
			args = append(args, nil)
		}
	}
	return args
}

// addCall records `f()`, `C()`, `x.f()`, `x?.f()`, `this.f()`, `super.f()`.
func (x *extraction) addCall(n *ts.Node) {
	if n.NamedChildCount() == 0 {
		return
	}
	fn := n.NamedChild(0)
	if fn.Kind() == "unary_expression" {
		// The grammar reads `!f()` as (!f)(): the call is of f.
		if a := fn.ChildByFieldName("argument"); a != nil {
			fn = a
		}
	}
	callee := x.expr(fn)
	if callee == nil || (callee.Kind != lang.ExprIdent && callee.Kind != lang.ExprMember) {
		return
	}
	args := x.callArguments(n)
	if trailingLambdaOf(n) != nil {
		args = append(args, nil)
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(n), Callee: callee,
		Args: len(args), ArgExprs: args, Line: lang.Line(n), Byte: uint32(n.StartByte())})
}

// expr reads an expression as far as calls need it.
func (x *extraction) expr(n *ts.Node) *lang.Expr {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "this_expression":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "super_expression":
		return &lang.Expr{Kind: lang.ExprSuper}
	case "navigation_expression":
		if n.NamedChildCount() < 2 {
			return nil
		}
		name := n.NamedChild(n.NamedChildCount() - 1)
		if name.Kind() != "identifier" {
			return nil
		}
		if hasToken(n, "::") {
			// `C::class` is a KClass (a value of that type, the class
			// left out); a reference to a member is no call.
			if x.text(name) == "class" {
				return &lang.Expr{Kind: lang.ExprTypeAssert, Name: "KClass"}
			}
			return nil
		}
		if t, ok := classConversions[x.text(name)]; ok && n.NamedChild(0).Kind() != "this_expression" {
			// `C::class.java` and `k.java` are java.lang.Classes,
			// `c.kotlin` a KClass (properties of the standard library).
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
		recv := x.expr(n.NamedChild(0))
		if recv == nil {
			return nil
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: recv}
	case "call_expression":
		if n.NamedChildCount() == 0 {
			return nil
		}
		if inner := n.NamedChild(0); inner.Kind() == "call_expression" && trailingLambdaOf(inner) != nil {
			// `f(x) { }`: the grammar nests f(x) in a call with the lambda.
			v := x.expr(inner)
			if v != nil && v.Kind == lang.ExprCall {
				v.Args = append(v.Args, nil)
			}
			return v
		}
		f := x.expr(n.NamedChild(0))
		if f == nil {
			return nil
		}
		if v := scopeResult(f, n); v != nil {
			return v
		}
		if t, ok := collectionFactories[f.Name]; ok && f.Kind == lang.ExprIdent {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t}
		}
		return &lang.Expr{Kind: lang.ExprCall, X: f, Args: x.callArguments(n)}
	case "as_expression":
		// `x as T` and `x as? T` are values of type T.
		if t := x.typeText(n.ChildByFieldName("right")); t != "" {
			return &lang.Expr{Kind: lang.ExprTypeAssert, Name: t, X: x.expr(n.ChildByFieldName("left"))}
		}
	case "parenthesized_expression":
		if n.NamedChildCount() > 0 {
			return x.expr(n.NamedChild(0))
		}
	case "spread_expression":
		// `*xs` passes an array's elements to a vararg parameter.
		return &lang.Expr{Kind: lang.ExprLiteral, Name: spreadArgument}
	case "string_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "string"}
	case "number_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "int"}
	case "boolean_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "null_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "null"}
	}
	return nil
}
