package scala

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

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
	if len(t.Path) == 0 || t.Elem > 0 {
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
		if !ok || (!m.IsPackage && !m.PackagePrefix) {
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
