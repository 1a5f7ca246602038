package python

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records calls, local bindings and references. Calls belong to
// the innermost function or class body holding them (module-level calls to
// the file); bindings to the innermost function (class bodies declare
// attributes instead, module level declares variables).
func (x *extraction) readUses(q *lang.Query, matches []lang.Match) {
	var (
		cCall   = q.Capture("call")
		cCallee = q.Capture("callee")
		cArgs   = q.Capture("args")
		cAssign = q.Capture("assign")
		cLeft   = q.Capture("left")
		cRight  = q.Capture("right")
		cBody   = q.Capture("body")
		cFor    = q.Capture("for")
		cComp   = q.Capture("comprehension")
		cWith   = q.Capture("with")
		cValue  = q.Capture("value")
		cWalrus = q.Capture("walrus")
		cExcept = q.Capture("except")
		cLambda = q.Capture("lambda")
		cParams = q.Capture("params")
		cNarrow = q.Capture("narrow")
	)
	x.bindParams()
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cCall) != nil:
			x.addCall(m.Node(cCall), m.Node(cCallee), m.Node(cArgs))
		case m.Node(cAssign) != nil:
			x.bindAssignment(m.Node(cAssign), m.Node(cLeft))
		case m.Node(cFor) != nil:
			body := m.Node(cBody)
			x.bindLoop(m.Node(cFor), m.Node(cLeft), m.Node(cRight), uint32(body.StartByte()), 0)
		case m.Node(cComp) != nil:
			comp := m.Node(cComp)
			x.bindLoop(comp, m.Node(cLeft), m.Node(cRight), uint32(comp.StartByte()), uint32(comp.EndByte()))
		case m.Node(cWith) != nil:
			w := m.Node(cWith)
			x.bindValue(w, m.Node(cLeft), m.Node(cValue), uint32(w.EndByte()), 0)
		case m.Node(cWalrus) != nil:
			w := m.Node(cWalrus)
			x.bindValue(w, m.Node(cLeft), m.Node(cValue), uint32(w.EndByte()), 0)
		case m.Node(cExcept) != nil:
			ex := m.Node(cExcept)
			x.bindType(ex, m.Node(cLeft), m.Node(cValue), uint32(ex.StartByte()), uint32(ex.EndByte()))
		case m.Node(cNarrow) != nil:
			body := m.Node(cBody)
			x.bindType(m.Node(cNarrow), m.Node(cLeft), m.Node(cValue), uint32(body.StartByte()), uint32(body.EndByte()))
		case m.Node(cLambda) != nil:
			x.bindLambda(m.Node(cLambda), m.Node(cParams))
		}
	}
	x.readRefs()
}

// addCall records one call site. Calls whose callee has no name to resolve
// (results of calls, subscripts, lambdas) and `super()` itself are not
// recorded.
func (x *extraction) addCall(call, callee, args *ts.Node) {
	if callee.Kind() == "identifier" && x.text(callee) == "super" {
		return
	}
	pos := uint32(call.StartByte())
	scope := x.scopes.at(pos)
	e := x.expr(callee, scope)
	if e.Kind == lang.ExprSelf {
		e = x.classConstruction(scope) // `cls()` in a class method
	}
	switch e.Kind {
	case lang.ExprIdent, lang.ExprMember, lang.ExprNew:
	default:
		return
	}
	line := lang.Line(callee)
	if callee.Kind() == "attribute" {
		line = lang.Line(callee.ChildByFieldName("attribute"))
	}
	n := 1
	var argExprs []*lang.Expr
	if args.Kind() == "argument_list" {
		items := namedChildren(args)
		n = len(items)
		argExprs = x.argExprs(items, scope)
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: scope, Callee: e, Args: n, Line: line, Byte: pos, ArgExprs: argExprs})
}

// argExprs converts the arguments of a call for the value flow of
// callables: positional ones as expressions, `name=value` as keywords,
// `*xs` and `**kw` as keywords named "*" and "**". Arguments that cannot
// carry a callable (literals, lambdas) are unknown expressions that keep
// the positions; a call with none that can is recorded without arguments.
func (x *extraction) argExprs(items []*ts.Node, scope int) []*lang.Expr {
	out := make([]*lang.Expr, 0, len(items))
	useful := false
	for _, a := range items {
		var e *lang.Expr
		switch a.Kind() {
		case "keyword_argument":
			e = &lang.Expr{Kind: lang.ExprKeyword, Name: x.text(a.ChildByFieldName("name")),
				X: x.flowArg(a.ChildByFieldName("value"), scope)}
			useful = useful || e.X.Kind != lang.ExprUnknown
		case "list_splat":
			e = &lang.Expr{Kind: lang.ExprKeyword, Name: "*", X: &lang.Expr{}}
		case "dictionary_splat":
			e = &lang.Expr{Kind: lang.ExprKeyword, Name: "**", X: &lang.Expr{}}
		case "comment":
			continue
		default:
			e = x.flowArg(a, scope)
			useful = useful || e.Kind != lang.ExprUnknown
		}
		out = append(out, e)
	}
	if !useful {
		return nil
	}
	return out
}

// flowArg is an argument as an expression that may hold a callable: a
// name, an attribute, a call, or unknown.
func (x *extraction) flowArg(n *ts.Node, scope int) *lang.Expr {
	if n == nil {
		return &lang.Expr{}
	}
	switch n.Kind() {
	case "identifier", "attribute", "call", "await", "parenthesized_expression", "boolean_operator", "conditional_expression":
		e := x.expr(n, scope)
		if e.Kind == lang.ExprLiteral {
			return &lang.Expr{}
		}
		return e
	}
	return &lang.Expr{}
}

