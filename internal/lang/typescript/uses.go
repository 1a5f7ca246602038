package typescript

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records calls, constructions, local bindings and references,
// each attributed to the innermost enclosing node.
func (x *extraction) readUses(found []found) {
	type refKey struct {
		scope           int
		qualifier, name string
	}
	seenRefs := map[refKey]bool{}
	addRef := func(n *ts.Node, qualifier, name string) {
		scope := x.scopes.Innermost(uint32(n.StartByte()), func(s *lang.Symbol) bool { return s.Kind.IsCallable() })
		if scope < 0 {
			return
		}
		k := refKey{scope, qualifier, name}
		if seenRefs[k] {
			return
		}
		seenRefs[k] = true
		e := &lang.Expr{Kind: lang.ExprIdent, Name: name}
		if qualifier != "" {
			e = &lang.Expr{Kind: lang.ExprMember, Name: name, X: &lang.Expr{Kind: lang.ExprIdent, Name: qualifier}}
		}
		x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: lang.Line(n)})
	}
	for i := range found {
		f := &found[i]
		n := &f.node
		switch f.kind {
		case useCall:
			x.addCall(n, f.a)
		case useNew:
			x.addNew(n, f.a)
		case useDeclarator:
			x.bindDeclarator(n, f.a)
		case useAssign:
			x.bindAssignment(n, f.a, f.b)
		case useFor:
			x.bindFor(n, f.a, f.b)
		case useCatch:
			x.bindCatch(n, f.a)
		case useLambda:
			x.bindParams(n)
		case useMember:
			addRef(n, x.text(f.a), x.text(f.b))
		case useIdent:
			if name := x.text(n); name != "undefined" {
				addRef(n, "", name)
			}
		}
	}
}

// callScope is the node a call at pos belongs to: the innermost callable,
// else the innermost class (field initializers, static blocks), else the
// file. Calls in a class's decorators and heritage clause run where the
// class is defined, so they belong to the class's own enclosing scope.
func (x *extraction) callScope(pos uint32) int {
	s := x.scopes.CallScope(pos)
	for s >= 0 && x.facts.Symbols[s].Kind.IsType() {
		b, ok := x.body[s]
		if !ok || pos >= b {
			break
		}
		p := x.facts.Symbols[s].Parent
		if p < 0 {
			return -1
		}
		s = p
		if !x.facts.Symbols[s].Kind.IsCallable() && !x.facts.Symbols[s].Kind.IsType() {
			return x.scopes.CallScope(x.facts.Symbols[s].StartByte)
		}
	}
	return s
}

// argumentCount is the number of arguments of a call.
func argumentCount(args *ts.Node) int {
	if args == nil {
		return 0
	}
	n := 0
	if args.Kind() == "template_string" {
		// A tagged template: the strings array, then each substitution.
		n = 1
		for i := uint(0); i < args.NamedChildCount(); i++ {
			if args.NamedChild(i).Kind() == "template_substitution" {
				n++
			}
		}
		return n
	}
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if args.NamedChild(i).Kind() != "comment" {
			n++
		}
	}
	return n
}

// addCall records a call: of a name, a member chain, or super(...).
func (x *extraction) addCall(call, callee *ts.Node) {
	var e *lang.Expr
	switch callee.Kind() {
	case "import":
		return
	case "super":
		e = &lang.Expr{Kind: lang.ExprSuper}
	default:
		if x.requirePath(call) != "" {
			return
		}
		if v := x.literalProperty(callee); v != nil {
			e = x.expr(v, 0) // the property's value (objectprops.go)
		} else {
			e = x.expr(callee, 0)
		}
	}
	switch e.Kind {
	case lang.ExprIdent, lang.ExprMember, lang.ExprIndex, lang.ExprSuper:
	default:
		return // calls of call results, literals and function expressions
	}
	if e.Kind == lang.ExprIdent && strings.HasPrefix(e.Name, "require:") {
		return
	}
	line := lang.Line(callee)
	if callee.Kind() == "member_expression" {
		if p := callee.ChildByFieldName("property"); p != nil {
			line = lang.Line(p)
		}
	}
	pos := uint32(call.StartByte())
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope: x.callScope(pos), Callee: e, Args: argumentCount(call.ChildByFieldName("arguments")),
		Line: line, Byte: pos,
	})
}

// addNew records `new T(...)` when T is a name.
func (x *extraction) addNew(n, ctor *ts.Node) {
	if ctor == nil || !isNameExpr(ctor) {
		return
	}
	pos := uint32(n.StartByte())
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope:  x.callScope(pos),
		Callee: &lang.Expr{Kind: lang.ExprNew, Name: lang.OneLine(x.text(ctor))},
		Args:   argumentCount(n.ChildByFieldName("arguments")),
		Line:   lang.Line(ctor), Byte: pos,
	})
}

// isFunctionNode reports nodes that delimit a function body.
func isFunctionNode(n *ts.Node) bool {
	switch n.Kind() {
	case "function_declaration", "generator_function_declaration", "arrow_function", "function_expression",
		"generator_function", "function", "method_definition", "class_static_block":
		return true
	}
	return false
}
