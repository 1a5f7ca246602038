package php

import (
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// extraction is the state of reading one file: the tree is walked once in
// document order, so that namespaces and `use` statements are known when
// the names after them are read.
type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	names  *nameTable
	// class is the fully qualified name of the innermost class being read
	// (for self and static), parent that of its parent class.
	class, parent string
	// inBody: code being read is in a function body; deferred are the
	// declarations met there, read after it.
	inBody   bool
	deferred []*ts.Node
	// symbolsOnly: record symbols only (ExtractSymbols).
	symbolsOnly bool
	// refs are the references recorded, once per scope (refs.go).
	refs map[refKey]bool
	// anon counts the anonymous classes the code being read is in.
	anon int
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// statements reads the children of n, a statement list; parent is the
// enclosing symbol.
func (x *extraction) statements(n *ts.Node, parent int) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.statement(n.NamedChild(i), parent)
	}
}

// statement reads one node: a declaration, or code whose calls and
// bindings it records.
func (x *extraction) statement(n *ts.Node, parent int) {
	switch n.Kind() {
	case "namespace_definition":
		ns := ""
		if name := n.ChildByFieldName("name"); name != nil {
			ns, _ = dotted(x.text(name))
		}
		x.names.enter(ns)
		if x.facts.Package == "" {
			x.facts.Package = ns
		}
		if body := n.ChildByFieldName("body"); body != nil {
			x.statements(body, parent)
			x.names.enter("")
		}
	case "namespace_use_declaration":
		x.addUse(n)
	case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		x.addType(n, parent)
	case "function_definition":
		x.addFunction(n, parent)
	case "const_declaration":
		x.addConsts(n, parent)
	case "comment", "text", "php_tag", "text_interpolation":
	default:
		x.code(n)
	}
}

// kindOf is the node kind of a type declaration.
var kindOf = map[string]graph.NodeKind{
	"class_declaration":     graph.KindClass,
	"interface_declaration": graph.KindInterface,
	"trait_declaration":     graph.KindClass,
	"enum_declaration":      graph.KindEnum,
}

func (x *extraction) qualOf(parent int, name string) string { return x.facts.QualIn(parent, name) }

// addType reads a class, interface, trait or enum and its members.
func (x *extraction) addType(n *ts.Node, parent int) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	s := lang.Symbol{Kind: kindOf[n.Kind()], Name: name, Qual: x.qualOf(parent, name), Parent: parent,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: true}
	if n.Kind() == "trait_declaration" {
		s.Decorators = []string{"trait"}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "abstract_modifier":
			s.Abstract = true
		case "base_clause", "class_interface_clause":
			kind := lang.BaseExtends
			if c.Kind() == "class_interface_clause" || (n.Kind() == "enum_declaration") {
				kind = lang.BaseImplements
			}
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if t := x.names.class(x.text(c.NamedChild(j))); t != "" {
					s.Bases = append(s.Bases, lang.Base{Type: t, Kind: kind})
				}
			}
		}
	}
	outerClass, outerParent := x.class, x.parent
	x.class = qualify(x.names.namespace, name)
	x.parent = ""
	for _, b := range s.Bases {
		if b.Kind == lang.BaseExtends && n.Kind() == "class_declaration" {
			x.parent = b.Type
		}
	}
	body := n.ChildByFieldName("body")
	if body != nil {
		// Trait uses are bases too; they are read before the symbol is added.
		for i := uint(0); i < body.NamedChildCount(); i++ {
			if c := body.NamedChild(i); c.Kind() == "use_declaration" {
				for j := uint(0); j < c.NamedChildCount(); j++ {
					if u := c.NamedChild(j); u.Kind() == "name" || u.Kind() == "qualified_name" {
						if t := x.names.class(x.text(u)); t != "" {
							s.Bases = append(s.Bases, lang.Base{Type: t, Kind: lang.BaseEmbedded})
						}
					}
				}
			}
		}
	}
	// Traits first: their methods are the class's own, found before the
	// parent's and the interfaces' (rules.Features, LinearMRO).
	sort.SliceStable(s.Bases, func(i, j int) bool { return baseOrder[s.Bases[i].Kind] < baseOrder[s.Bases[j].Kind] })
	idx := x.add(s)
	if body != nil {
		x.members(body, idx, n.Kind() == "interface_declaration")
	}
	x.class, x.parent = outerClass, outerParent
}

