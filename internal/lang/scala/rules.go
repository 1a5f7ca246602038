package scala

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Scala: a package is what files declare with `package`
// (wherever they live); a dotted name a.b.C is the top-level type C of
// package a.b (or the member C of an object a.b); a simple name is a
// member of the enclosing classes (and their supertypes), a name of the
// file, an explicit import, a name of the package, of an enclosing package
// of chained clauses, then of a wildcard-imported package or object.
// Import paths are tried as written and then relative to the file's
// package and each package enclosing it.
type rules struct{}

// Features: `C(x)` constructs a C unless its companion defines a fitting
// apply; `super.f` follows the linearization; no call is linked by name
// only (an untyped `x.save()` says nothing of which save runs).
func (rules) Features() lang.Features {
	return lang.Features{TypeCallConstructs: true, NoNameOnly: true, ApplyMember: "apply", LinearSuper: true,
		NearestLocal: true}
}

func (rules) ConfigNames() []string { return nil }

// anyMethods are the members every Scala class inherits from Any.
var anyMethods = map[string]bool{"equals": true, "hashCode": true, "toString": true, "getClass": true}

func (rules) IsBuiltin(name string) bool { return anyMethods[name] }

// Link: every Scala supertype is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// unnamedPackage prefixes the key of the module of files without a
// package clause, one per directory (no Package node).
const unnamedPackage = "(unnamed package) "

// objectMembers prefixes the key of the module standing for the members
// of an object imported with a wildcard (`import O._`).
const objectMembers = "(object members) "

// prefixModule marks modules that only stand for a package-name prefix.
type prefixModule struct{}

