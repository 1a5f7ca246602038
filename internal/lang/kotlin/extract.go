package kotlin

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
	// receiverTypes are the hidden types of extension receivers added
	// so far (externalTypeMark + simple name).
	receiverTypes map[string]bool
	// inDefaults: the default values of a primary constructor's
	// parameters are being read; their calls belong to defaultsScope,
	// the constructor (the properties its `val` parameters declare lie
	// in the same span).
	inDefaults    bool
	defaultsScope int
	// ctorParams are the plain parameters of the primary constructor
	// just read, as bindings of the class still to be placed.
	ctorParams []lang.Binding
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

func (x *extraction) qualOf(parent int, name string) string { return x.facts.QualIn(parent, name) }

// declarations reads the children of a file or a class body; owner is
// the enclosing type (-1 at file level) and static marks the members of
// objects and companion objects.
func (x *extraction) declarations(n *ts.Node, owner int, static bool) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "package_header":
			if q := lang.FirstNamed(c, "qualified_identifier", "identifier"); q != nil {
				x.facts.Package = x.text(q)
			}
		case "import":
			x.addImport(c)
		case "class_declaration", "object_declaration":
			x.addType(c, owner)
		case "companion_object":
			if owner >= 0 {
				if body := lang.FirstNamed(c, "class_body"); body != nil {
					x.declarations(body, owner, true)
				}
			}
		case "function_declaration":
			x.addFunction(c, owner, static)
		case "secondary_constructor":
			x.addSecondaryConstructor(c, owner)
		case "property_declaration":
			x.addProperty(c, owner, static)
		case "type_alias":
			if name := c.ChildByFieldName("type"); name != nil {
				x.add(lang.Symbol{Kind: graph.KindTypeAlias, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
					Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(c)), Doc: x.doc(c),
					Exported: x.exported(c)})
			}
		case "enum_entry":
			if name := lang.FirstNamed(c, "identifier"); name != nil && owner >= 0 {
				x.add(lang.Symbol{Kind: graph.KindConst, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)),
					Parent: owner, Span: lang.SpanOf(c), Signature: lang.OneLine(x.text(name)), Exported: true, Static: true,
					Type: x.facts.Symbols[owner].Qual})
				x.code(c, owner)
			}
		case "block_comment", "line_comment", "modifiers":
		default:
			x.code(c, owner)
		}
	}
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

// modifierWords are the words of a declaration's modifiers.
func (x *extraction) modifierWords(n *ts.Node) map[string]bool {
	words := map[string]bool{}
	if m := lang.FirstNamed(n, "modifiers"); m != nil {
		for i := uint(0); i < m.NamedChildCount(); i++ {
			if c := m.NamedChild(i); c.Kind() != "annotation" {
				words[x.text(c)] = true
			}
		}
	}
	return words
}

// exported: neither private nor internal.
func (x *extraction) exported(n *ts.Node) bool {
	w := x.modifierWords(n)
	return !w["private"] && !w["internal"]
}

// addType reads a class, interface, enum class or object and its members.
func (x *extraction) addType(n *ts.Node, owner int) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	kind := graph.KindClass
	iface := hasToken(n, "interface")
	switch {
	case iface:
		kind = graph.KindInterface
	case words["enum"]:
		kind = graph.KindEnum
	}
	s := lang.Symbol{Kind: kind, Name: name, Qual: x.qualOf(owner, name), Parent: owner, Span: lang.SpanOf(n),
		Signature: x.signature(n), Doc: x.doc(n), Exported: !words["private"] && !words["internal"],
		Abstract: words["abstract"] || words["sealed"] || iface, Content: lang.Content(x.src, lang.SpanOf(n))}
	body := lang.FirstNamed(n, "class_body", "enum_class_body")
	var misread *ts.Node
	if ds := lang.FirstNamed(n, "delegation_specifiers"); ds != nil {
		for i := uint(0); i < ds.NamedChildCount(); i++ {
			spec := ds.NamedChild(i)
			if ed := lang.FirstNamed(spec, "explicit_delegation"); ed != nil {
				// `I by delegate`: the class implements I.
				if t := lang.FirstNamed(ed, "user_type"); t != nil {
					s.Bases = append(s.Bases, lang.Base{Type: x.text(t), Kind: lang.BaseImplements})
				}
				if body == nil && i == ds.NamedChildCount()-1 {
					misread = misreadBody(ed)
				}
			} else if inv := lang.FirstNamed(spec, "constructor_invocation"); inv != nil {
				if t := lang.FirstNamed(inv, "user_type"); t != nil {
					s.Bases = append(s.Bases, lang.Base{Type: x.text(t), Kind: lang.BaseExtends})
				}
			} else if t := lang.FirstNamed(spec, "user_type"); t != nil {
				k := lang.BaseImplements
				if iface {
					k = lang.BaseExtends
				}
				s.Bases = append(s.Bases, lang.Base{Type: x.text(t), Kind: k})
			}
		}
	}
	idx := x.add(s)
	if pc := lang.FirstNamed(n, "primary_constructor"); pc != nil {
		x.addPrimaryConstructor(pc, idx, name)
	}
	if ds := lang.FirstNamed(n, "delegation_specifiers"); ds != nil && misread == nil {
		x.code(ds, idx)
	}
	if body == nil {
		body = misread
	}
	x.bindCtorParams(body)
	if body != nil {
		x.declarations(body, idx, n.Kind() == "object_declaration")
	}
}

