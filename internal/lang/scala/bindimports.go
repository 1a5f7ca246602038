package scala

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// BindImports resolves the imports of f: `import a.b.C` (and renames)
// binds C to the type, object, member or subpackage it names, with an
// IMPORTS edge to the file that declares it; `import a.b._` makes the
// names of a package visible (an IMPORTS edge to its Package node) or
// the members of an object (an edge to the object's file).
func (rules) BindImports(p *lang.Program, f *lang.File) {
	edge := lang.ImportEdgeOnce(f)
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
