package scala

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

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
