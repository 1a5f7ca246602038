package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Types outside the repository are known by name only. A name that may be
// a JDK type gets the JDK facts of jdk.go; a repository type fits an
// outside type only through the outside supertypes its hierarchy names.

// outsideName names a type outside the repository: its simple name when it
// may be a JDK type (so that the JDK facts apply), its qualified name when
// the source says it comes from another library (a JUnit Executable is not
// java.lang.reflect.Executable).
func outsideName(f *lang.File, path []string) string {
	simple := path[len(path)-1]
	qualified := strings.Join(path, ".")
	if len(path) == 1 {
		for _, imp := range f.Facts.Imports {
			if imp.Kind == lang.ImportName && !imp.Static && imp.Name == simple {
				qualified = imp.Path
				break
			}
		}
	}
	if qualified == simple || strings.HasPrefix(qualified, "java.") || strings.HasPrefix(qualified, "javax.") {
		return simple
	}
	return qualified
}

// outsideSupers returns the simple names of the outside supertypes of
// repository type t (those its hierarchy names but the repository does not
// declare, with their JDK supertypes), and whether that set is complete
// (every one of them is a JDK type of the supertype table).
func (r rules) outsideSupers(p *lang.Program, t lang.SymID) (map[string]bool, bool) {
	d := dataOf(p.Sym(t).File.Module)
	if o, ok := d.outside.Cached(p, t); ok {
		return o.names, o.closed
	}
	mark, ok := d.outside.Enter(p, t)
	if !ok {
		return map[string]bool{"Object": true}, false // while computing
	}
	names := map[string]bool{"Object": true}
	closed := true
	seen := map[lang.SymID]bool{}
	var walk func(t lang.SymID, depth int)
	walk = func(t lang.SymID, depth int) {
		if seen[t] || depth > maxHierarchyDepth {
			return
		}
		seen[t] = true
		s := p.Sym(t)
		if hasImplicitSupertype(s) {
			if s.Kind == graph.KindEnum {
				names["Enum"], names["Comparable"], names["Serializable"] = true, true, true
			} else {
				names["Record"] = true
			}
		}
		c := lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
		for _, b := range s.Bases {
			if v := p.ResolveType(c, b.Type); v.Kind == lang.ValInstance {
				walk(v.Sym, depth+1)
				continue
			}
			te := r.ParseType(b.Type)
			if len(te.Path) == 0 {
				continue
			}
			name := te.Path[len(te.Path)-1]
			names[name] = true
			supers, known := jdkSupers[name]
			if !known {
				closed = false
			}
			for n := range supers {
				names[n] = true
			}
		}
	}
	walk(t, 0)
	d.outside.Leave(p, t, mark, outsideSet{names, closed}, true)
	return names, closed
}

type outsideSet struct {
	names  map[string]bool
	closed bool
}

// libraryResult is the written result type of a library method called on a
// receiver outside the repository (member is the callee `recv.m`), from the
// tables of common JDK methods; "" when not known.
func (r rules) libraryResult(p *lang.Program, c lang.Ctx, base lang.Value, member *lang.Expr, depth int) string {
	recv := member.X
	if base.Kind == lang.ValExternal && recv.Kind == lang.ExprIdent {
		if t, ok := staticLibraryResults[recv.Name+"."+member.Name]; ok {
			return t
		}
	}
	if t, ok := libraryResults[member.Name]; ok {
		return t
	}
	if rt := r.argType(p, c, recv, depth+1); rt.kind == jRef && rt.dims == 0 && rt.name == "String" {
		return stringResults[member.Name]
	}
	return ""
}
