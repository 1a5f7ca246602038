package golang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// newExtraction starts reading the file path (src, parsed into root).
func newExtraction(path string, src []byte, root *ts.Node) *extraction {
	facts := lang.NewFileFacts("go", path, src, root)
	return &extraction{src: src, facts: facts, scopes: lang.NewScopeFinder(&facts.Symbols)}
}

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	x.facts.Constraint = buildConstraint(src)
	e.Q.Read(e.Cursor, root, src, x.readDefs, x.readUses)
	x.readRefs()
	x.addAnonStructs()
	return x.facts, nil
}

// ExtractSymbols reads the symbols of a tree of src alone, with the
// declarations' query only: no calls, bindings or references, and none of
// the hidden anonymous struct types that uses add. The history maps
// changed lines onto symbols and needs nothing else.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	e.Q.ReadDefs(e.Cursor, root, src, x.readDefs)
	return x.facts, nil
}

type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// receivers maps a method's symbol index to its receiver's name.
	receivers map[int]string
	// anon are the anonymous struct types of composite literals.
	anon []anonStruct
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
	var (
		cPackage  = q.Capture("package")
		cImport   = q.Capture("import")
		cAlias    = q.Capture("import.alias")
		cPath     = q.Capture("import.path")
		cFunction = q.Capture("function")
		cMethod   = q.Capture("method")
		cType     = q.Capture("type")
		cTypeAl   = q.Capture("alias")
		cConst    = q.Capture("const")
		cVar      = q.Capture("var")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cPackage) != nil:
			x.facts.Package = x.text(m.Node(cPackage))
		case m.Node(cImport) != nil:
			x.addImport(m.Node(cAlias), m.Node(cPath))
		case m.Node(cFunction) != nil:
			x.addFunction(m.Node(cFunction))
		case m.Node(cMethod) != nil:
			x.addMethod(m.Node(cMethod))
		case m.Node(cType) != nil:
			x.addTypeSpec(m.Node(cType), false)
		case m.Node(cTypeAl) != nil:
			x.addTypeSpec(m.Node(cTypeAl), true)
		case m.Node(cConst) != nil:
			x.addValueSpec(m.Node(cConst), graph.KindConst)
		case m.Node(cVar) != nil:
			x.addValueSpec(m.Node(cVar), graph.KindVariable)
		}
	}
}

func (x *extraction) addImport(alias, pathNode *ts.Node) {
	p := strings.Trim(x.text(pathNode), "\"`")
	imp := lang.Import{Kind: lang.ImportModule, Path: p, Line: lang.Line(pathNode), Scope: -1}
	if alias != nil {
		switch a := x.text(alias); a {
		case ".":
			imp.Kind = lang.ImportWildcard
		case "_":
			imp.Kind = lang.ImportSideEffect
		default:
			imp.Alias = a
		}
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}

func exported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// doc returns the first paragraph of the comment block right above n, or
// above its declaration when n is the only spec of a declaration.
func (x *extraction) doc(n *ts.Node) string {
	isComment := func(c *ts.Node) bool { return c.Kind() == "comment" }
	texts := lang.CommentsBefore(n, x.src, isComment)
	if len(texts) == 0 {
		if p := n.Parent(); p != nil && p.NamedChildCount() == 1 {
			switch p.Kind() {
			case "type_declaration", "const_declaration", "var_declaration":
				texts = lang.CommentsBefore(p, x.src, isComment)
			case "var_spec_list":
			}
		}
	}
	return lang.FirstParagraph(lang.CleanComment(texts))
}

// header is the declaration text up to its body, on one line.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():end])))
	s = lang.Cap(s, 300)
	return s
}

func (x *extraction) addFunction(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	if name == "_" {
		return
	}
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: graph.KindFunction, Name: name, Parent: -1, Span: sp,
		Signature: x.header(n, n.ChildByFieldName("body")),
		Doc:       x.doc(n), Exported: exported(name),
		Content:    lang.Content(x.src, sp),
		Params:     x.params(n.ChildByFieldName("parameters")),
		Returns:    x.results(n.ChildByFieldName("result")),
		TypeParams: x.typeParams(n.ChildByFieldName("type_parameters")),
	}
	x.add(s)
}

// typeParams reads a type parameter list: each name with its constraint.
func (x *extraction) typeParams(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	c := list.Walk()
	defer c.Close()
	for _, d := range list.NamedChildren(c) {
		if d.Kind() != "type_parameter_declaration" {
			continue
		}
		constraint := lang.OneLine(x.text(d.ChildByFieldName("type")))
		for _, nm := range d.ChildrenByFieldName("name", c) {
			out = append(out, lang.Param{Name: x.text(&nm), Type: constraint})
		}
	}
	return out
}

