package lang

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
	if v, ok := p.overrideMemo[m]; ok {
		return v
	}
	out := p.overridesBelow(m, owner)
	p.overrideMemo[m] = out
	return out
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
	if v, ok := p.belowMemo[k]; ok {
		return v
	}
	out := p.overridesBelow(m, recv)
	p.belowMemo[k] = out
	return out
}

func (p *Program) overridesBelow(m, top SymID) []SymID {
	name := p.Syms[m].Name
	arity := len(p.Syms[m].Params)
	var out []SymID
	seenType := map[SymID]bool{top: true}
	seenMethod := map[SymID]bool{m: true}
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
			if seenMethod[id] || !s.Kind.IsCallable() || s.Abstract {
				continue
			}
			if !p.Rules.Features().LooseArity && len(s.Params) != arity && !Accepts(s.Symbol, arity) {
				continue
			}
			if ov, ok := p.Rules.(Overloading); ok && !ov.Overrides(p, m, id) {
				continue // an overload with other parameter types
			}
			seenMethod[id] = true
			out = append(out, id)
		}
		queue = append(queue, p.subtypes[t]...)
	}
	return out
}

// declaredBelow returns the callables named name, taking args arguments,
// that the subtypes of t declare or inherit from other bases (mixins), for
// a call on a t that does not declare name itself.
func (p *Program) declaredBelow(t SymID, name string, args int) []SymID {
	var out []SymID
	seenType := map[SymID]bool{t: true}
	seen := map[SymID]bool{}
	queue := append([]SymID(nil), p.subtypes[t]...)
	for len(queue) > 0 && len(seenType) < 10000 {
		s := queue[0]
		queue = queue[1:]
		if seenType[s] {
			continue
		}
		seenType[s] = true
		ids, _ := p.FindMember(s, name)
		for _, id := range ids {
			sym := &p.Syms[id]
			if seen[id] || !sym.Kind.IsCallable() || sym.Abstract || !Accepts(sym.Symbol, args) {
				continue
			}
			seen[id] = true
			out = append(out, id)
		}
		queue = append(queue, p.subtypes[s]...)
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
