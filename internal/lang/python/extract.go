package python

import (
	"fmt"
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Extract parses one Python file and returns its facts.
func (e *extractor) Extract(path string, src []byte) (*lang.FileFacts, error) {
	tree := e.parser.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("parse %s: the parser returned no tree", path)
	}
	defer tree.Close()
	root := tree.RootNode()
	x := &extraction{
		src:        src,
		facts:      &lang.FileFacts{Path: path, Language: "python", Lines: lang.CountLines(src)},
		members:    map[int]map[string]bool{},
		moduleVars: map[string]int{},
		globals:    map[int]map[string]bool{},
		receivers:  map[int]receiverRef{},
	}
	x.facts.SyntaxErrors = lang.CountSyntaxErrors(root)
	x.readDefs(e.q.defs, e.cursor, root)
	x.readUses(e.q.facts, e.cursor, root)
	return x.facts, nil
}

// extraction is the state of one file's extraction.
type extraction struct {
	src    []byte
	facts  *lang.FileFacts
	info   []symInfo // parallel to facts.Symbols
	scopes scopeIndex
	// members are the names declared in each class body (methods, nested
	// classes, class and instance attributes), by class symbol index.
	members map[int]map[string]bool
	// moduleVars are the module-level variables by name: one symbol per
	// name, the first assignment.
	moduleVars map[string]int
	// globals are the names a function declares global or nonlocal: they
	// are not its locals.
	globals map[int]map[string]bool
	// receivers memoizes receiverAt.
	receivers map[int]receiverRef
}

// symInfo is what extraction needs to know about a symbol beyond the facts.
type symInfo struct {
	scope              bool   // a function or class: it has a body
	bodyStart, bodyEnd uint32 // the body's byte range
	receiver           string // a method's first parameter (self, cls)
	classReceiver      bool   // the receiver is the class (classmethod, __new__)
	generator          bool   // the function yields
	typePath           string // a class's name path below its enclosing function: "Outer.Inner"
}

// defNode is a function or class definition found by the query.
type defNode struct {
	node, body ts.Node
	class      bool
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) readDefs(q *lang.Query, cursor *ts.QueryCursor, root *ts.Node) {
	var (
		cFunction = q.Capture("function")
		cClass    = q.Capture("class")
		cBody     = q.Capture("body")
		cAssign   = q.Capture("assign")
		cImport   = q.Capture("import")
		cFrom     = q.Capture("import.from")
		cReturn   = q.Capture("return")
		cValue    = q.Capture("return.value")
		cYield    = q.Capture("yield")
		cGlobal   = q.Capture("global")
	)
	var defs []defNode
	var assigns, imports, yields, globals []ts.Node
	var returns [][2]ts.Node
	q.Run(cursor, root, x.src, func(m *lang.Match) {
		switch {
		case m.Node(cFunction) != nil:
			defs = append(defs, defNode{node: *m.Node(cFunction), body: *m.Node(cBody)})
		case m.Node(cClass) != nil:
			defs = append(defs, defNode{node: *m.Node(cClass), body: *m.Node(cBody), class: true})
		case m.Node(cAssign) != nil:
			assigns = append(assigns, *m.Node(cAssign))
		case m.Node(cImport) != nil:
			imports = append(imports, *m.Node(cImport))
		case m.Node(cFrom) != nil:
			imports = append(imports, *m.Node(cFrom))
		case m.Node(cReturn) != nil:
			returns = append(returns, [2]ts.Node{*m.Node(cReturn), *m.Node(cValue)})
		case m.Node(cYield) != nil:
			yields = append(yields, *m.Node(cYield))
		case m.Node(cGlobal) != nil:
			globals = append(globals, *m.Node(cGlobal))
		}
	})
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].node.StartByte() < defs[j].node.StartByte() })
	sort.SliceStable(assigns, func(i, j int) bool { return assigns[i].StartByte() < assigns[j].StartByte() })
	x.addDefs(defs)
	x.scopes = newScopeIndex(x.facts.Symbols, x.info)

	for i := range globals {
		x.addGlobal(&globals[i])
	}
	for i := range yields {
		if s := x.scopes.at(uint32(yields[i].StartByte())); s >= 0 && x.facts.Symbols[s].Kind.IsCallable() {
			x.info[s].generator = true
		}
	}
	for i := range returns {
		x.addReturn(&returns[i][0], &returns[i][1])
	}
	for i := range assigns {
		x.addAssignment(&assigns[i])
	}
	for i := range imports {
		x.addImport(&imports[i])
	}
	x.reorder()
	x.scopes = newScopeIndex(x.facts.Symbols, x.info)
}

