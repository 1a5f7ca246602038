package cpp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// Marks starting the Qual of hidden symbols (cpp.go): the declaration of
// a member in its class, a prototype, a function-like macro.
const (
	declMark   = "#decl."
	protoMark  = "#proto."
	defineMark = "#define."
)

// Decorators the extractor writes.
const (
	decoVirtual        = "virtual"
	decoOverride       = "override"
	decoSpecialization = "specialization"
	// decoScoped marks an `enum class`: its enumerators stay in it.
	decoScoped = "scoped"
)

func decorators(virtual, override bool) []string {
	var out []string
	if virtual {
		out = append(out, decoVirtual)
	}
	if override {
		out = append(out, decoOverride)
	}
	return out
}

// memberKind is the kind of a member function named name of the class
// named class.
func memberKind(name, class string) graph.NodeKind {
	if name == class {
		return graph.KindConstructor
	}
	return graph.KindMethod
}

// addFunction reads a function definition: a free function, a member
// defined in its class, or a member defined out of it (`A::run`).
func (x *extraction) addFunction(n *ts.Node, cx context) {
	fd := functionDeclarator(n.ChildByFieldName("declarator"))
	if fd == nil {
		return
	}
	name, qualifier := x.functionName(fd.ChildByFieldName("declarator"))
	if name == "" {
		return
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if n.NamedChild(i).Kind() == "delete_method_clause" {
				return // `= delete`: nothing runs
			}
		}
	}
	static, _, virtual := x.specifiers(n)
	s := lang.Symbol{
		Name: name, Parent: cx.parent, Span: lang.SpanOf(n), Signature: x.header(n, body), Doc: x.doc(n),
		Content: lang.Content(x.src, lang.SpanOf(n)), Params: x.params(fd.ChildByFieldName("parameters")),
		Decorators: decorators(virtual, x.hasOverride(fd)), TypeParams: cx.tparams,
		Exported: !cx.anon && !(static && cx.parent < 0), Static: static || cx.anon && cx.parent < 0,
	}
	switch {
	case cx.parent >= 0:
		s.Kind = memberKind(name, x.facts.Symbols[cx.parent].Name)
		s.Qual = x.qual(cx, name)
	case len(qualifier) > 0:
		s.Kind = memberKind(name, qualifier[len(qualifier)-1])
		s.Receiver = strings.Join(qualifier, ".")
		s.Qual = x.qual(cx, s.Receiver+"."+name)
		s.Static = false // `static` is written on the declaration only
		s.Exported = !cx.anon
	default:
		s.Kind = graph.KindFunction
		s.Qual = x.qual(cx, name)
	}
	if s.Kind != graph.KindConstructor && !strings.HasPrefix(name, "~") {
		if t := x.typeText(n, n.ChildByFieldName("type"), n.ChildByFieldName("declarator")); t != "" && t != "auto" {
			s.Returns = []string{t}
		}
	}
	x.add(s)
	if x.symbolsOnly {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "field_initializer_list" {
			x.fieldInitializers(c)
		}
	}
	x.code(body)
}

