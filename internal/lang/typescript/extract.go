package typescript

import (
	"regexp"
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Extract parses one TypeScript or JavaScript file and returns its facts.
// Three passes over the tree: declarations (symbols), module statements
// (imports and exports), then uses (calls, bindings, references). Symbols
// that live outside their parent's span (constructor parameter properties,
// properties created by `this.x = ...`) are appended after the uses pass,
// so that scope lookups during extraction only see properly nested spans.
func (e *extractor) Extract(path string, src []byte) (*lang.FileFacts, error) {
	p, err := e.parser(e.grammarFor(path))
	if err != nil {
		return nil, err
	}
	tree, err := p.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return e.ExtractTree(path, src, tree)
}

// Grammar is the tree-sitter language of a file: TypeScript, TSX or
// JavaScript by its extension.
func (e *extractor) Grammar(path string) *ts.Language { return e.grammarFor(path).lang }

// ExtractTree reads the facts off a tree of src the caller parsed with
// Grammar(path).
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	g := e.grammarFor(path)
	root := tree.RootNode()
	x := e.newExtraction(g, path, src, root)
	parts := g.all.CollectParts(root)
	x.readDefs(g.all, g.paramProperties(g.all, parts[0]))
	x.readModules(g.modules(parts[1], src))
	x.readUses(g.uses(parts[2]))
	x.facts.Symbols = append(x.facts.Symbols, x.deferred...)
	x.markExported()
	return x.facts, nil
}

// newExtraction starts the extraction of a tree of src parsed with g.
func (e *extractor) newExtraction(g *grammar, path string, src []byte, root *ts.Node) *extraction {
	facts := lang.NewFileFacts(e.language, path, src, root)
	return &extraction{
		g:      g,
		src:    src,
		dts:    isDeclarationFile(path),
		facts:  facts,
		scopes: lang.NewScopeFinder(&facts.Symbols),
		symAt:  map[uintptr]int{},
		body:   map[int]uint32{},
		root:   root,
	}
}

type extraction struct {
	g     *grammar
	src   []byte
	dts   bool
	facts *lang.FileFacts
	// scopes finds enclosing symbols by position.
	scopes lang.ScopeFinder
	// symAt maps declaration nodes (by node id) to the symbol they made.
	symAt map[uintptr]int
	// body gives, for class symbols, where the class body starts: calls
	// before it (decorators, heritage) belong to the enclosing scope.
	body map[int]uint32
	// deferred symbols are appended after the uses pass.
	deferred []lang.Symbol
	// signatures remembers overload signatures already kept, by parent
	// and name, so that a run of overloads yields one node.
	signatures map[sigKey]bool
	// declared holds the names bound by declarators without an initializer
	// or type, by scope: a later plain assignment to them is a binding.
	declared map[scopeName]bool
	// members holds the member names of each class, for properties
	// created by `this.x = ...` (built on first use, after declarations).
	members map[int]map[string]bool
	// requires maps the node id of a require('x') call used inside an
	// expression to the synthetic local name its import binds.
	requires map[uintptr]string
	// symbolsOnly leaves out what the history does not read of symbols
	// (ExtractSymbols): docs, signatures, contents, values and results.
	// Names, kinds, lines, parents and parameters are read as always.
	symbolsOnly bool
	// root is the file's syntax tree; objects is what it declares, for
	// calls through object literals (objectprops.go), read on first use.
	root    *ts.Node
	objects *objectDecls
}

// content is the text of a symbol's span, none when symbolsOnly.
func (x *extraction) content(sp lang.Span) string {
	if x.symbolsOnly {
		return ""
	}
	return lang.Content(x.src, sp)
}

// oneLine is the text of n on one line, for signatures and values; none
// when symbolsOnly.
func (x *extraction) oneLine(n *ts.Node) string {
	if x.symbolsOnly {
		return ""
	}
	return lang.OneLine(x.text(n))
}

type sigKey struct {
	parent int
	name   string
}

