package ruby

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// declarative reads the calls of a body that declare rather than run:
// require, require_relative, include/prepend, attr_*, private :m. It
// reports whether n was one.
func (x *extraction) declarative(n *ts.Node, sc scope, private *bool) bool {
	if n.ChildByFieldName("receiver") != nil {
		return false
	}
	m := n.ChildByFieldName("method")
	if m == nil {
		return false
	}
	args := n.ChildByFieldName("arguments")
	switch name := x.text(m); name {
	case "require", "require_relative":
		if x.symbolsOnly {
			return true
		}
		if args == nil || args.NamedChildCount() != 1 || args.NamedChild(0).Kind() != "string" {
			return false
		}
		p := stringContent(x, args.NamedChild(0))
		if p == "" {
			return false
		}
		if name == "require_relative" {
			p = "./" + p
		}
		x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportSideEffect, Path: p, Line: lang.Line(n), Scope: sc.sym})
		return true
	case "include", "prepend", "extend":
		if sc.typ < 0 || sc.method != "" || args == nil {
			return false
		}
		t := &x.facts.Symbols[sc.typ]
		for i := uint(0); i < args.NamedChildCount(); i++ {
			a := args.NamedChild(i)
			if a.Kind() != "constant" && a.Kind() != "scope_resolution" {
				continue
			}
			// The module last included is looked up first, before the
			// superclass. An extended module's methods are the class's
			// class methods: the engine does not tell class methods from
			// instance methods in lookups, so it is a base like an
			// included one (an instance call of such a method, which Ruby
			// rejects, is linked too).
			b := lang.Base{Type: strings.Join(constPath(x.text(a)), "."), Kind: lang.BaseImplements}
			t.Bases = append([]lang.Base{b}, t.Bases...)
		}
		return true
	case "attr_reader", "attr_writer", "attr_accessor":
		if sc.typ < 0 || sc.method != "" || args == nil {
			return false
		}
		for i := uint(0); i < args.NamedChildCount(); i++ {
			a := args.NamedChild(i)
			if a.Kind() != "simple_symbol" {
				continue
			}
			attr := strings.TrimPrefix(x.text(a), ":")
			x.add(lang.Symbol{
				Kind: graph.KindProperty, Name: attr, Qual: x.qual(sc.sym, attr), Parent: sc.sym, Span: lang.SpanOf(a),
				Signature: lang.OneLine(x.text(n)), Doc: x.doc(n), Exported: !*private, Content: x.text(a),
			})
		}
		return true
	case "private", "protected", "public":
		if sc.typ < 0 || sc.method != "" || args == nil {
			return false
		}
		for i := uint(0); i < args.NamedChildCount(); i++ {
			a := args.NamedChild(i)
			switch a.Kind() {
			case "simple_symbol":
				x.setExported(sc.typ, strings.TrimPrefix(x.text(a), ":"), name == "public")
			case "method", "singleton_method":
				// `private def m ... end`
				x.method(a, sc, name == "public")
			}
		}
		return true
	}
	return false
}

// setExported marks the members of type typ named name.
func (x *extraction) setExported(typ int, name string, exported bool) {
	for i := typ + 1; i < len(x.facts.Symbols); i++ {
		s := &x.facts.Symbols[i]
		if s.Parent == typ && s.Name == name {
			s.Exported = exported
		}
	}
}

func stringContent(x *extraction, s *ts.Node) string {
	if s.NamedChildCount() != 1 || s.NamedChild(0).Kind() != "string_content" {
		return ""
	}
	return x.text(s.NamedChild(0))
}