// localScope is the function whose locals a binding at pos belongs to: the
// innermost scope, -1 at module level, and ok false in a class body.
func (x *extraction) localScope(pos uint32) (int, bool) {
	scope := x.scopes.at(pos)
	if scope >= 0 && x.facts.Symbols[scope].Kind.IsType() {
		return scope, false
	}
	return scope, true
}

func (x *extraction) isLocal(scope int, name string) bool {
	return name != "" && name != "_" && !x.globals[scope][name]
}

// bindParams binds each function's parameters to their annotated types, so
// that a later assignment such as `node = node.parent` starts from them.
func (x *extraction) bindParams() {
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if !s.Kind.IsCallable() {
			continue
		}
		for _, p := range s.Params {
			if p.Name == "" {
				continue
			}
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
				Scope: i, Name: p.Name, Type: x.spelledOut(p.Type), Byte: x.info[i].bodyStart,
			})
		}
	}
}

// bindAssignment binds the names an assignment assigns in a function:
// locals, and `self.x` fields.
func (x *extraction) bindAssignment(n, left *ts.Node) {
	scope, ok := x.localScope(uint32(n.StartByte()))
	if !ok || scope < 0 {
		return // class attributes and module variables are symbols
	}
	typ := x.annotation(n.ChildByFieldName("type"))
	for _, t := range x.targets(left, assignedValue(n), scope) {
		if !t.field && !x.isLocal(scope, t.name) {
			continue
		}
		b := lang.Binding{Scope: scope, Name: t.name, Type: typ, Field: t.field, Byte: uint32(n.EndByte())}
		switch {
		case t.value != nil:
			b.Value = x.expr(t.value, scope)
		case t.elem != nil:
			b.Value, b.Elem = x.expr(t.elem, scope), true
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// bindLoop binds the targets of `for ... in ...` (a loop or a
// comprehension clause) to elements of the iterated value. For two targets,
// `enumerate(xs)` gives the second an element of xs, `d.items()` an element
// (value) of d, and `zip(a, b)` pairs them.
func (x *extraction) bindLoop(n, left, right *ts.Node, from, end uint32) {
	scope, ok := x.localScope(uint32(n.StartByte()))
	if !ok || left == nil || right == nil {
		return
	}
	items := []*ts.Node{left}
	switch left.Kind() {
	case "pattern_list", "tuple_pattern", "list_pattern":
		items = namedChildren(left)
	}
	sources := make([]*ts.Node, len(items))
	if len(items) == 1 {
		sources[0] = right
	} else if right.Kind() == "call" {
		fn := right.ChildByFieldName("function")
		var args []*ts.Node
		if a := right.ChildByFieldName("arguments"); a != nil && a.Kind() == "argument_list" {
			args = namedChildren(a)
		}
		switch {
		case fn.Kind() == "identifier" && x.text(fn) == "enumerate" && len(items) == 2 && len(args) >= 1:
			sources[1] = args[0]
		case fn.Kind() == "identifier" && x.text(fn) == "zip" && len(args) == len(items):
			copy(sources, args)
		case fn.Kind() == "attribute" && x.text(fn.ChildByFieldName("attribute")) == "items" && len(items) == 2:
			sources[1] = fn.ChildByFieldName("object")
		}
	}
	for i, item := range items {
		if item.Kind() != "identifier" {
			continue
		}
		name := x.text(item)
		if scope >= 0 && !x.isLocal(scope, name) {
			continue
		}
		b := lang.Binding{Scope: scope, Name: name, Byte: from, End: end}
		if sources[i] != nil {
			b.Value, b.Elem = x.expr(sources[i], scope), true
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// bindValue binds one name (`with v as name`, `name := v`) to a value.
func (x *extraction) bindValue(n, left, value *ts.Node, from, end uint32) {
	scope, ok := x.localScope(uint32(n.StartByte()))
	if !ok || left == nil {
		return
	}
	for _, t := range x.targets(left, value, scope) {
		if t.field || (scope >= 0 && !x.isLocal(scope, t.name)) {
			continue
		}
		b := lang.Binding{Scope: scope, Name: t.name, Byte: from, End: end}
		switch {
		case t.value != nil:
			b.Value = x.expr(t.value, scope)
		case t.elem != nil:
			b.Value, b.Elem = x.expr(t.elem, scope), true
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// bindType binds a name to a written type inside a range: `except E as e`,
// `if isinstance(x, Foo):`.
func (x *extraction) bindType(n, left, typ *ts.Node, from, end uint32) {
	scope, ok := x.localScope(uint32(n.StartByte()))
	if !ok || left == nil || left.Kind() != "identifier" {
		return
	}
	b := lang.Binding{Scope: scope, Name: x.text(left), Byte: from, End: end}
	if typ != nil && (typ.Kind() == "identifier" || typ.Kind() == "attribute") {
		b.Type = lang.OneLine(x.text(typ))
	}
	x.facts.Bindings = append(x.facts.Bindings, b)
}

// bindLambda hides outer names behind a lambda's parameters inside it.
func (x *extraction) bindLambda(n, params *ts.Node) {
	scope, ok := x.localScope(uint32(n.StartByte()))
	if !ok || params == nil {
		return
	}
	for _, p := range x.params(params) {
		if p.Name != "" {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
				Scope: scope, Name: p.Name, Byte: uint32(n.StartByte()), End: uint32(n.EndByte()),
			})
		}
	}
}
