package typescript

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// isFunctionValue reports function expressions and arrow functions.
func isFunctionValue(n *ts.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "arrow_function", "function_expression", "generator_function", "function":
		return true
	}
	return false
}

// unwrap strips parentheses and TS assertions that do not change what a
// declarator holds: `(x)`, `x as T`, `x satisfies T`, `x!`.
func unwrap(n *ts.Node) *ts.Node {
	for n != nil {
		switch n.Kind() {
		case "parenthesized_expression", "satisfies_expression", "non_null_expression":
			if n.NamedChildCount() == 0 {
				return n
			}
			n = n.NamedChild(0)
		default:
			return n
		}
	}
	return n
}

// callableParent returns the symbol a declaration at pos nests under: the
// innermost enclosing callable, or -1 at file level. ok is false inside a
// class body outside any method (static blocks, field initializers), where
// a declaration is not a member of the class.
func (x *extraction) callableParent(pos uint32) (int, bool) {
	i := x.container(pos)
	for i >= 0 {
		k := x.facts.Symbols[i].Kind
		if k.IsCallable() {
			return i, true
		}
		if k.IsType() {
			return -1, false
		}
		i = x.facts.Symbols[i].Parent
	}
	return -1, true
}

// addFunctionDecl adds a Function for a function or generator
// declaration, at file level or nested in a callable.
func (x *extraction) addFunctionDecl(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	parent, ok := x.callableParent(uint32(n.StartByte()))
	if !ok {
		return
	}
	stmt := statement(n)
	sp := lang.SpanOf(stmt)
	s := lang.Symbol{
		Kind: graph.KindFunction, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
		Signature: x.header(stmt, n.ChildByFieldName("body")),
		Doc:       x.doc(stmt), Exported: parent < 0 && exported(n),
		Content: x.content(sp), Abstract: x.dts,
	}
	x.fillCallable(&s, n)
	x.symAt[n.Id()] = x.add(s)
}

// fillCallable reads parameters, declared results and, without a declared
// result, the first returned expression of a function-like node.
func (x *extraction) fillCallable(s *lang.Symbol, fn *ts.Node) {
	s.TypeParams = x.typeParams(fn)
	if p := fn.ChildByFieldName("parameter"); p != nil {
		s.Params = []lang.Param{{Name: x.text(p)}}
	} else {
		s.Params = x.params(fn.ChildByFieldName("parameters"))
	}
	if x.symbolsOnly {
		return
	}
	if t := x.typeText(fn.ChildByFieldName("return_type")); t != "" {
		s.Returns = []string{t}
	} else if !hasToken(fn, "*") && fn.Kind() != "generator_function" && fn.Kind() != "generator_function_declaration" {
		s.Value = x.returnedValue(fn)
	}
}

// addFunctionSignature keeps a body-less function declaration (an ambient
// `declare function` or a .d.ts export) unless it is an overload signature
// followed by its implementation; of a run of overloads, one node is kept.
func (x *extraction) addFunctionSignature(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	parent, ok := x.callableParent(uint32(n.StartByte()))
	if !ok {
		return
	}
	stmt := statement(n)
	if x.implementationFollows(stmt, name) {
		return
	}
	qual := x.qualify(parent, n, name)
	if x.signatures == nil {
		x.signatures = map[sigKey]bool{}
	}
	if k := (sigKey{parent, qual}); x.signatures[k] {
		return
	} else {
		x.signatures[k] = true
	}
	sp := lang.SpanOf(stmt)
	s := lang.Symbol{
		Kind: graph.KindFunction, Name: name, Qual: qual, Parent: parent, Span: sp,
		Signature: x.header(stmt, nil), Doc: x.doc(stmt), Exported: parent < 0 && exported(n),
		Content: x.content(sp), Abstract: true,
	}
	x.fillCallable(&s, n)
	x.symAt[n.Id()] = x.add(s)
}

// implementationFollows reports whether the overload signatures starting at
// stmt are followed by a function declaration of the same name.
func (x *extraction) implementationFollows(stmt *ts.Node, name string) bool {
	for sib := stmt.NextNamedSibling(); sib != nil; sib = sib.NextNamedSibling() {
		d := sib
		if d.Kind() == "comment" {
			continue
		}
		if d.Kind() == "export_statement" {
			if d = d.ChildByFieldName("declaration"); d == nil {
				return false
			}
		}
		if x.text(d.ChildByFieldName("name")) != name {
			return false
		}
		switch d.Kind() {
		case "function_signature":
			continue
		case "function_declaration", "generator_function_declaration":
			return true
		}
		return false
	}
	return false
}