// misreadBody is the class body the grammar reads as a trailing lambda
// of the last delegate (`class C : I by d { ... }` is read as `I by
// d { ... }`), or nil: the delegate is a plain name, so the braces can
// only be the class body.
func misreadBody(ed *ts.Node) *ts.Node {
	ce := lang.FirstNamed(ed, "call_expression")
	if ce == nil || ce.NamedChildCount() != 2 || ce.NamedChild(0).Kind() != "identifier" {
		return nil
	}
	if al := ce.NamedChild(1); al.Kind() == "annotated_lambda" {
		return lang.FirstNamed(al, "lambda_literal")
	}
	return nil
}

// addPrimaryConstructor adds the constructor of a class header and the
// properties its `val`/`var` parameters declare. A parameter with a
// default value may be left out; the calls in default values belong to
// the constructor. A plain parameter is visible in the class body's
// initializers: it becomes a binding of the class.
func (x *extraction) addPrimaryConstructor(pc *ts.Node, owner int, class string) {
	ctor := lang.Symbol{Kind: graph.KindConstructor, Name: class, Qual: x.qualOf(owner, class), Parent: owner,
		Span: lang.SpanOf(pc), Signature: lang.OneLine(x.text(pc)), Exported: x.exported(pc)}
	var props []lang.Symbol
	var defaults []*ts.Node
	var plain []lang.Binding
	if ps := lang.FirstNamed(pc, "class_parameters"); ps != nil {
		for i := uint(0); i < ps.NamedChildCount(); i++ {
			p := ps.NamedChild(i)
			if p.Kind() != "class_parameter" {
				continue
			}
			name := lang.FirstNamed(p, "identifier")
			if name == nil {
				continue
			}
			tn := typeChild(p)
			typ := x.typeText(tn)
			prm := lang.Param{Name: x.text(name), Type: typ}
			if tn != nil {
				for j := uint(0); j < p.NamedChildCount(); j++ {
					if c := p.NamedChild(j); c.StartByte() > tn.StartByte() && !strings.HasSuffix(c.Kind(), "comment") {
						prm.Optional = true
						defaults = append(defaults, c)
					}
				}
			}
			ctor.Params = append(ctor.Params, prm)
			if hasToken(p, "val") || hasToken(p, "var") {
				props = append(props, lang.Symbol{Kind: graph.KindProperty, Name: x.text(name),
					Qual: x.qualOf(owner, x.text(name)), Parent: owner, Span: lang.SpanOf(p),
					Signature: lang.OneLine(x.text(p)), Exported: x.exported(p), Type: typ})
			} else if typ != "" {
				plain = append(plain, lang.Binding{Scope: owner, Name: x.text(name), Type: typ})
			}
		}
	}
	idx := x.add(ctor)
	for _, p := range props {
		x.add(p)
	}
	if x.symbolsOnly {
		return
	}
	x.inDefaults, x.defaultsScope = true, idx
	for _, d := range defaults {
		x.code(d, idx)
	}
	x.inDefaults = false
	x.ctorParams = plain
}

