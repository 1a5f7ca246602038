package c

import (
	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// How a C file becomes symbols:
//
//   - A function definition is a Function (Static for `static`, Exported
//     otherwise). A prototype is not a node: the graph has one node per
//     function, its definition; a function only declared (a library's) has
//     none. Prototypes are kept as hidden symbols named "#proto.f" so that
//     the resolver knows which headers declare which names.
//   - Structs and unions are Structs with their fields as Properties,
//     enums are Enums with their enumerators as Const members, typedefs are
//     TypeAliases (`typedef struct {...} T;` is the Struct T itself).
//   - File-scope variables are Variables (`static` ones are Static and not
//     exported; `extern` declarations are not definitions and are left out).
//   - `#define NAME literal` is a Const; other macros have no node. A
//     function-like macro is a hidden symbol "#define.f": a call of f in a
//     file that sees it is a macro invocation, never a CALLS edge.
//   - `#include` is an ImportSideEffect whose Path is the header as written
//     between the quotes, or with its angle brackets (`<stdio.h>`).
//   - Declarations inside function bodies are locals (bindings), not
//     symbols.

func newExtraction(path string, src []byte, root *ts.Node) *extraction {
	facts := lang.NewFileFacts("c", path, src, root)
	return &extraction{
		src:    src,
		facts:  facts,
		scopes: lang.NewScopeFinder(&facts.Symbols),
		macros: map[string]bool{},
	}
}

// ExtractTree reads the facts off a tree of src the caller parsed. A
// header written in C++ yields no facts beyond its lines: it is left to a
// C++ language.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	if isCPlusPlusHeader(path, src) {
		return x.facts, nil
	}
	x.uses = true
	e.Q.Read(e.Cursor, root, src, x.readDefs, x.readUses)
	return x.facts, nil
}

// ExtractSymbols reads the symbols of a tree of src alone.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	if isCPlusPlusHeader(path, src) {
		return x.facts, nil
	}
	e.Q.ReadDefs(e.Cursor, root, src, x.readDefs)
	return x.facts, nil
}

type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// uses: the full extraction, which also records locals.
	uses bool
	// macros are the names of the function-like macros the file defines.
	macros map[string]bool
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
	var (
		cFunction = q.Capture("function")
		cDecl     = q.Capture("declaration")
		cTypedef  = q.Capture("typedef")
		cStruct   = q.Capture("struct")
		cUnion    = q.Capture("union")
		cEnum     = q.Capture("enum")
		cDefine   = q.Capture("define")
		cMacro    = q.Capture("macrodef")
		cInclude  = q.Capture("include")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cFunction) != nil:
			x.addFunction(m.Node(cFunction))
		case m.Node(cDecl) != nil:
			x.addDeclaration(m.Node(cDecl))
		case m.Node(cTypedef) != nil:
			x.addTypedef(m.Node(cTypedef))
		case m.Node(cStruct) != nil:
			x.addStruct(m.Node(cStruct))
		case m.Node(cUnion) != nil:
			x.addStruct(m.Node(cUnion))
		case m.Node(cEnum) != nil:
			x.addEnum(m.Node(cEnum))
		case m.Node(cDefine) != nil:
			x.addDefine(m.Node(cDefine))
		case m.Node(cMacro) != nil:
			x.addMacro(m.Node(cMacro))
		case m.Node(cInclude) != nil:
			x.addInclude(m.Node(cInclude))
		}
	}
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// inFunction reports whether n lies in a function definition.
func inFunction(n *ts.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "function_definition" {
			return true
		}
	}
	return false
}

// storage reports the storage class specifiers of a declaration.
func (x *extraction) storage(n *ts.Node) (static, extern, inline bool) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "storage_class_specifier":
			switch x.text(c) {
			case "static":
				static = true
			case "extern":
				extern = true
			case "inline", "__inline", "__inline__":
				inline = true
			}
		}
	}
	return
}

// declared follows a declarator down to the name it declares; fn reports
// that the name is a function's (its declarator is a function_declarator),
// params the function's parameter list. `int (*fp)(void)` declares the
// variable fp, `int *(*f(int))(char)` the function f.
func declared(d *ts.Node) (name *ts.Node, fn bool, params *ts.Node) {
	for d != nil {
		switch d.Kind() {
		case "identifier", "field_identifier", "type_identifier", "primitive_type":
			return d, false, nil
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner != nil && (inner.Kind() == "identifier" || inner.Kind() == "field_identifier") {
				return inner, true, d.ChildByFieldName("parameters")
			}
			d = inner
		case "parenthesized_declarator", "attributed_declarator":
			d = d.NamedChild(0)
		default:
			d = d.ChildByFieldName("declarator")
		}
	}
	return nil, false, nil
}

// header is the declaration text up to its body, on one line.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	return DeclarationHeader(x.src, n, body)
}

