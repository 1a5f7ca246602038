package rust

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// How a Rust file becomes symbols:
//
//   - Functions, structs, unions (Struct), enums (their variants are Const
//     members, as Java enum constants are), traits (Interface, their methods
//     abstract unless they have a default body), type aliases, consts and
//     statics (Variable) are named after their module inside the file:
//     `helper`, `tests::helper` in an inline `mod tests { ... }`.
//   - An inline module is a hidden Package symbol: the resolver makes it a
//     module; its items stay at file level (Parent -1) so that the file
//     defines them.
//   - An impl block is a hidden Class symbol named "impl" whose Receiver is
//     the impl's type as written and whose Type is the trait, "" for an
//     inherent impl. Its functions are Methods named after the type
//     (`Point.new`; Static without a self parameter), its consts are its
//     members; the resolver attaches them to the type.
//   - `mod x;` is an Import of kind ImportModule (Name x, Path the #[path]
//     attribute); `use` declarations are ImportName (Path the module path,
//     Name the last segment) or ImportWildcard imports; an import's Scope is
//     the inline module or function it is declared in.
//   - macro_rules! definitions have no node kind and are left out; macro
//     invocations are counted (FileFacts.Macros), never calls.

// Extract parses one Rust file and returns its facts.
func (e *extractor) Extract(path string, src []byte) (*lang.FileFacts, error) {
	tree, err := e.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return e.ExtractTree(path, src, tree)
}

// Grammar is the tree-sitter language of Rust files.
func (e *extractor) Grammar(string) *ts.Language { return e.q.lang }

func newExtraction(path string, src []byte, root *ts.Node) *extraction {
	x := &extraction{
		src:   src,
		facts: &lang.FileFacts{Path: path, Language: "rust", Lines: lang.CountLines(src)},
	}
	x.scopes = lang.NewScopeFinder(&x.facts.Symbols)
	x.facts.SyntaxErrors = lang.CountSyntaxErrors(root)
	return x
}

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	// Items must all be known before uses are attributed to them.
	defs, uses := e.q.all.CollectSplit(e.Cursor, root, src, e.q.defsPatterns)
	x.readDefs(e.q.all, defs)
	x.readUses(e.q.all, uses)
	if err := e.readMacroArgs(x); err != nil {
		return nil, err
	}
	x.readRefs()
	return x.facts, nil
}

// ExtractSymbols reads the symbols of a tree of src alone, with the items'
// query only: what the history needs of each version of a file.
func (e *extractor) ExtractSymbols(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	x.readDefs(e.q.defs, e.q.defs.Collect(e.Cursor, root, src))
	return x.facts, nil
}

type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// modules are the indexes of the inline module symbols.
	modules []int
	// macroArgs are the invocations of macros whose arguments are
	// expressions, outermost only: [start, end) of `name!(...)`.
	macroArgs [][2]uint32
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// name is the text of an identifier without the raw prefix: `r#match` is
// the module match.
func (x *extraction) name(n *ts.Node) string { return strings.TrimPrefix(x.text(n), "r#") }

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
	var (
		cFunction  = q.Capture("function")
		cSignature = q.Capture("signature")
		cStruct    = q.Capture("struct")
		cUnion     = q.Capture("union")
		cEnum      = q.Capture("enum")
		cAlias     = q.Capture("alias")
		cConst     = q.Capture("const")
		cStatic    = q.Capture("static")
		cTrait     = q.Capture("trait")
		cImpl      = q.Capture("impl")
		cMod       = q.Capture("mod")
		cUse       = q.Capture("use")
		cExtern    = q.Capture("extern")
	)
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(cFunction) != nil:
			x.addFunction(m.Node(cFunction))
		case m.Node(cSignature) != nil:
			x.addFunction(m.Node(cSignature))
		case m.Node(cStruct) != nil:
			x.addStruct(m.Node(cStruct))
		case m.Node(cUnion) != nil:
			x.addStruct(m.Node(cUnion))
		case m.Node(cEnum) != nil:
			x.addEnum(m.Node(cEnum))
		case m.Node(cAlias) != nil:
			x.addAlias(m.Node(cAlias))
		case m.Node(cConst) != nil:
			x.addValue(m.Node(cConst), graph.KindConst)
		case m.Node(cStatic) != nil:
			x.addValue(m.Node(cStatic), graph.KindVariable)
		case m.Node(cTrait) != nil:
			x.addTrait(m.Node(cTrait))
		case m.Node(cImpl) != nil:
			x.addImpl(m.Node(cImpl))
		case m.Node(cMod) != nil:
			x.addMod(m.Node(cMod))
		case m.Node(cUse) != nil:
			x.addUse(m.Node(cUse))
		case m.Node(cExtern) != nil:
			x.addExternCrate(m.Node(cExtern))
		}
	}
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int {
	s.Name = lang.ValidUTF8(s.Name)
	if s.Qual == "" {
		s.Qual = s.Name
	}
	x.facts.Symbols = append(x.facts.Symbols, s)
	return len(x.facts.Symbols) - 1
}

