package c

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// References to file-scope variables and constants: every name used as
// a value inside a function, once per function, written when it is the
// target of an assignment or of ++/--. The resolver keeps those that name
// a Variable or Const (locals and parameters hide them).

// declaratorParents are the node kinds under which an identifier is the
// name being declared, not a use.
var declaratorParents = map[string]bool{
	"init_declarator": true, "declaration": true, "pointer_declarator": true, "array_declarator": true,
	"function_declarator": true, "parameter_declaration": true, "parenthesized_declarator": true,
	"attributed_declarator": true, "preproc_def": true, "preproc_function_def": true, "preproc_params": true,
	"preproc_ifdef": true, "preproc_defined": true, "labeled_statement": true, "goto_statement": true,
	"enumerator": true, "field_designator": true, "type_definition": true,
}

type refKey struct {
	scope int
	name  string
	write bool
}

func (x *extraction) addRef(n *ts.Node, seen map[refKey]bool) {
	p := n.Parent()
	if p == nil || declaratorParents[p.Kind()] {
		return
	}
	if p.Kind() == "call_expression" {
		if f := p.ChildByFieldName("function"); f != nil && f.Id() == n.Id() {
			return // a call, not a read
		}
	}
	scope := x.scopes.CallScope(uint32(n.StartByte()))
	if scope < 0 {
		return
	}
	write := IsWrite(n, p)
	k := refKey{scope, x.text(n), write}
	if seen[k] {
		return
	}
	seen[k] = true
	x.facts.Refs = append(x.facts.Refs, lang.Ref{
		Scope: scope, Expr: &lang.Expr{Kind: lang.ExprIdent, Name: k.name}, Line: lang.Line(n), Write: write,
	})
}
