package scala

import (
	"strconv"
	"strings"
	"unicode"

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
		if body := firstNamed(n, "template_body"); body != nil {
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
		for i := uint(0); i < n.NamedChildCount(); i++ {
			x.code(n.NamedChild(i))
		}
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
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i))
	}
}

// isTypeNode reports whether n is a written type (no calls in it).
func isTypeNode(n *ts.Node) bool {
	switch n.Kind() {
	case "type_identifier", "generic_type", "stable_type_identifier", "compound_type", "function_type",
		"tuple_type", "infix_type", "projected_type", "singleton_type", "annotated_type", "structural_type":
		return true
	}
	return false
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
			x.addCall(n, &lang.Expr{Kind: lang.ExprSelf}, args, false)
		case "super":
		default:
			x.addCall(n, &lang.Expr{Kind: lang.ExprIdent, Name: name}, args, false)
		}
	case "field_expression":
		if callee := x.expr(fn); callee != nil {
			x.addCall(n, callee, args, false)
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
	if rx := x.expr(recv); rx != nil {
		x.addCall(n, &lang.Expr{Kind: lang.ExprMember, Name: name, X: rx}, []*lang.Expr{x.expr(arg)}, false)
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
	if a != nil && n.Kind() == "instance_expression" && firstNamed(n, "template_body") != nil {
		x.code(a)
	}
}

// firstOfCompound is the first type of `A with B`, else t.
func firstOfCompound(t *ts.Node) *ts.Node {
	if t.Kind() == "compound_type" && t.NamedChildCount() > 0 {
		return t.NamedChild(0)
	}
	return t
}

// addAnonymous adds the anonymous class of `new T(args) { ... }`: a Class
// named after the enclosing type and a number (`Outer$1`, Qual
// "Outer.$1"), whose bases are the types written, and its members.
func (x *extraction) addAnonymous(n, body *ts.Node) {
	parent := x.callScope(body.StartByte())
	encl := parent
	for encl >= 0 && !x.facts.Symbols[encl].Kind.IsType() {
		encl = x.facts.Symbols[encl].Parent
	}
	x.anonCount[encl]++
	num := strconv.Itoa(x.anonCount[encl])
	name, qual := "$"+num, "$"+num
	if encl >= 0 {
		name = x.facts.Symbols[encl].Name + "$" + num
		qual = x.facts.Symbols[encl].Qual + ".$" + num
	}
	s := lang.Symbol{Kind: graph.KindClass, Name: name, Qual: qual, Parent: parent, Span: lang.SpanOf(body),
		Signature: lang.OneLine(string(x.src[n.StartByte():body.StartByte()])), Content: lang.Content(x.src, lang.SpanOf(body))}
	if t := instanceType(n); t != nil {
		types := []*ts.Node{t}
		if t.Kind() == "compound_type" {
			types = childrenByKind(t, "type_identifier", "generic_type", "stable_type_identifier")
		}
		for i, bt := range types {
			k := lang.BaseExtends
			if i > 0 {
				k = lang.BaseImplements
			}
			s.Bases = append(s.Bases, lang.Base{Type: typeText(x, bt), Kind: k})
		}
	}
	idx := x.add(s)
	x.declarations(body, idx, false)
}

// instanceType is the type a `new` constructs.
func instanceType(n *ts.Node) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); isTypeNode(c) {
			return c
		}
	}
	return nil
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

// localValue records a local `val`/`var` (its names visible to the end of
// the enclosing block) and the calls of its value.
func (x *extraction) localValue(n *ts.Node) {
	value := n.ChildByFieldName("value")
	end := n.EndByte()
	if p := n.Parent(); p != nil {
		end = p.EndByte()
	}
	if pat := n.ChildByFieldName("pattern"); pat != nil {
		if pat.Kind() == "identifier" {
			b := lang.Binding{Scope: x.callScope(n.StartByte()), Name: x.text(pat),
				Type: typeText(x, n.ChildByFieldName("type")), Byte: uint32(n.EndByte()), End: uint32(end)}
			if value != nil {
				b.Value = x.expr(value)
			}
			x.facts.Bindings = append(x.facts.Bindings, b)
		} else {
			x.bindPattern(pat, uint32(n.EndByte()), uint32(end))
		}
	}
	if value != nil {
		x.code(value)
	}
}

// bindPattern records the variables a pattern binds, without a type
// unless the pattern says it (`c: Circle`), visible from start to end.
func (x *extraction) bindPattern(pat *ts.Node, start, end uint32) {
	scope := x.callScope(pat.StartByte())
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		switch n.Kind() {
		case "identifier":
			if name := x.text(n); name != "" && !unicode.IsUpper([]rune(name)[0]) {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: name, Byte: start, End: end})
			}
			return
		case "typed_pattern":
			if p, t := n.ChildByFieldName("pattern"), n.ChildByFieldName("type"); p != nil && p.Kind() == "identifier" {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: x.text(p),
					Type: typeText(x, t), Byte: start, End: end})
				return
			}
		case "binding":
			if p := n.ChildByFieldName("name"); p != nil {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: x.text(p),
					Type: typeText(x, n.ChildByFieldName("type")), Byte: start, End: end})
				return
			}
		case "stable_identifier", "field_expression", "type_identifier", "generic_type", "stable_type_identifier":
			return
		}
		if isTypeNode(n) {
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(pat)
}