// add appends a symbol and its extraction info and returns its index.
func (x *extraction) add(s lang.Symbol, info symInfo) int {
	s.Name = lang.ValidUTF8(s.Name)
	if s.Qual == "" {
		s.Qual = s.Name
	}
	x.facts.Symbols = append(x.facts.Symbols, s)
	x.info = append(x.info, info)
	idx := len(x.facts.Symbols) - 1
	if s.Parent >= 0 && x.facts.Symbols[s.Parent].Kind.IsType() {
		if x.members[s.Parent] == nil {
			x.members[s.Parent] = map[string]bool{}
		}
		x.members[s.Parent][s.Name] = true
	}
	return idx
}

// addDefs adds the functions and classes in document order; the open
// bodies form a stack, so each definition's parent is the innermost body
// containing it.
func (x *extraction) addDefs(defs []defNode) {
	type open struct {
		sym        int // -1 for a skipped definition
		start, end uint32
	}
	var stack []open
	for i := range defs {
		d := &defs[i]
		pos := uint32(d.node.StartByte())
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if pos >= top.start && pos < top.end {
				break
			}
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			if parent = stack[len(stack)-1].sym; parent < 0 {
				// Inside a skipped definition: skipped too.
				stack = append(stack, open{sym: -1, start: uint32(d.body.StartByte()), end: uint32(d.body.EndByte())})
				continue
			}
		}
		idx := x.addDef(d, parent)
		stack = append(stack, open{sym: idx, start: uint32(d.body.StartByte()), end: uint32(d.body.EndByte())})
	}
}

// addDef adds one function or class; it returns -1 for a definition that
// is not a symbol (an @overload stub).
func (x *extraction) addDef(d *defNode, parent int) int {
	n := &d.node
	name := x.text(n.ChildByFieldName("name"))
	outer := n
	var decorators []string
	if p := n.Parent(); p != nil && p.Kind() == "decorated_definition" {
		outer = p
		decorators = x.decorators(p)
	}
	if !d.class && hasDecorator(decorators, "overload") {
		return -1
	}
	sp := lang.SpanOf(outer)
	s := lang.Symbol{
		Name: name, Parent: parent, Span: sp,
		Signature:  x.header(n, &d.body),
		Doc:        x.docstring(&d.body),
		Exported:   exportedName(name),
		Content:    lang.Content(x.src, sp),
		Decorators: decorators,
	}
	info := symInfo{scope: true, bodyStart: uint32(d.body.StartByte()), bodyEnd: uint32(d.body.EndByte())}
	qualPrefix := ""
	inClass := false
	if parent >= 0 {
		qualPrefix = x.facts.Symbols[parent].Qual + "."
		inClass = x.facts.Symbols[parent].Kind.IsType()
	}
	s.Qual = qualPrefix + name
	if d.class {
		s.Kind = graph.KindClass
		s.Bases = x.bases(n.ChildByFieldName("superclasses"))
		info.typePath = name
		if inClass {
			info.typePath = x.info[parent].typePath + "." + name
		}
		return x.add(s, info)
	}
	s.Kind = graph.KindFunction
	if inClass {
		s.Kind = graph.KindMethod
		if name == "__init__" {
			s.Kind = graph.KindConstructor
		}
		// A property's setter and deleter share the getter's name; they
		// are told apart by their qualified names.
		for _, dec := range decorators {
			if suffix, ok := strings.CutPrefix(dec, name+"."); ok && (suffix == "setter" || suffix == "deleter" || suffix == "getter") {
				s.Qual += "." + suffix
			}
		}
	}
	s.Static = hasDecorator(decorators, "staticmethod")
	s.Abstract = hasDecorator(decorators, "abstractmethod") || hasDecorator(decorators, "abstractproperty") ||
		hasDecorator(decorators, "abstractclassmethod") || hasDecorator(decorators, "abstractstaticmethod")
	params := x.params(n.ChildByFieldName("parameters"))
	if inClass && !s.Static && len(params) > 0 && !params[0].Variadic {
		info.receiver = params[0].Name
		info.classReceiver = hasDecorator(decorators, "classmethod") ||
			name == "__new__" || name == "__init_subclass__" || name == "__class_getitem__"
		params = params[1:]
	}
	s.Params = params
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		s.Returns = []string{lang.OneLine(x.text(rt))}
	}
	return x.add(s, info)
}