// parentOf is the innermost symbol other than a module that contains n:
// a function (items in blocks), a trait or an impl block; -1 when n is a
// module-level item.
func (x *extraction) parentOf(n *ts.Node) int {
	return x.scopes.Innermost(uint32(n.StartByte()), func(s *lang.Symbol) bool { return s.Kind != graph.KindPackage })
}

// moduleAt is the innermost inline module symbol containing pos, -1 when
// it is the file's own module.
func (x *extraction) moduleAt(pos uint32) int {
	best := -1
	for _, i := range x.modules {
		if x.facts.Symbols[i].Contains(pos) {
			best = i // later modules nest inside earlier ones
		}
	}
	return best
}

// qualify names an item: after its parent, or after its inline module.
func (x *extraction) qualify(n *ts.Node, parent int, name string) string {
	if parent >= 0 {
		return x.facts.Symbols[parent].Qual + "." + name
	}
	if m := x.moduleAt(uint32(n.StartByte())); m >= 0 {
		return x.facts.Symbols[m].Qual + "::" + name
	}
	return name
}

// inBody reports whether the parent is a callable: an item in a block.
func (x *extraction) inBody(parent int) bool {
	return parent >= 0 && x.facts.Symbols[parent].Kind.IsCallable()
}

func isPub(n *ts.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "visibility_modifier" {
			return true
		}
	}
	return false
}

// header is the declaration text up to its body, on one line.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():end])))
	s = strings.TrimSuffix(s, ";")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.TrimSpace(s)
}

// doc returns the first paragraph of the outer doc comments (`///`,
// `/** */`) above n, across attributes written between them and n.
func (x *extraction) doc(n *ts.Node) string {
	var texts []string
	line := int(n.StartPosition().Row)
siblings:
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		end := int(p.EndPosition().Row)
		if p.EndPosition().Column == 0 && end > int(p.StartPosition().Row) {
			end--
		}
		if end != line-1 && end != line {
			break
		}
		switch p.Kind() {
		case "attribute_item":
		case "line_comment", "block_comment":
			t := x.text(p)
			switch {
			case strings.HasPrefix(t, "///") && !strings.HasPrefix(t, "////"):
				texts = append(texts, strings.TrimPrefix(t, "///"))
			case strings.HasPrefix(t, "/**") && !strings.HasPrefix(t, "/***"):
				texts = append(texts, t)
			}
		default:
			break siblings
		}
		line = int(p.StartPosition().Row)
	}
	for i, j := 0, len(texts)-1; i < j; i, j = i+1, j-1 {
		texts[i], texts[j] = texts[j], texts[i]
	}
	var lines []string
	for _, t := range texts {
		if strings.HasPrefix(t, "/**") {
			lines = append(lines, lang.CleanComment([]string{t})...)
		} else {
			lines = append(lines, strings.TrimSpace(t))
		}
	}
	return lang.FirstParagraph(lines)
}

// container is the item whose declaration list holds n: an impl_item,
// trait_item, mod_item or foreign_mod_item; nil for other places.
func container(n *ts.Node) *ts.Node {
	p := n.Parent()
	if p == nil || p.Kind() != "declaration_list" {
		return nil
	}
	return p.Parent()
}

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

// addMod adds an inline module as a hidden symbol, or a `mod x;`
// declaration as an import of the file that holds the module.
func (x *extraction) addMod(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	parent := x.parentOf(n)
	scope := x.moduleAt(uint32(n.StartByte()))
	if x.inBody(parent) {
		scope = parent
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportModule, Name: name,
			Path: x.pathAttribute(n), Line: lang.Line(n), Reexport: isPub(n), Scope: scope})
		return
	}
	qual := name
	if scope >= 0 {
		qual = x.facts.Symbols[scope].Qual + "::" + name
	}
	sp := lang.SpanOf(n)
	idx := x.add(lang.Symbol{Kind: graph.KindPackage, Name: name, Qual: qual, Parent: parent, Span: sp, Hidden: true,
		Exported: isPub(n), Doc: x.doc(n), Signature: x.header(n, body)})
	x.modules = append(x.modules, idx)
}

