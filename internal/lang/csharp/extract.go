package csharp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// extraction is the state of reading one file, walked once in document
// order.
type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// symbolsOnly: record symbols only (ExtractSymbols).
	symbolsOnly bool
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

func (x *extraction) qualOf(parent int, name string) string { return x.facts.QualIn(parent, name) }

// kindOf is the node kind of a type declaration.
var kindOf = map[string]graph.NodeKind{
	"class_declaration":     graph.KindClass,
	"struct_declaration":    graph.KindClass,
	"record_declaration":    graph.KindClass,
	"interface_declaration": graph.KindInterface,
	"enum_declaration":      graph.KindEnum,
}

// declarations reads the children of a compilation unit, namespace body or
// type body; ns is the enclosing namespace.
func (x *extraction) declarations(n *ts.Node, parent int, ns string) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "using_directive":
			x.addUsing(c)
		case "namespace_declaration", "file_scoped_namespace_declaration":
			name := ""
			if nn := c.ChildByFieldName("name"); nn != nil {
				name = x.text(nn)
			}
			if ns != "" {
				name = ns + "." + name
			}
			if x.facts.Package == "" {
				x.facts.Package = name
			}
			if body := c.ChildByFieldName("body"); body != nil {
				x.declarations(body, parent, name)
			} else {
				x.declarations(c, parent, name)
			}
		case "class_declaration", "struct_declaration", "record_declaration", "interface_declaration", "enum_declaration":
			x.addType(c, parent, ns)
		case "global_statement":
			x.code(c)
		}
	}
}

// addUsing reads `using A.B;`, `using X = A.B.C;`, `using static A.B.C;`
// and their `global` forms (marked with Name globalMark).
func (x *extraction) addUsing(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	static, global := false, false
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() {
			switch c.Kind() {
			case "static":
				static = true
			case "global":
				global = true
			}
		}
	}
	alias := ""
	if a := n.ChildByFieldName("name"); a != nil {
		alias = x.text(a)
	}
	target := ""
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "qualified_name" || (c.Kind() == "identifier" && x.text(c) != alias) {
			target = x.text(c)
		}
	}
	if target == "" {
		return
	}
	imp := lang.Import{Kind: lang.ImportWildcard, Path: target, Line: lang.Line(n), Scope: -1}
	switch {
	case alias != "":
		imp.Kind, imp.Alias = lang.ImportName, alias
	case static:
		imp.Kind = lang.ImportName
	}
	if global {
		imp.Name = globalMark
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}

// globalMark is the Name of the import of a `global using`: it applies to
// every file of the program.
const globalMark = "global"

// modifiers reads visibility, static and abstract off a declaration.
func (x *extraction) modifiers(n *ts.Node, defaultExported bool) (exported, static, abstract bool) {
	exported = defaultExported
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "modifier" {
			continue
		}
		switch x.text(c) {
		case "public", "internal":
			exported = true
		case "private", "protected":
			exported = false
		case "static":
			static = true
		case "abstract":
			abstract = true
		}
	}
	return
}

// addType reads a class, struct, record, interface or enum and its members.
// A partial class's later parts add their members to the first part's
// symbol when both are in this file; across files the rules merge them.
func (x *extraction) addType(n *ts.Node, parent int, ns string) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	// A top-level type is internal by default, a nested one private.
	exported, static, abstract := x.modifiers(n, parent < 0)
	iface := n.Kind() == "interface_declaration"
	s := lang.Symbol{Kind: kindOf[n.Kind()], Name: name, Qual: x.qualOf(parent, name), Parent: parent,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: exported, Static: static,
		Abstract: abstract || iface}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "base_list" {
			continue
		}
		for j := uint(0); j < c.NamedChildCount(); j++ {
			b := c.NamedChild(j)
			if b.Kind() == "argument_list" {
				continue
			}
			t := typeName(x.text(b))
			if t == "" {
				continue
			}
			// C# does not mark which base is the class: the rules tell
			// extends from implements once the types are known.
			s.Bases = append(s.Bases, lang.Base{Type: t, Kind: lang.BaseExtends})
		}
	}
	idx := x.add(s)
	if n.Kind() == "record_declaration" {
		x.recordComponents(n, idx)
	}
	if body := n.ChildByFieldName("body"); body != nil {
		x.members(body, idx, iface, ns)
	}
}