// decorators returns the names of the decorators of a decorated
// definition, without arguments: "property", "app.route".
func (x *extraction) decorators(decorated *ts.Node) []string {
	var out []string
	for i := uint(0); i < decorated.NamedChildCount(); i++ {
		d := decorated.NamedChild(i)
		if d.Kind() != "decorator" || d.NamedChildCount() == 0 {
			continue
		}
		e := d.NamedChild(0)
		if e.Kind() == "call" {
			e = e.ChildByFieldName("function")
		}
		if e != nil {
			out = append(out, lang.OneLine(x.text(e)))
		}
	}
	return out
}

// hasDecorator reports whether a decorator is name or ends with "."+name
// (`abc.abstractmethod`, `typing.overload`).
func hasDecorator(decorators []string, name string) bool {
	for _, d := range decorators {
		if d == name || strings.HasSuffix(d, "."+name) {
			return true
		}
	}
	return false
}

// exportedName: public names do not start with an underscore; dunder names
// (`__init__`, `__call__`) are public.
func exportedName(name string) bool {
	return !strings.HasPrefix(name, "_") || (len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"))
}

// header is the definition's first line up to its body, on one line:
// "def run(self, x: int) -> str:", "class A(Base):".
func (x *extraction) header(n, body *ts.Node) string {
	end := n.EndByte()
	if body != nil && body.StartByte() > n.StartByte() {
		end = body.StartByte()
	}
	s := lang.OneLine(lang.ValidUTF8(string(x.src[n.StartByte():end])))
	if len(s) > 300 {
		s = lang.ValidUTF8(s[:300]) + "…"
	}
	return s
}

// docstring returns the first paragraph of the string literal that opens a
// body, if any.
func (x *extraction) docstring(body *ts.Node) string {
	if body == nil || body.NamedChildCount() == 0 {
		return ""
	}
	first := body.NamedChild(0)
	if first.Kind() != "expression_statement" || first.NamedChildCount() != 1 {
		return ""
	}
	str := first.NamedChild(0)
	if str.Kind() != "string" {
		return ""
	}
	return lang.FirstParagraph(strings.Split(stringValue(x.text(str)), "\n"))
}

// stringValue strips the prefix and quotes of a string literal.
func stringValue(lit string) string {
	i := strings.IndexAny(lit, `"'`)
	if i < 0 {
		return lit
	}
	body := lit[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(body) >= 2*len(q) && strings.HasPrefix(body, q) && strings.HasSuffix(body, q) {
			return body[len(q) : len(body)-len(q)]
		}
	}
	return strings.Trim(body, `"'`)
}

// bases returns the base classes written in a class's argument list;
// keyword arguments (metaclass=...) and unpacked arguments are not bases.
func (x *extraction) bases(args *ts.Node) []lang.Base {
	if args == nil {
		return nil
	}
	var out []lang.Base
	for i := uint(0); i < args.NamedChildCount(); i++ {
		a := args.NamedChild(i)
		switch a.Kind() {
		case "identifier", "attribute", "subscript":
			out = append(out, lang.Base{Type: lang.OneLine(x.text(a)), Kind: lang.BaseExtends})
		}
	}
	return out
}

// params reads a parameter list. The receiver is still included.
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		p := list.NamedChild(i)
		switch p.Kind() {
		case "identifier":
			out = append(out, lang.Param{Name: x.text(p)})
		case "list_splat_pattern", "dictionary_splat_pattern":
			out = append(out, lang.Param{Name: x.splatName(p), Variadic: true})
		case "typed_parameter":
			prm := lang.Param{Type: lang.OneLine(x.text(p.ChildByFieldName("type")))}
			if p.NamedChildCount() > 0 {
				inner := p.NamedChild(0)
				switch inner.Kind() {
				case "identifier":
					prm.Name = x.text(inner)
				case "list_splat_pattern", "dictionary_splat_pattern":
					prm.Name, prm.Variadic = x.splatName(inner), true
					if inner.Kind() == "list_splat_pattern" {
						prm.Type = "tuple[" + prm.Type + ", ...]"
					} else {
						prm.Type = "dict[str, " + prm.Type + "]"
					}
				}
			}
			out = append(out, prm)
		case "default_parameter", "typed_default_parameter":
			out = append(out, lang.Param{
				Name:     x.text(p.ChildByFieldName("name")),
				Type:     lang.OneLine(x.text(p.ChildByFieldName("type"))),
				Optional: true,
			})
		}
	}
	return out
}

