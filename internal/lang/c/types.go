package c

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// typedefName is the name a `typedef` gives, when n is the type of one.
func (x *extraction) typedefName(n *ts.Node) string {
	p := n.Parent()
	if p == nil || p.Kind() != "type_definition" {
		return ""
	}
	for i := uint(0); i < p.NamedChildCount(); i++ {
		if p.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		if name, fn, _ := declared(p.NamedChild(i)); name != nil && !fn {
			return x.text(name)
		}
	}
	return ""
}

// addTypeWithBody adds the symbol of a struct, union or enum with a body,
// named by its tag or, when anonymous, by the typedef it is the type of;
// idx is -1 when it is local to a function or has no name.
func (x *extraction) addTypeWithBody(n *ts.Node, kind graph.NodeKind) (idx int, name string, body *ts.Node) {
	if inFunction(n) {
		return -1, "", nil
	}
	if nn := n.ChildByFieldName("name"); nn != nil {
		name = x.text(nn)
	} else if name = x.typedefName(n); name == "" {
		return -1, "", nil
	}
	decl := n
	if p := n.Parent(); p != nil && (p.Kind() == "type_definition" || p.Kind() == "declaration") {
		decl = p
	}
	body = n.ChildByFieldName("body")
	idx = x.add(lang.Symbol{
		Kind: kind, Name: name, Parent: -1, Span: lang.SpanOf(n),
		Signature: x.header(n, body), Doc: x.doc(decl), Exported: true, Content: lang.Content(x.src, lang.SpanOf(n)),
	})
	return idx, name, body
}

// addStruct adds a struct or union with a body and its fields. An
// anonymous one is named after the typedef it is the type of; one in a
// function body is local and left out.
func (x *extraction) addStruct(n *ts.Node) {
	idx, name, body := x.addTypeWithBody(n, graph.KindStruct)
	if idx < 0 {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		f := body.NamedChild(i)
		if f.Kind() != "field_declaration" {
			continue
		}
		typ := f.ChildByFieldName("type")
		for j := uint(0); j < f.NamedChildCount(); j++ {
			if f.FieldNameForNamedChild(uint32(j)) != "declarator" {
				continue
			}
			d := f.NamedChild(j)
			fname, _, _ := declared(d)
			if fname == nil {
				continue
			}
			x.add(lang.Symbol{
				Kind: graph.KindProperty, Name: x.text(fname), Qual: name + "." + x.text(fname), Parent: idx,
				Span: lang.SpanOf(f), Signature: x.header(f, nil), Doc: x.doc(f), Exported: true,
				Type: x.typeText(f, typ, d),
			})
		}
	}
}

// addEnum adds an enum with a body and its enumerators as Const members.
func (x *extraction) addEnum(n *ts.Node) {
	idx, name, body := x.addTypeWithBody(n, graph.KindEnum)
	if idx < 0 {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		e := body.NamedChild(i)
		if e.Kind() != "enumerator" {
			continue
		}
		en := e.ChildByFieldName("name")
		if en == nil {
			continue
		}
		x.add(lang.Symbol{
			Kind: graph.KindConst, Name: x.text(en), Qual: name + "." + x.text(en), Parent: idx,
			Span: lang.SpanOf(e), Signature: x.text(e), Doc: x.doc(e), Exported: true, Type: name,
		})
	}
}

// addTypedef adds a TypeAlias, unless the typedef names an anonymous
// struct, union or enum written in it (that type takes the name).
func (x *extraction) addTypedef(n *ts.Node) {
	if inFunction(n) {
		return
	}
	typ := n.ChildByFieldName("type")
	if typ == nil {
		return
	}
	switch typ.Kind() {
	case "struct_specifier", "union_specifier", "enum_specifier":
		if typ.ChildByFieldName("name") == nil && typ.ChildByFieldName("body") != nil {
			return
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		d := n.NamedChild(i)
		name, _, _ := declared(d)
		if name == nil {
			continue
		}
		x.add(lang.Symbol{
			Kind: graph.KindTypeAlias, Name: x.text(name), Parent: -1, Span: lang.SpanOf(n),
			Signature: x.header(n, typ.ChildByFieldName("body")), Doc: x.doc(n), Exported: true,
			Type: x.typeText(n, typ, d),
		})
	}
}

// addDefine adds `#define NAME literal` as a Const.
func (x *extraction) addDefine(n *ts.Node) {
	name, value := n.ChildByFieldName("name"), n.ChildByFieldName("value")
	if name == nil || value == nil || !isLiteral(strings.TrimSpace(x.text(value))) {
		return
	}
	x.add(lang.Symbol{
		Kind: graph.KindConst, Name: x.text(name), Parent: -1, Span: lang.SpanOf(n),
		Signature: x.header(n, nil), Doc: x.doc(n), Exported: true,
	})
}

// isLiteral reports whether a macro's text is a number, string or
// character literal, maybe negated or parenthesized.
func isLiteral(v string) bool {
	for strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") {
		v = strings.TrimSpace(v[1 : len(v)-1])
	}
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return false
	}
	switch {
	case v[0] == '"' && strings.HasSuffix(v, `"`) && len(v) > 1:
		return !strings.Contains(v[1:len(v)-1], `"`)
	case v[0] == '\'' && strings.HasSuffix(v, "'") && len(v) > 1:
		return len(v) <= 4
	case v[0] >= '0' && v[0] <= '9':
		for _, r := range v {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '_') {
				return false
			}
		}
		return true
	}
	return false
}

// addMacro records a function-like macro: hidden, so that calls of its
// name are known to be macro invocations.
func (x *extraction) addMacro(n *ts.Node) {
	if s, ok := MacroSymbol(n, x.src); ok {
		x.macros[s.Name] = true
		x.add(s)
	}
}

// addInclude records an #include of a header named between quotes or
// angle brackets; a computed include (`#include MACRO`) is left out.
func (x *extraction) addInclude(n *ts.Node) {
	if imp, ok := IncludeOf(n, x.src); ok {
		x.facts.Imports = append(x.facts.Imports, imp)
	}
}

// isCPlusPlusHeader reports whether a .h file is written in C++: a line
// of code (not of a comment) declares a class, a namespace or a template,
// or uses `::`.
func isCPlusPlusHeader(path string, src []byte) bool {
	if !strings.HasSuffix(strings.ToLower(path), ".h") {
		return false
	}
	inComment := false
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if inComment {
			if i := strings.Index(t, "*/"); i >= 0 {
				inComment = false
				t = strings.TrimSpace(t[i+2:])
			} else {
				continue
			}
		}
		for {
			i := strings.Index(t, "/*")
			if i < 0 {
				break
			}
			j := strings.Index(t[i+2:], "*/")
			if j < 0 {
				t, inComment = strings.TrimSpace(t[:i]), true
				break
			}
			t = strings.TrimSpace(t[:i] + " " + t[i+2+j+2:])
		}
		if i := strings.Index(t, "//"); i >= 0 {
			t = t[:i]
		}
		if strings.HasPrefix(t, "namespace ") || strings.HasPrefix(t, "template<") || strings.HasPrefix(t, "template <") ||
			strings.Contains(t, "::") || strings.HasPrefix(t, "class ") && !strings.HasSuffix(t, ";") && !strings.Contains(t, "=") {
			return true
		}
	}
	return false
}
