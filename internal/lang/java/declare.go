package java

import (
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// addImport records one import declaration. A single-type import `a.b.C`
// has Path "a.b.C" and Name "C"; a static import `a.b.C.m` has Path "a.b.C"
// (the type) and Name "m"; on-demand imports have the Path before `.*`.
func (x *extraction) addImport(n *ts.Node) {
	imp := lang.Import{Line: lang.Line(n), Scope: -1}
	wildcard := false
	c := n.Walk()
	defer c.Close()
	for _, ch := range n.Children(c) {
		switch ch.Kind() {
		case "static":
			imp.Static = true
		case "asterisk":
			wildcard = true
		case "identifier", "scoped_identifier":
			imp.Path = strings.Join(strings.Fields(x.text(&ch)), "")
		}
	}
	if imp.Path == "" {
		return
	}
	switch {
	case wildcard:
		imp.Kind = lang.ImportWildcard
	case imp.Static:
		i := strings.LastIndexByte(imp.Path, '.')
		if i < 0 {
			return
		}
		imp.Kind = lang.ImportName
		imp.Path, imp.Name = imp.Path[:i], imp.Path[i+1:]
	default:
		imp.Kind = lang.ImportName
		imp.Name = imp.Path[strings.LastIndexByte(imp.Path, '.')+1:]
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}

// addType adds a class, interface, enum, record or annotation type.
func (x *extraction) addType(n *ts.Node, kind declKind) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	sp := lang.SpanOf(n)
	parent := x.container(sp.StartByte)
	mods := x.modifiers(n)
	s := lang.Symbol{Name: name, Qual: name, Parent: parent, Span: sp, Doc: x.doc(n),
		Content: lang.Content(x.src, sp), Decorators: mods.annotations,
		TypeParams: x.typeParams(n)}
	flat := name
	switch kind {
	case declClass, declRecord:
		s.Kind = graph.KindClass
	case declInterface, declAnnotation:
		s.Kind = graph.KindInterface
	case declEnum:
		s.Kind = graph.KindEnum
	}
	implicitStatic := kind != declClass
	if parent >= 0 {
		ps := &x.facts.Symbols[parent]
		s.Qual = ps.Qual + "." + name
		if ps.Kind.IsType() {
			flat = x.flat[parent] + "$" + name
			s.Exported = mods.public || mods.protected || (ps.Kind == graph.KindInterface && !mods.private)
			s.Static = mods.static || implicitStatic || ps.Kind == graph.KindInterface
		} else {
			// A local class: javac numbers it per enclosing class and name.
			encl := x.enclosingType(parent)
			k := localKey{encl, name}
			x.localCount[k]++
			if encl >= 0 {
				flat = x.flat[encl] + "$" + strconv.Itoa(x.localCount[k]) + name
			}
			s.Static = implicitStatic
		}
	} else {
		s.Exported = mods.public || mods.protected
	}
	body := n.ChildByFieldName("body")
	s.Signature = x.header(n, body, mods)
	s.Bases = x.bases(n)
	idx := x.add(s, flat)
	if kind == declRecord {
		x.addComponents(idx, n.ChildByFieldName("parameters"))
	}
}

// bases reads `extends` and `implements` clauses.
func (x *extraction) bases(n *ts.Node) []lang.Base {
	var out []lang.Base
	if sc := n.ChildByFieldName("superclass"); sc != nil && sc.NamedChildCount() > 0 {
		out = append(out, lang.Base{Type: x.typeText(sc.NamedChild(0)), Kind: lang.BaseExtends})
	}
	add := func(clause *ts.Node, kind lang.BaseKind) {
		for i := uint(0); i < clause.NamedChildCount(); i++ {
			list := clause.NamedChild(i)
			if list.Kind() != "type_list" {
				continue
			}
			for j := uint(0); j < list.NamedChildCount(); j++ {
				out = append(out, lang.Base{Type: x.typeText(list.NamedChild(j)), Kind: kind})
			}
		}
	}
	if ifs := n.ChildByFieldName("interfaces"); ifs != nil {
		add(ifs, lang.BaseImplements)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if ch := n.NamedChild(i); ch.Kind() == "extends_interfaces" {
			add(ch, lang.BaseExtends)
		}
	}
	return out
}

// addComponents adds the components of a record as its properties; they
// are exported when the record is (their accessors are public).
func (x *extraction) addComponents(record int, list *ts.Node) {
	if list == nil {
		return
	}
	x.components[record] = x.params(list)
	rs := &x.facts.Symbols[record]
	qual, exported := rs.Qual, rs.Exported
	for i := uint(0); i < list.NamedChildCount(); i++ {
		p := list.NamedChild(i)
		if p.Kind() != "formal_parameter" {
			continue
		}
		name := x.text(p.ChildByFieldName("name"))
		typ := x.typeText(p.ChildByFieldName("type")) + x.text(p.ChildByFieldName("dimensions"))
		sp := lang.SpanOf(p)
		x.add(lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: qual + "." + name, Parent: record,
			Span: sp, Signature: typ + " " + name, Exported: exported, Type: typ,
			Content: lang.Content(x.src, sp)}, "")
	}
}

