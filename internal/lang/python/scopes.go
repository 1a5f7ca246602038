package python

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Python code belongs to the function or class whose *body* contains it:
// default argument values, annotations, decorators and base class lists are
// evaluated by the enclosing scope when the `def` or `class` statement runs.
// A symbol's span, which includes its decorators and header, is therefore
// the wrong key; scopes are found from the byte ranges of bodies instead.
// Bodies nest properly, so the innermost body holding a position is the last
// body starting at or before it, or one of that body's ancestors.

// scopeIndex finds the innermost function or class body holding a byte
// offset. It is built from the symbols once they are in their final order.
type scopeIndex struct {
	entries []scopeEntry
}

type scopeEntry struct {
	sym        int // symbol index
	start, end uint32
	parent     int // index into entries, -1 at module level
}

func newScopeIndex(syms []lang.Symbol, info []symInfo) scopeIndex {
	var idx scopeIndex
	for i := range syms {
		if info[i].scope {
			idx.entries = append(idx.entries, scopeEntry{sym: i, start: info[i].bodyStart, end: info[i].bodyEnd})
		}
	}
	sort.SliceStable(idx.entries, func(a, b int) bool { return idx.entries[a].start < idx.entries[b].start })
	pos := make(map[int]int, len(idx.entries))
	for i, e := range idx.entries {
		pos[e.sym] = i
	}
	for i := range idx.entries {
		idx.entries[i].parent = -1
		for p := syms[idx.entries[i].sym].Parent; p >= 0; p = syms[p].Parent {
			if e, ok := pos[p]; ok {
				idx.entries[i].parent = e
				break
			}
		}
	}
	return idx
}

// at returns the symbol index of the innermost function or class whose body
// contains pos, or -1 at module level.
func (s scopeIndex) at(pos uint32) int {
	i := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].start > pos }) - 1
	for i >= 0 {
		e := &s.entries[i]
		if pos >= e.start && pos < e.end {
			return e.sym
		}
		i = e.parent
	}
	return -1
}