func (x *extraction) splatName(p *ts.Node) string {
	if p.NamedChildCount() > 0 {
		return x.text(p.NamedChild(0))
	}
	return ""
}

// addGlobal records the names a `global` or `nonlocal` statement takes out
// of its function's locals.
func (x *extraction) addGlobal(n *ts.Node) {
	scope := x.scopes.at(uint32(n.StartByte()))
	if scope < 0 {
		return
	}
	if x.globals[scope] == nil {
		x.globals[scope] = map[string]bool{}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "identifier" {
			x.globals[scope][x.text(c)] = true
		}
	}
}

// addReturn records, for a function without a declared result type, the
// first returned expression that can be typed.
func (x *extraction) addReturn(ret, value *ts.Node) {
	scope := x.scopes.at(uint32(ret.StartByte()))
	if scope < 0 {
		return
	}
	s := &x.facts.Symbols[scope]
	if !s.Kind.IsCallable() || len(s.Returns) > 0 || s.Value != nil || x.info[scope].generator {
		return
	}
	if e := x.expr(value, scope); typeable(e) {
		s.Value = e
	}
}

// typeable reports whether an expression can give a value a type.
func typeable(e *lang.Expr) bool {
	return e.Kind != lang.ExprUnknown && !(e.Kind == lang.ExprLiteral && e.Name == "null")
}

// reorder sorts the symbols into document order (instance attributes were
// added after the methods that assign them) and renumbers every index.
func (x *extraction) reorder() {
	syms := x.facts.Symbols
	order := make([]int, len(syms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return syms[order[a]].StartByte < syms[order[b]].StartByte })
	newIdx := make([]int, len(syms))
	for n, old := range order {
		newIdx[old] = n
	}
	remap := func(i int) int {
		if i < 0 {
			return i
		}
		return newIdx[i]
	}
	outSyms := make([]lang.Symbol, len(syms))
	outInfo := make([]symInfo, len(syms))
	for n, old := range order {
		outSyms[n] = syms[old]
		outSyms[n].Parent = remap(syms[old].Parent)
		outInfo[n] = x.info[old]
	}
	x.facts.Symbols, x.info = outSyms, outInfo
	for i := range x.facts.Imports {
		x.facts.Imports[i].Scope = remap(x.facts.Imports[i].Scope)
	}
	globals := make(map[int]map[string]bool, len(x.globals))
	for k, v := range x.globals {
		globals[remap(k)] = v
	}
	x.globals = globals
	x.members, x.moduleVars = nil, nil
	clear(x.receivers)
}