// doc is the first paragraph of the comments right above n: a `/** */`
// block or a run of `//` lines.
func (x *extraction) doc(n *ts.Node) string {
	texts := lang.CommentsBefore(n, x.src, func(p *ts.Node) bool { return p.Kind() == "comment" })
	return lang.FirstParagraph(lang.CleanComment(texts))
}

// params reads a parameter list; `(void)` is no parameter.
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		c := list.NamedChild(i)
		switch c.Kind() {
		case "variadic_parameter":
			out = append(out, lang.Param{Name: "...", Variadic: true})
		case "parameter_declaration":
			typ := c.ChildByFieldName("type")
			d := c.ChildByFieldName("declarator")
			if d == nil {
				if typ != nil && x.text(typ) == "void" && list.NamedChildCount() == 1 {
					return nil
				}
				out = append(out, lang.Param{Type: x.typeText(c, typ, nil)})
				continue
			}
			name, _, _ := declared(d)
			prm := lang.Param{Type: x.typeText(c, typ, d)}
			if name != nil {
				prm.Name = x.text(name)
			}
			out = append(out, prm)
		}
	}
	return out
}

// typeText is a declaration's type as written: the type specifier and the
// declarator's pointer stars, `char *`.
func (x *extraction) typeText(decl, typ, d *ts.Node) string {
	if typ == nil {
		return ""
	}
	t := x.text(typ)
	for d != nil && d.Kind() == "pointer_declarator" {
		t += "*"
		d = d.ChildByFieldName("declarator")
	}
	return lang.OneLine(t)
}

func (x *extraction) addFunction(n *ts.Node) {
	name, fn, params := declared(n.ChildByFieldName("declarator"))
	if !fn {
		name, params = callingConvention(n)
	}
	if name == nil {
		return
	}
	static, _, _ := x.storage(n)
	body := n.ChildByFieldName("body")
	var decorators []string
	if x.forPlatform(n) {
		decorators = []string{platformDecorator}
	}
	x.add(lang.Symbol{
		Decorators: decorators,
		Kind:       graph.KindFunction, Name: x.text(name), Parent: -1, Span: lang.SpanOf(n),
		Signature: x.header(n, body), Doc: x.doc(n), Exported: !static, Static: static,
		Content: lang.Content(x.src, lang.SpanOf(n)),
		Returns: []string{x.typeText(n, n.ChildByFieldName("type"), n.ChildByFieldName("declarator"))},
		Params:  x.params(params),
	})
}

// callingConvention reads a definition whose return type is followed by
// a macro (`int CJSON_CDECL main(void) {`): the grammar ends a
// declaration at the macro and parses `main (void) {...}` as a function
// of type main with a parenthesized declarator, which no C function is.
// The name is that type; the parameters are left unread.
func callingConvention(n *ts.Node) (name, params *ts.Node) {
	typ, d := n.ChildByFieldName("type"), n.ChildByFieldName("declarator")
	if typ == nil || d == nil || typ.Kind() != "type_identifier" || d.Kind() != "parenthesized_declarator" {
		return nil, nil
	}
	return typ, nil
}

// addDeclaration reads a declaration at file scope (prototypes, globals)
// or, in a function, its locals.
func (x *extraction) addDeclaration(n *ts.Node) {
	if p := n.Parent(); p != nil && p.Kind() == "for_statement" || inFunction(n) {
		x.addLocals(n)
		return
	}
	if n.HasError() {
		return // `int CJSON_CDECL` before a definition the grammar split
	}
	static, extern, _ := x.storage(n)
	typ := n.ChildByFieldName("type")
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		name, fn, params := declared(c)
		if name == nil || name.Kind() != "identifier" {
			continue
		}
		if fn {
			x.add(lang.Symbol{
				Kind: graph.KindFunction, Name: x.text(name), Qual: "#proto." + x.text(name), Parent: -1,
				Span: lang.SpanOf(n), Hidden: true, Abstract: true, Static: static, Exported: !static,
				Params: x.params(params),
			})
			continue
		}
		if extern {
			continue
		}
		x.add(lang.Symbol{
			Kind: graph.KindVariable, Name: x.text(name), Parent: -1, Span: lang.SpanOf(n),
			Signature: x.header(n, nil), Doc: x.doc(n), Exported: !static, Static: static,
			Type: x.typeText(n, typ, c),
		})
	}
}

// addLocals records the variables a declaration in a function binds: a
// local hides a function of the same name.
func (x *extraction) addLocals(n *ts.Node) {
	if !x.uses {
		return
	}
	typ := n.ChildByFieldName("type")
	scope := x.scopes.CallScope(uint32(n.StartByte()))
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if n.FieldNameForNamedChild(uint32(i)) != "declarator" {
			continue
		}
		name, fn, _ := declared(c)
		if name == nil || fn {
			continue // a block-scope prototype declares the outer function
		}
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: scope, Name: x.text(name), Type: x.typeText(n, typ, c), Byte: uint32(n.StartByte()),
		})
	}
}
