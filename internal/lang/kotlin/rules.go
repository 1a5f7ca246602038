package kotlin

import (
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Kotlin: a package is what files declare with `package`
// (wherever they live); a qualified type a.b.C is the top-level type C of
// package a.b; a simple name is a member of the enclosing classes (and
// their supertypes), a name of the file, an explicit import, a name of
// the package, then a name of a star-imported package.
type rules struct{}

// Features: `C()` constructs a C; no call is linked by name only (an
// untyped `x.save()` says nothing of which save runs); a local is visible
// from its declaration on (so the bindings of smart casts and of
// constructor parameters in initializers name nothing outside their
// span); a call of a name skips the parameters of a named (not a
// function) type.
func (rules) Features() lang.Features {
	return lang.Features{TypeCallConstructs: true, NoNameOnly: true, OrderedBindings: true, CalledParamsTyped: true}
}

func (rules) ConfigNames() []string { return nil }

// anyMethods are the members every Kotlin class inherits from Any.
var anyMethods = map[string]bool{"equals": true, "hashCode": true, "toString": true}

func (rules) IsBuiltin(name string) bool { return anyMethods[name] }

// Link: every Kotlin supertype is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// Organize groups files by their declared package, adds prefix modules for
// the leading parts of package names, and makes each extension function a
// member of its receiver type when that is a class of the repository.
func (rules) Organize(p *lang.Program) {
	p.GroupByPackage()
	p.AddPackagePrefixes()
	for _, f := range p.Files {
		for i, s := range f.Facts.Symbols {
			if s.Kind != graph.KindFunction || s.Receiver == "" || s.Parent >= 0 {
				continue
			}
			// A member of the class wins over an extension of the same name.
			t := typeNamed(p, f, s.Receiver)
			switch {
			case t == lang.NoSym:
				attachExternalExtension(p, f.SymOf(i))
			case !declaresMember(p, t, s.Name):
				p.AddMember(t, f.SymOf(i))
			default:
				// Not found on T (its member wins), but inside the
				// extension `this` is still a T.
				p.SetOwner(f.SymOf(i), t)
			}
		}
	}
	inheritExternalExtensions(p)
}

// declaresMember reports whether type t declares a member named name in
// its body.
func declaresMember(p *lang.Program, t lang.SymID, name string) bool {
	for _, id := range p.Members(t, name) {
		if p.Sym(id).Receiver == "" {
			return true
		}
	}
	return false
}

// typeNamed resolves a type name written in f before imports are bound:
// a qualified name, a type of the file, of an explicit import, of the
// package or of a star-imported package.
func typeNamed(p *lang.Program, f *lang.File, written string) lang.SymID {
	t := lang.TypeExpr{}
	if te := (rules{}).ParseType(written); len(te.Path) > 0 {
		t = te
	} else {
		return lang.NoSym
	}
	if len(t.Path) > 1 {
		if id := qualifiedType(p, strings.Join(t.Path, ".")); id != lang.NoSym {
			return id
		}
		// A nested type: Outer.Inner with Outer named as a simple name.
		id := simpleTypeNamed(p, f, t.Path[0])
		for _, part := range t.Path[1:] {
			if id == lang.NoSym {
				break
			}
			id = firstType(p, p.Members(id, part))
		}
		return id
	}
	return simpleTypeNamed(p, f, t.Path[0])
}

// simpleTypeNamed resolves a simple type name written in f: a type of
// the file, of an explicit import, of the package or of a star-imported
// package.
func simpleTypeNamed(p *lang.Program, f *lang.File, name string) lang.SymID {
	if id := firstType(p, f.Top[name]); id != lang.NoSym {
		return id
	}
	for _, imp := range f.Facts.Imports {
		if imp.Kind == lang.ImportName && imp.Name == name {
			return qualifiedType(p, imp.Path)
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

// qualifiedType resolves a.b.C to the top-level type C of package a.b.
func qualifiedType(p *lang.Program, dotted string) lang.SymID {
	i := strings.LastIndexByte(dotted, '.')
	if i < 0 {
		return lang.NoSym
	}
	m, ok := p.Modules[dotted[:i]]
	if !ok || !m.IsPackage {
		return lang.NoSym
	}
	return firstType(p, m.Scope[dotted[i+1:]])
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

// Export returns the top-level name of package m, or the subpackage m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if ids := m.Scope[name]; len(ids) > 0 && m.IsPackage {
		return lang.SymsValue(ids)
	}
	return lang.Subpackage(p, m, name)
}

// Lookup resolves a simple name: members of the enclosing classes and
// their supertypes, the file, explicit imports, the package, star
// imports, then the first part of a qualified name.
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if !c.TypesOnly() {
		if ids := lambdaReceiverMember(p, c, name); len(ids) > 0 {
			return lang.SymsValue(ids), graph.ReasonReceiverTyped
		}
	}
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = p.DeclaringType(t) {
		// A constructor is a member named after its class, but the
		// name stands for the class.
		if ids, _ := p.FindMember(t, name); len(ids) > 0 && p.Sym(ids[0]).Kind != graph.KindConstructor {
			return lang.SymsValue(ids), graph.ReasonSelfReceiver
		}
	}
	if ids := f.Top[name]; len(ids) > 0 {
		return lang.SymsValue(ids), graph.ReasonSameFile
	}
	if v, ok := f.Imported[name]; ok {
		if v.Kind == lang.ValExternal && c.TypesOnly() {
			if h := externalTypeFor(p, name); h != lang.NoSym {
				return lang.SymValue(h), ""
			}
		}
		return v, graph.ReasonImportResolved
	}
	if ids := f.Module.Scope[name]; len(ids) > 0 {
		return lang.SymsValue(ids), graph.ReasonSamePackage
	}
	for _, m := range f.Wildcards {
		if ids := m.Scope[name]; len(ids) > 0 {
			return lang.SymsValue(ids), graph.ReasonImportResolved
		}
	}
	if m, ok := p.Modules[name]; ok && (m.IsPackage || m.PackagePrefix) {
		return lang.ModuleValue(m), graph.ReasonImportResolved
	}
	if c.TypesOnly() {
		if h := externalTypeFor(p, name); h != lang.NoSym {
			return lang.SymValue(h), ""
		}
	}
	return lang.External(), ""
}

// lambdaReceiverMember finds name on the receivers of the lambdas around
// c (`x.apply { f() }`), innermost first; nil when none declares it.
func lambdaReceiverMember(p *lang.Program, c *lang.Ctx, name string) []lang.SymID {
	bs := c.File.Facts.Bindings
	var around []int
	for i := range bs {
		if bs[i].Name == receiverBinding && bs[i].Byte <= c.Pos && c.Pos < bs[i].End {
			around = append(around, i)
		}
	}
	sort.Slice(around, func(a, b int) bool { return bs[around[a]].Byte > bs[around[b]].Byte })
	for _, i := range around {
		// The receiver is written before its lambda: evaluated there,
		// outside the lambda, so that the lookup ends.
		v, _ := p.Eval(lang.Ctx{File: c.File, Scope: bs[i].Scope, Pos: bs[i].Byte - 1}, bs[i].Value)
		if v.Kind != lang.ValInstance || v.Elem > 0 {
			continue
		}
		if ids, _ := p.FindMember(v.Sym, name); len(ids) > 0 {
			return ids
		}
	}
	return nil
}

// ParseType reduces a Kotlin type to its named part: "List<Foo>" is List,
// "a.b.C" is [a b C], "Foo?" is Foo; type arguments are dropped.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "?"))
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	t = strings.Join(strings.Fields(t), "")
	if t == "" || t == "Unit" {
		return lang.TypeExpr{}
	}
	parts := strings.Split(t, ".")
	for _, part := range parts {
		if !lang.IsIdentifier(part, "") {
			return lang.TypeExpr{}
		}
	}
	return lang.TypeExpr{Path: parts}
}

// BindImports resolves the imports of f: `import a.b.C` (and `as D`)
// binds C (D) to the type or top-level function of package a.b, with an
// IMPORTS edge to the file that declares it; `import a.b.*` makes the
// package's names visible, with an IMPORTS edge to its Package node.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	edge := lang.ImportEdgeOnce(f)
	for _, imp := range f.Facts.Imports {
		if imp.Kind == lang.ImportWildcard {
			if m, ok := p.Modules[imp.Path]; ok && m.IsPackage && m != f.Module {
				f.Wildcards = append(f.Wildcards, m)
				edge(m.PackageNodeID(), imp.Line)
			}
			continue
		}
		i := strings.LastIndexByte(imp.Path, '.')
		if i < 0 {
			continue
		}
		var ids []lang.SymID
		if m, ok := p.Modules[imp.Path[:i]]; ok && m.IsPackage {
			ids = m.Scope[imp.Path[i+1:]]
		}
		if len(ids) == 0 {
			f.Imported[imp.Name] = lang.External()
			f.ImportLines[imp.Name] = imp.Line
			continue
		}
		f.Imported[imp.Name] = lang.SymsValue(ids)
		f.ImportLines[imp.Name] = imp.Line
		edge(graph.FileID(p.Sym(ids[0]).File.Facts.Path), imp.Line)
	}
}
