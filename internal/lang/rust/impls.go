package rust

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Impl blocks. An impl block may sit in any module of the crate, so its
// type and trait are resolved from where it is written, once every module
// is known. Its methods and consts then become members of the type (they
// resolve as `x.method()` and `Type::method()`, and the type HAS_METHOD
// them); a trait impl makes the type IMPLEMENT the trait. For dispatch, the
// subtype of the trait is the impl block itself: a call through the trait
// reaches the methods of its impls (blanket impls and impls for outside
// types included), and never an inherent method that shares the name.

func isImpl(s *lang.Symbol) bool { return s.Hidden && s.Kind == graph.KindClass && s.Name == implName }

// implType returns the repository type an impl block is for, NoSym when it
// is outside the repository or generic.
func (st *state) implType(id lang.SymID) lang.SymID {
	if t, ok := st.implSelf[id]; ok {
		return t
	}
	st.implSelf[id] = lang.NoSym
	s := st.p.Sym(id)
	c := lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
	v := st.p.ResolveType(c, s.Receiver)
	t := lang.NoSym
	if v.Kind == lang.ValInstance && v.Elem == 0 && v.Sym != id {
		t = v.Sym
	}
	st.implSelf[id] = t
	return t
}

// implTraitOf returns the repository trait an impl block implements,
// NoSym for an inherent impl or a trait from outside.
func (st *state) implTraitOf(id lang.SymID) lang.SymID {
	if t, ok := st.implTrait[id]; ok {
		return t
	}
	st.implTrait[id] = lang.NoSym
	s := st.p.Sym(id)
	if s.Type == "" {
		return lang.NoSym
	}
	c := lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
	v := st.p.ResolveType(c, s.Type)
	t := lang.NoSym
	if v.Kind == lang.ValInstance && v.Elem == 0 && st.p.Sym(v.Sym).Kind == graph.KindInterface {
		t = v.Sym
	}
	st.implTrait[id] = t
	return t
}

// Link attaches the members of impl blocks to their types and records the
// trait implementations.
func (rules) Link(p *lang.Program, g *graph.Graph) {
	if len(p.Files) == 0 {
		return
	}
	st := stateOf(p.Files[0])
	if st == nil {
		return
	}
	st.link(g)
}

func (st *state) link(g *graph.Graph) {
	p := st.p
	for _, f := range p.Files {
		syms := f.Facts.Symbols
		for i := range syms {
			if !isImpl(&syms[i]) {
				continue
			}
			id := f.SymOf(i)
			t := st.implType(id)
			trait := st.implTraitOf(id)
			for j := i + 1; j < len(syms) && syms[j].StartByte < syms[i].EndByte; j++ {
				if syms[j].Parent != i {
					continue
				}
				if t != lang.NoSym {
					p.AddMember(t, f.SymOf(j))
				} else {
					// No type to hang it on: the file defines it.
					g.AddEdge(graph.Edge{Src: graph.FileID(f.Facts.Path), Dst: p.Sym(f.SymOf(j)).ID, Type: graph.EdgeDefines,
						Confidence: 1, Reason: graph.ReasonSyntax})
				}
			}
			if trait == lang.NoSym {
				continue
			}
			p.AddSubtype(id, trait)
			st.traitsOf[id] = append(st.traitsOf[id], trait)
			if t != lang.NoSym && t != trait {
				st.traitsOf[t] = append(st.traitsOf[t], trait)
				g.AddEdge(graph.Edge{Src: p.Sym(t).ID, Dst: p.Sym(trait).ID, Type: graph.EdgeImplements,
					Confidence: graph.ReasonDeclared.Confidence(), Reason: graph.ReasonDeclared})
			}
		}
	}
	st.linked = true
}

// LookupMember finds the members named name of type t: its own (inherent
// and trait impl methods attached to it), else those of the traits it
// implements (default methods) and of their supertraits, nearest first.
func (rules) LookupMember(p *lang.Program, t lang.SymID, name string) ([]lang.SymID, int) {
	if own := p.Members(t, name); len(own) > 0 {
		return own, 0
	}
	st := stateOf(p.Sym(t).File)
	if st == nil {
		return nil, 0
	}
	seen := map[lang.SymID]bool{t: true}
	level := append(append([]lang.SymID(nil), st.traitsOf[t]...), p.Bases(t)...)
	for depth := 1; len(level) > 0 && depth < 8; depth++ {
		var found, next []lang.SymID
		for _, s := range level {
			if seen[s] {
				continue
			}
			seen[s] = true
			found = append(found, p.Members(s, name)...)
			next = append(next, p.Bases(s)...)
		}
		if len(found) > 0 {
			return found, depth
		}
		level = next
	}
	return nil, 0
}

// SelectOverload keeps, of several same-named candidates, those taking
// the call's argument count; all of them when none does.
func (rules) SelectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr) []lang.SymID {
	if len(cands) <= 1 {
		return cands
	}
	var fit []lang.SymID
	for _, id := range cands {
		if s := p.Sym(id); s.Kind.IsCallable() && lang.Accepts(s.Symbol, len(args)) {
			fit = append(fit, id)
		}
	}
	if len(fit) == 0 {
		return cands
	}
	return fit
}

// Overrides: Rust has no overloading, so a method of the same name in an
// impl of the trait is its implementation.
func (rules) Overrides(p *lang.Program, m, o lang.SymID) bool { return true }
