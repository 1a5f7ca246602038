package golang

import (
	"fmt"
	"hash/fnv"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records calls and local bindings, each attributed to the
// innermost enclosing callable.
func (x *extraction) readUses(q *lang.Query, matches []lang.Match) {
	var (
		cCall       = q.Capture("call")
		cCallee     = q.Capture("callee")
		cArgs       = q.Capture("args")
		cConversion = q.Capture("conversion")
		cShort      = q.Capture("short")
		cLeft       = q.Capture("left")
		cRight      = q.Capture("right")
		cVar        = q.Capture("localvar")
		cRange      = q.Capture("range")
		cTypeSwitch = q.Capture("typeswitch")
		cFuncLit    = q.Capture("funclit")
		cParams     = q.Capture("params")
		cAssign     = q.Capture("assign")
		cReturn     = q.Capture("return")
		cResults    = q.Capture("results")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cCall) != nil:
			x.addCall(m.Node(cCall), m.Node(cCallee), m.Node(cArgs))
		case m.Node(cConversion) != nil:
			x.addCall(m.Node(cConversion), m.Node(cCallee), nil)
		case m.Node(cShort) != nil:
			n := m.Node(cShort)
			x.bindAssign(n, m.Node(cLeft), m.Node(cRight), "", uint32(n.EndByte()))
		case m.Node(cVar) != nil:
			x.bindVarSpec(m.Node(cVar))
		case m.Node(cRange) != nil:
			x.bindRange(m.Node(cRange), m.Node(cLeft), m.Node(cRight))
		case m.Node(cTypeSwitch) != nil:
			x.bindTypeSwitch(m.Node(cTypeSwitch))
		case m.Node(cFuncLit) != nil:
			x.bindFuncLit(m.Node(cFuncLit), m.Node(cParams))
		case m.Node(cAssign) != nil:
			x.storeFields(m.Node(cAssign), m.Node(cLeft), m.Node(cRight))
		case m.Node(cReturn) != nil:
			x.storeReturned(m.Node(cReturn), m.Node(cResults))
		}
	}
}

// addCall records a call; args is its argument list, nil for a conversion
// (one operand).
func (x *extraction) addCall(call, callee, args *ts.Node) {
	e := x.expr(callee, 0)
	switch e.Kind {
	case lang.ExprIdent, lang.ExprMember, lang.ExprIndex:
	default:
		return // calls of literals, results and conversions have no name to resolve
	}
	pos := uint32(call.StartByte())
	scope := x.scopes.CallScope(pos)
	x.markReceiver(scope, e)
	n, argExprs := 1, []*lang.Expr(nil)
	if args != nil {
		n = int(args.NamedChildCount())
		argExprs = x.argExprs(args, scope)
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope: scope, Callee: e, Args: n,
		Line: lang.Line(callee), Byte: pos, ArgExprs: argExprs,
	})
}

// markReceiver rewrites a use of the enclosing method's receiver at the
// root of a callee (`s.x.Run()` in a method of s) into ExprSelf, so that
// such calls resolve, and are reported, as calls through the receiver.
func (x *extraction) markReceiver(scope int, e *lang.Expr) {
	if scope < 0 {
		return
	}
	recv, ok := x.receivers[scope]
	if !ok {
		return
	}
	for e.X != nil && (e.Kind == lang.ExprMember || e.Kind == lang.ExprCall || e.Kind == lang.ExprIndex) {
		if e.X.Kind == lang.ExprIdent {
			if e.X.Name == recv {
				e.X = &lang.Expr{Kind: lang.ExprSelf}
			}
			return
		}
		e = e.X
	}
}

// localScope is the innermost callable containing n, or -1 at file level
// (package-level declarations are symbols, not bindings).
func (x *extraction) localScope(n *ts.Node) int {
	return x.scopes.Innermost(uint32(n.StartByte()), func(s *lang.Symbol) bool { return s.Kind.IsCallable() })
}