// addCallable adds a method, constructor, compact canonical constructor or
// annotation type element.
func (x *extraction) addCallable(n *ts.Node, kind declKind) {
	owner := x.memberOwner(n)
	if owner < 0 {
		return
	}
	os := x.facts.Symbols[owner]
	sp := lang.SpanOf(n)
	mods := x.modifiers(n)
	body := n.ChildByFieldName("body")
	inInterface := os.Kind == graph.KindInterface
	s := lang.Symbol{Kind: graph.KindMethod, Parent: owner, Span: sp, Doc: x.doc(n),
		Content: lang.Content(x.src, sp), Decorators: mods.annotations,
		Signature: x.header(n, body, mods), TypeParams: x.typeParams(n),
		Static:   mods.static,
		Exported: mods.public || mods.protected || (inInterface && !mods.private),
		Params:   x.params(n.ChildByFieldName("parameters")),
	}
	switch kind {
	case declConstructor, declCompact:
		s.Kind = graph.KindConstructor
		s.Name = os.Name
		s.Static = false
		x.hasCtor[owner] = true
		if kind == declCompact {
			s.Params = x.components[owner]
		}
	default:
		s.Name = x.text(n.ChildByFieldName("name"))
		if t := n.ChildByFieldName("type"); t != nil && t.Kind() != "void_type" {
			s.Returns = []string{x.typeText(t)}
		}
		s.Abstract = body == nil && !mods.native && !mods.static && !mods.def
	}
	s.Qual = os.Qual + "." + s.Name
	idx := x.add(s, "")
	if kind == declConstructor && body != nil && !startsWithConstructorCall(body) && extendsClass(&os) {
		x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: idx, Callee: &lang.Expr{Kind: lang.ExprSuper},
			Line: lang.Line(body), Byte: uint32(body.StartByte())})
	}
}

// startsWithConstructorCall reports whether a constructor body begins with
// `this(...)` or `super(...)`.
func startsWithConstructorCall(body *ts.Node) bool {
	for i := uint(0); i < body.NamedChildCount(); i++ {
		ch := body.NamedChild(i)
		switch ch.Kind() {
		case "line_comment", "block_comment":
			continue
		case "explicit_constructor_invocation":
			return true
		}
		return false
	}
	return false
}

// addField adds the variables of a field or interface constant declaration.
func (x *extraction) addField(n *ts.Node) {
	owner := x.memberOwner(n)
	if owner < 0 {
		return
	}
	os := &x.facts.Symbols[owner]
	mods := x.modifiers(n)
	inInterface := os.Kind == graph.KindInterface
	static := mods.static || inInterface
	final := mods.final || inInterface
	typ := x.typeText(n.ChildByFieldName("type"))
	sp := lang.SpanOf(n)
	doc := x.doc(n)
	c := n.Walk()
	defer c.Close()
	for _, d := range n.ChildrenByFieldName("declarator", c) {
		name := x.text(d.ChildByFieldName("name"))
		if name == "" {
			continue
		}
		t := typ + x.text(d.ChildByFieldName("dimensions"))
		s := lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: os.Qual + "." + name, Parent: owner,
			Span: sp, Doc: doc, Content: lang.Content(x.src, sp), Decorators: mods.annotations,
			Signature: strings.TrimSpace(mods.text + " " + t + " " + name),
			Exported:  mods.public || mods.protected || inInterface,
			Static:    static, Type: t,
		}
		if static && final && isConstantName(name) {
			s.Kind = graph.KindConst
		}
		if v := d.ChildByFieldName("value"); v != nil {
			s.Value = x.expr(v, 0)
		}
		x.add(s, "")
	}
}