// receiverTypeParams returns the names a method's receiver gives the type
// parameters of its type: "*Stack[T, U]" → T, U.
func receiverTypeParams(recvType string) []lang.Param {
	open := strings.IndexByte(recvType, '[')
	end := strings.LastIndexByte(recvType, ']')
	if open < 0 || end < open {
		return nil
	}
	var out []lang.Param
	for _, name := range strings.Split(recvType[open+1:end], ",") {
		out = append(out, lang.Param{Name: strings.TrimSpace(name)})
	}
	return out
}

func (x *extraction) addMethod(n *ts.Node) {
	name := x.text(n.ChildByFieldName("name"))
	if name == "_" {
		return
	}
	recvName, recvType := x.receiver(n.ChildByFieldName("receiver"))
	base := baseTypeName(recvType)
	sp := lang.SpanOf(n)
	s := lang.Symbol{
		Kind: graph.KindMethod, Name: name, Qual: base + "." + name, Parent: -1, Span: sp,
		Signature: x.header(n, n.ChildByFieldName("body")),
		Doc:       x.doc(n), Exported: exported(name),
		Content:    lang.Content(x.src, sp),
		Params:     x.params(n.ChildByFieldName("parameters")),
		Returns:    x.results(n.ChildByFieldName("result")),
		Receiver:   base,
		TypeParams: receiverTypeParams(recvType),
	}
	if base == "" {
		s.Qual = name
	}
	idx := x.add(s)
	if recvName != "" && recvName != "_" {
		if x.receivers == nil {
			x.receivers = map[int]string{}
		}
		x.receivers[idx] = recvName
		x.facts.Bindings = append(x.facts.Bindings, lang.Binding{
			Scope: idx, Name: recvName, Type: recvType, Byte: sp.StartByte,
		})
	}
}

// receiver returns the receiver's name and type text.
func (x *extraction) receiver(list *ts.Node) (name, typ string) {
	if list == nil {
		return "", ""
	}
	for i := uint(0); i < list.NamedChildCount(); i++ {
		p := list.NamedChild(i)
		if p.Kind() != "parameter_declaration" {
			continue
		}
		if nn := p.ChildByFieldName("name"); nn != nil {
			name = x.text(nn)
		}
		return name, lang.OneLine(x.text(p.ChildByFieldName("type")))
	}
	return "", ""
}

// baseTypeName strips pointers, type arguments and parentheses from a
// receiver type: "*Server[T]" → "Server".
func baseTypeName(t string) string {
	t = strings.TrimSpace(t)
	for {
		switch {
		case strings.HasPrefix(t, "*"):
			t = strings.TrimSpace(t[1:])
			continue
		case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")"):
			t = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		break
	}
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	c := list.Walk()
	defer c.Close()
	for _, p := range list.NamedChildren(c) {
		typ := lang.OneLine(x.text(p.ChildByFieldName("type")))
		variadic := p.Kind() == "variadic_parameter_declaration"
		if variadic {
			typ = "[]" + typ
		} else if p.Kind() != "parameter_declaration" {
			continue
		}
		names := p.ChildrenByFieldName("name", c)
		if len(names) == 0 {
			out = append(out, lang.Param{Type: typ, Variadic: variadic})
		}
		for i := range names {
			out = append(out, lang.Param{Name: x.text(&names[i]), Type: typ, Variadic: variadic})
		}
	}
	return out
}

func (x *extraction) results(n *ts.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind() != "parameter_list" {
		return []string{lang.OneLine(x.text(n))}
	}
	var out []string
	for _, p := range x.params(n) {
		out = append(out, p.Type)
	}
	return out
}

func (x *extraction) addTypeSpec(n *ts.Node, alias bool) {
	name := x.text(n.ChildByFieldName("name"))
	if name == "_" {
		return
	}
	typeNode := n.ChildByFieldName("type")
	sp := lang.SpanOf(n)
	parent := x.scopes.Innermost(sp.StartByte, func(s *lang.Symbol) bool { return s.Kind.IsCallable() })
	qual := name
	if parent >= 0 {
		qual = x.facts.Symbols[parent].Qual + "." + name
	}
	s := lang.Symbol{
		Name: name, Qual: qual, Parent: parent, Span: sp,
		Doc: x.doc(n), Exported: exported(name) && parent < 0,
		Content: lang.Content(x.src, sp),
	}
	kind := ""
	if typeNode != nil {
		kind = typeNode.Kind()
	}
	switch {
	case alias:
		s.Kind = graph.KindTypeAlias
		s.Type = lang.OneLine(x.text(typeNode))
		s.Signature = "type " + name + " = " + s.Type
	case kind == "struct_type":
		s.Kind = graph.KindStruct
		s.Signature = "type " + name + " struct"
	case kind == "interface_type":
		s.Kind = graph.KindInterface
		s.Signature = "type " + name + " interface"
	default:
		s.Kind = graph.KindTypeAlias
		s.Type = lang.OneLine(x.text(typeNode))
		s.Signature = "type " + name + " " + s.Type
	}
	if tp := n.ChildByFieldName("type_parameters"); tp != nil {
		s.Signature = strings.Replace(s.Signature, name, name+lang.OneLine(x.text(tp)), 1)
		s.TypeParams = x.typeParams(tp)
	}
	s.Signature = lang.Cap(s.Signature, 300)
	idx := x.add(s)
	switch kind {
	case "struct_type":
		x.addFields(idx, typeNode)
	case "interface_type":
		x.addInterfaceElems(idx, typeNode)
	}
}

