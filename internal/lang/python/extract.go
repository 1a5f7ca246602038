package python

import (
	"sort"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src)
	x.facts.SyntaxErrors = lang.CountSyntaxErrors(root)
	defs, uses := e.Q.all.CollectSplit(e.Cursor, root, src, e.Q.defsPatterns)
	x.readDefs(e.Q.all, defs)
	x.readUses(e.Q.all, uses)
	return x.facts, nil
}

func newExtraction(path string, src []byte) *extraction {
	return &extraction{
		src:        src,
		facts:      &lang.FileFacts{Path: path, Language: "python", Lines: lang.CountLines(src)},
		members:    map[int]map[string]bool{},
		moduleVars: map[string]int{},
		globals:    map[int]map[string]bool{},
		receivers:  map[int]receiverRef{},
	}
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
	// typingAliases are the local names of typing modules (annotations.go).
	typingAliases map[string]string
	// symbolsOnly: record what the history reads of symbols only
	// (ExtractSymbols): no signatures, docs, contents or values.
	symbolsOnly bool
}

// symInfo is what extraction needs to know about a symbol beyond the facts.
type symInfo struct {
	scope              bool          // a function or class: it has a body
	bodyStart, bodyEnd uint32        // the body's byte range
	receiver           string        // a method's first parameter (self, cls)
	classReceiver      bool          // the receiver is the class (classmethod, __new__)
	generator          bool          // the function yields
	supplied           suppliedNames // a class's parametrize decorators (fixtures_extract.go)
	typePath           string        // a class's name path below its enclosing function: "Outer.Inner"
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
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
	for i := range matches {
		m := &matches[i]
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
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].node.StartByte() < defs[j].node.StartByte() })
	sort.SliceStable(assigns, func(i, j int) bool { return assigns[i].StartByte() < assigns[j].StartByte() })
	x.readTypingAliases(imports)
	x.addDefs(defs)
	x.scopes = newScopeIndex(x.facts.Symbols, x.info)

	for i := range globals {
		x.addGlobal(&globals[i])
	}
	// Imports first: expressions read them (`t.cast` with typing as t).
	for i := range imports {
		x.addImport(&imports[i])
	}
	for i := range yields {
		if s := x.scopes.at(uint32(yields[i].StartByte())); s >= 0 && x.facts.Symbols[s].Kind.IsCallable() {
			x.info[s].generator = true
			x.addYield(&yields[i], s)
		}
	}
	for i := range returns {
		x.addReturn(&returns[i][0], &returns[i][1])
	}
	for i := range assigns {
		x.addAssignment(&assigns[i])
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
	return e.Kind != lang.ExprUnknown && e.Kind != lang.ExprEither && !(e.Kind == lang.ExprLiteral && e.Name == "null")
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