// recordComponents adds the properties the positional parameters of a
// record declare (`record Size(int W, int H)`).
func (x *extraction) recordComponents(n *ts.Node, owner int) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		ps := n.NamedChild(i)
		if ps.Kind() != "parameter_list" {
			continue
		}
		for j := uint(0); j < ps.NamedChildCount(); j++ {
			p := ps.NamedChild(j)
			name := p.ChildByFieldName("name")
			if p.Kind() != "parameter" || name == nil {
				continue
			}
			x.add(lang.Symbol{Kind: graph.KindProperty, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
				Parent: owner, Span: lang.SpanOf(p), Signature: lang.OneLine(x.text(p)), Exported: true,
				Type: typeName(x.text(p.ChildByFieldName("type")))})
		}
	}
}

// members reads the body of a type.
func (x *extraction) members(body *ts.Node, owner int, iface bool, ns string) {
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		switch c.Kind() {
		case "method_declaration", "constructor_declaration":
			x.addMethod(c, owner, iface)
		case "property_declaration":
			x.addProperty(c, owner, iface)
		case "field_declaration", "event_field_declaration":
			x.addFields(c, owner)
		case "enum_member_declaration":
			if name := c.ChildByFieldName("name"); name != nil {
				x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
					Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(c)), Exported: true, Static: true})
			}
		case "class_declaration", "struct_declaration", "record_declaration", "interface_declaration", "enum_declaration":
			x.addType(c, owner, ns)
		}
	}
}

func (x *extraction) addMethod(n *ts.Node, owner int, iface bool) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	exported, static, abstract := x.modifiers(n, iface)
	body := n.ChildByFieldName("body")
	kind := graph.KindMethod
	if n.Kind() == "constructor_declaration" {
		kind = graph.KindConstructor
	}
	s := lang.Symbol{Kind: kind, Name: name, Qual: x.qualOf(owner, name), Parent: owner, Span: lang.SpanOf(n),
		Signature: x.signature(n), Doc: x.doc(n), Exported: exported, Static: static,
		Abstract: abstract || (iface && body == nil)}
	s.Params = x.parameters(n)
	if static && x.extends(n) && len(s.Params) > 0 && s.Params[0].Type != "" {
		s.Decorators = []string{extensionMark}
	}
	if r := n.ChildByFieldName("returns"); r != nil {
		if t := typeName(x.text(r)); t != "" {
			s.Returns = []string{t}
		}
	}
	x.add(s)
	if body != nil {
		x.code(body)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "arrow_expression_clause":
			x.code(c)
		case "constructor_initializer":
			x.constructorInitializer(c)
		}
	}
}

// extensionMark is the decorator of an extension method, whose first
// parameter is the type it extends.
const extensionMark = "this"

// extends reports whether a method's first parameter is marked `this`.
func (x *extraction) extends(n *ts.Node) bool {
	ps := n.ChildByFieldName("parameters")
	if ps == nil {
		return false
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		if p := ps.NamedChild(i); p.Kind() == "parameter" {
			t := strings.TrimSpace(x.text(p))
			return strings.HasPrefix(t, "this ") || strings.HasPrefix(t, "this\t")
		}
	}
	return false
}

// parameters reads a method's parameters; they are bindings of its body.
func (x *extraction) parameters(n *ts.Node) []lang.Param {
	ps := n.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if p.Kind() != "parameter" {
			continue
		}
		name := p.ChildByFieldName("name")
		if name == nil {
			continue
		}
		out = append(out, lang.Param{Name: x.text(name), Type: typeName(x.text(p.ChildByFieldName("type")))})
	}
	return out
}

