package c

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readUses records the call sites. A call of a name the file defines as
// a function-like macro, or of an upper-case name (C's convention for
// macros, `CHECK(x)`), is a macro invocation: counted, never a call. The
// grammar parses a macro invocation's arguments as expressions, so the
// calls written in them (`CHECK(parse(x))`) are recorded as calls.
func (x *extraction) readUses(q *lang.Query, matches []lang.Match) {
	var (
		cCall   = q.Capture("call")
		cCallee = q.Capture("callee")
		cArgs   = q.Capture("args")
		cIdent  = q.Capture("ident")
	)
	seen := map[refKey]bool{}
	for i := range matches {
		m := &matches[i]
		if call, callee := m.Node(cCall), m.Node(cCallee); call != nil && callee != nil {
			x.addCall(call, callee, m.Node(cArgs))
		} else if id := m.Node(cIdent); id != nil {
			x.addRef(id, seen)
		}
	}
}

func (x *extraction) addCall(call, callee, args *ts.Node) {
	var e *lang.Expr
	switch callee.Kind() {
	case "identifier":
		name := x.text(callee)
		if x.macros[name] || IsMacroName(name) {
			x.facts.Macros++
			return
		}
		e = &lang.Expr{Kind: lang.ExprIdent, Name: name}
	case "field_expression":
		// s->f() or s.f(): a function pointer held in a field; the
		// receiver is left untyped so that no edge is guessed.
		f := callee.ChildByFieldName("field")
		if f == nil {
			return
		}
		e = &lang.Expr{Kind: lang.ExprMember, Name: x.text(f), X: &lang.Expr{Kind: lang.ExprUnknown}}
	default:
		// (*fp)(), table[i](), f()(): through a pointer.
		e = &lang.Expr{Kind: lang.ExprUnknown}
	}
	n := 0
	if args != nil {
		n = int(args.NamedChildCount())
		for i := uint(0); i < args.NamedChildCount(); i++ {
			if args.NamedChild(i).Kind() == "comment" {
				n--
			}
		}
	}
	pos := uint32(call.StartByte())
	scope := x.scopes.CallScope(pos)
	if scope < 0 {
		// C has no calls outside functions: this one is in a function
		// the grammar could not read (one written by a macro, `TEST(x) {`,
		// or whose header a macro broke), and its caller is unknown.
		return
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{
		Scope: scope, Callee: e, Args: n, Line: lang.Line(callee), Byte: pos,
	})
}
