package scala

import (
	"gitnexus.dev/gitnexus/internal/lang"
)

// nearestOfSameParams keeps, of top-level symbols of one file with the
// same name and the same parameter types, the one declared nearest to
// pos. Valid Scala has no such duplicates (overloads differ in their
// parameters); they come from local defs that a syntax error left at top
// level (the grammar's limits), each meant for the code around it.
func nearestOfSameParams(p *lang.Program, ids []lang.SymID, pos uint32) []lang.SymID {
	if len(ids) < 2 {
		return ids
	}
	var out []lang.SymID
	for i, id := range ids {
		s := p.Sym(id)
		best, bestDist, first := id, distance(s.Symbol, pos), true
		for j, other := range ids {
			o := p.Sym(other)
			if j == i || !sameParams(s.Params, o.Params) || o.Kind != s.Kind {
				continue
			}
			if j < i {
				first = false // the group was handled at its first member
				break
			}
			if d := distance(o.Symbol, pos); d < bestDist {
				best, bestDist = other, d
			}
		}
		if first {
			out = append(out, best)
		}
	}
	return out
}

// withoutDuplicates drops the top-level symbols that another symbol of
// the same file duplicates (same kind, name and parameter types): local
// defs a syntax error left at top level, which no other file can mean.
func withoutDuplicates(p *lang.Program, ids []lang.SymID) []lang.SymID {
	if len(ids) < 2 {
		return ids
	}
	var out []lang.SymID
	for i, id := range ids {
		s := p.Sym(id)
		dup := false
		for j, other := range ids {
			o := p.Sym(other)
			if j != i && o.File == s.File && o.Kind == s.Kind && sameParams(s.Params, o.Params) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, id)
		}
	}
	return out
}

// nearest is the symbol among ids declared nearest to pos.
func nearest(p *lang.Program, ids []lang.SymID, pos uint32) []lang.SymID {
	best := ids[0]
	for _, id := range ids[1:] {
		if distance(p.Sym(id).Symbol, pos) < distance(p.Sym(best).Symbol, pos) {
			best = id
		}
	}
	return []lang.SymID{best}
}

// distance is how far pos is from a symbol's declaration, 0 inside it.
func distance(s *lang.Symbol, pos uint32) uint32 {
	switch {
	case s.Contains(pos):
		return 0
	case pos < s.StartByte:
		return s.StartByte - pos
	}
	return pos - s.EndByte
}
