package cpp

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// References to variables and constants at namespace scope and to static
// members: every name (`limit`, `cfg::limit`, `Job::count`) used as a
// value inside a function, once per function, written when it is the
// target of an assignment or of ++/--. The resolver keeps those that name
// a Variable, a Const or a static member (locals and parameters hide
// them).

// declaringParents are the node kinds under which an identifier is the
// name being declared, not a use.
var declaringParents = map[string]bool{
	"init_declarator": true, "declaration": true, "pointer_declarator": true, "reference_declarator": true,
	"array_declarator": true, "function_declarator": true, "parameter_declaration": true,
	"optional_parameter_declaration": true, "variadic_declarator": true, "parenthesized_declarator": true,
	"attributed_declarator": true, "labeled_statement": true, "goto_statement": true, "for_range_loop": true,
	"lambda_capture_specifier": true, "structured_binding_declarator": true, "field_designator": true,
	"preproc_def": true, "preproc_function_def": true, "preproc_params": true, "preproc_defined": true,
	"enumerator": true, "using_declaration": true, "namespace_alias_definition": true,
}

type refKey struct {
	scope int
	name  string
	write bool
}

// addRef records the use of a name (an identifier or a qualified name).
func (x *extraction) addRef(n *ts.Node, e *lang.Expr) {
	p := n.Parent()
	if p == nil || declaringParents[p.Kind()] || e == nil || e.Kind == lang.ExprUnknown {
		return
	}
	if p.Kind() == "call_expression" {
		if f := p.ChildByFieldName("function"); f != nil && f.Id() == n.Id() {
			return // a call, not a read
		}
	}
	scope := x.scopes.CallScope(uint32(n.StartByte()))
	if scope < 0 || !x.facts.Symbols[scope].Kind.IsCallable() {
		return
	}
	write := c.IsWrite(n, p)
	k := refKey{scope, x.text(n), write}
	if x.refs[k] {
		return
	}
	x.refs[k] = true
	x.facts.Refs = append(x.facts.Refs, lang.Ref{Scope: scope, Expr: e, Line: lang.Line(n), Write: write})
}
