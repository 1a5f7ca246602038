package kotlin

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Kotlin types a name anew where a check proves its type: inside the
// branch of `when (x) { is T -> ... }` or of `if (x is T) ...`, x is a T
// (a smart cast). The extractor records such a name as a binding of type
// T over the branch; a negated check (`!is`), several conditions in one
// entry and conjunctions are left alone. The scope functions `let` and
// `also` pass their receiver to the lambda as `it` (or its one named
// parameter): a binding over the lambda. `x.apply { }`, `x.run { }` and
// `with(x) { }` make x the lambda's receiver: a name the lambda calls is
// first looked up on x.

// addSmartCasts records the bindings a `when` or an `if` at n proves.
func (x *extraction) addSmartCasts(n *ts.Node) {
	switch n.Kind() {
	case "when_expression":
		subj := lang.FirstNamed(n, "when_subject")
		var name string
		if subj != nil && subj.NamedChildCount() == 1 && subj.NamedChild(0).Kind() == "identifier" {
			name = x.text(subj.NamedChild(0))
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			entry := n.NamedChild(i)
			if entry.Kind() != "when_entry" {
				continue
			}
			conds := lang.ChildrenByField(entry, "condition")
			if len(conds) != 1 {
				continue
			}
			c := conds[0]
			switch {
			case c.Kind() == "type_test" && name != "" && !hasToken(c, "!is"):
				x.castOver(entry, name, typeChild(c))
			case c.Kind() == "is_expression":
				x.castIs(c, entry)
			}
		}
	case "if_expression":
		cond := n.ChildByFieldName("condition")
		if cond == nil || cond.Kind() != "is_expression" {
			return
		}
		// The branch taken when the check holds: the first part after
		// the condition.
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if c := n.NamedChild(i); c.StartByte() > cond.EndByte() {
				x.castIs(cond, c)
				return
			}
		}
	}
}

// castIs records `x is T` (not `!is`) as x of type T over body.
func (x *extraction) castIs(check, body *ts.Node) {
	left, right := check.ChildByFieldName("left"), check.ChildByFieldName("right")
	if left == nil || left.Kind() != "identifier" || hasToken(check, "!is") {
		return
	}
	x.castOver(body, x.text(left), right)
}

// castOver records name as a value of the written type t within body.
func (x *extraction) castOver(body *ts.Node, name string, t *ts.Node) {
	typ := x.typeText(t)
	if typ == "" {
		return
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(body), Name: name, Type: typ,
		Byte: uint32(body.StartByte()), End: uint32(body.EndByte())})
}

// receiverBinding names the binding of a lambda's receiver: `x.apply
// { f() }`, `x.run { f() }` and `with(x) { f() }` run f on x when x has
// it (rules.Lookup reads these bindings). No Kotlin name is spelled so.
const receiverBinding = "this"

// addScopeLambda records the `it` of `x.let { ... }` and `x.also { ... }`
// (or the lambda's one named parameter) as bound to x, and the receiver
// of `x.apply { }`, `x.run { }` and `with(x) { }`.
func (x *extraction) addScopeLambda(call *ts.Node) {
	if call.NamedChildCount() == 2 && call.NamedChild(0).Kind() == "identifier" &&
		x.text(call.NamedChild(0)) == "with" && call.NamedChild(1).Kind() == "value_arguments" {
		// `with(x) { }`, read by the grammar as (with(x)) { }.
		if al := trailingLambdaOf(call); al != nil {
			if args := x.arguments(call.NamedChild(1)); len(args) == 1 && args[0] != nil {
				x.bindReceiver(al, args[0])
			}
		}
		return
	}
	if call.NamedChildCount() != 2 {
		return
	}
	nav, al := call.NamedChild(0), call.NamedChild(1)
	if nav.Kind() != "navigation_expression" || al.Kind() != "annotated_lambda" || nav.NamedChildCount() != 2 {
		return
	}
	fn := x.text(nav.NamedChild(1))
	x.addElementLambda(nav, al)
	if fn == "apply" || fn == "run" {
		if recv := x.expr(nav.NamedChild(0)); recv != nil {
			x.bindReceiver(al, recv)
		}
		return
	}
	if fn != "let" && fn != "also" {
		return
	}
	lambda := lang.FirstNamed(al, "lambda_literal")
	recv := x.expr(nav.NamedChild(0))
	if lambda == nil || recv == nil {
		return
	}
	name := "it"
	if ps := lang.FirstNamed(lambda, "lambda_parameters"); ps != nil {
		if ps.NamedChildCount() != 1 || ps.NamedChild(0).Kind() != "variable_declaration" {
			return
		}
		id := lang.FirstNamed(ps.NamedChild(0), "identifier")
		if id == nil || typeChild(ps.NamedChild(0)) != nil {
			return
		}
		name = x.text(id)
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(lambda), Name: name, Value: recv,
		Byte: uint32(lambda.StartByte()), End: uint32(lambda.EndByte())})
}

// bindReceiver records recv as the receiver of the lambda of al.
func (x *extraction) bindReceiver(al *ts.Node, recv *lang.Expr) {
	lambda := lang.FirstNamed(al, "lambda_literal")
	if lambda == nil {
		return
	}
	x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: x.callScope(lambda), Name: receiverBinding,
		Value: recv, Byte: uint32(lambda.StartByte()), End: uint32(lambda.EndByte())})
}
