package scala

import (
	"strconv"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// addType reads a class, trait, object or enum and its members; it
// returns the type's index, -1 when it has no name.
func (x *extraction) addType(n *ts.Node, owner int) int {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return -1
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	kind := graph.KindClass
	switch n.Kind() {
	case "trait_definition":
		kind = graph.KindInterface
	case "enum_definition":
		kind = graph.KindEnum
	}
	isTrait := kind == graph.KindInterface
	s := lang.Symbol{Kind: kind, Name: name, Qual: x.qualOf(owner, name), Parent: owner, Span: lang.SpanOf(n),
		Signature: x.signature(n), Doc: x.doc(n), Exported: !words["private"] && !words["protected"],
		Abstract: words["abstract"] || words["sealed"] || isTrait, Content: lang.Content(x.src, lang.SpanOf(n))}
	ext := n.ChildByFieldName("extend")
	if ext != nil {
		for i, t := range lang.ChildrenByField(ext, "type") {
			k := lang.BaseImplements
			if i == 0 || isTrait {
				k = lang.BaseExtends
			}
			s.Bases = append(s.Bases, lang.Base{Type: typeText(x, t), Kind: k})
		}
	}
	params := primaryParams(n)
	if words["implicit"] && n.Kind() == "class_definition" && params != nil {
		// Scala 2 implicit class: its methods extend the parameter's type.
		if ps := childrenByKind(params, "class_parameter"); len(ps) == 1 {
			s.Receiver = typeText(x, ps[0].ChildByFieldName("type"))
		}
	}
	idx := x.add(s)
	if n.Kind() == "class_definition" || (n.Kind() == "enum_definition" && params != nil) {
		x.addPrimaryConstructor(n, params, idx, name, hasToken(n, "case"))
	}
	if ext != nil && !x.symbolsOnly && !isTrait {
		x.superConstructorCall(ext)
		for _, a := range lang.ChildrenByField(ext, "arguments") {
			x.code(a)
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		x.declarations(body, idx, n.Kind() == "object_definition")
	}
	return idx
}

// superConstructorCall records the call of the superclass's constructor
// that `extends B(args)` makes, also without arguments (`extends B`: the
// rules drop it when B is a trait).
func (x *extraction) superConstructorCall(ext *ts.Node) {
	types := lang.ChildrenByField(ext, "type")
	argLists := lang.ChildrenByField(ext, "arguments")
	if len(types) == 0 {
		return
	}
	args := []*lang.Expr{}
	if len(argLists) > 0 && argLists[0].StartByte() < endOf(types, 1, ext) {
		args = x.arguments(argLists[0])
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(ext.StartByte()),
		Callee: &lang.Expr{Kind: lang.ExprNew, Name: typeText(x, types[0])},
		Args:   len(args), ArgExprs: args, Line: lang.Line(ext), Byte: uint32(ext.StartByte())})
}

// endOf is the start of types[i], or the end of n when there is none.
func endOf(types []*ts.Node, i int, n *ts.Node) uint {
	if i < len(types) {
		return types[i].StartByte()
	}
	return n.EndByte()
}

// primaryParams is the first parameter list of a class that is not
// `implicit`/`using`, nil when it has none.
func primaryParams(n *ts.Node) *ts.Node {
	for _, ps := range lang.ChildrenByField(n, "class_parameters") {
		if !hasToken(ps, "implicit") && !hasToken(ps, "using") {
			return ps
		}
	}
	return nil
}

// addPrimaryConstructor adds the constructor of a class header and the
// properties its parameters declare (all of them for a case class).
func (x *extraction) addPrimaryConstructor(n, params *ts.Node, owner int, class string, caseClass bool) {
	span := lang.SpanOf(n.ChildByFieldName("name"))
	sig := class + "()"
	if params != nil {
		span = lang.SpanOf(params)
		sig = class + lang.OneLine(x.text(params))
	}
	exported := true
	if m := lang.FirstNamed(n, "access_modifier"); m != nil {
		exported = false
	}
	ctor := lang.Symbol{Kind: graph.KindConstructor, Name: class, Qual: x.qualOf(owner, class), Parent: owner,
		Span: span, Signature: sig, Exported: exported}
	var props []lang.Symbol
	if params != nil {
		for _, p := range childrenByKind(params, "class_parameter") {
			name := p.ChildByFieldName("name")
			if name == nil {
				continue
			}
			typ := typeText(x, p.ChildByFieldName("type"))
			prm := lang.Param{Name: x.text(name), Type: typ, Optional: p.ChildByFieldName("default_value") != nil}
			if t := p.ChildByFieldName("type"); t != nil && t.Kind() == "repeated_parameter_type" {
				prm.Variadic = true
			}
			ctor.Params = append(ctor.Params, prm)
			if !caseClass && !hasToken(p, "val") && !hasToken(p, "var") {
				// A plain class parameter is a name of the whole class body.
				if !x.symbolsOnly {
					x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: owner, Name: x.text(name), Type: typ,
						Byte: uint32(n.StartByte()), End: uint32(n.EndByte())})
				}
			} else {
				words := x.modifierWords(p)
				props = append(props, lang.Symbol{Kind: graph.KindProperty, Name: x.text(name),
					Qual: x.qualOf(owner, x.text(name)), Parent: owner, Span: lang.SpanOf(p),
					Signature: lang.OneLine(x.text(p)), Exported: !words["private"] && !words["protected"], Type: typ})
			}
		}
	}
	x.add(ctor)
	for _, p := range props {
		x.add(p)
	}
}

// firstOfCompound is the first type of `A with B`, else t.
func firstOfCompound(t *ts.Node) *ts.Node {
	if t.Kind() == "compound_type" && t.NamedChildCount() > 0 {
		return t.NamedChild(0)
	}
	return t
}

// addAnonymous adds the anonymous class of `new T(args) { ... }`: a Class
// named after the enclosing type and a number (`Outer$1`, Qual
// "Outer.$1"), whose bases are the types written, and its members.
func (x *extraction) addAnonymous(n, body *ts.Node) {
	parent := x.callScope(body.StartByte())
	encl := parent
	for encl >= 0 && !x.facts.Symbols[encl].Kind.IsType() {
		encl = x.facts.Symbols[encl].Parent
	}
	x.anonCount[encl]++
	num := strconv.Itoa(x.anonCount[encl])
	name, qual := "$"+num, "$"+num
	if encl >= 0 {
		name = x.facts.Symbols[encl].Name + "$" + num
		qual = x.facts.Symbols[encl].Qual + ".$" + num
	}
	s := lang.Symbol{Kind: graph.KindClass, Name: name, Qual: qual, Parent: parent, Span: lang.SpanOf(body),
		Signature: lang.OneLine(string(x.src[n.StartByte():body.StartByte()])), Content: lang.Content(x.src, lang.SpanOf(body))}
	if t := instanceType(n); t != nil {
		types := []*ts.Node{t}
		if t.Kind() == "compound_type" {
			types = childrenByKind(t, "type_identifier", "generic_type", "stable_type_identifier")
		}
		for i, bt := range types {
			k := lang.BaseExtends
			if i > 0 {
				k = lang.BaseImplements
			}
			s.Bases = append(s.Bases, lang.Base{Type: typeText(x, bt), Kind: k})
		}
	}
	idx := x.add(s)
	x.declarations(body, idx, false)
}

// instanceType is the type a `new` constructs.
func instanceType(n *ts.Node) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); isTypeNode(c) {
			return c
		}
	}
	return nil
}
