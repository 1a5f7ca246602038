package lang

// MRO returns the method resolution order of type t: t, then its resolved
// bases linearized the way Python does it (C3: each type before its bases,
// bases in the order written, and every base's own order kept). When the
// bases admit no such order (inconsistent hierarchies, which Python
// rejects, or bases that did not all resolve), it falls back to a
// depth-first, left-to-right walk without repeats.
func (p *Program) MRO(t SymID) []SymID {
	if m, ok := p.mroMemo.Cached(p, t); ok {
		return m
	}
	mark, ok := p.mroMemo.Enter(p, t)
	if !ok {
		return []SymID{t} // a cycle of bases ends here
	}
	bases := p.Bases(t)
	seqs := make([][]SymID, 0, len(bases)+1)
	for _, b := range bases {
		seqs = append(seqs, append([]SymID(nil), p.MRO(b)...))
	}
	seqs = append(seqs, append([]SymID(nil), bases...))
	out, ok := c3Merge(t, seqs)
	if !ok {
		out = p.depthFirstOrder(t)
	}
	p.mroMemo.Leave(p, t, mark, out, true)
	return out
}

// c3Merge merges the linearizations of the bases: repeatedly take the first
// head that is in no other sequence's tail.
func c3Merge(t SymID, seqs [][]SymID) ([]SymID, bool) {
	out := []SymID{t}
	for {
		empty := true
		for _, s := range seqs {
			if len(s) > 0 {
				empty = false
				break
			}
		}
		if empty {
			return out, true
		}
		next := NoSym
	candidates:
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			head := s[0]
			for _, other := range seqs {
				for _, x := range tail(other) {
					if x == head {
						continue candidates
					}
				}
			}
			next = head
			break
		}
		if next == NoSym || next == t {
			return nil, false
		}
		out = append(out, next)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == next {
				seqs[i] = s[1:]
			}
		}
	}
}

func tail(s []SymID) []SymID {
	if len(s) == 0 {
		return nil
	}
	return s[1:]
}

func (p *Program) depthFirstOrder(t SymID) []SymID {
	var out []SymID
	seen := map[SymID]bool{}
	var walk func(SymID, int)
	walk = func(s SymID, depth int) {
		if seen[s] || depth > 32 {
			return
		}
		seen[s] = true
		out = append(out, s)
		for _, b := range p.Bases(s) {
			walk(b, depth+1)
		}
	}
	walk(t, 0)
	return out
}