func (x *extraction) addFields(owner int, structType *ts.Node) {
	var list *ts.Node
	for i := uint(0); i < structType.NamedChildCount(); i++ {
		if c := structType.NamedChild(i); c.Kind() == "field_declaration_list" {
			list = c
		}
	}
	if list == nil {
		return
	}
	c := list.Walk()
	defer c.Close()
	ownerName := x.facts.Symbols[owner].Qual
	ownerExported := x.facts.Symbols[owner].Exported
	for _, f := range list.NamedChildren(c) {
		if f.Kind() != "field_declaration" {
			continue
		}
		typ := lang.OneLine(x.text(f.ChildByFieldName("type")))
		sp := lang.SpanOf(&f)
		doc := x.doc(&f)
		names := f.ChildrenByFieldName("name", c)
		if len(names) == 0 {
			// Embedded field: named after its type; its methods are promoted.
			name := baseTypeName(typ)
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			x.facts.Symbols[owner].Bases = append(x.facts.Symbols[owner].Bases, lang.Base{Type: typ, Kind: lang.BaseEmbedded})
			x.add(lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: ownerName + "." + name, Parent: owner,
				Span: sp, Signature: typ, Doc: doc, Exported: exported(name) && ownerExported, Type: typ, Content: lang.Content(x.src, sp)})
			continue
		}
		for i := range names {
			name := x.text(&names[i])
			if name == "_" {
				continue
			}
			x.add(lang.Symbol{Kind: graph.KindProperty, Name: name, Qual: ownerName + "." + name, Parent: owner,
				Span: sp, Signature: name + " " + typ, Doc: doc, Exported: exported(name) && ownerExported, Type: typ,
				Content: lang.Content(x.src, sp)})
		}
	}
}

func (x *extraction) addInterfaceElems(owner int, iface *ts.Node) {
	c := iface.Walk()
	defer c.Close()
	ownerName := x.facts.Symbols[owner].Qual
	for _, el := range iface.NamedChildren(c) {
		switch el.Kind() {
		case "method_elem":
			name := x.text(el.ChildByFieldName("name"))
			sp := lang.SpanOf(&el)
			x.add(lang.Symbol{Kind: graph.KindMethod, Name: name, Qual: ownerName + "." + name, Parent: owner,
				Span: sp, Signature: lang.OneLine(x.text(&el)), Doc: x.doc(&el), Exported: exported(name),
				Abstract: true, Content: lang.Content(x.src, sp),
				Params:  x.params(el.ChildByFieldName("parameters")),
				Returns: x.results(el.ChildByFieldName("result"))})
		case "type_elem":
			// An embedded interface: exactly one named type, not a union or
			// an approximation constraint.
			if el.NamedChildCount() != 1 {
				continue
			}
			t := el.NamedChild(0)
			if k := t.Kind(); k == "type_identifier" || k == "qualified_type" || k == "generic_type" {
				x.facts.Symbols[owner].Bases = append(x.facts.Symbols[owner].Bases,
					lang.Base{Type: lang.OneLine(x.text(t)), Kind: lang.BaseEmbedded})
			}
		}
	}
}

func (x *extraction) addValueSpec(n *ts.Node, kind graph.NodeKind) {
	c := n.Walk()
	defer c.Close()
	names := n.ChildrenByFieldName("name", c)
	typ := lang.OneLine(x.text(n.ChildByFieldName("type")))
	var values []ts.Node
	if v := n.ChildByFieldName("value"); v != nil {
		values = v.NamedChildren(c)
	}
	sp := lang.SpanOf(n)
	doc := x.doc(n)
	sig := lang.OneLine(x.text(n))
	sig = lang.Cap(sig, 200)
	word := "var "
	if kind == graph.KindConst {
		word = "const "
	}
	for i := range names {
		name := x.text(&names[i])
		if name == "_" {
			continue
		}
		s := lang.Symbol{Kind: kind, Name: name, Parent: -1, Span: sp, Signature: word + sig, Doc: doc,
			Exported: exported(name), Type: typ, Content: lang.Content(x.src, sp)}
		if typ == "" && len(values) == len(names) {
			s.Value = x.expr(&values[i], 0)
		}
		x.add(s)
	}
}
