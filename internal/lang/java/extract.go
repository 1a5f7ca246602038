package java

import (
	"sort"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// newExtraction starts reading the file path (src, parsed into root).
func newExtraction(path string, src []byte, root *ts.Node) *extraction {
	facts := lang.NewFileFacts("java", path, src, root)
	return &extraction{
		src:        src,
		facts:      facts,
		scopes:     lang.NewScopeFinder(&facts.Symbols),
		anonCount:  map[int]int{},
		localCount: map[localKey]int{},
		components: map[int][]lang.Param{},
		hasCtor:    map[int]bool{},
	}
}

// ExtractTree reads the facts off a tree of src the caller parsed.
func (e *extractor) ExtractTree(path string, src []byte, tree *ts.Tree) (*lang.FileFacts, error) {
	root := tree.RootNode()
	x := newExtraction(path, src, root)
	e.Q.Read(e.Cursor, root, src, x.readDefs, x.readUses)
	return x.facts, nil
}

// ExtractSymbols reads the symbols of a tree of src alone, with the
// declarations' query only: no calls, bindings or references. The history
// maps changed lines onto symbols and needs nothing else.
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
	// flat holds the javac flat name of each type symbol ("Outer$Inner",
	// "Outer$1", "Outer$1Local"), by symbol index; "" for other symbols.
	flat []string
	// anonCount numbers anonymous classes per enclosing type symbol.
	anonCount map[int]int
	// localCount numbers local classes per enclosing type and name.
	localCount map[localKey]int
	// components are the record components of each record symbol.
	components map[int][]lang.Param
	// hasCtor marks type symbols that declare a constructor.
	hasCtor map[int]bool
}

type localKey struct {
	encl int
	name string
}

func (x *extraction) text(n *ts.Node) string { return lang.Text(n, x.src) }

// declKind is the kind of a captured declaration.
type declKind uint8

const (
	declClass declKind = iota
	declInterface
	declEnum
	declRecord
	declAnnotation
	declMethod
	declConstructor
	declCompact
	declElement
	declField
	declEnumConst
	declAnon
)

// decl is one captured declaration; start and end order them so that
// enclosing declarations come before what they enclose.
type decl struct {
	kind       declKind
	node, body ts.Node
	start, end uint
}

func (x *extraction) readDefs(q *lang.Query, matches []lang.Match) {
	var (
		cPackage = q.Capture("package")
		cImport  = q.Capture("import")
		cAnon    = q.Capture("anon")
		cBody    = q.Capture("anon.body")
	)
	kinds := []struct {
		capture uint32
		kind    declKind
	}{
		{q.Capture("class"), declClass}, {q.Capture("interface"), declInterface},
		{q.Capture("enum"), declEnum}, {q.Capture("record"), declRecord},
		{q.Capture("annotation"), declAnnotation}, {q.Capture("method"), declMethod},
		{q.Capture("constructor"), declConstructor}, {q.Capture("compact"), declCompact},
		{q.Capture("element"), declElement}, {q.Capture("field"), declField},
		{q.Capture("enumconst"), declEnumConst},
	}
	var decls []decl
	handle := func(m *lang.Match) {
		switch {
		case m.Node(cPackage) != nil:
			x.facts.Package = lang.OneLine(x.text(m.Node(cPackage)))
			return
		case m.Node(cImport) != nil:
			x.addImport(m.Node(cImport))
			return
		case m.Node(cAnon) != nil:
			body := *m.Node(cBody)
			decls = append(decls, decl{kind: declAnon, node: *m.Node(cAnon), body: body,
				start: body.StartByte(), end: body.EndByte()})
			return
		}
		for _, k := range kinds {
			if n := m.Node(k.capture); n != nil {
				decls = append(decls, decl{kind: k.kind, node: *n, start: n.StartByte(), end: n.EndByte()})
				return
			}
		}
	}
	for i := range matches {
		handle(&matches[i])
	}
	sort.SliceStable(decls, func(i, j int) bool {
		if decls[i].start != decls[j].start {
			return decls[i].start < decls[j].start
		}
		return decls[i].end > decls[j].end
	})
	for i := range decls {
		d := &decls[i]
		switch d.kind {
		case declClass, declInterface, declEnum, declRecord, declAnnotation:
			x.addType(&d.node, d.kind)
		case declMethod, declConstructor, declCompact, declElement:
			x.addCallable(&d.node, d.kind)
		case declField:
			x.addField(&d.node)
		case declEnumConst:
			x.addEnumConstant(&d.node)
		case declAnon:
			x.addAnonymous(&d.node, &d.body)
		}
	}
	x.addImplicitSuperCalls()
}

// add appends a symbol and returns its index.
func (x *extraction) add(s lang.Symbol, flat string) int {
	s.Name = lang.ValidUTF8(s.Name)
	if s.Qual == "" {
		s.Qual = s.Name
	}
	x.facts.Symbols = append(x.facts.Symbols, s)
	x.flat = append(x.flat, flat)
	return len(x.facts.Symbols) - 1
}

// container is the innermost type or callable enclosing pos, -1 at file
// level. Declarations nest in it, and calls and references belong to it:
// a call in a field initializer belongs to the class, not to the field.
func (x *extraction) container(pos uint32) int {
	return x.scopes.Innermost(pos, func(s *lang.Symbol) bool { return s.Kind.IsCallable() || s.Kind.IsType() })
}

// enclosingType is the innermost type symbol at or above symbol i, -1 when
// there is none.
func (x *extraction) enclosingType(i int) int {
	for i >= 0 && !x.facts.Symbols[i].Kind.IsType() {
		i = x.facts.Symbols[i].Parent
	}
	return i
}

// memberOwner is the type a member declaration at pos belongs to, -1 when
// it is not directly in a type body (a parse error).
func (x *extraction) memberOwner(n *ts.Node) int {
	owner := x.container(uint32(n.StartByte()))
	if owner < 0 || !x.facts.Symbols[owner].Kind.IsType() {
		return -1
	}
	return owner
}

// addImplicitSuperCalls records the `super()` call that javac inserts in a
// constructor that starts with neither `this(...)` nor `super(...)`, and in
// the default constructor of a class that declares none (attributed to the
// class, like the constructor itself), for classes that extend another.
func (x *extraction) addImplicitSuperCalls() {
	for i := range x.facts.Symbols {
		s := &x.facts.Symbols[i]
		if s.Kind != graph.KindClass || x.hasCtor[i] || !extendsClass(s) {
			continue
		}
		if x.flat[i] != "" && isAnonymous(s) {
			continue // the creation expression calls the superclass constructor
		}
		x.facts.Calls = append(x.facts.Calls, lang.Call{Scope: i, Callee: &lang.Expr{Kind: lang.ExprSuper},
			Line: s.StartLine, Byte: s.StartByte})
	}
}

func extendsClass(s *lang.Symbol) bool {
	for _, b := range s.Bases {
		if b.Kind == lang.BaseExtends {
			return true
		}
	}
	return false
}

// isAnonymous reports whether a class symbol is an anonymous class.
func isAnonymous(s *lang.Symbol) bool {
	for i := len(s.Qual) - 1; i > 0; i-- {
		if s.Qual[i] == '.' {
			return s.Qual[i+1] == '$'
		}
	}
	return false
}
