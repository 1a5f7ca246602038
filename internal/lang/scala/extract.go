package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// extraction is the state of reading one file, walked once in document
// order so that symbols are appended parents before children.
type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	scopes lang.ScopeFinder
	// symbolsOnly: record symbols only (ExtractSymbols).
	symbolsOnly bool
	// valueOwner is the val or var of a type or of the file whose
	// initializer is being read, -1 outside one: the defs and classes
	// declared in it are nested in it, not members of the type.
	valueOwner int
	// anonCount numbers the anonymous classes per enclosing type (-1:
	// the file).
	anonCount map[int]int
}

// callScope is the symbol that calls and bindings at pos belong to: the
// innermost def, constructor or type (a class body's own code belongs to
// the class, even inside a def), never the hidden stand-in of an early
// companion (its code then belongs to what encloses it).
func (x *extraction) callScope(pos uint) int {
	return x.scopes.Innermost(uint32(pos), func(s *lang.Symbol) bool {
		return !s.Hidden && (s.Kind.IsCallable() || s.Kind.IsType())
	})
}

// localParent is the symbol that a def or class declared in code at pos
// is nested in: the innermost callable, else the val being initialized,
// else the enclosing type.
func (x *extraction) localParent(pos uint) int {
	scope := x.callScope(pos)
	if x.valueOwner > scope {
		return x.valueOwner
	}
	return scope
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int {
	s.Name = lang.ValidUTF8(s.Name)
	if s.Qual == "" {
		s.Qual = s.Name
	}
	x.facts.Symbols = append(x.facts.Symbols, s)
	return len(x.facts.Symbols) - 1
}

func (x *extraction) qualOf(parent int, name string) string {
	if parent < 0 {
		return name
	}
	return x.facts.Symbols[parent].Qual + "." + name
}

// packageImport marks the Name of the wildcard import by which a chained
// package clause makes the names of the enclosing package visible.
const packageImport = "package"

// compilationUnit reads the package clauses of a file and its top-level
// declarations.
func (x *extraction) compilationUnit(root *ts.Node) {
	var parts []string
	var decls []*ts.Node
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		switch c.Kind() {
		case "package_clause":
			if c.ChildByFieldName("body") == nil {
				x.enterPackage(&parts, c)
				continue
			}
		case "import_declaration", "block_comment", "comment":
			continue
		}
		decls = append(decls, c)
	}
	// A file whose only declaration is a package block or a package
	// object declares into that package.
	var body *ts.Node
	if len(decls) == 1 {
		switch decls[0].Kind() {
		case "package_clause", "package_object":
			x.enterPackage(&parts, decls[0])
			body = decls[0].ChildByFieldName("body")
		}
	}
	x.facts.Package = strings.Join(parts, ".")
	types := companions{declared: map[string]int{}, later: x.declaredTypes(root)}
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		if c.Kind() == "package_clause" && c.ChildByFieldName("body") == nil {
			continue
		}
		if body != nil && c.StartByte() == decls[0].StartByte() {
			x.declarations(body, -1, false)
			continue
		}
		x.declarations1(c, -1, false, types)
	}
}

// enterPackage appends the name of a package clause (or package object)
// to the package parts; a clause after another makes the names of the
// package so far visible.
func (x *extraction) enterPackage(parts *[]string, c *ts.Node) {
	name := c.ChildByFieldName("name")
	if name == nil {
		return
	}
	if len(*parts) > 0 && !x.symbolsOnly {
		x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard,
			Path: strings.Join(*parts, "."), Name: packageImport, Line: lang.Line(c), Scope: -1})
	}
	*parts = append(*parts, strings.Join(strings.Fields(strings.ReplaceAll(x.text(name), ".", " ")), "."))
}

// declarations reads the children of a template body (or a package
// block); owner is the enclosing type (-1 at file level) and static marks
// the members of objects and companion objects.
func (x *extraction) declarations(n *ts.Node, owner int, static bool) {
	types := companions{declared: map[string]int{}, later: x.declaredTypes(n)}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.declarations1(n.NamedChild(i), owner, static, types)
	}
}

