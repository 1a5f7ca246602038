package php

import (
	"path"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Imports of `use function` and `use const` are marked Static; plain
// class (or namespace) imports are not. Path is the dotted fully
// qualified name, Name the alias it binds.

// useKind is "function", "const" or "" (classes) for a use declaration or
// clause.
func useKind(n *ts.Node) string {
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() {
			switch c.Kind() {
			case "function", "const":
				return c.Kind()
			}
		}
	}
	return ""
}

// addUse reads `use A\B;`, `use A\B as C;`, `use A\{B, C as D};`,
// `use function A\f;` and `use const A\X;`.
func (x *extraction) addUse(n *ts.Node) {
	kind := useKind(n)
	prefix := ""
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "namespace_name":
			prefix, _ = dotted(x.text(c))
		case "namespace_use_clause":
			k := kind
			if ck := useKind(c); ck != "" {
				k = ck
			}
			x.useClause(c, "", k)
		case "namespace_use_group":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if cl := c.NamedChild(j); cl.Kind() == "namespace_use_clause" {
					k := kind
					if ck := useKind(cl); ck != "" {
						k = ck
					}
					x.useClause(cl, prefix, k)
				}
			}
		}
	}
}

func (x *extraction) useClause(n *ts.Node, prefix, kind string) {
	var target, alias string
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if !c.IsNamed() {
			continue
		}
		if n.FieldNameForChild(uint32(i)) == "alias" {
			alias = x.text(c)
			continue
		}
		if c.Kind() == "name" || c.Kind() == "qualified_name" {
			target, _ = dotted(x.text(c))
		}
	}
	if target == "" {
		return
	}
	if prefix != "" {
		target = prefix + "." + target
	}
	if alias == "" {
		alias = target[strings.LastIndexByte(target, '.')+1:]
	}
	switch kind {
	case "function":
		x.names.functions[strings.ToLower(alias)] = target
	case "const":
		x.names.consts[alias] = target
	default:
		x.names.classes[strings.ToLower(alias)] = target
	}
	if !x.symbolsOnly {
		x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportName, Path: target, Name: alias,
			Line: lang.Line(n), Static: kind != "", Scope: -1})
	}
}

// code records the calls, bindings, requires and define() constants in a
// piece of code. Functions and classes declared inside code (conditional
// declarations, functions declared in functions) are global in PHP and
// read as such; inside a function body they are read after the body
// (body), so that the calls around them stay the function's.
func (x *extraction) code(n *ts.Node) {
	switch n.Kind() {
	case "function_definition", "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		if x.inBody {
			x.deferred = append(x.deferred, n)
		} else {
			x.statement(n, -1)
		}
		return
	}
	if n.Kind() == "anonymous_class" {
		// An anonymous class is no node: calls in its methods belong to
		// the enclosing symbol, and $this, self, static and parent in
		// them name a class that has none, so they are not followed.
		x.anon++
		x.codeChildren(n)
		x.anon--
		return
	}
	if x.symbolsOnly {
		if n.Kind() == "function_call_expression" {
			x.functionCall(n)
		}
		x.codeChildren(n)
		return
	}
	switch n.Kind() {
	case "function_call_expression":
		x.functionCall(n)
	case "member_call_expression", "nullsafe_member_call_expression":
		if obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name"); obj != nil && name != nil && name.Kind() == "name" {
			x.addCall(n, &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: x.receiver(obj)})
		}
	case "scoped_call_expression":
		if scope, name := n.ChildByFieldName("scope"), n.ChildByFieldName("name"); scope != nil && name != nil && name.Kind() == "name" {
			if recv := x.scopeExpr(scope); recv != nil {
				x.addCall(n, &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: recv})
			}
		}
	case "object_creation_expression":
		if e := x.expr(n); e != nil && e.Kind == lang.ExprNew {
			x.addCall(n, e)
		}
	case "assignment_expression":
		x.assignment(n)
	case "foreach_statement":
		x.foreach(n)
	case "if_statement":
		x.narrow(n)
	case "anonymous_function", "arrow_function":
		x.closureParams(n)
	case "catch_clause":
		x.caught(n)
	case "class_constant_access_expression", "scoped_property_access_expression":
		x.addRef(n)
	case "require_expression", "require_once_expression", "include_expression", "include_once_expression":
		x.addRequire(n)
	}
	x.codeChildren(n)
}