type scopeName struct {
	scope int
	name  string
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// defItem is one captured declaration node.
type defItem struct {
	capture string
	node    ts.Node
}

// readDefs collects the declaration nodes (matches of q's declaration
// patterns) and turns them into symbols in document order, outer
// declarations first.
func (x *extraction) readDefs(q *lang.Kinds, matches []lang.Match) {
	captures := []string{"function", "class", "method", "field", "variable"}
	if x.g.typed {
		captures = append(captures, "signature", "interface", "alias", "enum", "method.signature", "param.property")
	}
	names := map[uint32]string{}
	for _, n := range captures {
		names[q.Capture(n)] = n
	}
	var items []defItem
	handle := func(m *lang.Match) {
		for _, c := range m.Captures {
			if name, ok := names[c.Index]; ok {
				items = append(items, defItem{capture: name, node: c.Node})
			}
		}
	}
	for i := range matches {
		handle(&matches[i])
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := &items[i].node, &items[j].node
		if a.StartByte() != b.StartByte() {
			return a.StartByte() < b.StartByte()
		}
		return a.EndByte() > b.EndByte()
	})
	for i := range items {
		n := &items[i].node
		if i > 0 && items[i-1].node.Id() == n.Id() {
			continue // one node matched by two patterns
		}
		if _, done := x.symAt[n.Id()]; done {
			continue
		}
		switch items[i].capture {
		case "function":
			x.addFunctionDecl(n)
		case "signature":
			x.addFunctionSignature(n)
		case "class":
			x.addClassNode(n)
		case "interface":
			x.addInterface(n)
		case "alias":
			x.addAlias(n)
		case "enum":
			x.addEnum(n)
		case "method":
			x.addMethod(n)
		case "method.signature":
			x.addMethodSignature(n)
		case "field":
			x.addField(n)
		case "variable":
			x.addDeclarator(n)
		case "param.property":
			x.addParamProperty(n)
		}
	}
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

// container returns the innermost symbol enclosing position pos, or -1.
func (x *extraction) container(pos uint32) int {
	return x.scopes.Innermost(pos, func(*lang.Symbol) bool { return true })
}

// qualify returns the qualified name of name declared under parent, or at
// file level inside the namespaces enclosing n.
func (x *extraction) qualify(parent int, n *ts.Node, name string) string {
	if parent >= 0 {
		return x.facts.Symbols[parent].Qual + "." + name
	}
	if ns := x.namespacePath(n); ns != "" {
		return ns + "." + name
	}
	return name
}

// namespacePath returns the dotted names of the TS namespaces (and ambient
// module declarations) enclosing n, outermost first, or "".
func (x *extraction) namespacePath(n *ts.Node) string {
	if !x.g.typed {
		return ""
	}
	var parts []string
	for p := n.Parent(); p != nil && p.Kind() != "program"; p = p.Parent() {
		if k := p.Kind(); k == "internal_module" || k == "module" {
			parts = append(parts, strings.Trim(x.text(p.ChildByFieldName("name")), "\"'`"))
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// statement returns the node that carries a declaration's export keyword,
// decorators and doc comment: the export statement or ambient declaration
// around it, or the declaration itself.
func statement(n *ts.Node) *ts.Node {
	if p := n.Parent(); p != nil {
		switch p.Kind() {
		case "export_statement", "ambient_declaration":
			if q := p.Parent(); q != nil && q.Kind() == "export_statement" {
				return q
			}
			return p
		}
	}
	return n
}

// exported reports whether a declaration carries `export`.
func exported(n *ts.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "export_statement":
			return true
		case "ambient_declaration", "lexical_declaration", "variable_declaration":
			continue
		}
		return false
	}
	return false
}

// hasToken reports whether n has a direct anonymous child of this kind
// ("static", "async", "get", "default", "*", ...).
func hasToken(n *ts.Node, kind string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.Kind() == kind && !c.IsNamed() {
			return true
		}
	}
	return false
}

// childOfKind returns the first direct named child of this kind, or nil.
func childOfKind(n *ts.Node, kind string) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == kind {
			return c
		}
	}
	return nil
}