// bindAssign binds the names on the left to the values on the right:
// pairwise, or each to its position in one multi-valued right side.
func (x *extraction) bindAssign(stmt, left, right *ts.Node, typ string, visibleFrom uint32) {
	scope := x.localScope(stmt)
	if scope < 0 {
		return
	}
	c := stmt.Walk()
	defer c.Close()
	var names, values []ts.Node
	if left != nil {
		names = left.NamedChildren(c)
	}
	if right != nil {
		if right.Kind() == "expression_list" {
			values = right.NamedChildren(c)
		} else {
			values = []ts.Node{*right} // `v := <-ch` in a select case
		}
	}
	for i := range names {
		if names[i].Kind() != "identifier" {
			continue
		}
		name := x.text(&names[i])
		if name == "_" {
			continue
		}
		b := lang.Binding{Scope: scope, Name: name, Type: typ, Byte: visibleFrom}
		switch {
		case typ != "":
		case len(values) == len(names):
			b.Value = x.expr(&values[i], 0)
		case len(values) == 1:
			b.Value = x.expr(&values[0], 0)
			b.Index = i
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

func (x *extraction) bindVarSpec(n *ts.Node) {
	if x.localScope(n) < 0 {
		return
	}
	c := n.Walk()
	defer c.Close()
	names := n.ChildrenByFieldName("name", c)
	typ := lang.OneLine(x.text(n.ChildByFieldName("type")))
	var values []ts.Node
	if v := n.ChildByFieldName("value"); v != nil {
		values = v.NamedChildren(c)
	}
	scope := x.localScope(n)
	for i := range names {
		name := x.text(&names[i])
		if name == "_" {
			continue
		}
		b := lang.Binding{Scope: scope, Name: name, Type: typ, Byte: uint32(n.EndByte())}
		if typ == "" {
			switch {
			case len(values) == len(names):
				b.Value = x.expr(&values[i], 0)
			case len(values) == 1:
				b.Value = x.expr(&values[0], 0)
				b.Index = i
			}
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// bindRange binds the value variable of `for k, v := range xs` to an element
// of xs. The key of a slice is an int and of a map rarely has methods.
func (x *extraction) bindRange(n, left, right *ts.Node) {
	scope := x.localScope(n)
	if scope < 0 || left == nil || right == nil {
		return
	}
	if left.NamedChildCount() != 2 {
		return
	}
	v := left.NamedChild(1)
	name := x.text(v)
	if v.Kind() != "identifier" || name == "_" {
		return
	}
	loop := n.Parent()
	if loop == nil {
		loop = n
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
		Scope: scope, Name: name, Value: x.expr(right, 0), Elem: true,
		Byte: uint32(n.StartByte()), End: uint32(loop.EndByte()),
	})
}

// bindTypeSwitch gives `v` in `switch v := x.(type)` the case's type inside
// each single-type case, and x's type elsewhere.
func (x *extraction) bindTypeSwitch(n *ts.Node) {
	scope := x.localScope(n)
	alias := n.ChildByFieldName("alias")
	if scope < 0 || alias == nil || alias.NamedChildCount() != 1 {
		return
	}
	name := x.text(alias.NamedChild(0))
	if name == "_" {
		return
	}
	value := x.expr(n.ChildByFieldName("value"), 0)
	c := n.Walk()
	defer c.Close()
	for _, cl := range n.NamedChildren(c) {
		if cl.Kind() != "type_case" && cl.Kind() != "default_case" {
			continue
		}
		b := lang.Binding{Scope: scope, Name: name, Byte: uint32(cl.StartByte()), End: uint32(cl.EndByte())}
		types := cl.ChildrenByFieldName("type", c)
		if len(types) == 1 && types[0].Kind() != "nil" {
			b.Type = lang.OneLine(x.text(&types[0]))
		} else {
			b.Value = value
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// bindFuncLit binds the parameters of a function literal inside it.
func (x *extraction) bindFuncLit(lit, params *ts.Node) {
	scope := x.localScope(lit)
	if scope < 0 {
		return
	}
	for _, p := range x.params(params) {
		if p.Name == "" || p.Name == "_" {
			continue
		}
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: p.Name, Type: p.Type,
			Byte: uint32(lit.StartByte()), End: uint32(lit.EndByte()),
		})
	}
}

// expr converts an expression node into the resolver's expression tree.
func (x *extraction) expr(n *ts.Node, depth int) *lang.Expr {
	if n == nil || depth > 16 {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier", "type_identifier", "package_identifier", "field_identifier":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "selector_expression":
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(n.ChildByFieldName("field")),
			X: x.expr(n.ChildByFieldName("operand"), depth+1)}
	case "qualified_type":
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(n.ChildByFieldName("name")),
			X: &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n.ChildByFieldName("package"))}}
	case "call_expression":
		if t := x.newOperand(n); t != nil {
			// new(T) is a *T, read like the literal &T{}.
			return &lang.Expr{Kind: lang.ExprComposite, Name: x.compositeType(t)}
		}
		return &lang.Expr{Kind: lang.ExprCall, X: x.expr(n.ChildByFieldName("function"), depth+1)}
	case "type_conversion_expression":
		t := n.ChildByFieldName("type")
		if t != nil && t.Kind() == "generic_type" {
			return &lang.Expr{Kind: lang.ExprCall, X: x.expr(t, depth+1)}
		}
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: lang.OneLine(x.text(t))}
	case "generic_type":
		return x.expr(n.ChildByFieldName("type"), depth+1)
	case "index_expression":
		return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(n.ChildByFieldName("operand"), depth+1)}
	case "type_assertion_expression":
		return &lang.Expr{Kind: lang.ExprTypeAssert, Name: lang.OneLine(x.text(n.ChildByFieldName("type")))}
	case "composite_literal":
		return &lang.Expr{Kind: lang.ExprComposite, Name: x.compositeType(n.ChildByFieldName("type")),
			Args: x.literalFields(n.ChildByFieldName("type"), n.ChildByFieldName("body"), 0)}
	case "unary_expression":
		operand := n.ChildByFieldName("operand")
		switch x.text(n.ChildByFieldName("operator")) {
		case "&", "*":
			return x.expr(operand, depth+1)
		case "<-":
			return &lang.Expr{Kind: lang.ExprIndex, X: x.expr(operand, depth+1)}
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0), depth+1)
		}
	case "interpreted_string_literal", "raw_string_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "string"}
	case "int_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "int"}
	case "float_literal":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "float64"}
	case "true", "false":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "bool"}
	case "nil":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "nil"}
	}
	return &lang.Expr{}
}

