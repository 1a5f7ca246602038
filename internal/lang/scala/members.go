package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// addFunction reads a def: a function, a method, an auxiliary constructor
// or, with a receiver, an extension method.
func (x *extraction) addFunction(n *ts.Node, owner int, static bool, receiver string) int {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return -1
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	inType := owner >= 0 && x.facts.Symbols[owner].Kind.IsType()
	body := x.defBody(n)
	span := lang.SpanOf(n)
	if body != nil && n.ChildByFieldName("body") == nil {
		end := lang.SpanOf(body)
		span.EndLine, span.EndByte = end.EndLine, end.EndByte
	}
	s := lang.Symbol{Kind: graph.KindFunction, Name: name, Qual: x.qualOf(owner, name), Parent: owner,
		Span: span, Signature: x.signature(n), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Static: static,
		Content: lang.Content(x.src, span), Receiver: receiver}
	if name == "this" {
		if !inType {
			return -1
		}
		s.Kind, s.Name = graph.KindConstructor, x.facts.Symbols[owner].Name
		s.Qual = x.qualOf(owner, s.Name)
	} else if inType {
		s.Kind = graph.KindMethod
		s.Abstract = body == nil
	}
	var lists []*ts.Node // the grammar puts type parameters under the same field
	var bounds []lang.Param
	for _, l := range lang.ChildrenByField(n, "parameters") {
		switch l.Kind() {
		case "parameters":
			lists = append(lists, l)
		case "type_parameters":
			for _, b := range lang.ChildrenByField(l, "bound") {
				if b.Kind() == "context_bound" {
					bounds = append(bounds, lang.Param{Type: typeText(x, b.ChildByFieldName("type")), Optional: true})
				}
			}
		}
	}
	explicit := false
	var first *ts.Node
	for _, ps := range lists {
		if !hasToken(ps, "implicit") && !hasToken(ps, "using") {
			s.Params, explicit, first = x.parameters(ps), true, ps
			break
		}
	}
	s.Getter = !explicit && s.Kind != graph.KindConstructor
	if !explicit && s.Kind != graph.KindConstructor {
		// Only implicit parameters (a `using` or `implicit` list, context
		// bounds): `p(ctx)` passes them explicitly, `p` alone lets the
		// compiler pass them.
		for _, ps := range lists {
			for _, prm := range x.parameters(ps) {
				prm.Optional = true
				s.Params = append(s.Params, prm)
			}
		}
		s.Params = append(s.Params, bounds...)
	}
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		if t := typeText(x, rt); t != "" {
			s.Returns = []string{t}
		}
	}
	if receiver != "" {
		s.Static = true // chosen by the receiver's static type: no dispatch
		if owner < 0 {
			s.Qual = lastPart(receiver) + "." + name
		}
	}
	if body != nil && len(s.Returns) == 0 && s.Kind != graph.KindConstructor {
		// `def f = C(1)`: the result type is the expression's.
		s.Value = x.expr(resultExpr(body))
	}
	idx := x.add(s)
	if !x.symbolsOnly && s.Kind != graph.KindConstructor {
		// The parameters of the other lists (`def f(p: P)(err: E => S)`,
		// implicit ones) are names of the body too.
		for _, ps := range lists {
			if ps == first && explicit {
				continue
			}
			for _, prm := range x.parameters(ps) {
				x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: idx, Name: prm.Name, Type: prm.Type,
					Byte: uint32(span.StartByte), End: span.EndByte})
			}
		}
	}
	if body != nil {
		x.code(body)
	}
	return idx
}

// resultExpr is the expression a body evaluates to: the last expression
// of a block.
func resultExpr(body *ts.Node) *ts.Node {
	for body != nil && (body.Kind() == "block" || body.Kind() == "indented_block") {
		if body.NamedChildCount() == 0 {
			return nil
		}
		body = body.NamedChild(body.NamedChildCount() - 1)
	}
	return body
}

// lastPart is the simple name of a dotted type without type arguments.
func lastPart(t string) string {
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return t[strings.LastIndexByte(t, '.')+1:]
}

// parameters reads one parameter list.
func (x *extraction) parameters(ps *ts.Node) []lang.Param {
	var out []lang.Param
	for _, p := range childrenByKind(ps, "parameter") {
		name := p.ChildByFieldName("name")
		if name == nil {
			continue
		}
		prm := lang.Param{Name: x.text(name), Optional: p.ChildByFieldName("default_value") != nil}
		if t := p.ChildByFieldName("type"); t != nil {
			prm.Type = typeText(x, t)
			prm.Variadic = t.Kind() == "repeated_parameter_type"
		}
		out = append(out, prm)
	}
	return out
}