// baseOrder orders a type's bases for member lookup: used traits, the
// parent class, then interfaces.
var baseOrder = map[lang.BaseKind]int{lang.BaseEmbedded: 0, lang.BaseExtends: 1, lang.BaseImplements: 2}

// members reads the body of a type.
func (x *extraction) members(body *ts.Node, owner int, iface bool) {
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		switch c.Kind() {
		case "method_declaration":
			x.addMethod(c, owner, iface)
		case "property_declaration":
			x.addProperties(c, owner)
		case "const_declaration":
			x.addConsts(c, owner)
		case "enum_case":
			if name := c.ChildByFieldName("name"); name != nil {
				x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
					Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(c)), Exported: true, Static: true})
			}
		}
	}
}

// modifiers reads visibility, static and abstract off a declaration.
func (x *extraction) modifiers(n *ts.Node) (exported, static, abstract bool) {
	exported = true
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "visibility_modifier":
			exported = x.text(c) == "public"
		case "static_modifier":
			static = true
		case "abstract_modifier":
			abstract = true
		}
	}
	return
}

func (x *extraction) addMethod(n *ts.Node, owner int, iface bool) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	exported, static, abstract := x.modifiers(n)
	body := n.ChildByFieldName("body")
	kind := graph.KindMethod
	if strings.EqualFold(name, "__construct") {
		kind = graph.KindConstructor
	}
	s := lang.Symbol{Kind: kind, Name: name, Qual: x.qualOf(owner, name), Parent: owner, Span: lang.SpanOf(n),
		Signature: x.signature(n), Doc: x.doc(n), Exported: exported, Static: static,
		Abstract: abstract || (iface && body == nil)}
	s.Params, s.Returns = x.parameters(n)
	x.typeFromDoc(n, &s)
	x.add(s)
	// The body is read before the promoted properties are added: a call
	// in it belongs to the constructor, and the scope finder takes the
	// last symbol that starts before a position.
	if body != nil {
		x.body(body)
	}
	if kind == graph.KindConstructor {
		x.promoted(n, owner)
	}
}

func (x *extraction) addFunction(n *ts.Node, parent int) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	s := lang.Symbol{Kind: graph.KindFunction, Name: name, Qual: x.qualOf(parent, name), Parent: parent,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: true}
	s.Params, s.Returns = x.parameters(n)
	x.typeFromDoc(n, &s)
	x.add(s)
	if body := n.ChildByFieldName("body"); body != nil {
		x.body(body)
	}
}

// parameters reads the parameters (named with their `$`) and the return
// type of a function or method.
func (x *extraction) parameters(n *ts.Node) ([]lang.Param, []string) {
	var params []lang.Param
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			switch p.Kind() {
			case "simple_parameter", "property_promotion_parameter", "variadic_parameter":
			default:
				continue
			}
			name := p.ChildByFieldName("name")
			if name == nil {
				continue
			}
			prm := lang.Param{Name: x.text(name), Type: x.typeName(p.ChildByFieldName("type")),
				Variadic: p.Kind() == "variadic_parameter", Optional: p.ChildByFieldName("default_value") != nil}
			params = append(params, prm)
		}
	}
	var returns []string
	if t := x.typeName(n.ChildByFieldName("return_type")); t != "" {
		returns = []string{t}
	}
	return params, returns
}

// typeFromDoc fills the parameter and return types the declaration does
// not write from its doc comment.
func (x *extraction) typeFromDoc(n *ts.Node, s *lang.Symbol) {
	d := x.docTypesOf(n)
	for i := range s.Params {
		if s.Params[i].Type == "" && d.params[s.Params[i].Name] != "" {
			s.Params[i].Type = d.params[s.Params[i].Name]
		}
	}
	if len(s.Returns) == 0 && n.ChildByFieldName("return_type") == nil && d.returns != "" {
		s.Returns = []string{d.returns}
	}
}