// isConstantName reports whether a name is written in UPPER_CASE.
func isConstantName(name string) bool {
	upper := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r == '_' || (r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return upper
}

// addEnumConstant adds an enum constant as a constant of the enum's type.
func (x *extraction) addEnumConstant(n *ts.Node) {
	owner := x.memberOwner(n)
	if owner < 0 {
		return
	}
	os := &x.facts.Symbols[owner]
	name := x.text(n.ChildByFieldName("name"))
	sp := lang.SpanOf(n)
	sig := name
	if args := n.ChildByFieldName("arguments"); args != nil {
		sig += lang.OneLine(x.text(args))
	}
	x.add(lang.Symbol{Kind: graph.KindConst, Name: name, Qual: os.Qual + "." + name, Parent: owner,
		Span: sp, Signature: capLine(sig), Doc: x.doc(n), Exported: true, Static: true, Type: os.Name,
		Content: lang.Content(x.src, sp), Decorators: x.modifiers(n).annotations}, "")
}

// addAnonymous adds an anonymous class: the body of `new T(...) { ... }` or
// of an enum constant.
func (x *extraction) addAnonymous(n, body *ts.Node) {
	sp := lang.SpanOf(body)
	parent := x.container(sp.StartByte)
	encl := x.enclosingType(parent)
	if encl < 0 {
		return
	}
	x.anonCount[encl]++
	num := strconv.Itoa(x.anonCount[encl])
	es := &x.facts.Symbols[encl]
	flat := x.flat[encl] + "$" + num
	s := lang.Symbol{Kind: graph.KindClass, Name: flat, Qual: es.Qual + ".$" + num, Parent: parent, Span: sp,
		Content: lang.Content(x.src, sp)}
	if n.Kind() == "enum_constant" {
		s.Bases = []lang.Base{{Type: es.Name, Kind: lang.BaseExtends}}
		s.Signature = x.text(n.ChildByFieldName("name"))
	} else {
		s.Bases = []lang.Base{{Type: x.typeText(n.ChildByFieldName("type")), Kind: lang.BaseExtends}}
		s.Signature = capLine(lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():body.StartByte()]))))
	}
	x.add(s, flat)
}

// params reads a formal parameter list (receiver parameters are skipped).
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		p := list.NamedChild(i)
		switch p.Kind() {
		case "formal_parameter":
			out = append(out, lang.Param{Name: x.text(p.ChildByFieldName("name")),
				Type: x.typeText(p.ChildByFieldName("type")) + x.text(p.ChildByFieldName("dimensions"))})
		case "spread_parameter":
			prm := lang.Param{Variadic: true}
			for j := uint(0); j < p.NamedChildCount(); j++ {
				ch := p.NamedChild(j)
				switch ch.Kind() {
				case "modifiers", "annotation", "marker_annotation":
				case "variable_declarator":
					prm.Name = x.text(ch.ChildByFieldName("name"))
				default:
					prm.Type = x.typeText(ch) + "..."
				}
			}
			out = append(out, prm)
		}
	}
	return out
}

// typeParams reads `<T extends Bound, U>` with each first bound.
func (x *extraction) typeParams(n *ts.Node) []lang.Param {
	tps := n.ChildByFieldName("type_parameters")
	if tps == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < tps.NamedChildCount(); i++ {
		tp := tps.NamedChild(i)
		if tp.Kind() != "type_parameter" {
			continue
		}
		var prm lang.Param
		for j := uint(0); j < tp.NamedChildCount(); j++ {
			ch := tp.NamedChild(j)
			switch ch.Kind() {
			case "type_identifier", "identifier":
				prm.Name = x.text(ch)
			case "type_bound":
				if ch.NamedChildCount() > 0 {
					prm.Type = x.typeText(ch.NamedChild(0))
				}
			}
		}
		if prm.Name != "" {
			out = append(out, prm)
		}
	}
	return out
}