func (x *extraction) codeChildren(n *ts.Node) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i))
	}
}

// functionCall records `f()`, `A\f()`, `\f()`, and reads `define('X', v)`
// at file level as a constant.
func (x *extraction) functionCall(n *ts.Node) {
	fn := n.ChildByFieldName("function")
	if fn == nil || (fn.Kind() != "name" && fn.Kind() != "qualified_name") {
		return
	}
	name, unqualified := x.names.function(x.text(fn))
	if unqualified && strings.EqualFold(name, "define") {
		x.addDefine(n)
		return
	}
	if !x.symbolsOnly {
		x.addCall(n, pathExpr(name))
	}
}

func (x *extraction) addCall(n *ts.Node, callee *lang.Expr) {
	pos := uint32(n.StartByte())
	var args []*lang.Expr
	if a := n.ChildByFieldName("arguments"); a != nil {
		for i := uint(0); i < a.NamedChildCount(); i++ {
			if arg := a.NamedChild(i); arg.Kind() == "argument" {
				var e *lang.Expr
				if arg.NamedChildCount() > 0 {
					e = x.expr(arg.NamedChild(arg.NamedChildCount() - 1))
				}
				args = append(args, e)
			}
		}
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.scopes.CallScope(pos), Callee: callee,
		Args: len(args), Line: lang.Line(n), Byte: pos, ArgExprs: args})
}

// scopeExpr is the receiver of `X::m()`: self is the class itself (bound
// where it is written: no dispatch), static the class of the object at
// run time (late static binding: dispatch to overrides), parent the
// parent class, a name the class it resolves to.
func (x *extraction) scopeExpr(n *ts.Node) *lang.Expr {
	switch n.Kind() {
	case "relative_scope":
		if x.anon > 0 {
			return nil
		}
		switch strings.ToLower(x.text(n)) {
		case "parent":
			return &lang.Expr{Kind: lang.ExprSuper}
		case "self":
			if x.class != "" {
				return pathExpr(x.class)
			}
			return nil
		default:
			return &lang.Expr{Kind: lang.ExprSelf}
		}
	case "name", "qualified_name":
		if c := x.names.class(x.text(n)); c != "" {
			return pathExpr(c)
		}
	}
	return nil
}

// expr converts an expression to the resolver's small expression tree;
// nil for what it does not follow.
func (x *extraction) expr(n *ts.Node) *lang.Expr {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "variable_name":
		if x.text(n) == "$this" {
			if x.anon > 0 {
				return &lang.Expr{Kind: lang.ExprUnknown}
			}
			return &lang.Expr{Kind: lang.ExprSelf}
		}
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0))
		}
	case "object_creation_expression":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "name" || c.Kind() == "qualified_name" {
				if t := x.className(x.text(c)); t != "" {
					return &lang.Expr{Kind: lang.ExprNew, Name: t}
				}
				return nil
			}
		}
	case "function_call_expression":
		if fn := n.ChildByFieldName("function"); fn != nil && (fn.Kind() == "name" || fn.Kind() == "qualified_name") {
			name, _ := x.names.function(x.text(fn))
			return &lang.Expr{Kind: lang.ExprCall, X: pathExpr(name)}
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		if obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name"); obj != nil && name != nil && name.Kind() == "name" {
			return &lang.Expr{Kind: lang.ExprCall, X: &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: x.receiver(obj)}}
		}
	case "scoped_call_expression":
		if scope, name := n.ChildByFieldName("scope"), n.ChildByFieldName("name"); scope != nil && name != nil && name.Kind() == "name" {
			if recv := x.scopeExpr(scope); recv != nil {
				return &lang.Expr{Kind: lang.ExprCall, X: &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: recv}}
			}
		}
	case "member_access_expression", "nullsafe_member_access_expression":
		if obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name"); obj != nil && name != nil && name.Kind() == "name" {
			return &lang.Expr{Kind: lang.ExprMember, Name: x.text(name), X: x.receiver(obj)}
		}
	case "string", "encapsed_string", "heredoc", "nowdoc":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "string"}
	case "integer":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "int"}
	case "float":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "float"}
	case "boolean":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "null":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "null"}
	case "array_creation_expression":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "list"}
	}
	return nil
}

