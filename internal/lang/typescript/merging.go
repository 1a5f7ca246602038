package typescript

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Declaration merging: a class and an interface of the same name in the
// same scope, or several interfaces, are one type whose members are those
// of every declaration. Libraries declare a class's precise method
// signatures in an interface of its name beside it (yup: `export default
// class StringSchema` with `export default interface StringSchema`, whose
// `default`, `required`, `nullable` return the narrowed schema types that
// chained calls follow). TypeScript tries the signatures of a later
// declaration before those of an earlier one, so a method the class
// implements and the interface redeclares is called through the
// interface's signature.
//
// Left out: merging across files (`declare module` augmentation, global
// interfaces), namespaces merged with classes or functions, and the bases
// an interface adds to a class (`interface C extends D` beside `class C`).

// mergeDeclarations merges the members of same-named classes and
// interfaces declared in one scope of one file.
func mergeDeclarations(p *lang.Program) {
	type key struct {
		parent int
		qual   string
	}
	for _, f := range p.Files {
		syms := f.Facts.Symbols
		var groups map[key][]lang.SymID
		var order []key
		for i := range syms {
			s := &syms[i]
			if s.Kind != graph.KindClass && s.Kind != graph.KindInterface {
				continue
			}
			if groups == nil {
				groups = map[key][]lang.SymID{}
			}
			k := key{s.Parent, s.Qual}
			if len(groups[k]) == 0 {
				order = append(order, k)
			}
			groups[k] = append(groups[k], f.SymOf(i))
		}
		for _, k := range order {
			decls := groups[k]
			if len(decls) < 2 || classCount(p, decls) > 1 {
				continue // two classes of one name are an error, not a merge
			}
			p.MergeMembers(decls)
		}
	}
}

func classCount(p *lang.Program, ids []lang.SymID) int {
	n := 0
	for _, id := range ids {
		if p.Sym(id).Kind == graph.KindClass {
			n++
		}
	}
	return n
}