// companions are the classes, traits and enums of one body, by name:
// those declared so far (their index) and all of them (their start).
type companions struct {
	declared map[string]int
	later    map[string]uint
}

// declaredTypes are the classes, traits and enums among the children of
// n, by name, with where each starts.
func (x *extraction) declaredTypes(n *ts.Node) map[string]uint {
	out := map[string]uint{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "class_definition", "trait_definition", "enum_definition":
			if name := c.ChildByFieldName("name"); name != nil {
				out[x.text(name)] = c.StartByte()
			}
		}
	}
	return out
}

// earlyCompanion marks the Struct that stands for an object declared
// before its class: Hidden, its members are the class's (Organize).
const earlyCompanion = graph.KindStruct

// declarations1 reads one declaration of a body; types knows the
// classes and traits of the body, for companions.
func (x *extraction) declarations1(c *ts.Node, owner int, static bool, types companions) {
	switch c.Kind() {
	case "package_clause", "package_object":
		if body := c.ChildByFieldName("body"); body != nil {
			x.declarations(body, owner, static)
		}
	case "import_declaration":
		x.addImport(c)
	case "class_definition", "trait_definition", "enum_definition":
		idx := x.addType(c, owner)
		if idx >= 0 && types.declared != nil {
			types.declared[x.facts.Symbols[idx].Name] = idx
		}
	case "object_definition":
		name := c.ChildByFieldName("name")
		if name != nil && types.declared != nil {
			if t, ok := types.declared[x.text(name)]; ok {
				// A companion object: its members are static members of
				// the type.
				delete(types.declared, x.text(name))
				if body := c.ChildByFieldName("body"); body != nil {
					x.declarations(body, t, true)
				}
				return
			}
			if start, ok := types.later[x.text(name)]; ok && start > c.StartByte() {
				// A companion declared before its class: a hidden type
				// whose members the rules give to the class.
				if idx := x.addType(c, owner); idx >= 0 {
					obj := &x.facts.Symbols[idx]
					obj.Kind, obj.Hidden, obj.Bases = earlyCompanion, true, nil
				}
				return
			}
		}
		x.addType(c, owner)
	case "function_definition", "function_declaration":
		x.addFunction(c, owner, static, "")
	case "val_definition", "var_definition", "val_declaration", "var_declaration":
		x.addProperty(c, owner, static)
	case "type_definition":
		x.addTypeAlias(c, owner)
	case "extension_definition":
		x.addExtension(c, owner)
	case "given_definition":
		x.addGiven(c, owner)
	case "enum_case_definitions":
		x.addEnumCases(c, owner)
	case "block_comment", "comment", "modifiers", "annotation", "self_type":
	default:
		x.code(c)
	}
}

// modifierWords are the words of a declaration's modifiers ("private" for
// `private[pkg]` too).
func (x *extraction) modifierWords(n *ts.Node) map[string]bool {
	words := map[string]bool{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "modifiers":
			for j := uint(0); j < c.ChildCount(); j++ {
				m := c.Child(j)
				if m.Kind() == "access_modifier" {
					words[accessWord(x.text(m))] = true
				} else if m.Kind() != "annotation" {
					words[x.text(m)] = true
				}
			}
		case "access_modifier":
			// `class A private (x: Int)`: the constructor's access.
		}
	}
	return words
}

// accessWord is "private" or "protected" for an access modifier with or
// without a qualifier.
func accessWord(s string) string {
	if strings.HasPrefix(s, "protected") {
		return "protected"
	}
	return "private"
}

// hasToken reports whether n has an anonymous child spelled tok.
func hasToken(n *ts.Node, tok string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Kind() == tok {
			return true
		}
	}
	return false
}