// promoted adds the properties a constructor declares with visibility on
// its parameters.
func (x *extraction) promoted(ctor *ts.Node, owner int) {
	ps := ctor.ChildByFieldName("parameters")
	if ps == nil || owner < 0 {
		return
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if p.Kind() != "property_promotion_parameter" {
			continue
		}
		name := p.ChildByFieldName("name")
		if name == nil {
			continue
		}
		prop := strings.TrimPrefix(x.text(name), "$")
		exported, static, _ := x.modifiers(p)
		if v := p.ChildByFieldName("visibility"); v != nil {
			exported = x.text(v) == "public"
		}
		x.add(lang.Symbol{Kind: graph.KindProperty, Name: prop, Qual: x.qualOf(owner, prop), Parent: owner,
			Span: lang.SpanOf(p), Signature: lang.OneLine(x.text(p)), Exported: exported, Static: static,
			Type: x.typeName(p.ChildByFieldName("type"))})
	}
}

func (x *extraction) addProperties(n *ts.Node, owner int) {
	exported, static, _ := x.modifiers(n)
	typ := x.typeName(n.ChildByFieldName("type"))
	if typ == "" && n.ChildByFieldName("type") == nil {
		typ = x.docTypesOf(n).varType
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		el := n.NamedChild(i)
		if el.Kind() != "property_element" {
			continue
		}
		name := el.ChildByFieldName("name")
		if name == nil {
			continue
		}
		prop := strings.TrimPrefix(x.text(name), "$")
		s := lang.Symbol{Kind: graph.KindProperty, Name: prop, Qual: x.qualOf(owner, prop), Parent: owner,
			Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n), Exported: exported,
			Static: static, Type: typ}
		if v := el.ChildByFieldName("default_value"); v != nil {
			s.Value = x.expr(v)
			x.code(v)
		}
		x.add(s)
	}
}

// addConsts reads `const A = 1, B = 2;` in a type or at file level.
func (x *extraction) addConsts(n *ts.Node, owner int) {
	exported, _, _ := x.modifiers(n)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		el := n.NamedChild(i)
		if el.Kind() != "const_element" {
			continue
		}
		var name *ts.Node
		for j := uint(0); j < el.NamedChildCount(); j++ {
			if c := el.NamedChild(j); c.Kind() == "name" {
				name = c
				break
			}
		}
		if name == nil {
			continue
		}
		x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
			Parent: owner, Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n),
			Exported: exported, Static: true})
	}
}

// typeName reads a declared type as a fully qualified dotted class name;
// "" for builtin types and unions of several classes. `?T` is T.
func (x *extraction) typeName(n *ts.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "optional_type":
		if n.NamedChildCount() > 0 {
			return x.typeName(n.NamedChild(0))
		}
	case "named_type":
		if n.NamedChildCount() > 0 {
			return x.className(x.text(n.NamedChild(0)))
		}
	case "union_type":
		// `C|null` is C; a union of several classes is no one class.
		found := ""
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "primitive_type" {
				continue
			}
			t := x.typeName(c)
			if t == "" || found != "" {
				return ""
			}
			found = t
		}
		return found
	case "name", "qualified_name":
		return x.className(x.text(n))
	}
	return ""
}

// className resolves a class name as written, self and static included
// (not inside an anonymous class, which has no node).
func (x *extraction) className(written string) string {
	switch strings.ToLower(strings.TrimSpace(written)) {
	case "self", "static":
		if x.anon > 0 {
			return ""
		}
		return x.class
	case "parent":
		if x.anon > 0 {
			return ""
		}
		return x.parent
	}
	return x.names.class(written)
}

// signature is the declaration up to its body, on one line.
func (x *extraction) signature(n *ts.Node) string {
	end := n.EndByte()
	if body := n.ChildByFieldName("body"); body != nil {
		end = body.StartByte()
	}
	return lang.OneLine(strings.TrimSpace(string(x.src[n.StartByte():end])))
}

// doc is the first paragraph of the `/** */` comment above a declaration.
func (x *extraction) doc(n *ts.Node) string { return lang.DocBlock(n, x.src, "comment") }