// uses walks n for calls and bindings; declarations nested in it (a def
// inside a block) are read as declarations.
func (x *extraction) uses(n *ts.Node, sc scope) {
	switch n.Kind() {
	case "class", "module", "singleton_class", "method", "singleton_method":
		if sc.method == "" {
			f := false
			x.statement(n, sc, &f)
		}
		return
	case "comment":
		return
	case "block", "do_block":
		// A block's parameters are locals of its body.
		if ps := n.ChildByFieldName("parameters"); ps != nil {
			inner := sc
			inner.locals = make(map[string]bool, len(sc.locals)+4)
			for k := range sc.locals {
				inner.locals[k] = true
			}
			x.blockParams(ps, inner.locals)
			for i := uint(0); i < n.NamedChildCount(); i++ {
				x.uses(n.NamedChild(i), inner)
			}
			return
		}
	case "constant", "scope_resolution":
		if !x.symbolsOnly && sc.method != "" {
			x.constantRef(n, sc)
		}
		if n.Kind() == "constant" {
			return
		}
	case "call":
		if !x.symbolsOnly {
			x.call(n, sc)
		}
	case "super":
		if x.symbolsOnly {
			return
		}
		if sc.method != "" && !isCallMethod(n) {
			x.facts.Calls = append(x.facts.Calls, lang.Call{
				Scope: sc.sym, Callee: &lang.Expr{Kind: lang.ExprMember, Name: sc.method, X: &lang.Expr{Kind: lang.ExprSuper}},
				Line: lang.Line(n), Byte: uint32(n.StartByte()),
			})
		}
		return
	case "identifier":
		if x.symbolsOnly {
			return
		}
		// A bare name that is no local nor parameter calls a method.
		if isStatement(n) && !sc.locals[x.text(n)] {
			if callee := x.callee(n, sc); callee != nil {
				x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: sc.sym, Callee: callee, Line: lang.Line(n), Byte: uint32(n.StartByte())})
			}
		}
		return
	case "assignment", "operator_assignment":
		if !x.symbolsOnly {
			x.assignment(n, sc)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.uses(n.NamedChild(i), sc)
	}
}

// blockParams adds the names a block's parameters bind to locals.
func (x *extraction) blockParams(n *ts.Node, locals map[string]bool) {
	if n.Kind() == "identifier" {
		locals[x.text(n)] = true
		return
	}
	if nn := n.ChildByFieldName("name"); nn != nil && nn.Kind() == "identifier" {
		locals[x.text(nn)] = true
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.blockParams(n.NamedChild(i), locals)
	}
}

// isCallMethod reports whether n is the method of a call (`super(x)`).
func isCallMethod(n *ts.Node) bool {
	p := n.Parent()
	return p != nil && p.Kind() == "call" && p.ChildByFieldName("method") != nil && p.ChildByFieldName("method").Id() == n.Id()
}

// isStatement reports whether n stands as a statement of its own.
func isStatement(n *ts.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Kind() {
	case "body_statement", "program", "then", "else", "do", "begin", "ensure", "block_body", "parenthesized_statements":
		return true
	}
	return false
}

// assignment records `v = expr` (a local) and `@v = expr` (a field).
func (x *extraction) assignment(n *ts.Node, sc scope) {
	l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if l == nil || r == nil || n.Kind() != "assignment" {
		return
	}
	b := lang.Binding{Scope: sc.sym, Value: x.expr(r, sc), Byte: uint32(n.EndByte())}
	switch l.Kind() {
	case "identifier":
		b.Name = x.text(l)
		if sc.locals != nil {
			sc.locals[b.Name] = true
		}
	case "instance_variable":
		b.Name = strings.TrimPrefix(x.text(l), "@")
		b.Field = true
		b.Byte = 0
	default:
		return
	}
	if b.Value != nil {
		x.facts.Bindings = append(x.facts.Bindings, b)
	}
}

// call records one call with a method name.
func (x *extraction) call(n *ts.Node, sc scope) {
	m := n.ChildByFieldName("method")
	if m == nil {
		return
	}
	args := 0
	if a := n.ChildByFieldName("arguments"); a != nil {
		args = int(a.NamedChildCount())
	}
	var callee *lang.Expr
	if m.Kind() == "super" {
		if sc.method == "" {
			return
		}
		callee = &lang.Expr{Kind: lang.ExprMember, Name: sc.method, X: &lang.Expr{Kind: lang.ExprSuper}}
	} else {
		callee = x.callee(n, sc)
	}
	if callee == nil {
		return
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: sc.sym, Callee: callee, Args: args, Line: lang.Line(n), Byte: uint32(n.StartByte())})
}

// dynamic are the methods that call a method named by data: no edge.
var dynamic = map[string]bool{"send": true, "public_send": true, "__send__": true, "method_missing": true, "define_method": true, "instance_eval": true, "class_eval": true}

