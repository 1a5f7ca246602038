package rust

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// The items of a Rust file as symbols (see extract.go for the shapes).

func (x *extraction) addFunction(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	parent := x.parentOf(n)
	body := n.ChildByFieldName("body")
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: graph.KindFunction, Name: name, Parent: parent, Span: sp,
		Signature: x.header(n, body), Doc: x.doc(n), Exported: isPub(n),
		Content:    lang.Content(x.src, sp),
		TypeParams: x.typeParams(n),
	}
	params, hasSelf := x.params(n.ChildByFieldName("parameters"))
	s.Params = params
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		s.Returns = []string{lang.OneLine(x.text(rt))}
	}
	owner := container(n)
	switch {
	case owner != nil && owner.Kind() == "impl_item" && parent >= 0 && x.facts.Symbols[parent].Name == implName:
		impl := &x.facts.Symbols[parent]
		s.Kind = graph.KindMethod
		s.Qual = implQual(impl) + "." + name
		s.Receiver = impl.Receiver
		s.Static = !hasSelf
		if impl.Type != "" {
			s.Exported = true // a trait's method is as visible as the trait
		}
	case owner != nil && owner.Kind() == "trait_item" && parent >= 0:
		s.Kind = graph.KindMethod
		s.Abstract = body == nil
		s.Static = !hasSelf
		s.Exported = x.facts.Symbols[parent].Exported
	}
	if s.Qual == "" {
		s.Qual = x.qualify(n, parent, name)
	}
	x.add(s)
}

// implName is the Name of the hidden symbol of an impl block.
const implName = "impl"

// implQual is the qualified-name prefix of an impl block's members: its
// module path in the file and its type's name ("tests::Point").
func implQual(impl *lang.Symbol) string {
	prefix := ""
	if i := strings.Index(impl.Qual, implName+" "); i > 0 {
		prefix = impl.Qual[:i]
	}
	return prefix + typeBaseName(impl.Receiver)
}

// typeBaseName is the last path segment of a written type without its
// references, pointers and arguments: "&mut a::Point<T>" → "Point".
func typeBaseName(t string) string {
	t = strings.TrimSpace(t)
	for {
		switch {
		case strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
			if strings.HasPrefix(t, "'") {
				if i := strings.IndexAny(t, " \t"); i > 0 {
					t = strings.TrimSpace(t[i:])
				}
			}
			continue
		case strings.HasPrefix(t, "mut "):
			t = strings.TrimSpace(t[4:])
			continue
		case strings.HasPrefix(t, "dyn "):
			t = strings.TrimSpace(t[4:])
			continue
		}
		break
	}
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	t = strings.TrimSpace(t)
	if t == "" {
		return "_"
	}
	return t
}

// params reads a parameter list; the self parameter is left out (a method
// call passes it as the receiver) and reported.
func (x *extraction) params(list *ts.Node) (out []lang.Param, hasSelf bool) {
	if list == nil {
		return nil, false
	}
	c := list.Walk()
	defer c.Close()
	for _, p := range list.NamedChildren(c) {
		switch p.Kind() {
		case "self_parameter":
			hasSelf = true
		case "parameter":
			pat := p.ChildByFieldName("pattern")
			typ := lang.OneLine(x.text(p.ChildByFieldName("type")))
			if pat != nil && pat.Kind() == "self" {
				hasSelf = true
				continue
			}
			name := ""
			if pat != nil && pat.Kind() == "identifier" {
				name = x.text(pat)
			}
			out = append(out, lang.Param{Name: name, Type: typ})
		case "variadic_parameter":
			out = append(out, lang.Param{Variadic: true})
		}
	}
	return out, hasSelf
}