// addType reads a class, trait, object or enum and its members; it
// returns the type's index, -1 when it has no name.
func (x *extraction) addType(n *ts.Node, owner int) int {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return -1
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	kind := graph.KindClass
	switch n.Kind() {
	case "trait_definition":
		kind = graph.KindInterface
	case "enum_definition":
		kind = graph.KindEnum
	}
	isTrait := kind == graph.KindInterface
	s := lang.Symbol{Kind: kind, Name: name, Qual: x.qualOf(owner, name), Parent: owner, Span: lang.SpanOf(n),
		Signature: x.signature(n), Doc: x.doc(n), Exported: !words["private"] && !words["protected"],
		Abstract: words["abstract"] || words["sealed"] || isTrait, Content: lang.Content(x.src, lang.SpanOf(n))}
	ext := n.ChildByFieldName("extend")
	if ext != nil {
		for i, t := range childrenByField(ext, "type") {
			k := lang.BaseImplements
			if i == 0 || isTrait {
				k = lang.BaseExtends
			}
			s.Bases = append(s.Bases, lang.Base{Type: typeText(x, t), Kind: k})
		}
	}
	params := primaryParams(n)
	if words["implicit"] && n.Kind() == "class_definition" && params != nil {
		// Scala 2 implicit class: its methods extend the parameter's type.
		if ps := childrenByKind(params, "class_parameter"); len(ps) == 1 {
			s.Receiver = typeText(x, ps[0].ChildByFieldName("type"))
		}
	}
	idx := x.add(s)
	if n.Kind() == "class_definition" || (n.Kind() == "enum_definition" && params != nil) {
		x.addPrimaryConstructor(n, params, idx, name, hasToken(n, "case"))
	}
	if ext != nil && !x.symbolsOnly {
		x.superConstructorCall(ext)
		for _, a := range childrenByField(ext, "arguments") {
			x.code(a)
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		x.declarations(body, idx, n.Kind() == "object_definition")
	}
	return idx
}

// superConstructorCall records the call of the superclass's constructor
// that `extends B(args)` makes.
func (x *extraction) superConstructorCall(ext *ts.Node) {
	types := childrenByField(ext, "type")
	argLists := childrenByField(ext, "arguments")
	if len(types) == 0 || len(argLists) == 0 || argLists[0].StartByte() > endOf(types, 1, ext) {
		return
	}
	args := x.arguments(argLists[0])
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(ext.StartByte()),
		Callee: &lang.Expr{Kind: lang.ExprNew, Name: typeText(x, types[0])},
		Args:   len(args), ArgExprs: args, Line: lang.Line(ext), Byte: uint32(ext.StartByte())})
}

// endOf is the start of types[i], or the end of n when there is none.
func endOf(types []*ts.Node, i int, n *ts.Node) uint {
	if i < len(types) {
		return types[i].StartByte()
	}
	return n.EndByte()
}

// primaryParams is the first parameter list of a class that is not
// `implicit`/`using`, nil when it has none.
func primaryParams(n *ts.Node) *ts.Node {
	for _, ps := range childrenByField(n, "class_parameters") {
		if !hasToken(ps, "implicit") && !hasToken(ps, "using") {
			return ps
		}
	}
	return nil
}

