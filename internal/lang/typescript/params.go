package typescript

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// params reads a formal parameter list. TypeScript's `this` parameter is
// not an argument and is left out; destructured parameters have no name.
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	c := list.Walk()
	defer c.Close()
	for _, p := range list.NamedChildren(c) {
		switch p.Kind() {
		case "required_parameter", "optional_parameter":
			pat := p.ChildByFieldName("pattern")
			if pat == nil {
				pat = p.ChildByFieldName("name")
			}
			if pat == nil || pat.Kind() == "this" {
				continue
			}
			prm := lang.Param{
				Type:     x.typeText(p.ChildByFieldName("type")),
				Optional: p.Kind() == "optional_parameter" || p.ChildByFieldName("value") != nil,
			}
			switch pat.Kind() {
			case "identifier":
				prm.Name = x.text(pat)
			case "rest_pattern":
				prm.Variadic = true
				if id := childOfKind(pat, "identifier"); id != nil {
					prm.Name = x.text(id)
				}
			}
			out = append(out, prm)
		case "identifier":
			out = append(out, lang.Param{Name: x.text(&p)})
		case "assignment_pattern":
			prm := lang.Param{Optional: true}
			if l := p.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" {
				prm.Name = x.text(l)
			}
			out = append(out, prm)
		case "rest_pattern":
			prm := lang.Param{Variadic: true}
			if id := childOfKind(&p, "identifier"); id != nil {
				prm.Name = x.text(id)
			}
			out = append(out, prm)
		case "object_pattern", "array_pattern":
			out = append(out, lang.Param{})
		}
	}
	return out
}

// returnedValue is the expression a function returns, for typing the
// results of calls to functions without a declared result type: the body
// of an expression-bodied arrow function, or the first `return x`
// statement outside nested functions and classes.
func (x *extraction) returnedValue(fn *ts.Node) *lang.Expr {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	if body.Kind() != "statement_block" {
		return x.valueExpr(body)
	}
	c := body.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return nil
	}
	for visited := 0; visited < 20000; visited++ {
		n := c.Node()
		if n.Kind() == "return_statement" {
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if v := n.NamedChild(i); v.Kind() != "comment" {
					return x.valueExpr(v)
				}
			}
		} else if !isFunctionOrClass(n) && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() || c.Node().Id() == body.Id() {
				return nil
			}
		}
	}
	return nil
}

// valueExpr is expr for a returned value, nil when it says nothing.
func (x *extraction) valueExpr(n *ts.Node) *lang.Expr {
	e := x.expr(n, 0)
	if e.Kind == lang.ExprUnknown {
		return nil
	}
	return e
}

func isFunctionOrClass(n *ts.Node) bool {
	switch n.Kind() {
	case "arrow_function", "function_expression", "generator_function", "function",
		"function_declaration", "generator_function_declaration", "method_definition",
		"class", "class_declaration", "abstract_class_declaration":
		return true
	}
	return false
}
