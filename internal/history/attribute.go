package history

import (
	"cmp"
	"slices"

	"gitnexus.dev/gitnexus/internal/graph"
)

// attribute maps one file's hunks onto its symbols. pre is the file before
// the commit and post after it (nil when the file, or its language, is
// absent on that side). A deleted line goes to the innermost symbol of pre
// that holds it, an added line to the innermost symbol of post. Symbols
// are matched across the two sides by kind and key: one only in post was
// added, one only in pre was deleted, one in both was modified when lines
// of its own changed.
func attribute(pre, post *symbolTable, hunks []hunk) []graph.SymbolChange {
	deleted := map[int32]int{}
	added := map[int32]int{}
	for _, h := range hunks {
		if pre != nil && h.oldCount > 0 {
			pre.countLines(h.oldStart, h.oldCount, deleted)
		}
		if post != nil && h.newCount > 0 {
			post.countLines(h.newStart, h.newCount, added)
		}
	}
	type symKey struct {
		kind graph.NodeKind
		key  string
	}
	before := map[symKey]int32{}
	if pre != nil {
		for i, s := range pre.syms {
			if !s.hidden {
				before[symKey{s.kind, s.key}] = int32(i)
			}
		}
	}
	var out []graph.SymbolChange
	seen := map[symKey]bool{}
	if post != nil {
		for i, s := range post.syms {
			if s.hidden {
				continue
			}
			k := symKey{s.kind, s.key}
			seen[k] = true
			c := graph.SymbolChange{Kind: s.kind, Name: s.name, Qual: s.qual, Key: s.key,
				Additions: added[int32(i)], StartLine: int(s.start), EndLine: int(s.end)}
			if j, ok := before[k]; ok {
				c.Deletions = deleted[j]
				if c.Additions+c.Deletions == 0 {
					continue
				}
				c.Change = graph.ChangeModified
			} else {
				c.Change = graph.ChangeAdded
			}
			out = append(out, c)
		}
	}
	if pre != nil {
		for i, s := range pre.syms {
			if s.hidden || seen[symKey{s.kind, s.key}] {
				continue
			}
			out = append(out, graph.SymbolChange{Kind: s.kind, Name: s.name, Qual: s.qual, Key: s.key,
				Change: graph.ChangeDeleted, Deletions: deleted[int32(i)], StartLine: int(s.start), EndLine: int(s.end)})
		}
	}
	slices.SortFunc(out, func(a, b graph.SymbolChange) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}