// assignment records `$x = value` as a local binding and `$this->p =
// value` as a binding of property p.
func (x *extraction) assignment(n *ts.Node) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || right == nil {
		return
	}
	pos := uint32(n.StartByte())
	scope := x.scopes.CallScope(pos)
	value := x.expr(right)
	switch left.Kind() {
	case "variable_name":
		if name := x.text(left); name != "$this" {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Value: value, Byte: pos})
		}
	case "member_access_expression":
		obj, name := left.ChildByFieldName("object"), left.ChildByFieldName("name")
		if obj != nil && name != nil && x.anon == 0 && x.text(obj) == "$this" && name.Kind() == "name" {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: x.text(name), Value: value,
				Field: true, Byte: pos})
		}
	}
}

// addRequire records `require 'path'`, `include __DIR__ . '/path'` and
// the like whose path is a literal, as an import of that file: a path
// relative to the file's directory ("dir:" prefix) or as written.
func (x *extraction) addRequire(n *ts.Node) {
	if n.NamedChildCount() == 0 {
		return
	}
	arg := n.NamedChild(0)
	for arg.Kind() == "parenthesized_expression" && arg.NamedChildCount() == 1 {
		arg = arg.NamedChild(0)
	}
	p := ""
	switch arg.Kind() {
	case "string", "encapsed_string":
		s, ok := literal(arg, x.src)
		if !ok {
			return
		}
		p = s
	case "binary_expression":
		l, r := arg.ChildByFieldName("left"), arg.ChildByFieldName("right")
		if l == nil || r == nil || x.text(l) != "__DIR__" {
			return
		}
		s, ok := literal(r, x.src)
		if !ok {
			return
		}
		p = path.Join(path.Dir(x.facts.Path), s)
	default:
		return
	}
	x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportSideEffect, Path: p, Line: lang.Line(n), Scope: -1})
}

// literal returns the text of a string without interpolation.
func literal(n *ts.Node, src []byte) (string, bool) {
	if n.Kind() != "string" && n.Kind() != "encapsed_string" {
		return "", false
	}
	var b strings.Builder
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "string_content" {
			return "", false
		}
		b.WriteString(lang.Text(c, src))
	}
	return b.String(), true
}

// addDefine reads `define('NAME', value)` at file level as a Const.
func (x *extraction) addDefine(n *ts.Node) {
	pos := uint32(n.StartByte())
	a := n.ChildByFieldName("arguments")
	if a == nil || a.NamedChildCount() == 0 || x.scopes.CallScope(pos) >= 0 {
		return
	}
	first := a.NamedChild(0)
	if first.NamedChildCount() == 0 {
		return
	}
	name, ok := literal(first.NamedChild(0), x.src)
	if !ok || name == "" || strings.ContainsAny(name, " \\") {
		return
	}
	x.add(lang.Symbol{Kind: graph.KindConst, Name: name, Parent: -1, Span: lang.SpanOf(n),
		Signature: lang.OneLine(x.text(n)), Exported: true, Static: true})
}

