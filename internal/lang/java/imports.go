package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// fileImports is what the imports of one file make visible.
type fileImports struct {
	// types are single-type imports (`import a.b.C;`) by simple name:
	// the type, or External when it is not in the repository.
	types map[string]lang.Value
	// statics are single static imports (`import static a.b.C.m;`): the
	// static members named m of C.
	statics map[string][]lang.SymID
	// staticExternal marks static imports from types outside the
	// repository.
	staticExternal map[string]bool
	// staticTypes are the types of static on-demand imports (`import
	// static a.b.C.*;`); memberTypes those of `import a.b.C.*;`, which
	// imports C's member types.
	staticTypes, memberTypes []lang.SymID
	// externalOnDemand: an on-demand import names a package or type outside
	// the repository, so an unresolved type name may come from it;
	// externalStatic: likewise for a static on-demand import and
	// unresolved method and field names.
	externalOnDemand, externalStatic bool
}

// importsOf returns the resolved imports of f (empty before BindImports).
func importsOf(f *lang.File) *fileImports {
	if d := dataOf(f.Module); d != nil {
		if fi, ok := d.imports[f]; ok {
			return fi
		}
	}
	return &fileImports{}
}

// BindImports resolves the imports of f. IMPORTS edges go to the file that
// declares an imported type (single-type and static imports) and to the
// Package of an on-demand package import.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	fi := &fileImports{types: map[string]lang.Value{}, statics: map[string][]lang.SymID{}, staticExternal: map[string]bool{}}
	dataOf(f.Module).imports[f] = fi
	edge := func(target string, line int) {
		f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: target, Line: line})
	}
	typeEdge := func(top lang.SymID, line int) { edge(graph.FileID(p.Sym(top).File.Facts.Path), line) }
	for _, imp := range f.Facts.Imports {
		switch {
		case imp.Kind == lang.ImportWildcard && !imp.Static:
			if m, ok := p.Modules[imp.Path]; ok && m.IsPackage {
				if m != f.Module {
					f.Wildcards = append(f.Wildcards, m)
					edge(m.PackageNodeID(), imp.Line)
				}
			} else if t, top := resolveQualified(p, imp.Path, f); t != lang.NoSym {
				fi.memberTypes = append(fi.memberTypes, t)
				typeEdge(top, imp.Line)
			} else {
				fi.externalOnDemand = true
			}
		case imp.Kind == lang.ImportWildcard:
			if t, top := resolveQualified(p, imp.Path, f); t != lang.NoSym {
				fi.staticTypes = append(fi.staticTypes, t)
				typeEdge(top, imp.Line)
			} else {
				fi.externalStatic = true
			}
		case imp.Static:
			t, top := resolveQualified(p, imp.Path, f)
			if t == lang.NoSym {
				fi.staticExternal[imp.Name] = true
				continue
			}
			typeEdge(top, imp.Line)
			for _, id := range p.Members(t, imp.Name) {
				if s := p.Sym(id); s.Static || s.Kind == graph.KindConst || s.Kind.IsType() {
					fi.statics[imp.Name] = append(fi.statics[imp.Name], id)
				}
			}
			if len(fi.statics[imp.Name]) == 0 {
				// Inherited static members, or a member the index missed.
				fi.staticExternal[imp.Name] = true
			}
		default:
			t, top := resolveQualified(p, imp.Path, f)
			if t == lang.NoSym {
				fi.types[imp.Name] = p.ExternalType(imp.Path) // External unless a JDK interface
			} else {
				fi.types[imp.Name] = lang.SymValue(t)
				typeEdge(top, imp.Line)
			}
			f.Imported[imp.Name] = fi.types[imp.Name]
			f.ImportLines[imp.Name] = imp.Line
		}
	}
}

// resolveQualified resolves a canonical type name a.b.C(.D...) to the type
// and to the top-level type that contains it: the longest package prefix
// that is a package of the repository and declares the next part.
func resolveQualified(p *lang.Program, dotted string, from *lang.File) (t, top lang.SymID) {
	parts := strings.Split(dotted, ".")
	for i := len(parts) - 1; i >= 1; i-- {
		m, ok := p.Modules[strings.Join(parts[:i], ".")]
		if !ok || !m.IsPackage {
			continue
		}
		top = firstType(p, m.Scope[parts[i]], from)
		if top == lang.NoSym {
			continue
		}
		t = top
		for _, part := range parts[i+1:] {
			t = memberType(p, t, part)
			if t == lang.NoSym {
				break
			}
		}
		if t != lang.NoSym {
			return t, top
		}
	}
	return lang.NoSym, lang.NoSym
}

// memberType returns the member type named name declared in t.
func memberType(p *lang.Program, t lang.SymID, name string) lang.SymID {
	for _, id := range p.Members(t, name) {
		if p.Sym(id).Kind.IsType() {
			return id
		}
	}
	return lang.NoSym
}