// lambda binds a lambda's parameters inside it and walks its body.
func (x *extraction) lambda(n *ts.Node) {
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		x.bindPattern(ps, uint32(n.StartByte()), uint32(n.EndByte()))
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) != "parameters" {
			if c := n.Child(i); c.IsNamed() {
				x.code(c)
			}
		}
	}
}

// caseClause binds the variables of a case pattern inside the clause.
func (x *extraction) caseClause(n *ts.Node) {
	if p := n.ChildByFieldName("pattern"); p != nil {
		x.bindPattern(p, uint32(n.StartByte()), uint32(n.EndByte()))
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) != "pattern" {
			if c := n.Child(i); c.IsNamed() {
				x.code(c)
			}
		}
	}
}

// enumerator binds the pattern of `p <- xs` or `p = e` in a for
// expression to its end.
func (x *extraction) enumerator(n *ts.Node) {
	end := n.EndByte()
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "for_expression" {
			end = p.EndByte()
			break
		}
	}
	first := true
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if first && (hasToken(n, "<-") || hasToken(n, "=")) {
			x.bindPattern(c, uint32(n.StartByte()), uint32(end))
			first = false
			continue
		}
		first = false
		x.code(c)
	}
}

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
	case "infix_expression":
		// `a op b` is a.op(b); an operator ending in ':' is b.op(a).
		l, op, r := n.ChildByFieldName("left"), n.ChildByFieldName("operator"), n.ChildByFieldName("right")
		if l == nil || op == nil || r == nil {
			return nil
		}
		if strings.HasSuffix(x.text(op), ":") {
			l, r = r, l
		}
		recv := x.expr(l)
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

// addImport reads an import clause: `import a.b.C`, `import a.b._`,
// `import a.b.*`, `import a.b.{C, D => E, F as G, _}` and several
// comma-separated clauses. Path is the dotted name (the package or object
// for a wildcard), Name the name bound.
func (x *extraction) addImport(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	var path []string
	flush := func(last *ts.Node) {
		defer func() { path = nil }()
		base := strings.Join(path, ".")
		switch {
		case last == nil:
			if len(path) < 2 {
				return
			}
			base = strings.Join(path[:len(path)-1], ".")
			x.importName(n, base, path[len(path)-1], "")
		case last.Kind() == "as_renamed_identifier" || last.Kind() == "arrow_renamed_identifier":
			name, alias := last.ChildByFieldName("name"), last.ChildByFieldName("alias")
			if name != nil && alias != nil && x.text(alias) != "_" {
				x.importName(n, base, x.text(name), x.text(alias))
			}
		case last.Kind() == "namespace_wildcard" && x.text(last) == "given":
			// `import a.O.given`: the given instances only.
		case last.Kind() == "namespace_wildcard":
			x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard, Path: base,
				Line: lang.Line(n), Scope: -1})
		case last.Kind() == "namespace_selectors":
			for i := uint(0); i < last.NamedChildCount(); i++ {
				sel := last.NamedChild(i)
				switch sel.Kind() {
				case "identifier":
					x.importName(n, base, x.text(sel), "")
				case "arrow_renamed_identifier", "as_renamed_identifier":
					name, alias := sel.ChildByFieldName("name"), sel.ChildByFieldName("alias")
					if name != nil && alias != nil && x.text(alias) != "_" {
						x.importName(n, base, x.text(name), x.text(alias))
					}
				case "namespace_wildcard":
					if x.text(sel) == "given" {
						continue
					}
					x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard, Path: base,
						Line: lang.Line(n), Scope: -1})
				}
			}
		}
	}
	var last *ts.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch {
		case !c.IsNamed() && c.Kind() == ",":
			flush(last)
			last = nil
		case c.Kind() == "identifier" && n.FieldNameForChild(uint32(i)) == "path":
			path = append(path, x.text(c))
		case c.Kind() == "namespace_wildcard" || c.Kind() == "namespace_selectors" ||
			c.Kind() == "as_renamed_identifier" || c.Kind() == "arrow_renamed_identifier":
			last = c
		}
	}
	flush(last)
}

// importName records the import of one name of base under alias.
func (x *extraction) importName(n *ts.Node, base, name, alias string) {
	if base == "" || name == "" {
		return
	}
	imp := lang.Import{Kind: lang.ImportName, Path: base + "." + name, Name: name, Line: lang.Line(n), Scope: -1}
	if alias != "" {
		imp.Alias, imp.Name = alias, alias
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}