// typeParams reads the type parameters of an item with the first trait
// bound of each, from the parameter list and the where clause.
func (x *extraction) typeParams(n *ts.Node) []lang.Param {
	var out []lang.Param
	if list := n.ChildByFieldName("type_parameters"); list != nil {
		c := list.Walk()
		for _, tp := range list.NamedChildren(c) {
			if tp.Kind() != "type_parameter" {
				continue
			}
			out = append(out, lang.Param{Name: x.text(tp.ChildByFieldName("name")), Type: x.firstBound(tp.ChildByFieldName("bounds"))})
		}
		c.Close()
	}
	if len(out) == 0 {
		return nil
	}
	var where *ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if ch := n.NamedChild(i); ch.Kind() == "where_clause" {
			where = ch
		}
	}
	if where != nil {
		c := where.Walk()
		defer c.Close()
		for _, pred := range where.NamedChildren(c) {
			left := x.text(pred.ChildByFieldName("left"))
			for i := range out {
				if out[i].Name == left && out[i].Type == "" {
					out[i].Type = x.firstBound(pred.ChildByFieldName("bounds"))
				}
			}
		}
	}
	return out
}

// firstBound is the first trait of a bound list that is not a lifetime or
// ?Sized.
func (x *extraction) firstBound(b *ts.Node) string {
	if b == nil {
		return ""
	}
	for i := uint(0); i < b.NamedChildCount(); i++ {
		t := b.NamedChild(i)
		switch t.Kind() {
		case "type_identifier", "scoped_type_identifier", "generic_type":
			return lang.OneLine(x.text(t))
		}
	}
	return ""
}

func (x *extraction) addStruct(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	parent := x.parentOf(n)
	sp := lang.SpanOf(n)
	body := n.ChildByFieldName("body")
	s := lang.Symbol{
		Kind: graph.KindStruct, Name: name, Qual: x.qualify(n, parent, name), Parent: parent, Span: sp,
		Signature: x.header(n, body), Doc: x.doc(n), Exported: isPub(n), Content: lang.Content(x.src, sp),
		TypeParams: x.typeParams(n),
	}
	if body != nil && body.Kind() == "field_declaration_list" {
		s.Signature = x.header(n, body)
	}
	idx := x.add(s)
	x.addFields(idx, body)
}

// addFields adds the named or positional fields of a struct or union.
func (x *extraction) addFields(owner int, body *ts.Node) {
	if body == nil {
		return
	}
	c := body.Walk()
	defer c.Close()
	o := x.facts.Symbols[owner]
	pos := 0
	for _, f := range body.NamedChildren(c) {
		switch body.Kind() {
		case "field_declaration_list":
			if f.Kind() != "field_declaration" {
				continue
			}
			name := x.text(f.ChildByFieldName("name"))
			typ := lang.OneLine(x.text(f.ChildByFieldName("type")))
			sp := lang.SpanOf(&f)
			x.add(lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: o.Qual + "." + name, Parent: owner, Span: sp,
				Signature: lang.OneLine(x.text(&f)), Doc: x.doc(&f), Exported: isPub(&f), Type: typ, Content: lang.Content(x.src, sp)})
		case "ordered_field_declaration_list":
			if !strings.HasSuffix(f.Kind(), "type") && f.Kind() != "type_identifier" && f.Kind() != "scoped_type_identifier" {
				continue
			}
			name := itoa(pos)
			pos++
			typ := lang.OneLine(x.text(&f))
			sp := lang.SpanOf(&f)
			x.add(lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: o.Qual + "." + name, Parent: owner, Span: sp,
				Signature: typ, Exported: o.Exported, Type: typ, Content: lang.Content(x.src, sp)})
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func (x *extraction) addEnum(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	parent := x.parentOf(n)
	sp := lang.SpanOf(n)
	body := n.ChildByFieldName("body")
	idx := x.add(lang.Symbol{
		Kind: graph.KindEnum, Name: name, Qual: x.qualify(n, parent, name), Parent: parent, Span: sp,
		Signature: x.header(n, body), Doc: x.doc(n), Exported: isPub(n), Content: lang.Content(x.src, sp),
		TypeParams: x.typeParams(n),
	})
	if body == nil {
		return
	}
	c := body.Walk()
	defer c.Close()
	e := x.facts.Symbols[idx]
	for _, v := range body.NamedChildren(c) {
		if v.Kind() != "enum_variant" {
			continue
		}
		vname := x.text(v.ChildByFieldName("name"))
		vsp := lang.SpanOf(&v)
		x.add(lang.Symbol{Kind: graph.KindConst, Name: vname, Qual: e.Qual + "." + vname, Parent: idx, Span: vsp,
			Signature: lang.OneLine(x.text(&v)), Doc: x.doc(&v), Exported: e.Exported, Static: true,
			Type: name, Content: lang.Content(x.src, vsp)})
	}
}

func (x *extraction) addAlias(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	parent := x.parentOf(n)
	sp := lang.SpanOf(n)
	x.add(lang.Symbol{
		Kind: graph.KindTypeAlias, Name: name, Qual: x.qualify(n, parent, name), Parent: parent, Span: sp,
		Signature: x.header(n, nil), Doc: x.doc(n), Exported: isPub(n), Content: lang.Content(x.src, sp),
		Type: lang.OneLine(x.text(n.ChildByFieldName("type"))), TypeParams: x.typeParams(n),
	})
}

// addValue adds a const or static of a module, trait or impl block; those
// in function bodies are locals.
func (x *extraction) addValue(n *ts.Node, kind graph.NodeKind) {
	name := x.name(n.ChildByFieldName("name"))
	parent := x.parentOf(n)
	if name == "" || name == "_" || x.inBody(parent) {
		return
	}
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: x.qualify(n, parent, name), Parent: parent, Span: sp,
		Signature: x.header(n, nil), Doc: x.doc(n), Exported: isPub(n), Content: lang.Content(x.src, sp),
		Type: lang.OneLine(x.text(n.ChildByFieldName("type"))),
	}
	if parent >= 0 {
		p := &x.facts.Symbols[parent]
		s.Static = true
		if p.Name == implName && p.Kind == graph.KindClass {
			s.Qual = implQual(p) + "." + name
		}
	}
	if s.Type == "" {
		s.Value = x.expr(n.ChildByFieldName("value"), 0)
	}
	x.add(s)
}