// pathAttribute returns the value of a #[path = "..."] attribute on n.
func (x *extraction) pathAttribute(n *ts.Node) string {
	for p := n.PrevSibling(); p != nil && p.Kind() == "attribute_item"; p = p.PrevSibling() {
		a := p.NamedChild(0)
		if a == nil || a.Kind() != "attribute" || a.NamedChildCount() == 0 || x.text(a.NamedChild(0)) != "path" {
			continue
		}
		if v := a.ChildByFieldName("value"); v != nil && v.Kind() == "string_literal" {
			return strings.Trim(x.text(v), "\"")
		}
	}
	return ""
}

// importScope is where an import at n is visible: the function whose block
// declares it, else its inline module, else -1 (the file's module).
func (x *extraction) importScope(n *ts.Node) int {
	pos := uint32(n.StartByte())
	if f := x.scopes.Innermost(pos, func(s *lang.Symbol) bool { return s.Kind.IsCallable() }); f >= 0 {
		return f
	}
	return x.moduleAt(pos)
}

func (x *extraction) addUse(n *ts.Node) {
	arg := n.ChildByFieldName("argument")
	if arg == nil {
		return
	}
	scope := x.importScope(n)
	pub := isPub(n)
	line := lang.Line(n)
	x.useTree(arg, nil, func(segs []string, alias string, glob bool) {
		imp := lang.Import{Line: line, Reexport: pub, Scope: scope, Alias: alias}
		switch {
		case glob:
			imp.Kind = lang.ImportWildcard
			imp.Path = strings.Join(segs, "::")
		case len(segs) == 0:
			return
		default:
			imp.Kind = lang.ImportName
			imp.Path = strings.Join(segs[:len(segs)-1], "::")
			imp.Name = segs[len(segs)-1]
		}
		x.facts.Imports = append(x.facts.Imports, imp)
	})
}

// useTree flattens a use tree into its leaves: the path segments, the
// alias, and whether the leaf is a glob.
func (x *extraction) useTree(n *ts.Node, prefix []string, leaf func(segs []string, alias string, glob bool)) {
	join := func(segs []string) []string { return append(append([]string(nil), prefix...), segs...) }
	switch n.Kind() {
	case "use_as_clause":
		segs := join(x.pathSegments(n.ChildByFieldName("path")))
		if len(segs) > 0 && segs[len(segs)-1] == "self" {
			segs = segs[:len(segs)-1]
		}
		leaf(segs, x.name(n.ChildByFieldName("alias")), false)
	case "use_wildcard":
		var segs []string
		if n.NamedChildCount() > 0 {
			segs = x.pathSegments(n.NamedChild(0))
		}
		leaf(join(segs), "", true)
	case "scoped_use_list":
		segs := join(x.pathSegments(n.ChildByFieldName("path")))
		if list := n.ChildByFieldName("list"); list != nil {
			x.useTree(list, segs, leaf)
		}
	case "use_list":
		c := n.Walk()
		defer c.Close()
		for _, ch := range n.NamedChildren(c) {
			x.useTree(&ch, prefix, leaf)
		}
	case "identifier", "scoped_identifier", "crate", "self", "super", "metavariable":
		segs := join(x.pathSegments(n))
		if len(segs) > 0 && segs[len(segs)-1] == "self" && len(segs) > 1 {
			segs = segs[:len(segs)-1] // `use a::b::{self}` binds b
		}
		leaf(segs, "", false)
	}
}

// pathSegments splits a path node into its segments: "crate::a::b" →
// crate, a, b. Generic arguments are dropped.
func (x *extraction) pathSegments(n *ts.Node) []string {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "scoped_identifier", "scoped_type_identifier":
		segs := x.pathSegments(n.ChildByFieldName("path"))
		return append(segs, x.name(n.ChildByFieldName("name")))
	case "generic_type":
		return x.pathSegments(n.ChildByFieldName("type"))
	case "identifier", "type_identifier", "crate", "self", "super":
		return []string{x.name(n)}
	}
	return nil
}

func (x *extraction) addExternCrate(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	alias := x.name(n.ChildByFieldName("alias"))
	x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportName, Name: name, Alias: alias,
		Line: lang.Line(n), Scope: x.importScope(n), Reexport: isPub(n)})
}