// addProperty reads a val or var of a type or of the file.
func (x *extraction) addProperty(n *ts.Node, owner int, static bool) {
	pat := n.ChildByFieldName("pattern")
	if pat == nil {
		pat = n.ChildByFieldName("name") // an abstract val or var
	}
	if pat == nil || pat.Kind() != "identifier" {
		// `val (a, b) = ...`: each name is a property of unknown type.
		if pat != nil && pat.Kind() == "tuple_pattern" {
			for _, id := range childrenByKind(pat, "identifier") {
				words := x.modifierWords(n)
				kind := graph.KindProperty
				if owner < 0 || !x.facts.Symbols[owner].Kind.IsType() {
					kind = graph.KindVariable
				}
				x.add(lang.Symbol{Kind: kind, Name: x.text(id), Qual: x.qualOf(owner, x.text(id)), Parent: owner,
					Span: lang.SpanOf(n), Signature: x.signature(n), Exported: !words["private"] && !words["protected"],
					Static: static || owner < 0})
			}
		}
		if v := n.ChildByFieldName("value"); v != nil {
			x.code(v)
		}
		return
	}
	words := x.modifierWords(n)
	kind := graph.KindProperty
	if owner < 0 || !x.facts.Symbols[owner].Kind.IsType() {
		kind = graph.KindVariable
	}
	s := lang.Symbol{Kind: kind, Name: x.text(pat), Qual: x.qualOf(owner, x.text(pat)), Parent: owner,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Static: static || owner < 0,
		Type: typeText(x, n.ChildByFieldName("type")), Abstract: strings.HasSuffix(n.Kind(), "_declaration")}
	value := n.ChildByFieldName("value")
	if value != nil {
		s.Value = x.expr(value)
	}
	idx := x.add(s)
	if value != nil {
		saved := x.valueOwner
		x.valueOwner = idx
		x.code(value)
		x.valueOwner = saved
	}
}

// addTypeAlias reads `type X = T` (and an abstract `type X`).
func (x *extraction) addTypeAlias(n *ts.Node, owner int) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	words := x.modifierWords(n)
	x.add(lang.Symbol{Kind: graph.KindTypeAlias, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
		Parent: owner, Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Type: typeText(x, n.ChildByFieldName("type"))})
}

// addExtension reads `extension (x: T) def f ...`: each def is an
// extension method of T, in which x is a binding of type T.
func (x *extraction) addExtension(n *ts.Node, owner int) {
	var recvName, recvType string
	for _, ps := range lang.ChildrenByField(n, "parameters") {
		if p := lang.FirstNamed(ps, "parameter"); p != nil && recvType == "" {
			if nm := p.ChildByFieldName("name"); nm != nil {
				recvName, recvType = x.text(nm), typeText(x, p.ChildByFieldName("type"))
			}
		}
	}
	if recvType == "" {
		return
	}
	var defs []*ts.Node
	for _, b := range lang.ChildrenByField(n, "body") {
		if b.Kind() == "template_body" {
			defs = append(defs, childrenByKind(b, "function_definition", "function_declaration")...)
		} else {
			defs = append(defs, b)
		}
	}
	static := owner >= 0
	for _, d := range defs {
		if d.Kind() != "function_definition" && d.Kind() != "function_declaration" {
			continue
		}
		idx := x.addFunction(d, owner, static, recvType)
		if idx >= 0 && !x.symbolsOnly {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: idx, Name: recvName, Type: recvType,
				Byte: uint32(d.StartByte()), End: uint32(d.EndByte())})
		}
	}
}

// addGiven reads a named given as a value of its declared type.
func (x *extraction) addGiven(n *ts.Node, owner int) {
	name := n.ChildByFieldName("name")
	if name != nil {
		kind := graph.KindProperty
		if owner < 0 {
			kind = graph.KindVariable
		}
		words := x.modifierWords(n)
		x.add(lang.Symbol{Kind: kind, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)), Parent: owner,
			Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n),
			Exported: !words["private"] && !words["protected"], Static: true,
			Type: typeText(x, n.ChildByFieldName("return_type"))})
	}
	if body := n.ChildByFieldName("body"); body != nil {
		x.code(body)
	}
}

// addEnumCases reads the cases of a Scala 3 enum as static constants.
func (x *extraction) addEnumCases(n *ts.Node, owner int) {
	if owner < 0 {
		return
	}
	for _, c := range childrenByKind(n, "simple_enum_case", "full_enum_case") {
		name := c.ChildByFieldName("name")
		if name == nil {
			continue
		}
		x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
			Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(c)), Exported: true, Static: true,
			Type: x.facts.Symbols[owner].Qual})
	}
}