// addDeclaration reads a declaration at namespace or class scope:
// prototypes and member declarations (hidden), pure virtual methods,
// fields, variables, and the class or enum its type defines.
func (x *extraction) addDeclaration(n *ts.Node, cx context) {
	typ := n.ChildByFieldName("type")
	if typ != nil && typ.ChildByFieldName("body") != nil {
		switch typ.Kind() {
		case "class_specifier", "struct_specifier", "union_specifier":
			x.addClass(typ, cx)
		case "enum_specifier":
			x.addEnum(typ, cx)
		}
	}
	static, extern, virtual := x.specifiers(n)
	pure := false
	if dv := n.ChildByFieldName("default_value"); dv != nil && x.text(dv) == "0" {
		pure = true
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		d := n.NamedChild(i)
		if fd := functionDeclarator(d); fd != nil {
			x.addPrototype(n, fd, cx, static, virtual, pure)
			continue
		}
		name := variableName(d)
		if name == nil || extern && cx.parent < 0 {
			continue
		}
		s := lang.Symbol{
			Name: x.text(name), Qual: x.qual(cx, x.text(name)), Parent: cx.parent, Span: lang.SpanOf(n),
			Signature: x.header(n, nil), Doc: x.doc(n), Type: x.typeText(n, typ, d), Static: static || cx.anon,
			Exported: !cx.anon && !(static && cx.parent < 0),
		}
		switch {
		case cx.parent >= 0:
			s.Kind = graph.KindProperty
		case x.isConst(n):
			s.Kind = graph.KindConst
		default:
			s.Kind = graph.KindVariable
		}
		if d.Kind() == "init_declarator" {
			if v := d.ChildByFieldName("value"); v != nil {
				if !x.symbolsOnly {
					x.code(v)
				}
				if typ != nil && typ.Kind() == "placeholder_type_specifier" {
					s.Type = ""
					s.Value = x.expr(v, 0)
				}
			}
		}
		x.add(s)
	}
}

// addPrototype reads a function declaration: in a class, a pure virtual
// method (an abstract Method node) or the hidden declaration of a member
// defined elsewhere; at namespace scope, a hidden prototype.
func (x *extraction) addPrototype(n, fd *ts.Node, cx context, static, virtual, pure bool) {
	name, qualifier := x.functionName(fd.ChildByFieldName("declarator"))
	if name == "" || len(qualifier) > 0 {
		return // `friend void B::f();` and the like
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "friend_declaration" {
			return
		}
	}
	s := lang.Symbol{
		Name: name, Parent: cx.parent, Span: lang.SpanOf(n), Params: x.params(fd.ChildByFieldName("parameters")),
		Decorators: decorators(virtual || pure, x.hasOverride(fd)), TypeParams: cx.tparams, Static: static,
		Exported: !cx.anon && !(static && cx.parent < 0), Abstract: true,
	}
	if t := x.typeText(n, n.ChildByFieldName("type"), n.ChildByFieldName("declarator")); t != "" && t != "auto" {
		s.Returns = []string{t}
	}
	switch {
	case cx.parent >= 0 && pure:
		s.Kind = graph.KindMethod
		s.Qual = x.qual(cx, name)
		s.Signature, s.Doc = x.header(n, nil), x.doc(n)
	case cx.parent >= 0:
		s.Kind = memberKind(name, x.facts.Symbols[cx.parent].Name)
		s.Qual = declMark + x.qual(cx, name)
		s.Hidden = true
	default:
		s.Kind = graph.KindFunction
		s.Qual = protoMark + x.qual(cx, name)
		s.Hidden = true
	}
	if s.Kind == graph.KindConstructor || strings.HasPrefix(name, "~") {
		s.Returns = nil
	}
	x.add(s)
}

// className reads the name of a class specifier: a plain name, the
// template of a specialisation (with its written arguments), or the last
// part of a qualified name.
func (x *extraction) className(n *ts.Node) (name, written string, specialization bool) {
	nn := n.ChildByFieldName("name")
	if nn == nil {
		if p := n.Parent(); p != nil && p.Kind() == "type_definition" {
			for i := uint(0); i < p.NamedChildCount(); i++ {
				if p.FieldNameForNamedChild(uint32(i)) == "declarator" {
					if v := variableName(p.NamedChild(i)); v != nil {
						return x.text(v), x.text(v), false
					}
				}
			}
		}
		return "", "", false
	}
	switch nn.Kind() {
	case "template_type":
		if t := nn.ChildByFieldName("name"); t != nil {
			return x.text(t), strings.Join(strings.Fields(x.text(nn)), ""), true
		}
	case "qualified_identifier":
		name, _ := x.functionName(nn)
		if name == "" {
			if last := nn.ChildByFieldName("name"); last != nil {
				name = x.scopeName(last)
			}
		}
		return name, name, false
	}
	return x.text(nn), x.text(nn), false
}

