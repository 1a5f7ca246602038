package typescript

// Classes, interfaces, type aliases and enums, and their members.

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// ownerOf returns the class, interface or object-type alias symbol that a
// member node belongs to; ok is false for object-literal members.
func (x *extraction) ownerOf(member *ts.Node) (int, bool) {
	body := member.Parent()
	if body == nil {
		return -1, false
	}
	switch body.Kind() {
	case "class_body", "interface_body", "object_type":
	default:
		return -1, false
	}
	owner := body.Parent()
	if owner == nil {
		return -1, false
	}
	if body.Kind() == "object_type" && owner.Kind() != "type_alias_declaration" && owner.Kind() != "interface_declaration" {
		return -1, false
	}
	i, ok := x.symAt[owner.Id()]
	return i, ok
}

// leadingDecorators returns the decorators written as siblings before a
// class member (TypeScript puts them in the class body), and the node a doc
// comment sits above.
func (x *extraction) leadingDecorators(n *ts.Node) ([]string, *ts.Node) {
	var names []string
	first := n
	for p := n.PrevNamedSibling(); p != nil && p.Kind() == "decorator"; p = p.PrevNamedSibling() {
		if p.NamedChildCount() > 0 {
			e := p.NamedChild(0)
			if e.Kind() == "call_expression" {
				e = e.ChildByFieldName("function")
			}
			if e != nil {
				names = append([]string{lang.OneLine(x.text(e))}, names...)
			}
		}
		first = p
	}
	return names, first
}

// isPrivate reports `private` members and #private names.
func (x *extraction) isPrivate(n *ts.Node, name string) bool {
	if strings.HasPrefix(name, "#") {
		return true
	}
	if m := childOfKind(n, "accessibility_modifier"); m != nil {
		return x.text(m) == "private"
	}
	return false
}

// addClassNode handles class declarations and class expressions that are
// not the value of a declarator (those are named after the variable by
// addDeclarator): `export default class {}` and `module.exports = class
// {}` make a class named "default"; other anonymous class expressions are
// not nodes.
func (x *extraction) addClassNode(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	span := statement(n)
	if n.Kind() == "class" {
		span = n
		if name == "" {
			p := n.Parent()
			if p == nil || !(p.Kind() == "export_statement" || isModuleExportsAssignment(x, p)) {
				return
			}
			name = "default"
		}
	}
	x.addClass(n, name, span, exported(n))
}

// isModuleExportsAssignment reports `module.exports = <n>`.
func isModuleExportsAssignment(x *extraction, n *ts.Node) bool {
	if n.Kind() != "assignment_expression" {
		return false
	}
	left := n.ChildByFieldName("left")
	return left != nil && lang.OneLine(x.text(left)) == "module.exports"
}

// addClass adds a Class for a class declaration or expression named name,
// spanning spanNode; it returns the symbol index, -1 when skipped.
func (x *extraction) addClass(n *ts.Node, name string, spanNode *ts.Node, isExported bool) int {
	parent, ok := x.callableParent(uint32(spanNode.StartByte()))
	if !ok {
		return -1
	}
	body := n.ChildByFieldName("body")
	sp := lang.SpanOf(spanNode)
	decorated := []*ts.Node{n}
	if p := n.Parent(); p != nil && p.Kind() == "export_statement" {
		decorated = append([]*ts.Node{p}, decorated...)
	}
	s := lang.Symbol{
		Kind: graph.KindClass, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
		Signature: x.header(spanNode, body), Doc: x.doc(statement(spanNode)),
		Exported: parent < 0 && isExported, Content: x.content(sp),
		Abstract:   n.Kind() == "abstract_class_declaration",
		Bases:      x.heritage(n),
		Decorators: x.decorators(decorated...),
		TypeParams: x.typeParams(n),
	}
	idx := x.add(s)
	x.symAt[n.Id()] = idx
	if body != nil {
		x.body[idx] = uint32(body.StartByte())
	}
	return idx
}

// typeParams reads a declaration's generic type parameters and their
// `extends` bounds.
func (x *extraction) typeParams(n *ts.Node) []lang.Param {
	list := n.ChildByFieldName("type_parameters")
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		tp := list.NamedChild(i)
		if tp.Kind() != "type_parameter" {
			continue
		}
		prm := lang.Param{Name: x.text(tp.ChildByFieldName("name"))}
		if c := tp.ChildByFieldName("constraint"); c != nil && c.NamedChildCount() > 0 {
			prm.Type = lang.OneLine(x.text(c.NamedChild(0)))
		}
		out = append(out, prm)
	}
	return out
}