// Organize groups files by their declared package, adds prefix modules for
// the leading parts of package names, and makes extension methods and the
// methods of implicit classes members of the type they extend when that
// is a type of the repository without a member of the same name.
func (rules) Organize(p *lang.Program) {
	for _, f := range p.Files {
		joinEarlyCompanions(p, f)
	}
	for _, f := range p.Files {
		pkg := f.Facts.Package
		dir := lang.Dir(f.Facts.Path)
		var m *lang.Module
		if pkg == "" {
			m = p.Module(unnamedPackage+dir, path.Base("/"+dir), dir, false)
		} else {
			m = p.Module(pkg, pkg[strings.LastIndexByte(pkg, '.')+1:], dir, true)
			m.Qualifier = pkg
		}
		p.AddFile(m, f)
	}
	for _, m := range p.SortedModules() {
		if !m.IsPackage {
			continue
		}
		for i := strings.IndexByte(m.Key, '.'); i > 0; {
			prefix := m.Key[:i]
			if _, ok := p.Modules[prefix]; !ok {
				pm := p.Module(prefix, prefix[strings.LastIndexByte(prefix, '.')+1:], "", false)
				pm.Data = prefixModule{}
			}
			j := strings.IndexByte(m.Key[i+1:], '.')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	for _, f := range p.Files {
		for i, s := range f.Facts.Symbols {
			if s.Receiver == "" {
				continue
			}
			t := typeNamed(p, f, s.Receiver)
			if t == lang.NoSym {
				continue
			}
			id := f.SymOf(i)
			switch {
			case s.Kind.IsCallable():
				// An extension method.
				if !declaresMember(p, t, s.Name) {
					p.AddMember(t, id)
				}
			case s.Kind == graph.KindClass:
				// An implicit class: its methods extend t.
				for _, ids := range sortedMembers(p, id) {
					if declaresMember(p, t, p.Sym(ids[0]).Name) {
						continue
					}
					for _, m := range ids {
						if ms := p.Sym(m); ms.Kind == graph.KindMethod && !ms.Static {
							p.AddMember(t, m)
							p.SetOwner(m, id)
						}
					}
				}
			}
		}
	}
}

// joinEarlyCompanions gives the members of each object declared before
// its class (a hidden earlyCompanion) to the class, and takes the object's
// name off the file's and its parent's names, so that the name means the
// class.
func joinEarlyCompanions(p *lang.Program, f *lang.File) {
	syms := f.Facts.Symbols
	for i := range syms {
		s := &syms[i]
		if !s.Hidden || s.Kind != earlyCompanion {
			continue
		}
		class := lang.NoSym
		for j := i + 1; j < len(syms); j++ {
			if o := &syms[j]; o.Parent == s.Parent && o.Name == s.Name && !o.Hidden &&
				(o.Kind == graph.KindClass || o.Kind == graph.KindInterface || o.Kind == graph.KindEnum) {
				class = f.SymOf(j)
				break
			}
		}
		if class == lang.NoSym {
			continue
		}
		obj := f.SymOf(i)
		for _, ids := range sortedMembers(p, obj) {
			for _, m := range ids {
				p.AddMember(class, m)
			}
		}
		if s.Parent < 0 {
			f.Top[s.Name] = without(f.Top[s.Name], obj)
		} else {
			parent := p.AllMembers(f.SymOf(s.Parent))
			parent[s.Name] = without(parent[s.Name], obj)
		}
	}
}

// sortedMembers are the own members of t, by name in sorted order.
func sortedMembers(p *lang.Program, t lang.SymID) [][]lang.SymID {
	all := p.AllMembers(t)
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([][]lang.SymID, len(names))
	for i, name := range names {
		out[i] = all[name]
	}
	return out
}

// without is ids without id.
func without(ids []lang.SymID, id lang.SymID) []lang.SymID {
	var out []lang.SymID
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// declaresMember reports whether type t declares a member named name in
// its body.
func declaresMember(p *lang.Program, t lang.SymID, name string) bool {
	for _, id := range p.Members(t, name) {
		if p.Sym(id).Receiver == "" && p.Owner(id) == t {
			return true
		}
	}
	return false
}

// typeNamed resolves a type name written in f before imports are bound:
// a qualified name, a type of the file, of an explicit import, of the
// package or of a wildcard-imported package.
func typeNamed(p *lang.Program, f *lang.File, written string) lang.SymID {
	return followAlias(p, typeNamedAsWritten(p, f, written), 0)
}

// followAlias is the type an alias (`type P[T] = ParsingRun[T]`) stands
// for, when it declares nothing of its own; t itself otherwise.
func followAlias(p *lang.Program, t lang.SymID, depth int) lang.SymID {
	if t == lang.NoSym || depth > 8 {
		return t
	}
	s := p.Sym(t)
	if s.Kind != graph.KindTypeAlias || s.Type == "" || len(p.AllMembers(t)) > 0 {
		return t
	}
	if target := typeNamedAsWritten(p, s.File, s.Type); target != lang.NoSym && target != t {
		return followAlias(p, target, depth+1)
	}
	return t
}

// typeNamedAsWritten resolves a type name without following aliases.
func typeNamedAsWritten(p *lang.Program, f *lang.File, written string) lang.SymID {
	t := (rules{}).ParseType(written)
	if len(t.Path) == 0 {
		return lang.NoSym
	}
	if len(t.Path) > 1 {
		return firstType(p, symsOf(resolveDotted(p, f, t.Path)))
	}
	name := t.Path[0]
	if id := firstType(p, f.Top[name]); id != lang.NoSym {
		return id
	}
	for _, imp := range f.Facts.Imports {
		if imp.Kind == lang.ImportName && imp.Name == name {
			return firstType(p, symsOf(resolveDotted(p, f, strings.Split(imp.Path, "."))))
		}
	}
	if id := firstType(p, f.Module.Scope[name]); id != lang.NoSym {
		return id
	}
	for _, imp := range f.Facts.Imports {
		if m, ok := p.Modules[imp.Path]; ok && imp.Kind == lang.ImportWildcard {
			if id := firstType(p, m.Scope[name]); id != lang.NoSym {
				return id
			}
		}
	}
	return lang.NoSym
}

// firstType picks the first type among symbols.
func firstType(p *lang.Program, ids []lang.SymID) lang.SymID {
	for _, id := range ids {
		if p.Sym(id).Kind.IsType() {
			return id
		}
	}
	return lang.NoSym
}

// symsOf are the symbols of a symbol value.
func symsOf(v lang.Value) []lang.SymID {
	if v.Kind != lang.ValSym {
		return nil
	}
	return append([]lang.SymID{v.Sym}, v.Alts...)
}

// resolveDotted resolves a dotted path as written and then relative to
// the package of f and each package enclosing it.
func resolveDotted(p *lang.Program, f *lang.File, parts []string) lang.Value {
	if v := resolveAbsolute(p, parts); v.Known() {
		return v
	}
	pkg := f.Facts.Package
	for pkg != "" {
		if v := resolveAbsolute(p, append(strings.Split(pkg, "."), parts...)); v.Known() {
			return v
		}
		i := strings.LastIndexByte(pkg, '.')
		if i < 0 {
			break
		}
		pkg = pkg[:i]
	}
	return lang.None()
}

// resolveAbsolute resolves a dotted path from the root: the longest prefix
// that is a package, then top-level names and members of types.
func resolveAbsolute(p *lang.Program, parts []string) lang.Value {
	for i := len(parts); i > 0; i-- {
		m, ok := p.Modules[strings.Join(parts[:i], ".")]
		if !ok || (!m.IsPackage && m.Data == nil) {
			continue
		}
		if i == len(parts) {
			return lang.ModuleValue(m)
		}
		if !m.IsPackage {
			continue
		}
		ids := m.Scope[parts[i]]
		for _, part := range parts[i+1:] {
			t := firstType(p, ids)
			if t == lang.NoSym {
				return lang.None()
			}
			ids = p.Members(t, part)
		}
		if len(ids) > 0 {
			return lang.SymsValue(ids)
		}
		return lang.None()
	}
	return lang.None()
}

// Export returns the top-level name of package m, a member of an object
// imported with a wildcard, or the subpackage m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if ids := m.Scope[name]; len(ids) > 0 && (m.IsPackage || strings.HasPrefix(m.Key, objectMembers)) {
		return lang.SymsValue(ids)
	}
	if sub, ok := p.Modules[m.Key+"."+name]; ok {
		return lang.ModuleValue(sub)
	}
	return lang.None()
}

// Lookup resolves a simple name: members of the enclosing classes and
// their supertypes, the file, explicit imports, the package, enclosing
// packages and wildcard imports, then a package named so (relative to
// the file's package first).
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if !c.TypesOnly() {
		// Code in a val's initializer outside the defs declared there
		// (it belongs to the class) sees those defs.
		sf := lang.NewScopeFinder(&f.Facts.Symbols)
		if i := sf.Innermost(c.Pos, func(s *lang.Symbol) bool {
			return s.Kind == graph.KindProperty || s.Kind == graph.KindVariable
		}); i >= 0 {
			if ids := p.AllMembers(f.SymOf(i))[name]; len(ids) > 0 {
				return lang.SymsValue(nearest(p, ids, c.Pos)), graph.ReasonSameFile
			}
		}
	}
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = enclosingOf(p, t) {
		// A constructor is a member named after its class, but the
		// name stands for the class.
		if ids, _ := p.FindMember(t, name); len(ids) > 0 && p.Sym(ids[0]).Kind != graph.KindConstructor {
			return lang.SymsValue(ids), graph.ReasonSelfReceiver
		}
	}
	// A name used as a type means a type, a name called a term: `P` may
	// be both a type alias and a def.
	pick := func(ids []lang.SymID) []lang.SymID {
		var types, terms []lang.SymID
		for _, id := range ids {
			if p.Sym(id).Kind.IsType() {
				types = append(types, id)
			} else {
				terms = append(terms, id)
			}
		}
		switch {
		case c.TypesOnly() && len(types) > 0:
			return types
		case c.Called() && len(terms) > 0 && len(types) > 0:
			return append(terms, types...)
		}
		return ids
	}
	if ids := pick(f.Top[name]); len(ids) > 0 {
		return lang.SymsValue(nearestOfSameParams(p, ids, c.Pos)), graph.ReasonSameFile
	}
	if v, ok := f.Imported[name]; ok {
		if v.Kind == lang.ValSym {
			v = lang.SymsValue(pick(symsOf(v)))
		}
		return v, graph.ReasonImportResolved
	}
	if ids := pick(f.Module.Scope[name]); len(ids) > 0 {
		return lang.SymsValue(withoutDuplicates(p, ids)), graph.ReasonSamePackage
	}
	for _, m := range f.Wildcards {
		if ids := pick(m.Scope[name]); len(ids) > 0 {
			return lang.SymsValue(withoutDuplicates(p, ids)), graph.ReasonImportResolved
		}
	}
	if v := resolveDotted(p, f, []string{name}); v.Kind == lang.ValModule {
		if v.Mod.IsPackage || v.Mod.Data != nil {
			return v, graph.ReasonImportResolved
		}
	}
	return lang.External(), ""
}