// body reads the body of a function or method, then the declarations
// nested in it.
func (x *extraction) body(n *ts.Node) {
	outer, outerIn := x.deferred, x.inBody
	x.deferred, x.inBody = nil, true
	x.code(n)
	nested := x.deferred
	x.deferred, x.inBody = outer, outerIn
	for _, d := range nested {
		x.statement(d, -1)
	}
}

// receiver is the expression a member is read off; a receiver the
// resolver does not follow is unknown (never absent).
func (x *extraction) receiver(n *ts.Node) *lang.Expr {
	if e := x.expr(n); e != nil {
		return e
	}
	return &lang.Expr{Kind: lang.ExprUnknown}
}

// foreach records `foreach ($xs as $x)` and `foreach ($xs as $k => $x)`:
// $x is an element of $xs.
func (x *extraction) foreach(n *ts.Node) {
	if n.NamedChildCount() < 2 {
		return
	}
	list, v := n.NamedChild(0), n.NamedChild(1)
	if v.Kind() == "pair" && v.NamedChildCount() == 2 {
		v = v.NamedChild(1)
	}
	if v.Kind() == "by_ref" && v.NamedChildCount() == 1 {
		v = v.NamedChild(0)
	}
	if v.Kind() != "variable_name" {
		return
	}
	value := x.expr(list)
	if value == nil {
		return
	}
	pos := uint32(n.StartByte())
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.scopes.CallScope(pos), Name: x.text(v),
		Value: value, Elem: true, Byte: pos})
}

// narrow records `if ($x instanceof C) { ... }`: in the body, $x is a C.
func (x *extraction) narrow(n *ts.Node) {
	cond, body := n.ChildByFieldName("condition"), n.ChildByFieldName("body")
	if cond == nil || body == nil {
		return
	}
	for cond.Kind() == "parenthesized_expression" && cond.NamedChildCount() == 1 {
		cond = cond.NamedChild(0)
	}
	if cond.Kind() != "binary_expression" {
		return
	}
	op := cond.ChildByFieldName("operator")
	left, right := cond.ChildByFieldName("left"), cond.ChildByFieldName("right")
	if op == nil || !strings.EqualFold(x.text(op), "instanceof") || left == nil || right == nil ||
		left.Kind() != "variable_name" || (right.Kind() != "name" && right.Kind() != "qualified_name") {
		return
	}
	class := x.className(x.text(right))
	if class == "" || x.text(left) == "$this" {
		return
	}
	pos := uint32(body.StartByte())
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.scopes.CallScope(pos), Name: x.text(left),
		Value: &lang.Expr{Kind: lang.ExprTypeAssert, Name: class}, Byte: pos, End: uint32(body.EndByte())})
}

// closureParams records the parameters of a closure or arrow function as
// bindings inside it: they hide the enclosing function's variables of the
// same name, typed by their declared type or not at all.
func (x *extraction) closureParams(n *ts.Node) {
	params, _ := x.parameters(n)
	pos := uint32(n.StartByte())
	for _, p := range params {
		b := lang.Binding{Scope: x.scopes.CallScope(pos), Name: p.Name, Type: p.Type, Byte: pos, End: uint32(n.EndByte())}
		if b.Type == "" {
			b.Value = &lang.Expr{Kind: lang.ExprUnknown}
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// caught records `catch (E $e)`: in the handler, $e is an E (of several
// types, nothing).
func (x *extraction) caught(n *ts.Node) {
	name, body := n.ChildByFieldName("name"), n.ChildByFieldName("body")
	if name == nil || body == nil {
		return
	}
	pos := uint32(body.StartByte())
	b := lang.Binding{Scope: x.scopes.CallScope(pos), Name: x.text(name), Byte: pos, End: uint32(body.EndByte()),
		Value: &lang.Expr{Kind: lang.ExprUnknown}}
	if t := n.ChildByFieldName("type"); t != nil && t.NamedChildCount() == 1 {
		if c := x.typeName(t.NamedChild(0)); c != "" {
			b.Type, b.Value = c, nil
		}
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}
