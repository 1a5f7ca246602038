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

// OverridesFrom is Overrides for a call through `this`/`self` in type recv,
// a subtype of m's owner: only recv and its subtypes can be the receiver,
// so overrides in recv's siblings are left out (`this.emit()` in one
// stream class does not run another stream class's emit).
func (p *Program) OverridesFrom(m, recv SymID) []SymID {
	owner := p.Syms[m].owner
	if recv == NoSym || recv == owner || owner == NoSym {
		return p.Overrides(m)
	}
	k := [2]SymID{m, recv}
	if v, ok := p.overrideFromMemo[k]; ok {
		return v
	}
	out := p.overridesBelow(m, recv)
	p.overrideFromMemo[k] = out
	return out
}

// overridesBelow finds, breadth first through the subtypes of top, the
// methods that override m.
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
			if len(s.Params) != arity && !Accepts(s.Symbol, arity) {
				continue
			}
			seenMethod[id] = true
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