func (x *extraction) addTrait(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	parent := x.parentOf(n)
	sp := lang.SpanOf(n)
	body := n.ChildByFieldName("body")
	s := lang.Symbol{
		Kind: graph.KindInterface, Name: name, Qual: x.qualify(n, parent, name), Parent: parent, Span: sp,
		Signature: x.header(n, body), Doc: x.doc(n), Exported: isPub(n), Content: lang.Content(x.src, sp),
		TypeParams: x.typeParams(n),
	}
	if b := n.ChildByFieldName("bounds"); b != nil {
		for i := uint(0); i < b.NamedChildCount(); i++ {
			t := b.NamedChild(i)
			switch t.Kind() {
			case "type_identifier", "scoped_type_identifier", "generic_type":
				s.Bases = append(s.Bases, lang.Base{Type: lang.OneLine(x.text(t)), Kind: lang.BaseExtends})
			}
		}
	}
	x.add(s)
}

// addImpl adds the hidden symbol of an impl block.
func (x *extraction) addImpl(n *ts.Node) {
	parent := x.parentOf(n)
	typ := lang.OneLine(x.text(n.ChildByFieldName("type")))
	trait := lang.OneLine(x.text(n.ChildByFieldName("trait")))
	qual := implName + " " + typ
	if trait != "" {
		qual = implName + " " + trait + " for " + typ
	}
	if parent >= 0 {
		qual = x.facts.Symbols[parent].Qual + "." + qual
	} else if m := x.moduleAt(uint32(n.StartByte())); m >= 0 {
		qual = x.facts.Symbols[m].Qual + "::" + qual
	}
	sp := lang.SpanOf(n)
	x.add(lang.Symbol{Kind: graph.KindClass, Name: implName, Qual: qual, Parent: parent, Span: sp, Hidden: true,
		Receiver: typ, Type: trait, TypeParams: x.typeParams(n), Signature: x.header(n, n.ChildByFieldName("body"))})
}
