package lang

import "sort"

// JoinDeclarations makes several declarations of one type (the parts of
// a C# partial class, a Ruby class reopened in several files) one type
// for lookups: each declaration finds the members the others declare,
// and each member keeps its own declaration as owner (HAS_METHOD).
func (p *Program) JoinDeclarations(decls []SymID) {
	own := make([][]SymID, len(decls))
	for i, d := range decls {
		for _, ids := range p.AllMembers(d) {
			for _, m := range ids {
				if p.Owner(m) == d {
					own[i] = append(own[i], m)
				}
			}
		}
		sort.Slice(own[i], func(a, b int) bool { return own[i][a] < own[i][b] })
	}
	for i, d := range decls {
		for j := range decls {
			if i == j {
				continue
			}
			for _, m := range own[j] {
				p.AddMember(d, m)
				p.SetOwner(m, decls[j])
			}
		}
	}
}
