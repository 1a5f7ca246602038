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
	// detached are the bodies written after a def's line break (see
	// detachBodies), by the start of the def.
	detached map[uint]*ts.Node
	// elementLambdas are the lambdas whose parameter is known (an
	// element of a collection, see elementArgument, or the parameter
	// type a def expects, see expectedParameter), by their start.
	elementLambdas map[uint]lambdaParam
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
func (x *extraction) add(s lang.Symbol) int { return x.facts.AddSymbol(s) }

func (x *extraction) qualOf(parent int, name string) string { return x.facts.QualIn(parent, name) }

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
	skipped := x.detachBodies(root)
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		if skipped[i] {
			continue
		}
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
	skipped := x.detachBodies(n)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if skipped[i] {
			continue
		}
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
	case "self_type":
		x.selfAlias(c, owner)
	case "block_comment", "comment", "modifiers", "annotation":
	default:
		x.code(c)
	}
}
