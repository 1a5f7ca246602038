package lang

import "slices"

// Dispatch: a call that resolves to a method of type T may run the method of
// any subtype of T that overrides it (a class that extends T, a type that
// implements interface T, a Go type whose method set satisfies T). Overrides
// finds those methods so that the resolver can add them as `dispatch` edges
// beside the statically resolved one.

// Overrides returns the methods of subtypes of m's owner that override or
// implement m, without m itself, deduplicated, in discovery order.
func (p *Program) Overrides(m SymID) []SymID {
	owner := p.Syms[m].owner
	if owner == NoSym {
		return nil
	}
	return p.overrideMemo.Get(p, m, nil, func() []SymID { return p.overridesBelow(m, owner) })
}

// OverridesBelow is Overrides for a call whose receiver has the static type
// recv, a subtype of m's owner that inherits m: only the overrides in
// subtypes of recv can run. `self.assertEqual()` in a test class reaches
// the overrides below that class, not those in every other subclass of
// the class that declares assertEqual. recv NoSym means not known.
func (p *Program) OverridesBelow(m, recv SymID) []SymID {
	owner := p.Syms[m].owner
	if recv == NoSym || recv == owner || owner == NoSym {
		return p.Overrides(m)
	}
	k := [2]SymID{m, recv}
	return p.belowMemo.Get(p, k, nil, func() []SymID { return p.overridesBelow(m, recv) })
}

func (p *Program) overridesBelow(m, top SymID) []SymID {
	arity := len(p.Syms[m].Params)
	ov, overloading := p.Rules.(Overloading)
	keep := func(s *Sym, id SymID) bool {
		if !p.Rules.Features().LooseArity && len(s.Params) != arity && !Accepts(s.Symbol, arity) {
			return false
		}
		return !overloading || ov.Overrides(p, m, id) // not an overload with other parameter types
	}
	owner := p.Syms[m].owner
	if class, ok := p.mergedClass[owner]; ok && (top == owner || top == class) && p.Syms[m].Abstract {
		// A signature of an interface merged with a class: the class's
		// implementation runs, or one its subclasses override it with.
		out := p.implementation(class, p.Syms[m].Name, keep)
		for _, id := range p.methodsBelow(class, p.Syms[m].Name, m, keep) {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	return p.methodsBelow(top, p.Syms[m].Name, m, keep)
}

// implementation returns the concrete callables named name that class t
// declares, else those the nearest of its bases declares or inherits.
func (p *Program) implementation(t SymID, name string, keep func(*Sym, SymID) bool) []SymID {
	concrete := func(ids []SymID) []SymID {
		var out []SymID
		for _, id := range ids {
			if s := &p.Syms[id]; s.Kind.IsCallable() && !s.Abstract && keep(s, id) {
				out = append(out, id)
			}
		}
		return out
	}
	var own []SymID
	for _, id := range p.Syms[t].members[name] {
		if p.Syms[id].owner == t {
			own = append(own, id)
		}
	}
	if out := concrete(own); len(out) > 0 {
		return out
	}
	for _, b := range p.bases(t) {
		ids, _ := p.FindMember(b.sym, name)
		if out := concrete(ids); len(out) > 0 {
			return out
		}
	}
	return nil
}

// declaredBelow returns the callables named name, taking args arguments,
// that the subtypes of t declare or inherit from other bases (mixins), for
// a call on a t that does not declare name itself.
func (p *Program) declaredBelow(t SymID, name string, args int) []SymID {
	return p.methodsBelow(t, name, NoSym, func(s *Sym, _ SymID) bool { return Accepts(s.Symbol, args) })
}

// methodsBelow walks the subtypes of top breadth first and collects the
// concrete callables named name they declare or inherit, other than
// exclude, that keep accepts; each once, in discovery order.
func (p *Program) methodsBelow(top SymID, name string, exclude SymID, keep func(*Sym, SymID) bool) []SymID {
	var out []SymID
	seenType := map[SymID]bool{top: true}
	seen := map[SymID]bool{exclude: true}
	queue := append([]SymID(nil), p.subtypes[top]...)
	for len(queue) > 0 && len(seenType) < 10000 {
		t := queue[0]
		queue = queue[1:]
		if seenType[t] {
			continue
		}
		seenType[t] = true
		ids, _ := p.FindMember(t, name)
		for _, id := range ids {
			s := &p.Syms[id]
			if seen[id] || !s.Kind.IsCallable() || s.Abstract || !keep(s, id) {
				continue
			}
			seen[id] = true
			out = append(out, id)
		}
		queue = append(queue, p.subtypes[t]...)
	}
	return out
}

// Accepts reports whether a callable takes args arguments, counting
// optional and variadic parameters.
func Accepts(s *Symbol, args int) bool {
	required := 0
	variadic := false
	for _, prm := range s.Params {
		switch {
		case prm.Variadic:
			variadic = true
		case !prm.Optional:
			required++
		}
	}
	if args < required {
		return false
	}
	return variadic || args <= len(s.Params)
}
