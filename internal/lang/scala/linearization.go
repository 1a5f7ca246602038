package scala

import (
	"gitnexus.dev/gitnexus/internal/lang"
)

// Scala looks members up along the linearization of a class: the class,
// then its bases from the last written to the first (`class C extends A
// with T1 with T2` is C, T2, T1, A), each followed by its own
// linearization, a type that appears several times keeping its last
// place. A name may be overloaded by parameter types across those types
// (overload.go chooses among them).

// linearization returns t and its supertypes in Scala's lookup order.
func linearization(p *lang.Program, t lang.SymID) []lang.SymID {
	return linearize(p, t, map[lang.SymID]bool{})
}

func linearize(p *lang.Program, t lang.SymID, onPath map[lang.SymID]bool) []lang.SymID {
	if onPath[t] || len(onPath) > 32 {
		return nil // a cycle of bases
	}
	onPath[t] = true
	defer delete(onPath, t)
	var rest []lang.SymID
	bases := p.Bases(t)
	for i := len(bases) - 1; i >= 0; i-- {
		rest = append(rest, linearize(p, bases[i], onPath)...)
	}
	// Keep the last occurrence of each type.
	last := map[lang.SymID]int{}
	for i, s := range rest {
		last[s] = i
	}
	out := []lang.SymID{t}
	for i, s := range rest {
		if last[s] == i && s != t {
			out = append(out, s)
		}
	}
	return out
}

// LookupMember finds the members named name of t along its
// linearization: the nearest declaration of each parameter list (an
// override hides what it overrides); the depth is the position of the
// nearest type that declares the name.
func (rules) LookupMember(p *lang.Program, t lang.SymID, name string) ([]lang.SymID, int) {
	var found []lang.SymID
	depth := 0
	for i, s := range linearization(p, t) {
		for _, id := range p.Members(s, name) {
			hidden := false
			for _, f := range found {
				// An override hides what it overrides; an abstract
				// declaration above is taken as overridden by a member of
				// the same arity below it even when the types are written
				// differently (`relativeTo(target: ThisType)` in a trait,
				// `relativeTo(base: Path)` in the class).
				if sameParams(p.Sym(f).Params, p.Sym(id).Params) ||
					(p.Sym(id).Abstract && len(p.Sym(f).Params) == len(p.Sym(id).Params)) {
					hidden = true
					break
				}
			}
			if !hidden {
				if len(found) == 0 {
					depth = i
				}
				found = append(found, id)
			}
		}
	}
	return found, depth
}

// sameParams reports whether two parameter lists have the same types.
func sameParams(a, b []lang.Param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if paramKey(a[i].Type) != paramKey(b[i].Type) {
			return false
		}
	}
	return true
}

// paramKey is what tells parameter types apart: the simple class name,
// the full name of a library class written so (`java.io.Reader` is not
// the repository's Reader).
func paramKey(written string) string {
	if libraryQualified(written) {
		return lastPartKeepingPath(written)
	}
	return paramType(written)
}

// Overrides reports whether o overrides m: the same parameter types.
func (rules) Overrides(p *lang.Program, m, o lang.SymID) bool {
	return sameParams(p.Sym(m).Params, p.Sym(o).Params)
}