// nearestOfSameParams keeps, of top-level symbols of one file with the
// same name and the same parameter types, the one declared nearest to
// pos. Valid Scala has no such duplicates (overloads differ in their
// parameters); they come from local defs that a syntax error left at top
// level (the grammar's limits), each meant for the code around it.
func nearestOfSameParams(p *lang.Program, ids []lang.SymID, pos uint32) []lang.SymID {
	if len(ids) < 2 {
		return ids
	}
	var out []lang.SymID
	for i, id := range ids {
		s := p.Sym(id)
		best, bestDist, first := id, distance(s.Symbol, pos), true
		for j, other := range ids {
			o := p.Sym(other)
			if j == i || !sameParams(s.Params, o.Params) || o.Kind != s.Kind {
				continue
			}
			if j < i {
				first = false // the group was handled at its first member
				break
			}
			if d := distance(o.Symbol, pos); d < bestDist {
				best, bestDist = other, d
			}
		}
		if first {
			out = append(out, best)
		}
	}
	return out
}

// withoutDuplicates drops the top-level symbols that another symbol of
// the same file duplicates (same kind, name and parameter types): local
// defs a syntax error left at top level, which no other file can mean.
func withoutDuplicates(p *lang.Program, ids []lang.SymID) []lang.SymID {
	if len(ids) < 2 {
		return ids
	}
	var out []lang.SymID
	for i, id := range ids {
		s := p.Sym(id)
		dup := false
		for j, other := range ids {
			o := p.Sym(other)
			if j != i && o.File == s.File && o.Kind == s.Kind && sameParams(s.Params, o.Params) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, id)
		}
	}
	return out
}