// addPrimaryConstructor adds the constructor of a class header and the
// properties its parameters declare (all of them for a case class).
func (x *extraction) addPrimaryConstructor(n, params *ts.Node, owner int, class string, caseClass bool) {
	span := lang.SpanOf(n.ChildByFieldName("name"))
	sig := class + "()"
	if params != nil {
		span = lang.SpanOf(params)
		sig = class + lang.OneLine(x.text(params))
	}
	exported := true
	if m := firstNamed(n, "access_modifier"); m != nil {
		exported = false
	}
	ctor := lang.Symbol{Kind: graph.KindConstructor, Name: class, Qual: x.qualOf(owner, class), Parent: owner,
		Span: span, Signature: sig, Exported: exported}
	var props []lang.Symbol
	if params != nil {
		for _, p := range childrenByKind(params, "class_parameter") {
			name := p.ChildByFieldName("name")
			if name == nil {
				continue
			}
			typ := typeText(x, p.ChildByFieldName("type"))
			prm := lang.Param{Name: x.text(name), Type: typ, Optional: p.ChildByFieldName("default_value") != nil}
			if t := p.ChildByFieldName("type"); t != nil && t.Kind() == "repeated_parameter_type" {
				prm.Variadic = true
			}
			ctor.Params = append(ctor.Params, prm)
			if !caseClass && !hasToken(p, "val") && !hasToken(p, "var") {
				// A plain class parameter is a name of the whole class body.
				if !x.symbolsOnly {
					x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: owner, Name: x.text(name), Type: typ,
						Byte: uint32(n.StartByte()), End: uint32(n.EndByte())})
				}
			} else {
				words := x.modifierWords(p)
				props = append(props, lang.Symbol{Kind: graph.KindProperty, Name: x.text(name),
					Qual: x.qualOf(owner, x.text(name)), Parent: owner, Span: lang.SpanOf(p),
					Signature: lang.OneLine(x.text(p)), Exported: !words["private"] && !words["protected"], Type: typ})
			}
		}
	}
	x.add(ctor)
	for _, p := range props {
		x.add(p)
	}
}

// addFunction reads a def: a function, a method, an auxiliary constructor
// or, with a receiver, an extension method.
func (x *extraction) addFunction(n *ts.Node, owner int, static bool, receiver string) int {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return -1
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	inType := owner >= 0 && x.facts.Symbols[owner].Kind.IsType()
	s := lang.Symbol{Kind: graph.KindFunction, Name: name, Qual: x.qualOf(owner, name), Parent: owner,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Static: static,
		Content: lang.Content(x.src, lang.SpanOf(n)), Receiver: receiver}
	if name == "this" {
		if !inType {
			return -1
		}
		s.Kind, s.Name = graph.KindConstructor, x.facts.Symbols[owner].Name
		s.Qual = x.qualOf(owner, s.Name)
	} else if inType {
		s.Kind = graph.KindMethod
		s.Abstract = n.Kind() == "function_declaration"
	}
	var lists []*ts.Node // the grammar puts type parameters under the same field
	var bounds []lang.Param
	for _, l := range childrenByField(n, "parameters") {
		switch l.Kind() {
		case "parameters":
			lists = append(lists, l)
		case "type_parameters":
			for _, b := range childrenByField(l, "bound") {
				if b.Kind() == "context_bound" {
					bounds = append(bounds, lang.Param{Type: typeText(x, b.ChildByFieldName("type")), Optional: true})
				}
			}
		}
	}
	explicit := false
	for _, ps := range lists {
		if !hasToken(ps, "implicit") && !hasToken(ps, "using") {
			s.Params, explicit = x.parameters(ps), true
			break
		}
	}
	s.Getter = !explicit && s.Kind != graph.KindConstructor
	if !explicit && s.Kind != graph.KindConstructor {
		// Only implicit parameters (a `using` or `implicit` list, context
		// bounds): `p(ctx)` passes them explicitly, `p` alone lets the
		// compiler pass them.
		for _, ps := range lists {
			for _, prm := range x.parameters(ps) {
				prm.Optional = true
				s.Params = append(s.Params, prm)
			}
		}
		s.Params = append(s.Params, bounds...)
	}
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		if t := typeText(x, rt); t != "" {
			s.Returns = []string{t}
		}
	}
	if receiver != "" {
		s.Static = true // chosen by the receiver's static type: no dispatch
		if owner < 0 {
			s.Qual = lastPart(receiver) + "." + name
		}
	}
	body := n.ChildByFieldName("body")
	if body != nil && len(s.Returns) == 0 && s.Kind != graph.KindConstructor {
		// `def f = C(1)`: the result type is the expression's.
		s.Value = x.expr(resultExpr(body))
	}
	idx := x.add(s)
	if body != nil {
		x.code(body)
	}
	return idx
}