// addDeclarator handles `const/let/var` declarators: a function or class
// value makes a Function or Class node named after the variable (at any
// depth); other declarators at module level make Variables and Consts.
// Local variables are bindings (uses.go); require() and import() results
// are imports (modules.go).
func (x *extraction) addDeclarator(n *ts.Node) {
	nameNode := n.ChildByFieldName("name")
	value := unwrap(n.ChildByFieldName("value"))
	if nameNode == nil {
		return
	}
	parent, ok := x.callableParent(uint32(n.StartByte()))
	named := nameNode.Kind() == "identifier" && value != nil
	if (!ok || parent >= 0) && !(named && (isFunctionValue(value) || value.Kind() == "class")) {
		return // a local, most declarators: looking further up the tree is slow
	}
	if isImportValue(x, value) {
		return
	}
	decl := n.Parent()
	if decl == nil {
		return
	}
	spanNode := n
	if decl.NamedChildCount() == 1 {
		spanNode = statement(decl)
	}
	if named {
		name := x.text(nameNode)
		switch {
		case isFunctionValue(value):
			if !ok {
				return
			}
			sp := lang.SpanOf(spanNode)
			s := lang.Symbol{
				Kind: graph.KindFunction, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
				Signature: x.header(spanNode, value.ChildByFieldName("body")),
				Doc:       x.doc(statement(decl)), Exported: parent < 0 && exported(n),
				Content: x.content(sp), Abstract: x.dts,
			}
			x.fillCallable(&s, value)
			idx := x.add(s)
			x.symAt[n.Id()] = idx
			x.symAt[value.Id()] = idx
			return
		case value.Kind() == "class":
			if idx := x.addClass(value, name, spanNode, exported(n)); idx >= 0 {
				x.symAt[n.Id()] = idx
			}
			return
		}
	}
	if !ok || parent >= 0 || !x.moduleLevel(decl) {
		return
	}
	isConst := decl.Kind() == "lexical_declaration" && hasToken(decl, "const")
	word := "var "
	if decl.Kind() == "lexical_declaration" {
		word = "let "
		if isConst {
			word = "const "
		}
	}
	typ := x.typeText(n.ChildByFieldName("type"))
	sp := lang.SpanOf(spanNode)
	doc := x.doc(statement(decl))
	sig := word + strings.TrimSuffix(x.oneLine(n), ";")
	sig = lang.Cap(sig, 200)
	for _, d := range x.patternNames(nameNode, typ, value) {
		s := lang.Symbol{
			Kind: symbolKindOfDeclarator(isConst, d.name), Name: d.name, Qual: x.qualify(-1, n, d.name),
			Parent: -1, Span: sp, Signature: sig, Doc: doc, Exported: exported(n),
			Type: d.typ, Value: d.value, Content: x.content(sp),
		}
		if s.Type != "" {
			s.Value = nil
		}
		x.symAt[n.Id()] = x.add(s)
	}
}

// moduleLevel reports whether a declaration statement sits at the top of
// the file or of a namespace body.
func (x *extraction) moduleLevel(decl *ts.Node) bool {
	p := decl.Parent()
	for p != nil && (p.Kind() == "export_statement" || p.Kind() == "ambient_declaration") {
		p = p.Parent()
	}
	if p == nil {
		return false
	}
	switch p.Kind() {
	case "program":
		return true
	case "statement_block":
		gp := p.Parent()
		return gp != nil && (gp.Kind() == "internal_module" || gp.Kind() == "module")
	}
	return false
}

// boundName is one name bound by a declarator or parameter pattern, with
// the type or value it receives.
type boundName struct {
	name  string
	typ   string
	value *lang.Expr
}

// patternNames lists the names a pattern binds: an identifier gets the
// declared type or the value; `{a, b: c}` gets members of the value (or of
// the declared type); `[a, b]` gets elements; nested patterns and rest
// elements get nothing known.
func (x *extraction) patternNames(pat *ts.Node, typ string, value *ts.Node) []boundName {
	var src *lang.Expr
	switch {
	case typ != "":
		src = &lang.Expr{Kind: lang.ExprTypeAssert, Name: typ}
	case value != nil:
		src = x.expr(value, 0)
	}
	switch pat.Kind() {
	case "identifier":
		if typ != "" {
			return []boundName{{name: x.text(pat), typ: typ}}
		}
		return []boundName{{name: x.text(pat), value: src}}
	case "object_pattern":
		var out []boundName
		for i := uint(0); i < pat.NamedChildCount(); i++ {
			c := pat.NamedChild(i)
			switch c.Kind() {
			case "shorthand_property_identifier_pattern":
				out = append(out, boundName{name: x.text(c), value: member(src, x.text(c))})
			case "object_assignment_pattern":
				if l := c.ChildByFieldName("left"); l != nil && l.Kind() == "shorthand_property_identifier_pattern" {
					out = append(out, boundName{name: x.text(l), value: member(src, x.text(l))})
				}
			case "pair_pattern":
				key := x.memberName(c.ChildByFieldName("key"))
				v := c.ChildByFieldName("value")
				if v != nil && v.Kind() == "assignment_pattern" {
					v = v.ChildByFieldName("left")
				}
				if v != nil && v.Kind() == "identifier" {
					out = append(out, boundName{name: x.text(v), value: member(src, key)})
				} else if v != nil {
					out = append(out, x.patternNames(v, "", nil)...)
				}
			case "rest_pattern":
				out = append(out, x.patternNames(c, "", nil)...)
			}
		}
		return out
	case "array_pattern":
		var out []boundName
		for i := uint(0); i < pat.NamedChildCount(); i++ {
			c := pat.NamedChild(i)
			if c.Kind() == "assignment_pattern" {
				c = c.ChildByFieldName("left")
			}
			if c == nil {
				continue
			}
			if c.Kind() == "identifier" && src != nil {
				out = append(out, boundName{name: x.text(c), value: &lang.Expr{Kind: lang.ExprIndex, X: src}})
			} else {
				out = append(out, x.patternNames(c, "", nil)...)
			}
		}
		return out
	case "rest_pattern", "assignment_pattern":
		for i := uint(0); i < pat.NamedChildCount(); i++ {
			if c := pat.NamedChild(i); c.Kind() == "identifier" {
				return []boundName{{name: x.text(c)}}
			}
		}
	}
	return nil
}

// member is x.name, nil when x says nothing.
func member(x *lang.Expr, name string) *lang.Expr {
	if x == nil || x.Kind == lang.ExprUnknown {
		return nil
	}
	return &lang.Expr{Kind: lang.ExprMember, Name: name, X: x}
}