// addClass reads a class, struct or union with a body, its members and
// its nested types.
func (x *extraction) addClass(n *ts.Node, cx context) {
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	name, written, spec := x.className(n)
	if name == "" {
		return
	}
	kind := graph.KindStruct
	if n.Kind() == "class_specifier" {
		kind = graph.KindClass
	}
	if x.isInterface(body) {
		kind = graph.KindInterface
	}
	var bases []lang.Base
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "base_class_clause" {
			continue
		}
		for j := uint(0); j < c.NamedChildCount(); j++ {
			switch b := c.NamedChild(j); b.Kind() {
			case "type_identifier", "qualified_identifier", "template_type":
				bases = append(bases, lang.Base{Type: strings.Join(strings.Fields(x.text(b)), ""), Kind: lang.BaseExtends})
			}
		}
	}
	decl := n
	if p := n.Parent(); p != nil && (p.Kind() == "declaration" || p.Kind() == "type_definition" || p.Kind() == "field_declaration") {
		decl = p
	}
	s := lang.Symbol{
		Kind: kind, Name: name, Qual: x.qual(cx, written), Parent: cx.parent, Span: lang.SpanOf(n),
		Signature: x.header(n, body), Doc: x.doc(decl), Exported: !cx.anon, Static: cx.anon && cx.parent < 0,
		Content: lang.Content(x.src, lang.SpanOf(n)), Bases: bases, TypeParams: cx.tparams,
	}
	if spec {
		s.Decorators = []string{decoSpecialization}
	}
	idx := x.add(s)
	x.declarations(body, context{parent: idx, ns: cx.ns, anon: cx.anon})
}

// isInterface reports whether a class body declares only pure virtual
// methods (a destructor aside), one at least, and no data.
func (x *extraction) isInterface(body *ts.Node) bool {
	pure := 0
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		switch c.Kind() {
		case "access_specifier", "comment":
		case "function_definition":
			fd := functionDeclarator(c.ChildByFieldName("declarator"))
			if fd == nil {
				return false
			}
			if name, _ := x.functionName(fd.ChildByFieldName("declarator")); !strings.HasPrefix(name, "~") {
				return false
			}
		case "field_declaration", "declaration":
			fd := functionDeclarator(c.ChildByFieldName("declarator"))
			if fd == nil {
				return false
			}
			name, _ := x.functionName(fd.ChildByFieldName("declarator"))
			dv := c.ChildByFieldName("default_value")
			switch {
			case dv != nil && x.text(dv) == "0":
				pure++
			case strings.HasPrefix(name, "~"):
			default:
				return false
			}
		default:
			return false
		}
	}
	return pure > 0
}

// addEnum reads an enum or `enum class` with its enumerators.
func (x *extraction) addEnum(n *ts.Node, cx context) {
	body, nn := n.ChildByFieldName("body"), n.ChildByFieldName("name")
	if body == nil || nn == nil {
		return
	}
	name := x.text(nn)
	var deco []string
	for i := uint(0); i < n.ChildCount(); i++ {
		if k := n.Child(i).Kind(); k == "class" || k == "struct" {
			deco = []string{decoScoped}
		}
	}
	idx := x.add(lang.Symbol{
		Kind: graph.KindEnum, Name: name, Qual: x.qual(cx, name), Parent: cx.parent, Span: lang.SpanOf(n),
		Signature: x.header(n, body), Doc: x.doc(n), Exported: !cx.anon, Content: lang.Content(x.src, lang.SpanOf(n)),
		Decorators: deco,
	})
	for i := uint(0); i < body.NamedChildCount(); i++ {
		e := body.NamedChild(i)
		en := e.ChildByFieldName("name")
		if e.Kind() != "enumerator" || en == nil {
			continue
		}
		x.add(lang.Symbol{
			Kind: graph.KindConst, Name: x.text(en), Qual: x.facts.Symbols[idx].Qual + "." + x.text(en), Parent: idx,
			Span: lang.SpanOf(e), Signature: x.text(e), Doc: x.doc(e), Exported: !cx.anon, Type: name, Static: true,
		})
	}
}