// doc returns the first paragraph of the JSDoc/TSDoc comment (/** ... */)
// right above the declaration statement n, without its @tags.
func (x *extraction) doc(n *ts.Node) string {
	if x.symbolsOnly {
		return ""
	}
	texts := lang.CommentsBefore(n, x.src, func(c *ts.Node) bool { return c.Kind() == "comment" })
	if len(texts) == 0 {
		return ""
	}
	last := texts[len(texts)-1]
	if !strings.HasPrefix(last, "/**") || last == "/**/" {
		return ""
	}
	var kept []string
	for _, l := range lang.CleanComment([]string{last}) {
		if strings.HasPrefix(l, "@") {
			if len(kept) > 0 {
				break
			}
			continue
		}
		kept = append(kept, l)
	}
	return lang.FirstParagraph(kept)
}

// header is the text of a declaration from its first non-decorator child
// up to body (exclusive), on one line, capped.
func (x *extraction) header(n *ts.Node, body *ts.Node) string {
	if x.symbolsOnly {
		return ""
	}
	start := n.StartByte()
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.Kind() != "decorator" && c.Kind() != "comment" {
			start = c.StartByte()
			break
		}
	}
	end := n.EndByte()
	if body != nil && body.StartByte() >= start {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[start:end])))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "{"), ";")
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "=>"))
	s = lang.Cap(s, 300)
	return s
}

// decorators returns the names of the decorators on n (without arguments).
func (x *extraction) decorators(nodes ...*ts.Node) []string {
	var out []string
	for _, n := range nodes {
		if n == nil {
			continue
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			d := n.NamedChild(i)
			if d.Kind() != "decorator" || d.NamedChildCount() == 0 {
				continue
			}
			e := d.NamedChild(0)
			if e.Kind() == "call_expression" {
				e = e.ChildByFieldName("function")
			}
			if e != nil {
				out = append(out, lang.OneLine(x.text(e)))
			}
		}
	}
	return out
}

// memberName is the name of a class or interface member: identifiers and
// #private names as written, string names unquoted, computed names as
// written ("[Symbol.iterator]").
func (x *extraction) memberName(n *ts.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "string":
		return strings.Trim(x.text(n), "\"'`")
	}
	return lang.OneLine(x.text(n))
}

// typeText returns the type written in a type annotation, without the colon.
func (x *extraction) typeText(n *ts.Node) string {
	if n == nil {
		return ""
	}
	var t string
	switch n.Kind() {
	case "type_annotation":
		if n.NamedChildCount() == 0 {
			return ""
		}
		t = lang.OneLine(x.text(n.NamedChild(0)))
	case "type_predicate_annotation", "asserts_annotation":
		return ""
	default:
		t = lang.OneLine(x.text(n))
	}
	if strings.Contains(t, "import(") {
		t = x.importTypes(t, lang.Line(n))
	}
	return t
}

// importType matches an import type's module part: import('./x').
var importType = regexp.MustCompile(`import\(\s*(['"])([^'"]+)['"]\s*\)`)

// importTypes rewrites `import('./x').Foo` in a type into a name bound by a
// synthetic namespace import of './x', so that the type resolves like
// `ns.Foo`.
func (x *extraction) importTypes(t string, line int) string {
	return importType.ReplaceAllStringFunc(t, func(m string) string {
		path := importType.FindStringSubmatch(m)[2]
		alias := "import·" + path
		alias = strings.NewReplacer(".", "·", "/", "·", "-", "·", "@", "·").Replace(alias)
		x.addRequireAlias(alias, path, line)
		return alias
	})
}

// markExported marks file-level symbols named by export lists and CommonJS
// exports as exported.
func (x *extraction) markExported() {
	names := map[string]bool{}
	for _, e := range x.facts.Exports {
		if e.Local != "" {
			names[e.Local] = true
		}
	}
	if len(names) == 0 {
		return
	}
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if s.Parent < 0 && s.Qual == s.Name && names[s.Name] {
			s.Exported = true
		}
	}
}

// symbolKindOfDeclarator is Const for `const` declarations with an
// UPPER_CASE name, Variable otherwise.
func symbolKindOfDeclarator(isConst bool, name string) graph.NodeKind {
	if isConst && isUpperCase(name) {
		return graph.KindConst
	}
	return graph.KindVariable
}

func isUpperCase(name string) bool {
	letters := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			letters = true
		case r >= '0' && r <= '9', r == '_', r == '$':
		default:
			return false
		}
	}
	return letters
}
