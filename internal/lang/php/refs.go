package php

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// References to class constants and static properties: `C::X`,
// `self::X`, `static::$count`, `parent::$x`, once per enclosing symbol,
// written when the target of an assignment. Global constants are not
// followed (a bare name in an expression is left alone).

type refKey struct {
	scope int
	name  string
	write bool
}

// addRef records a class constant access or a static property access.
func (x *extraction) addRef(n *ts.Node) {
	var scope, name *ts.Node
	switch n.Kind() {
	case "class_constant_access_expression":
		if n.NamedChildCount() != 2 {
			return
		}
		scope, name = n.NamedChild(0), n.NamedChild(1)
	case "scoped_property_access_expression":
		scope, name = n.ChildByFieldName("scope"), n.ChildByFieldName("name")
	}
	if scope == nil || name == nil || (name.Kind() != "name" && name.Kind() != "variable_name") {
		return
	}
	member := strings.TrimPrefix(x.text(name), "$")
	if strings.EqualFold(member, "class") {
		return
	}
	recv := x.scopeExpr(scope)
	if scope.Kind() == "relative_scope" && strings.EqualFold(x.text(scope), "static") && x.class != "" && x.anon == 0 {
		// static::X reads the constant of the class where it is written
		// unless a subclass redeclares it: that class's is the reference.
		recv = pathExpr(x.class)
	}
	if recv == nil {
		return
	}
	pos := uint32(n.StartByte())
	at := x.scopes.CallScope(pos)
	if at < 0 {
		return
	}
	write := false
	if p := n.Parent(); p != nil && strings.HasSuffix(p.Kind(), "assignment_expression") {
		if l := p.ChildByFieldName("left"); l != nil && l.Id() == n.Id() {
			write = true
		}
	}
	k := refKey{at, lang.ValidUTF8(x.text(n)), write}
	if x.refs[k] {
		return
	}
	if x.refs == nil {
		x.refs = map[refKey]bool{}
	}
	x.refs[k] = true
	x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: at, Line: lang.Line(n), Write: write,
		Expr: &lang.Expr{Kind: lang.ExprMember, Name: member, X: recv}})
}