// callee is the expression a call (or a bare identifier) calls.
func (x *extraction) callee(n *ts.Node, sc scope) *lang.Expr {
	m := n.ChildByFieldName("method")
	if n.Kind() == "identifier" {
		m = n
	}
	name := x.text(m)
	if dynamic[name] {
		return nil
	}
	var recv *ts.Node
	if n.Kind() == "call" {
		recv = n.ChildByFieldName("receiver")
	}
	// `new` and `self.new` in a class method construct the class.
	if name == "new" && sc.static && sc.typ >= 0 && (recv == nil || recv.Kind() == "self") {
		return &lang.Expr{Kind: lang.ExprNew, Name: x.facts.Symbols[sc.typ].Qual}
	}
	if recv == nil {
		return &lang.Expr{Kind: lang.ExprIdent, Name: name}
	}
	if name == "new" && (recv.Kind() == "constant" || recv.Kind() == "scope_resolution") {
		return &lang.Expr{Kind: lang.ExprNew, Name: strings.Join(constPath(x.text(recv)), ".")}
	}
	r := x.expr(recv, sc)
	if r == nil {
		r = &lang.Expr{Kind: lang.ExprUnknown}
	}
	return &lang.Expr{Kind: lang.ExprMember, Name: name, X: r}
}

// expr is the shape of a receiver or assigned value, nil when unknown.
func (x *extraction) expr(n *ts.Node, sc scope) *lang.Expr {
	switch n.Kind() {
	case "identifier":
		if sc.locals[x.text(n)] {
			return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
		}
		// A bare name that is no local calls a method of self.
		c := x.callee(n, sc)
		if c == nil || c.Kind == lang.ExprNew {
			return c
		}
		return &lang.Expr{Kind: lang.ExprCall, X: c}
	case "constant":
		return &lang.Expr{Kind: lang.ExprIdent, Name: x.text(n)}
	case "scope_resolution":
		nm := n.ChildByFieldName("name")
		s := n.ChildByFieldName("scope")
		if nm == nil {
			return nil
		}
		if s == nil {
			// `::A` names the top-level A.
			return &lang.Expr{Kind: lang.ExprIdent, Name: "::" + x.text(nm)}
		}
		in := x.expr(s, sc)
		if in == nil {
			return nil
		}
		return &lang.Expr{Kind: lang.ExprMember, Name: x.text(nm), X: in}
	case "self":
		return &lang.Expr{Kind: lang.ExprSelf}
	case "instance_variable":
		return &lang.Expr{Kind: lang.ExprMember, Name: strings.TrimPrefix(x.text(n), "@"), X: &lang.Expr{Kind: lang.ExprSelf}}
	case "call":
		m := n.ChildByFieldName("method")
		if m == nil || m.Kind() == "super" {
			return nil
		}
		// self.class is the class: its methods are found on self.
		if r := n.ChildByFieldName("receiver"); r != nil && r.Kind() == "self" && x.text(m) == "class" {
			return &lang.Expr{Kind: lang.ExprSelf}
		}
		c := x.callee(n, sc)
		if c == nil {
			return nil
		}
		if c.Kind == lang.ExprNew {
			return c
		}
		return &lang.Expr{Kind: lang.ExprCall, X: c}
	case "parenthesized_statements":
		if n.NamedChildCount() == 1 {
			return x.expr(n.NamedChild(0), sc)
		}
	case "string", "integer", "float", "array", "hash", "symbol", "simple_symbol", "true", "false":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: n.Kind()}
	case "nil":
		return &lang.Expr{Kind: lang.ExprLiteral, Name: "nil"}
	}
	return nil
}

type refKey struct {
	scope int
	text  string
}

// constantRef records a read of a constant (`LIMIT`, `Config::LIMIT`) in
// a method: a REFERENCES edge when it names a constant of the repository.
func (x *extraction) constantRef(n *ts.Node, sc scope) {
	if p := n.Parent(); p != nil && p.Kind() == "scope_resolution" {
		return // part of a longer path, recorded whole
	}
	e := x.expr(n, sc)
	if e == nil || (e.Kind != lang.ExprIdent && e.Kind != lang.ExprMember) {
		return
	}
	k := refKey{sc.sym, x.text(n)}
	if x.refs[k] {
		return
	}
	if x.refs == nil {
		x.refs = map[refKey]bool{}
	}
	x.refs[k] = true
	x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: sc.sym, Expr: e, Line: lang.Line(n)})
}