// bindCtorParams makes the plain primary-constructor parameters visible
// in the initializers of the class body (property initializers and
// `init` blocks), where Kotlin sees them, and nowhere else: a member
// function's `builder(...)` is not the parameter builder.
func (x *extraction) bindCtorParams(body *ts.Node) {
	plain := x.ctorParams
	x.ctorParams = nil
	if body == nil {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		var init *ts.Node
		switch c.Kind() {
		case "anonymous_initializer":
			init = c
		case "property_declaration":
			init = propertyInitializer(c)
		}
		if init == nil {
			continue
		}
		// From the start of the declaration: the property's type is
		// read there.
		for _, b := range plain {
			b.Byte, b.End = uint32(c.StartByte()), uint32(init.EndByte())
			x.facts.Bindings = append(x.facts.Bindings, b)
		}
	}
}

// propertyInitializer is the initializer expression of a property, or nil.
func propertyInitializer(n *ts.Node) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "modifiers", "variable_declaration", "getter", "setter", "type_constraints", "type_parameters":
		default:
			if !strings.HasSuffix(c.Kind(), "comment") {
				return c
			}
		}
	}
	return nil
}

// typeKinds are the node kinds of written types.
var typeKinds = map[string]bool{"user_type": true, "nullable_type": true, "function_type": true,
	"parenthesized_type": true, "non_nullable_type": true}

// typeChild returns the first written type among n's children.
func typeChild(n *ts.Node) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); typeKinds[c.Kind()] {
			return c
		}
	}
	return nil
}

// typeText is a written type without nullability: "Foo?" is Foo.
func (x *extraction) typeText(n *ts.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "nullable_type", "parenthesized_type":
		if t := typeChild(n); t != nil {
			return x.typeText(t)
		}
		return ""
	case "user_type":
		return strings.Join(strings.Fields(x.text(n)), "")
	}
	return ""
}

// addFunction reads a function, a method or an extension function.
func (x *extraction) addFunction(n *ts.Node, owner int, static bool) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := x.text(nameNode)
	words := x.modifierWords(n)
	body := lang.FirstNamed(n, "function_body")
	s := lang.Symbol{Kind: graph.KindFunction, Name: name, Qual: x.qualOf(owner, name), Parent: owner,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: !words["private"] && !words["internal"],
		Static: static, Content: lang.Content(x.src, lang.SpanOf(n))}
	if owner >= 0 && x.facts.Symbols[owner].Kind.IsType() {
		s.Kind = graph.KindMethod
		ownerSym := x.facts.Symbols[owner]
		s.Abstract = words["abstract"] || (ownerSym.Kind == graph.KindInterface && body == nil)
	}
	// The receiver of an extension is the type written before the name;
	// the return type is the one after the parameters.
	afterParams := false
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch {
		case c.Kind() == "function_value_parameters":
			s.Params = x.parameters(c)
			afterParams = true
		case typeKinds[c.Kind()] && !afterParams && c.StartByte() < nameNode.StartByte():
			s.Receiver = x.typeText(c)
		case typeKinds[c.Kind()] && afterParams:
			if t := x.typeText(c); t != "" {
				s.Returns = []string{t}
			}
		}
	}
	if s.Receiver != "" && owner < 0 {
		s.Qual = lastPart(s.Receiver) + "." + name
		x.addReceiverType(s.Receiver, n)
	}
	idx := x.add(s)
	if body != nil {
		if len(s.Returns) == 0 && !strings.HasPrefix(strings.TrimSpace(x.text(body)), "{") && body.NamedChildCount() > 0 {
			// `fun f() = C()`: the result type is the expression's.
			x.facts.Symbols[idx].Value = x.expr(body.NamedChild(0))
		}
		x.code(body, idx)
	}
}

// addReceiverType adds, once per file and name, a hidden type standing
// for an extension's receiver type in case that type is outside the
// repository (rules.Organize decides): an empty span where the extension
// starts, so that it encloses no code.
func (x *extraction) addReceiverType(receiver string, fn *ts.Node) {
	name := externalTypeMark + lastPart(receiver)
	if len(lastPart(receiver)) < 2 || x.receiverTypes[name] {
		// A one-letter receiver is a type parameter (`fun <T> T.f()`).
		return
	}
	if x.receiverTypes == nil {
		x.receiverTypes = map[string]bool{}
	}
	x.receiverTypes[name] = true
	sp := lang.SpanOf(fn)
	sp.EndLine, sp.EndByte = sp.StartLine, sp.StartByte
	x.add(lang.Symbol{Kind: graph.KindClass, Name: name, Qual: name, Parent: -1, Span: sp, Hidden: true})
}