func (x *extraction) addProperty(n *ts.Node, owner int, iface bool) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	exported, static, _ := x.modifiers(n, iface)
	x.add(lang.Symbol{Kind: graph.KindProperty, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
		Parent: owner, Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: exported,
		Static: static, Type: typeName(x.text(n.ChildByFieldName("type")))})
	// Accessor bodies and initializers belong to the type.
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "accessor_list", "arrow_expression_clause":
			x.code(c)
		}
	}
	if v := n.ChildByFieldName("value"); v != nil {
		x.code(v)
	}
}

// addFields reads `T a = ..., b;` in a type body.
func (x *extraction) addFields(n *ts.Node, owner int) {
	exported, static, _ := x.modifiers(n, false)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		decl := n.NamedChild(i)
		if decl.Kind() != "variable_declaration" {
			continue
		}
		typ := typeName(x.text(decl.ChildByFieldName("type")))
		for j := uint(0); j < decl.NamedChildCount(); j++ {
			v := decl.NamedChild(j)
			if v.Kind() != "variable_declarator" {
				continue
			}
			name := v.ChildByFieldName("name")
			if name == nil {
				continue
			}
			s := lang.Symbol{Kind: graph.KindProperty, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
				Parent: owner, Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n),
				Exported: exported, Static: static, Type: typ}
			x.add(s)
			x.code(v)
		}
	}
}

// typeName reads a written type as a dotted name without type arguments,
// nullable marks or global:: prefix; arrays and sequences (List<T>,
// IEnumerable<T>...) of a type T as "T[]"; "" for var, dynamic and what
// has no one class.
func typeName(t string) string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "global::")
	t = strings.TrimSuffix(t, "?")
	if elem, ok := strings.CutSuffix(t, "[]"); ok {
		if e := typeName(elem); e != "" {
			return e + "[]"
		}
		return ""
	}
	if i := strings.IndexByte(t, '<'); i >= 0 {
		if arg, ok := strings.CutSuffix(t[i+1:], ">"); ok && sequences[strings.TrimSpace(t[:i])] && !strings.ContainsAny(arg, ",<") {
			if e := typeName(arg); e != "" && !strings.HasSuffix(e, "[]") {
				return e + "[]"
			}
			return ""
		}
		t = t[:i]
	}
	switch t {
	case "", "var", "dynamic", "object", "void":
		return ""
	}
	if strings.ContainsAny(t, "[]()*, ") {
		return ""
	}
	return t
}

// sequences are the library collections of one element type: a value of
// `List<T>` is written "T[]", a sequence of T.
var sequences = map[string]bool{"List": true, "IList": true, "IEnumerable": true, "ICollection": true,
	"IReadOnlyList": true, "IReadOnlyCollection": true, "HashSet": true, "ISet": true}

// signature is the declaration up to its body, on one line.
func (x *extraction) signature(n *ts.Node) string {
	end := n.EndByte()
	for _, f := range []string{"body", "accessors"} {
		if b := n.ChildByFieldName(f); b != nil && b.StartByte() < end {
			end = b.StartByte()
		}
	}
	return lang.OneLine(strings.TrimSpace(string(x.src[n.StartByte():end])))
}

// doc is the summary of the `///` XML documentation above a declaration.
func (x *extraction) doc(n *ts.Node) string {
	texts := lang.CommentsBefore(n, x.src, func(c *ts.Node) bool {
		return c.Kind() == "comment" && strings.HasPrefix(lang.Text(c, x.src), "///")
	})
	if len(texts) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(strings.TrimPrefix(strings.TrimSpace(t), "///"))
		b.WriteByte(' ')
	}
	s := b.String()
	if i := strings.Index(s, "<summary>"); i >= 0 {
		s = s[i+len("<summary>"):]
		if j := strings.Index(s, "</summary>"); j >= 0 {
			s = s[:j]
		}
	}
	return strings.Join(strings.Fields(s), " ")
}
