package rust

import (
	"strings"

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
			if t != lang.NoSym {
				st.recordBounds(t, &syms[i], id)
			} else if b := st.paramBound(id); b != lang.NoSym {
				// `impl<T: Interval> Named for T`: self has Interval's
				// methods.
				st.traitsOf[id] = append(st.traitsOf[id], b)
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
}

// paramBound is the repository trait bounding the impl's type when that
// type is one of the impl's type parameters (a blanket impl), else NoSym.
func (st *state) paramBound(id lang.SymID) lang.SymID {
	s := st.p.Sym(id)
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s.Receiver, "&"), "mut "))
	for _, tp := range s.TypeParams {
		if tp.Name != name || tp.Type == "" {
			continue
		}
		v := st.p.ResolveType(lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}, tp.Type)
		if v.Kind == lang.ValInstance && v.Elem == 0 && st.p.Sym(v.Sym).Kind == graph.KindInterface {
			return v.Sym
		}
	}
	return lang.NoSym
}

// recordBounds notes the bounds an impl block gives the type parameters
// of its type that the type leaves unbounded (`struct Set<I>` and `impl<I:
// Interval> Set<I>`), so that a field of type I has the bound's methods.
// The first impl that bounds a name wins.
func (st *state) recordBounds(t lang.SymID, impl *lang.Symbol, implID lang.SymID) {
	ts := st.p.Sym(t)
	for _, tp := range ts.TypeParams {
		if tp.Type != "" {
			continue
		}
		for _, ip := range impl.TypeParams {
			if ip.Name != tp.Name || ip.Type == "" {
				continue
			}
			if st.bounds[t] == nil {
				st.bounds[t] = map[string]lang.SymID{}
			}
			if _, ok := st.bounds[t][tp.Name]; !ok {
				st.bounds[t][tp.Name] = implID
			}
		}
	}
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
	if len(fit) > 1 && len(args) > 0 {
		if byArg := byTraitArgument(p, c, fit, args[0]); len(byArg) > 0 {
			return byArg
		}
	}
	return fit
}

// byTraitArgument keeps, of methods from impls of one generic trait for
// several types (`impl From<char> for Lit`, `impl From<u8> for Lit`),
// those whose impl's type argument is the type of the call's first
// argument.
func byTraitArgument(p *lang.Program, c lang.Ctx, cands []lang.SymID, arg *lang.Expr) []lang.SymID {
	v, _ := p.Eval(c, arg)
	if v.Kind != lang.ValInstance || v.Elem > 0 {
		return nil
	}
	var kept []lang.SymID
	for _, id := range cands {
		s := p.Sym(id)
		if s.Parent < 0 || !isImpl(&s.File.Facts.Symbols[s.Parent]) {
			return nil
		}
		impl := &s.File.Facts.Symbols[s.Parent]
		_, targs := genericArgs(impl.Type)
		if len(targs) == 0 {
			return nil
		}
		want := p.ResolveType(c.At(s.File, impl.Parent, impl.StartByte), targs[0])
		if want.Kind == lang.ValInstance && want.Sym == v.Sym && want.Elem == 0 {
			kept = append(kept, id)
		}
	}
	return kept
}

// Overrides: Rust has no overloading, so a method of the same name in an
// impl of the trait is its implementation.
func (rules) Overrides(p *lang.Program, m, o lang.SymID) bool { return true }