// newOperand is the type operand of a call of the builtin new, or nil when
// the call is something else. A local function named new is rare enough
// not to be looked for.
func (x *extraction) newOperand(call *ts.Node) *ts.Node {
	fn := call.ChildByFieldName("function")
	args := call.ChildByFieldName("arguments")
	if fn == nil || args == nil || fn.Kind() != "identifier" || x.text(fn) != "new" || args.NamedChildCount() != 1 {
		return nil
	}
	return args.NamedChild(0)
}

// anonStruct is an anonymous struct type met in a composite literal,
// waiting to become a hidden symbol once all uses are read.
type anonStruct struct {
	name   string
	node   ts.Node
	parent int
}

// compositeType is the type of a composite literal as the resolver reads
// it. An anonymous struct type (`[]struct{ name string; fn Func }{...}`, the
// table of a table-driven test) is replaced by the name of a hidden Struct
// symbol holding its fields, so that `for _, tt := range tests {
// tt.fn.Run() }` resolves.
func (x *extraction) compositeType(t *ts.Node) string {
	if t == nil {
		return ""
	}
	prefix := ""
	for cur := t; cur != nil; {
		switch cur.Kind() {
		case "slice_type":
			prefix += "[]"
			cur = cur.ChildByFieldName("element")
		case "array_type", "implicit_length_array_type":
			prefix += "[]"
			cur = cur.ChildByFieldName("element")
		case "map_type":
			prefix += "map[_]"
			cur = cur.ChildByFieldName("value")
		case "pointer_type":
			prefix += "*"
			cur = cur.NamedChild(0)
		case "struct_type":
			return prefix + x.anonStructName(cur)
		default:
			cur = nil
		}
	}
	return lang.OneLine(x.text(t))
}

func (x *extraction) anonStructName(st *ts.Node) string {
	start := uint32(st.StartByte())
	for _, a := range x.anon {
		if uint32(a.node.StartByte()) == start {
			return a.name
		}
	}
	h := fnv.New32a()
	h.Write([]byte(x.facts.Path))
	name := fmt.Sprintf("anonStruct_%d_%x", start, h.Sum32())
	x.anon = append(x.anon, anonStruct{name: name, node: *st, parent: x.localScope(st)})
	return name
}

// addAnonStructs turns the anonymous struct types into hidden symbols with
// their fields, after every use has been attributed to its scope.
func (x *extraction) addAnonStructs() {
	for _, a := range x.anon {
		sp := lang.SpanOf(&a.node)
		idx := x.add(lang.Symbol{Kind: graph.KindStruct, Name: a.name, Parent: a.parent, Span: sp, Hidden: true})
		if a.parent >= 0 {
			x.facts.Symbols[idx].Qual = x.facts.Symbols[a.parent].Qual + "." + a.name
		}
		first := len(x.facts.Symbols)
		x.addFields(idx, &a.node)
		for i := first; i < len(x.facts.Symbols); i++ {
			x.facts.Symbols[i].Hidden = true
			x.facts.Symbols[i].Content = ""
		}
	}
}
