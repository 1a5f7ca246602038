package typescript

// Local bindings: what names inside a function hold (declarators,
// assignments, loop variables, parameters of callbacks), for typing
// receivers.

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// blockEnd is where the names of a declaration stop being visible: the end
// of the enclosing block for let/const (0 when that block is the body of a
// function that is a node, or the file), the end of the enclosing callback
// for var.
func (x *extraction) blockEnd(decl *ts.Node) uint32 {
	if decl.Kind() == "variable_declaration" {
		for p := decl.Parent(); p != nil; p = p.Parent() {
			if isFunctionNode(p) {
				if _, isNode := x.symAt[p.Id()]; isNode {
					return 0
				}
				return uint32(p.EndByte())
			}
		}
		return 0
	}
	p := decl.Parent()
	for p != nil && p.Kind() == "export_statement" {
		p = p.Parent()
	}
	if p == nil || p.Kind() == "program" {
		return 0
	}
	if p.Kind() == "statement_block" {
		if gp := p.Parent(); gp != nil && isFunctionNode(gp) {
			if _, isNode := x.symAt[gp.Id()]; isNode {
				return 0
			}
		}
	}
	return uint32(p.EndByte())
}

// bindDeclarator binds the names of a local declarator (module-level ones
// and those holding functions or classes are symbols).
func (x *extraction) bindDeclarator(n, name *ts.Node) {
	if _, isSym := x.symAt[n.Id()]; isSym {
		return
	}
	value := unwrap(n.ChildByFieldName("value"))
	if isImportValue(x, value) {
		return
	}
	decl := n.Parent()
	if decl == nil {
		return
	}
	scope := x.callScope(uint32(n.StartByte()))
	typ := x.typeText(n.ChildByFieldName("type"))
	from, end := uint32(n.EndByte()), x.blockEnd(decl)
	for _, d := range x.patternNames(name, typ, value) {
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: d.name, Type: d.typ, Value: d.value, Byte: from, End: end,
		})
		if d.typ == "" && d.value == nil && value == nil && name.Kind() == "identifier" {
			if x.declared == nil {
				x.declared = map[scopeName]bool{}
			}
			x.declared[scopeName{scope, d.name}] = true
		}
	}
}

// bindAssignment records `this.x = v` as a field binding (and, when the
// class declares no member x, a Property: JavaScript classes declare their
// fields by assigning them), and `x = v` for a local declared without a
// value.
func (x *extraction) bindAssignment(n, left, right *ts.Node) {
	scope := x.callScope(uint32(n.StartByte()))
	switch left.Kind() {
	case "member_expression":
		obj := left.ChildByFieldName("object")
		if obj == nil || obj.Kind() != "this" || scope < 0 {
			return
		}
		name := x.memberName(left.ChildByFieldName("property"))
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: name, Value: x.expr(right, 0), Field: true, Byte: uint32(n.EndByte()),
		})
		x.noteThisProperty(scope, name, n)
	case "identifier":
		name := x.text(left)
		if hasToken(n, "using") {
			// `using x = ...` and `await using x = ...`, which the grammar
			// reads as an assignment: a block-scoped declaration.
			end := uint32(0)
			if stmt := n.Parent(); stmt != nil {
				for stmt != nil && stmt.Kind() != "expression_statement" {
					stmt = stmt.Parent()
				}
				if stmt != nil {
					end = x.blockEnd(stmt)
				}
			}
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
				Scope: scope, Name: name, Value: x.expr(right, 0), Byte: uint32(n.EndByte()), End: end,
			})
			return
		}
		if !x.declared[scopeName{scope, name}] {
			return
		}
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: name, Value: x.expr(right, 0), Byte: uint32(n.EndByte()),
		})
	}
}

// noteThisProperty adds a Property for `this.name = ...` in a method of a
// class that declares no member of that name.
func (x *extraction) noteThisProperty(scope int, name string, n *ts.Node) {
	cls := scope
	for cls >= 0 && !x.facts.Symbols[cls].Kind.IsType() {
		cls = x.facts.Symbols[cls].Parent
	}
	if cls < 0 || x.facts.Symbols[cls].Kind != graph.KindClass || name == "" {
		return
	}
	if x.members == nil {
		// Every member declared in a class body is known by now.
		x.members = map[int]map[string]bool{}
		for _, s := range append(x.facts.Symbols[:len(x.facts.Symbols):len(x.facts.Symbols)], x.deferred...) {
			if s.Parent >= 0 {
				if x.members[s.Parent] == nil {
					x.members[s.Parent] = map[string]bool{}
				}
				x.members[s.Parent][s.Name] = true
			}
		}
	}
	if x.members[cls][name] {
		return
	}
	if x.members[cls] == nil {
		x.members[cls] = map[string]bool{}
	}
	x.members[cls][name] = true
	sp := lang.SpanOf(n)
	sig := x.oneLine(n)
	sig = lang.Cap(sig, 200)
	x.deferred = append(x.deferred, lang.Symbol{
		Kind: graph.KindProperty, Name: name, Qual: x.facts.Symbols[cls].Qual + "." + name, Parent: cls,
		Span: sp, Signature: sig, Exported: !strings.HasPrefix(name, "#"), Content: x.content(sp),
	})
}