// resultExpr is the expression a body evaluates to: the last expression
// of a block.
func resultExpr(body *ts.Node) *ts.Node {
	for body != nil && (body.Kind() == "block" || body.Kind() == "indented_block") {
		if body.NamedChildCount() == 0 {
			return nil
		}
		body = body.NamedChild(body.NamedChildCount() - 1)
	}
	return body
}

// lastPart is the simple name of a dotted type without type arguments.
func lastPart(t string) string {
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return t[strings.LastIndexByte(t, '.')+1:]
}

// parameters reads one parameter list.
func (x *extraction) parameters(ps *ts.Node) []lang.Param {
	var out []lang.Param
	for _, p := range childrenByKind(ps, "parameter") {
		name := p.ChildByFieldName("name")
		if name == nil {
			continue
		}
		prm := lang.Param{Name: x.text(name), Optional: p.ChildByFieldName("default_value") != nil}
		if t := p.ChildByFieldName("type"); t != nil {
			prm.Type = typeText(x, t)
			prm.Variadic = t.Kind() == "repeated_parameter_type"
		}
		out = append(out, prm)
	}
	return out
}

// addProperty reads a val or var of a type or of the file.
func (x *extraction) addProperty(n *ts.Node, owner int, static bool) {
	pat := n.ChildByFieldName("pattern")
	if pat == nil {
		pat = n.ChildByFieldName("name") // an abstract val or var
	}
	if pat == nil || pat.Kind() != "identifier" {
		// `val (a, b) = ...`: each name is a property of unknown type.
		if pat != nil && pat.Kind() == "tuple_pattern" {
			for _, id := range childrenByKind(pat, "identifier") {
				words := x.modifierWords(n)
				kind := graph.KindProperty
				if owner < 0 || !x.facts.Symbols[owner].Kind.IsType() {
					kind = graph.KindVariable
				}
				x.add(lang.Symbol{Kind: kind, Name: x.text(id), Qual: x.qualOf(owner, x.text(id)), Parent: owner,
					Span: lang.SpanOf(n), Signature: x.signature(n), Exported: !words["private"] && !words["protected"],
					Static: static || owner < 0})
			}
		}
		if v := n.ChildByFieldName("value"); v != nil {
			x.code(v)
		}
		return
	}
	words := x.modifierWords(n)
	kind := graph.KindProperty
	if owner < 0 || !x.facts.Symbols[owner].Kind.IsType() {
		kind = graph.KindVariable
	}
	s := lang.Symbol{Kind: kind, Name: x.text(pat), Qual: x.qualOf(owner, x.text(pat)), Parent: owner,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Static: static || owner < 0,
		Type: typeText(x, n.ChildByFieldName("type")), Abstract: strings.HasSuffix(n.Kind(), "_declaration")}
	value := n.ChildByFieldName("value")
	if value != nil {
		s.Value = x.expr(value)
	}
	idx := x.add(s)
	if value != nil {
		saved := x.valueOwner
		x.valueOwner = idx
		x.code(value)
		x.valueOwner = saved
	}
}

// addTypeAlias reads `type X = T` (and an abstract `type X`).
func (x *extraction) addTypeAlias(n *ts.Node, owner int) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	words := x.modifierWords(n)
	x.add(lang.Symbol{Kind: graph.KindTypeAlias, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
		Parent: owner, Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n),
		Exported: !words["private"] && !words["protected"], Type: typeText(x, n.ChildByFieldName("type"))})
}