// nearest is the symbol among ids declared nearest to pos.
func nearest(p *lang.Program, ids []lang.SymID, pos uint32) []lang.SymID {
	best := ids[0]
	for _, id := range ids[1:] {
		if distance(p.Sym(id).Symbol, pos) < distance(p.Sym(best).Symbol, pos) {
			best = id
		}
	}
	return []lang.SymID{best}
}

// distance is how far pos is from a symbol's declaration, 0 inside it.
func distance(s *lang.Symbol, pos uint32) uint32 {
	switch {
	case s.Contains(pos):
		return 0
	case pos < s.StartByte:
		return s.StartByte - pos
	}
	return pos - s.EndByte
}

// enclosingOf is the type that declares type t, or NoSym.
func enclosingOf(p *lang.Program, t lang.SymID) lang.SymID {
	s := p.Sym(t)
	for i := s.Parent; i >= 0; i = s.File.Facts.Symbols[i].Parent {
		if s.File.Facts.Symbols[i].Kind.IsType() {
			return s.File.SymOf(i)
		}
	}
	return lang.NoSym
}

// ParseType reduces a Scala type to its named part: "List[Foo]" is List,
// "a.b.C" is [a b C], "=> T" and "T*" are T, "A with B" is A; type
// arguments are dropped.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	t = strings.TrimSpace(strings.TrimPrefix(t, "=>"))
	t = strings.TrimSuffix(t, "*")
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	for _, sep := range []string{" with ", "with", "&", "|"} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	t = strings.Join(strings.Fields(t), "")
	if t == "" || t == "Unit" {
		return lang.TypeExpr{}
	}
	parts := strings.Split(t, ".")
	for _, part := range parts {
		if !isIdent(part) {
			return lang.TypeExpr{}
		}
	}
	return lang.TypeExpr{Path: parts}
}

func isIdent(s string) bool {
	for i, r := range s {
		if r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127 || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return s != ""
}

// BindImports resolves the imports of f: `import a.b.C` (and renames)
// binds C to the type, object, member or subpackage it names, with an
// IMPORTS edge to the file that declares it; `import a.b._` makes the
// names of a package visible (an IMPORTS edge to its Package node) or
// the members of an object (an edge to the object's file).
func (rules) BindImports(p *lang.Program, f *lang.File) {
	seen := map[string]bool{}
	edge := func(target string, line int) {
		if target == "" || target == graph.FileID(f.Facts.Path) || seen[target] {
			return
		}
		seen[target] = true
		f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: target, Line: line})
	}
	for _, imp := range f.Facts.Imports {
		if imp.Kind == lang.ImportWildcard {
			var v lang.Value
			if imp.Name == packageImport {
				v = resolveAbsolute(p, strings.Split(imp.Path, "."))
			} else {
				v = resolveDotted(p, f, strings.Split(imp.Path, "."))
			}
			switch {
			case v.Kind == lang.ValModule && v.Mod.IsPackage && v.Mod != f.Module:
				f.Wildcards = append(f.Wildcards, v.Mod)
				if imp.Name != packageImport {
					edge(v.Mod.PackageNodeID(), imp.Line)
				}
			case v.Kind == lang.ValSym && p.Sym(v.Sym).Kind.IsType():
				f.Wildcards = append(f.Wildcards, objectModule(p, v.Sym))
				edge(graph.FileID(p.Sym(v.Sym).File.Facts.Path), imp.Line)
			}
			continue
		}
		v := resolveDotted(p, f, strings.Split(imp.Path, "."))
		f.ImportLines[imp.Name] = imp.Line
		switch v.Kind {
		case lang.ValSym:
			f.Imported[imp.Name] = v
			edge(graph.FileID(p.Sym(v.Sym).File.Facts.Path), imp.Line)
		case lang.ValModule:
			f.Imported[imp.Name] = v
			edge(v.Mod.PackageNodeID(), imp.Line)
		default:
			f.Imported[imp.Name] = lang.External()
		}
	}
}

// objectModule is the module whose scope is the members of type t, for a
// wildcard import of an object's members.
func objectModule(p *lang.Program, t lang.SymID) *lang.Module {
	key := objectMembers + p.Sym(t).ID
	if m, ok := p.Modules[key]; ok {
		return m
	}
	m := p.Module(key, p.Sym(t).Name, "", false)
	for name, ids := range p.AllMembers(t) {
		for _, id := range ids {
			if p.Sym(id).Kind != graph.KindConstructor {
				m.Scope[name] = append(m.Scope[name], id)
			}
		}
	}
	return m
}