// bindFor binds the variable of `for (const x of xs)` to an element of xs
// and of `for (const k in o)` to a string, inside the loop.
func (x *extraction) bindFor(n, left, right *ts.Node) {
	scope := x.callScope(uint32(n.StartByte()))
	from, end := uint32(left.StartByte()), uint32(n.EndByte())
	op := n.ChildByFieldName("operator")
	if left.Kind() == "identifier" {
		b := lang.Binding{Scope: scope, Name: x.text(left), Byte: from, End: end}
		if op != nil && op.Kind() == "in" {
			b.Value = literal("String")
		} else {
			b.Value, b.Elem = x.expr(right, 0), true
		}
		x.facts.Bindings = append(x.facts.Bindings, b)
		return
	}
	for _, d := range x.patternNames(left, "", nil) {
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: scope, Name: d.name, Byte: from, End: end})
	}
}

// bindCatch binds the parameter of a catch clause, untyped, inside it.
func (x *extraction) bindCatch(n, param *ts.Node) {
	scope := x.callScope(uint32(n.StartByte()))
	for _, d := range x.patternNames(param, "", nil) {
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: d.name, Byte: uint32(n.StartByte()), End: uint32(n.EndByte()),
		})
	}
}

// bindParams binds parameters as locals. For a function that is a node,
// the symbol's Params already name them; only destructured parameters and
// untyped parameters with a default value need bindings, in the function's
// own scope. For a callback (not a node), every parameter is bound inside
// the callback's span, in the enclosing node's scope, so that it shadows
// outer names there.
func (x *extraction) bindParams(fn *ts.Node) {
	sym, isNode := x.symAt[fn.Id()]
	var scope int
	var from, end uint32
	if isNode {
		scope, from, end = sym, uint32(fn.StartByte()), 0
	} else {
		scope, from, end = x.callScope(uint32(fn.StartByte())), uint32(fn.StartByte()), uint32(fn.EndByte())
	}
	bind := func(d boundName) {
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: d.name, Type: d.typ, Value: d.value, Byte: from, End: end,
		})
	}
	if p := fn.ChildByFieldName("parameter"); p != nil {
		if !isNode && p.Kind() == "identifier" {
			bind(boundName{name: x.text(p), value: x.callbackArgument(fn, 0)})
		}
		return
	}
	list := fn.ChildByFieldName("parameters")
	if list == nil {
		return
	}
	c := list.Walk()
	defer c.Close()
	for i, p := range list.NamedChildren(c) {
		pat, typ, def := x.paramParts(&p)
		if pat == nil {
			continue
		}
		if pat.Kind() == "identifier" {
			switch {
			case !isNode:
				d := boundName{name: x.text(pat), typ: typ}
				switch {
				case typ != "":
				case def != nil:
					d.value = x.expr(def, 0)
				default:
					d.value = x.callbackArgument(fn, i)
				}
				bind(d)
			case typ == "" && def != nil:
				bind(boundName{name: x.text(pat), value: x.expr(def, 0)})
			}
			continue
		}
		for _, d := range x.patternNames(pat, typ, def) {
			bind(d)
		}
	}
}

// paramParts splits one formal parameter into its pattern, declared type
// and default value.
func (x *extraction) paramParts(p *ts.Node) (pat *ts.Node, typ string, def *ts.Node) {
	switch p.Kind() {
	case "required_parameter", "optional_parameter":
		pat = p.ChildByFieldName("pattern")
		if pat == nil {
			pat = p.ChildByFieldName("name")
		}
		if pat != nil && pat.Kind() == "this" {
			return nil, "", nil
		}
		return pat, x.typeText(p.ChildByFieldName("type")), p.ChildByFieldName("value")
	case "assignment_pattern":
		return p.ChildByFieldName("left"), "", p.ChildByFieldName("right")
	case "identifier", "object_pattern", "array_pattern", "rest_pattern":
		return p, "", nil
	}
	return nil, "", nil
}

// callbackArgument is what parameter i of a callback receives when the
// callback is the first argument of an array method (`xs.map(x => ...)`:
// an element of xs) or of `then` (the awaited receiver); nil otherwise.
func (x *extraction) callbackArgument(fn *ts.Node, i int) *lang.Expr {
	args := fn.Parent()
	if args == nil || args.Kind() != "arguments" || args.NamedChildCount() == 0 || args.NamedChild(0).Id() != fn.Id() {
		return nil
	}
	call := args.Parent()
	if call == nil || call.Kind() != "call_expression" {
		return nil
	}
	callee := call.ChildByFieldName("function")
	if callee == nil || callee.Kind() != "member_expression" {
		return nil
	}
	recv := x.expr(callee.ChildByFieldName("object"), 0)
	if recv.Kind == lang.ExprUnknown {
		return nil
	}
	switch x.memberName(callee.ChildByFieldName("property")) {
	case "forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some", "every", "flatMap":
		if i == 0 {
			return &lang.Expr{Kind: lang.ExprIndex, X: recv}
		}
	case "sort":
		if i <= 1 {
			return &lang.Expr{Kind: lang.ExprIndex, X: recv}
		}
	case "reduce", "reduceRight":
		if i == 1 {
			return &lang.Expr{Kind: lang.ExprIndex, X: recv}
		}
	case "then":
		if i == 0 {
			return &lang.Expr{Kind: lang.ExprAwait, X: recv}
		}
	}
	return nil
}