// heritage reads `extends` and `implements` clauses. A JavaScript class
// extends an expression; only names (`Base`, `ns.Base`) are kept.
func (x *extraction) heritage(n *ts.Node) []lang.Base {
	h := childOfKind(n, "class_heritage")
	if h == nil {
		return nil
	}
	var out []lang.Base
	for i := uint(0); i < h.NamedChildCount(); i++ {
		c := h.NamedChild(i)
		switch c.Kind() {
		case "extends_clause":
			if v := c.ChildByFieldName("value"); v != nil && isNameExpr(v) {
				out = append(out, lang.Base{Type: lang.OneLine(x.text(v)), Kind: lang.BaseExtends})
			}
		case "implements_clause":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				out = append(out, lang.Base{Type: lang.OneLine(x.text(c.NamedChild(j))), Kind: lang.BaseImplements})
			}
		case "identifier", "member_expression":
			if isNameExpr(c) {
				out = append(out, lang.Base{Type: lang.OneLine(x.text(c)), Kind: lang.BaseExtends})
			}
		}
	}
	return out
}

// isNameExpr reports identifiers and dotted chains of identifiers.
func isNameExpr(n *ts.Node) bool {
	switch n.Kind() {
	case "identifier", "type_identifier":
		return true
	case "member_expression":
		o := n.ChildByFieldName("object")
		return o != nil && isNameExpr(o)
	}
	return false
}

// addInterface adds an Interface with the interfaces it extends; its
// members are added by addMethodSignature and addField.
func (x *extraction) addInterface(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	parent, ok := x.callableParent(uint32(n.StartByte()))
	if name == "" || !ok {
		return
	}
	stmt := statement(n)
	body := n.ChildByFieldName("body")
	sp := lang.SpanOf(stmt)
	s := lang.Symbol{
		Kind: graph.KindInterface, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
		Signature: x.header(stmt, body), Doc: x.doc(stmt), Exported: parent < 0 && exported(n),
		Content: x.content(sp),
	}
	s.TypeParams = x.typeParams(n)
	if ext := childOfKind(n, "extends_type_clause"); ext != nil {
		for i := uint(0); i < ext.NamedChildCount(); i++ {
			s.Bases = append(s.Bases, lang.Base{Type: lang.OneLine(x.text(ext.NamedChild(i))), Kind: lang.BaseExtends})
		}
	}
	x.symAt[n.Id()] = x.add(s)
}

// addAlias adds a TypeAlias with the aliased type; an object-type alias
// gets members like an interface.
func (x *extraction) addAlias(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	parent, ok := x.callableParent(uint32(n.StartByte()))
	if name == "" || !ok {
		return
	}
	stmt := statement(n)
	sp := lang.SpanOf(stmt)
	sig := x.header(stmt, nil)
	s := lang.Symbol{
		Kind: graph.KindTypeAlias, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
		Signature: strings.TrimSuffix(sig, ";"), Doc: x.doc(stmt), Exported: parent < 0 && exported(n),
		Content: x.content(sp), Type: x.oneLine(n.ChildByFieldName("value")),
		TypeParams: x.typeParams(n),
	}
	x.symAt[n.Id()] = x.add(s)
}

// addEnum adds an Enum.
func (x *extraction) addEnum(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	parent, ok := x.callableParent(uint32(n.StartByte()))
	if name == "" || !ok {
		return
	}
	stmt := statement(n)
	sp := lang.SpanOf(stmt)
	s := lang.Symbol{
		Kind: graph.KindEnum, Name: name, Qual: x.qualify(parent, n, name), Parent: parent, Span: sp,
		Signature: x.header(stmt, n.ChildByFieldName("body")), Doc: x.doc(stmt),
		Exported: parent < 0 && exported(n), Content: x.content(sp),
	}
	x.symAt[n.Id()] = x.add(s)
}

// addMethod handles method_definition in class bodies (object-literal
// methods are not nodes). Getters and setters are methods; `constructor`
// is the Constructor.
func (x *extraction) addMethod(n *ts.Node) {
	owner, ok := x.ownerOf(n)
	if !ok {
		return
	}
	name := x.memberName(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	static := hasToken(n, "static")
	kind := graph.KindMethod
	if name == "constructor" && !static {
		kind = graph.KindConstructor
	}
	decs, first := x.leadingDecorators(n)
	decs = append(decs, x.decorators(n)...)
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: x.facts.Symbols[owner].Qual + "." + name, Parent: owner, Span: sp,
		Signature: x.header(n, n.ChildByFieldName("body")), Doc: x.doc(first),
		Exported: !x.isPrivate(n, name), Static: static, Content: x.content(sp),
		Decorators: decs, Abstract: x.dts, Getter: hasToken(n, "get"),
	}
	x.fillCallable(&s, n)
	x.symAt[n.Id()] = x.add(s)
}