// lastPart is the simple name of a dotted type without type arguments.
func lastPart(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	return t[strings.LastIndexByte(t, '.')+1:]
}

// parameters reads a function's value parameters.
func (x *extraction) parameters(ps *ts.Node) []lang.Param {
	var out []lang.Param
	vararg := false
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		switch p.Kind() {
		case "parameter":
		case "parameter_modifiers":
			vararg = strings.Contains(x.text(p), "vararg")
			continue
		default:
			// A default value follows its parameter.
			if len(out) > 0 && !strings.HasSuffix(p.Kind(), "comment") {
				out[len(out)-1].Optional = true
			}
			continue
		}
		name := lang.FirstNamed(p, "identifier")
		if name == nil {
			continue
		}
		out = append(out, lang.Param{Name: x.text(name), Type: x.typeText(typeChild(p)), Variadic: vararg})
		vararg = false
	}
	return out
}

func (x *extraction) addSecondaryConstructor(n *ts.Node, owner int) {
	if owner < 0 {
		return
	}
	class := x.facts.Symbols[owner].Name
	s := lang.Symbol{Kind: graph.KindConstructor, Name: class, Qual: x.qualOf(owner, class), Parent: owner,
		Span: lang.SpanOf(n), Signature: x.signature(n), Doc: x.doc(n), Exported: x.exported(n)}
	if ps := lang.FirstNamed(n, "function_value_parameters"); ps != nil {
		s.Params = x.parameters(ps)
	}
	idx := x.add(s)
	if d := lang.FirstNamed(n, "constructor_delegation_call"); d != nil && !x.symbolsOnly {
		x.addDelegationCall(d)
	}
	if b := lang.FirstNamed(n, "block"); b != nil {
		x.code(b, idx)
	}
}

// addDelegationCall records `: this(...)` (another constructor of the
// class) and `: super(...)` (a constructor of the superclass) of a
// secondary constructor.
func (x *extraction) addDelegationCall(d *ts.Node) {
	callee := &lang.Expr{Kind: lang.ExprSelf}
	if hasToken(d, "super") {
		callee = &lang.Expr{Kind: lang.ExprSuper}
	}
	var args []*lang.Expr
	if va := lang.FirstNamed(d, "value_arguments"); va != nil {
		args = x.arguments(va)
		x.code(va, -1)
	}
	x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: x.callScope(d), Callee: callee,
		Args: len(args), ArgExprs: args, Line: lang.Line(d), Byte: uint32(d.StartByte())})
}

// addProperty reads a property of a class or of the file.
func (x *extraction) addProperty(n *ts.Node, owner int, static bool) {
	vd := lang.FirstNamed(n, "variable_declaration")
	if vd == nil {
		return
	}
	name := lang.FirstNamed(vd, "identifier")
	if name == nil {
		return
	}
	words := x.modifierWords(n)
	kind := graph.KindProperty
	if owner < 0 {
		kind = graph.KindVariable
	}
	if words["const"] {
		kind = graph.KindConst
	}
	s := lang.Symbol{Kind: kind, Name: x.text(name), Qual: x.qualOf(owner, x.text(name)), Parent: owner,
		Span: lang.SpanOf(n), Signature: lang.OneLine(x.text(n)), Doc: x.doc(n),
		Exported: !words["private"] && !words["internal"], Static: static || owner < 0, Type: x.typeText(typeChild(vd))}
	var init *ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "modifiers", "variable_declaration", "getter", "setter", "type_constraints", "type_parameters":
			continue
		}
		if init == nil {
			init = c
		}
	}
	if init != nil {
		s.Value = x.expr(init)
	}
	x.add(s)
	// The property's own children: the property itself is no local
	// binding (a class body the grammar misreads as a lambda included).
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.code(n.NamedChild(i), owner)
	}
}

// signature is the declaration up to its body, on one line.
func (x *extraction) signature(n *ts.Node) string {
	end := n.EndByte()
	if body := lang.FirstNamed(n, "class_body", "enum_class_body", "function_body", "block"); body != nil {
		end = body.StartByte()
	}
	return lang.OneLine(strings.TrimSpace(string(x.src[n.StartByte():end])))
}

// doc is the first paragraph of the KDoc comment above a declaration.
func (x *extraction) doc(n *ts.Node) string { return lang.DocBlock(n, x.src, "block_comment") }
