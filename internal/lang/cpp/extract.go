package cpp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// extraction is the state of reading one file, walked once in document
// order.
type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// symbolsOnly: record symbols only (ExtractSymbols).
	symbolsOnly bool
	// macros are the names of the function-like macros the file defines.
	macros map[string]bool
	// refs are the references recorded, once per scope, name and kind.
	refs map[refKey]bool
}

// context is where a declaration is written.
type context struct {
	parent int    // enclosing class, -1 at namespace scope
	ns     string // enclosing namespace, dotted ("a.b"), "" for the global one
	anon   bool   // inside an anonymous namespace
	// tparams are the template parameters of a template declaration
	// around the declaration.
	tparams []lang.Param
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// qual is the qualified name of name declared in cx.
func (x *extraction) qual(cx context, name string) string {
	if cx.parent >= 0 {
		return x.facts.Symbols[cx.parent].Qual + "." + name
	}
	if cx.ns != "" {
		return cx.ns + "." + name
	}
	return name
}

// declarations reads the children of a translation unit, namespace body,
// linkage block, preprocessor branch or class body.
func (x *extraction) declarations(n *ts.Node, cx context) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.declaration(n.NamedChild(i), cx)
	}
}

// declaration reads one declaration, or the declarations a wrapper
// holds: a namespace, a linkage specification (`extern "C"`), a
// template, a preprocessor branch.
func (x *extraction) declaration(c *ts.Node, cx context) {
	switch c.Kind() {
	case "namespace_definition":
		x.addNamespace(c, cx)
	case "linkage_specification":
		if body := c.ChildByFieldName("body"); body != nil && body.Kind() == "declaration_list" {
			x.declarations(body, cx)
		} else if body != nil {
			x.declaration(body, cx)
		}
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		x.declarations(c, cx)
	case "ERROR":
		// A macro invocation at namespace scope (`DEFINE_THING(int);`)
		// leaves an error that may hold the declarations after it.
		if cx.parent < 0 {
			x.declarations(c, cx)
		}
	case "template_declaration":
		inner := cx
		inner.tparams = x.templateParams(c.ChildByFieldName("parameters"))
		x.declarations(c, inner)
	case "preproc_include":
		x.addInclude(c)
	case "preproc_function_def":
		x.addMacro(c)
	case "class_specifier", "struct_specifier", "union_specifier":
		x.addClass(c, cx)
	case "enum_specifier":
		x.addEnum(c, cx)
	case "function_definition":
		x.addFunction(c, cx)
	case "declaration", "field_declaration":
		x.addDeclaration(c, cx)
	case "type_definition":
		x.addTypedef(c, cx)
	case "alias_declaration":
		x.addAlias(c, cx)
	case "using_declaration":
		x.addUsing(c, cx)
	case "expression_statement":
		// Code at namespace scope is a macro's doing (`TEST(a, b)`): its
		// calls belong to the file.
		x.code(c)
	}
}

// addNamespace reads `namespace a {...}`, `namespace a::b {...}` and
// `namespace {...}`: a hidden symbol names the namespace for the rules.
func (x *extraction) addNamespace(n *ts.Node, cx context) {
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	inner := cx
	inner.parent = -1
	name := n.ChildByFieldName("name")
	if name == nil {
		inner.anon = true
		x.declarations(body, inner)
		return
	}
	written := strings.ReplaceAll(strings.ReplaceAll(x.text(name), " ", ""), "::", ".")
	written = strings.ReplaceAll(written, "inline", "")
	if cx.ns != "" {
		written = cx.ns + "." + written
	}
	inner.ns = written
	x.add(lang.Symbol{Kind: graph.KindPackage, Name: written[strings.LastIndexByte(written, '.')+1:],
		Qual: namespaceMark + written, Parent: -1, Span: lang.SpanOf(n), Hidden: true, Exported: !cx.anon})
	x.declarations(body, inner)
}

// namespaceMark starts the Qual of the hidden symbol of a namespace.
const namespaceMark = "#namespace."

// templateParams reads `<typename T, class U = int, int N>`.
func (x *extraction) templateParams(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		c := list.NamedChild(i)
		switch c.Kind() {
		case "type_parameter_declaration", "variadic_type_parameter_declaration":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if id := c.NamedChild(j); id.Kind() == "type_identifier" {
					out = append(out, lang.Param{Name: x.text(id)})
				}
			}
		case "optional_type_parameter_declaration":
			if id := c.ChildByFieldName("name"); id != nil {
				out = append(out, lang.Param{Name: x.text(id)})
			}
		case "template_template_parameter_declaration":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if id := c.NamedChild(j); id.Kind() == "type_parameter_declaration" {
					for k := uint(0); k < id.NamedChildCount(); k++ {
						if t := id.NamedChild(k); t.Kind() == "type_identifier" {
							out = append(out, lang.Param{Name: x.text(t)})
						}
					}
				}
			}
		}
	}
	return out
}

// header is the declaration text up to its body, on one line.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	return c.DeclarationHeader(x.src, n, body)
}

// doc is the first paragraph of the comments right above n.
func (x *extraction) doc(n *ts.Node) string {
	if p := n.Parent(); p != nil && p.Kind() == "template_declaration" {
		n = p
	}
	texts := lang.CommentsBefore(n, x.src, func(p *ts.Node) bool { return p.Kind() == "comment" })
	return lang.FirstParagraph(lang.CleanComment(texts))
}

// specifiers reports the storage class and function specifiers of a
// declaration.
func (x *extraction) specifiers(n *ts.Node) (static, extern, virtual bool) {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch c.Kind() {
		case "storage_class_specifier":
			switch x.text(c) {
			case "static":
				static = true
			case "extern":
				extern = true
			}
		case "virtual":
			virtual = true
		case "virtual_function_specifier":
			virtual = true
		}
	}
	return
}

// isConst reports whether a declaration's type is `const` or `constexpr`.
func (x *extraction) isConst(n *ts.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "type_qualifier" && (x.text(c) == "const" || x.text(c) == "constexpr") {
			return true
		}
	}
	return false
}