// addTypedef reads `typedef T name;`: a TypeAlias, unless it names an
// anonymous struct, union or enum written in it (that type takes the
// name).
func (x *extraction) addTypedef(n *ts.Node, cx context) {
	typ := n.ChildByFieldName("type")
	if typ == nil {
		return
	}
	switch typ.Kind() {
	case "struct_specifier", "union_specifier", "class_specifier":
		if typ.ChildByFieldName("body") != nil {
			x.addClass(typ, cx)
			if typ.ChildByFieldName("name") == nil {
				return
			}
		}
	case "enum_specifier":
		if typ.ChildByFieldName("body") != nil {
			x.addEnum(typ, cx)
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		d := n.NamedChild(i)
		name := variableName(d)
		if name == nil || functionDeclarator(d) != nil {
			continue
		}
		x.add(lang.Symbol{
			Kind: graph.KindTypeAlias, Name: x.text(name), Qual: x.qual(cx, x.text(name)), Parent: cx.parent,
			Span: lang.SpanOf(n), Signature: x.header(n, typ.ChildByFieldName("body")), Doc: x.doc(n),
			Exported: !cx.anon, Type: x.typeText(n, typ, d),
		})
	}
}

// addAlias reads `using X = T;`.
func (x *extraction) addAlias(n *ts.Node, cx context) {
	name, typ := n.ChildByFieldName("name"), n.ChildByFieldName("type")
	if name == nil || typ == nil {
		return
	}
	written := typ
	if t := typ.ChildByFieldName("type"); t != nil {
		written = t
	}
	x.add(lang.Symbol{
		Kind: graph.KindTypeAlias, Name: x.text(name), Qual: x.qual(cx, x.text(name)), Parent: cx.parent,
		Span: lang.SpanOf(n), Signature: x.header(n, nil), Doc: x.doc(n), Exported: !cx.anon,
		Type: x.typeText(typ, written, typ.ChildByFieldName("declarator")), TypeParams: cx.tparams,
	})
}

// addUsing reads `using namespace a::b;` (an ImportWildcard of "a.b") and
// `using a::b::f;` (an ImportName of "a.b.f" binding f). A using
// declaration in a class (`using Base::f;`) is not an import.
func (x *extraction) addUsing(n *ts.Node, cx context) {
	if x.symbolsOnly || cx.parent >= 0 {
		return
	}
	wildcard := false
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.Child(i).Kind() == "namespace" {
			wildcard = true
		}
	}
	var target *ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "identifier", "qualified_identifier", "namespace_identifier", "type_identifier":
			target = c
		}
	}
	if target == nil {
		return
	}
	path := dotted(x.text(target))
	imp := lang.Import{Kind: lang.ImportWildcard, Path: path, Line: lang.Line(n), Scope: -1}
	if !wildcard {
		imp.Kind, imp.Name = lang.ImportName, path[strings.LastIndexByte(path, '.')+1:]
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}

// dotted turns a C++ qualified name into the dotted form of Quals:
// `::a::b` is "a.b".
func dotted(s string) string {
	s = strings.Join(strings.Fields(s), "")
	s = strings.TrimPrefix(s, "::")
	return strings.ReplaceAll(s, "::", ".")
}

// addInclude records an #include of a header named between quotes or
// angle brackets, as C does.
func (x *extraction) addInclude(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	if imp, ok := c.IncludeOf(n, x.src); ok {
		x.facts.Imports = append(x.facts.Imports, imp)
	}
}

// addMacro records a function-like macro: hidden, so that calls of its
// name are known to be macro invocations.
func (x *extraction) addMacro(n *ts.Node) {
	if s, ok := c.MacroSymbol(n, x.src); ok {
		x.macros[s.Name] = true
		x.add(s)
	}
}