// addMethodSignature handles interface methods and abstract methods
// (Abstract Methods), and method overload signatures in class bodies, which
// are dropped when the class implements the method.
func (x *extraction) addMethodSignature(n *ts.Node) {
	owner, ok := x.ownerOf(n)
	if !ok {
		return
	}
	name := x.memberName(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	body := n.Parent()
	if body.Kind() == "class_body" && n.Kind() == "method_signature" && x.classImplements(body, name) {
		return
	}
	qual := x.facts.Symbols[owner].Qual + "." + name
	if x.signatures == nil {
		x.signatures = map[sigKey]bool{}
	}
	if k := (sigKey{owner, qual}); x.signatures[k] {
		return
	} else {
		x.signatures[k] = true
	}
	kind := graph.KindMethod
	static := hasToken(n, "static")
	if name == "constructor" && !static && body.Kind() == "class_body" {
		kind = graph.KindConstructor
	}
	decs, first := x.leadingDecorators(n)
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: qual, Parent: owner, Span: sp,
		Signature: strings.TrimSuffix(x.header(n, nil), ";"), Doc: x.doc(first),
		Exported: !x.isPrivate(n, name), Static: static, Abstract: true,
		Content: x.content(sp), Decorators: decs, Getter: hasToken(n, "get"),
	}
	x.fillCallable(&s, n)
	x.symAt[n.Id()] = x.add(s)
}

// classImplements reports whether a class body has a method_definition
// named name.
func (x *extraction) classImplements(body *ts.Node, name string) bool {
	c := body.Walk()
	defer c.Close()
	for _, m := range body.NamedChildren(c) {
		if m.Kind() == "method_definition" && x.memberName(m.ChildByFieldName("name")) == name {
			return true
		}
	}
	return false
}

// addField handles class fields and interface property signatures. A
// field initialised with a function expression or arrow function is a
// Function node named after the field; any other field is a Property.
func (x *extraction) addField(n *ts.Node) {
	owner, ok := x.ownerOf(n)
	if !ok {
		return
	}
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		nameNode = n.ChildByFieldName("property")
	}
	name := x.memberName(nameNode)
	if name == "" {
		return
	}
	value := unwrap(n.ChildByFieldName("value"))
	decs, first := x.leadingDecorators(n)
	decs = append(decs, x.decorators(n)...)
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Name: name, Qual: x.facts.Symbols[owner].Qual + "." + name, Parent: owner, Span: sp,
		Doc: x.doc(first), Exported: !x.isPrivate(n, name), Static: hasToken(n, "static"),
		Content: x.content(sp), Decorators: decs,
	}
	if isFunctionValue(value) {
		s.Kind = graph.KindFunction
		s.Signature = x.header(n, value.ChildByFieldName("body"))
		x.fillCallable(&s, value)
		idx := x.add(s)
		x.symAt[n.Id()] = idx
		x.symAt[value.Id()] = idx
		return
	}
	s.Kind = graph.KindProperty
	s.Type = x.typeText(n.ChildByFieldName("type"))
	if value != nil && s.Type == "" {
		s.Value = x.expr(value, 0)
	}
	sig := strings.TrimSuffix(lang.OneLine(x.header(n, nil)), ";")
	sig = lang.Cap(sig, 200)
	s.Signature = sig
	x.symAt[n.Id()] = x.add(s)
}

// addParamProperty turns a constructor parameter with an accessibility or
// readonly modifier into a Property of the class, typed as declared.
func (x *extraction) addParamProperty(n *ts.Node) {
	list := n.Parent()
	if list == nil || list.Kind() != "formal_parameters" {
		return
	}
	ctor := list.Parent()
	if ctor == nil {
		return
	}
	ci, ok := x.symAt[ctor.Id()]
	if !ok || x.facts.Symbols[ci].Kind != graph.KindConstructor {
		return
	}
	pat := n.ChildByFieldName("pattern")
	if pat == nil || pat.Kind() != "identifier" {
		return
	}
	owner := x.facts.Symbols[ci].Parent
	name := x.text(pat)
	sp := lang.SpanOf(n)
	x.deferred = append(x.deferred, lang.Symbol{
		Kind: graph.KindProperty, Name: name, Qual: x.facts.Symbols[owner].Qual + "." + name, Parent: owner,
		Span: sp, Signature: x.oneLine(n), Exported: !x.isPrivate(n, name),
		Type: x.typeText(n.ChildByFieldName("type")), Content: x.content(sp),
	})
}