// addExtension reads `extension (x: T) def f ...`: each def is an
// extension method of T, in which x is a binding of type T.
func (x *extraction) addExtension(n *ts.Node, owner int) {
	var recvName, recvType string
	for _, ps := range childrenByField(n, "parameters") {
		if p := firstNamed(ps, "parameter"); p != nil && recvType == "" {
			if nm := p.ChildByFieldName("name"); nm != nil {
				recvName, recvType = x.text(nm), typeText(x, p.ChildByFieldName("type"))
			}
		}
	}
	if recvType == "" {
		return
	}
	var defs []*ts.Node
	for _, b := range childrenByField(n, "body") {
		if b.Kind() == "template_body" {
			defs = append(defs, childrenByKind(b, "function_definition", "function_declaration")...)
		} else {
			defs = append(defs, b)
		}
	}
	static := owner >= 0
	for _, d := range defs {
		if d.Kind() != "function_definition" && d.Kind() != "function_declaration" {
			continue
		}
		idx := x.addFunction(d, owner, static, recvType)
		if idx >= 0 && !x.symbolsOnly {
			x.facts.Bindings = append(x.facts.Bindings, lang.Binding{Scope: idx, Name: recvName, Type: recvType,
				Byte: uint32(d.StartByte()), End: uint32(d.EndByte())})
		}
	}
}

// addGiven reads a named given as a value of its declared type.
func (x *extraction) addGiven(n *ts.Node, owner int) {
	name := n.ChildByFieldName("name")
	if name != nil {
		kind := graph.KindProperty
		if owner < 0 {
			kind = graph.KindVariable
		}
		words := x.modifierWords(n)
		x.add(lang.Symbol{Kind: kind, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)), Parent: owner,
			Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n),
			Exported: !words["private"] && !words["protected"], Static: true,
			Type: typeText(x, n.ChildByFieldName("return_type"))})
	}
	if body := n.ChildByFieldName("body"); body != nil {
		x.code(body)
	}
}

// addEnumCases reads the cases of a Scala 3 enum as static constants.
func (x *extraction) addEnumCases(n *ts.Node, owner int) {
	if owner < 0 {
		return
	}
	for _, c := range childrenByKind(n, "simple_enum_case", "full_enum_case") {
		name := c.ChildByFieldName("name")
		if name == nil {
			continue
		}
		x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
			Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(c)), Exported: true, Static: true,
			Type: x.facts.Symbols[owner].Qual})
	}
}

// signature is the declaration up to its body, on one line.
func (x *extraction) signature(n *ts.Node) string {
	end := n.EndByte()
	if body := n.ChildByFieldName("body"); body != nil && body.StartByte() > n.StartByte() {
		end = body.StartByte()
	}
	sig := strings.TrimSpace(string(x.src[n.StartByte():end]))
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(sig, "="), ":"))
	return lang.OneLine(sig)
}

// doc is the first paragraph of the Scaladoc comment above a declaration.
func (x *extraction) doc(n *ts.Node) string {
	texts := lang.CommentsBefore(n, x.src, func(c *ts.Node) bool {
		return c.Kind() == "block_comment" && strings.HasPrefix(lang.Text(c, x.src), "/**")
	})
	if len(texts) == 0 {
		return ""
	}
	return lang.FirstParagraph(lang.CleanComment(texts[len(texts)-1:]))
}

// typeText is a written type without spaces, "" for none.
func typeText(x *extraction, n *ts.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind() == "repeated_parameter_type" || n.Kind() == "lazy_parameter_type" {
		if t := n.ChildByFieldName("type"); t != nil {
			return typeText(x, t)
		}
	}
	return strings.Join(strings.Fields(x.text(n)), "")
}

// firstNamed returns the first named child of n of one of the kinds.
func firstNamed(n *ts.Node, kinds ...string) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		for _, k := range kinds {
			if c.Kind() == k {
				return c
			}
		}
	}
	return nil
}

// childrenByKind returns the named children of n of the kinds.
func childrenByKind(n *ts.Node, kinds ...string) []*ts.Node {
	var out []*ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		for _, k := range kinds {
			if c.Kind() == k {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// childrenByField returns the children of n under a field name.
func childrenByField(n *ts.Node, field string) []*ts.Node {
	var out []*ts.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) == field {
			out = append(out, n.Child(i))
		}
	}
	return out
}
