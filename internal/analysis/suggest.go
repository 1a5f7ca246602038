package analysis

import (
	"sort"
	"strings"
	"unicode/utf8"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Suggest answers "did you mean" for a symbol name that matched nothing:
// at most max names of the graph close to it. The last dotted part of
// name is compared with every simple name, ignoring case, by edit
// distance counting a swap of two neighbours as one edit (at most 1 for
// names of up to 4 characters, 2 up to 8, 3 beyond); a suggestion keeps
// name's qualifier when the graph has the name under it
// (Server.ServeHTPP → Server.ServeHTTP). Closer first (ignoring case,
// then with it), then names more symbols carry, then by text. The whole graph's names are compared, so
// it is for the path of a miss only (some 50 ms on 300,000 names).
func Suggest(g *memgraph.Graph, name string, max int) []string {
	name = strings.TrimSpace(name)
	prefix, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		prefix, last = name[:i], name[i+1:]
	}
	if last == "" || max <= 0 {
		return nil
	}
	want := []rune(strings.ToLower(last))
	limit := 3
	switch n := len(want); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	type near struct {
		text               string
		dist, cased, nodes int
	}
	var found []near
	var buf []rune
	lastRunes := []rune(last)
	g.Names(func(cand string, nodes int) bool {
		n := utf8.RuneCountInString(cand)
		if n-len(want) > limit || len(want)-n > limit || cand == last {
			return true
		}
		buf = append(buf[:0], []rune(strings.ToLower(cand))...)
		d := boundedDistance(want, buf, limit)
		if d > limit {
			return true
		}
		text := cand
		if prefix != "" {
			q := prefix + "." + cand
			if len(g.Find(q)) == 0 {
				return true
			}
			text = q
		}
		found = append(found, near{text, d, boundedDistance(lastRunes, []rune(cand), 2*limit), nodes})
		return true
	})
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.cased != b.cased {
			return a.cased < b.cased
		}
		if a.nodes != b.nodes {
			return a.nodes > b.nodes
		}
		return a.text < b.text
	})
	var out []string
	for _, f := range found {
		if len(out) == max {
			break
		}
		out = append(out, f.text)
	}
	return out
}

// boundedDistance is the optimal string alignment distance of a and b
// (insertions, deletions, substitutions, and swaps of neighbours, each one
// edit), or limit+1 once it is known to exceed limit.
func boundedDistance(a, b []rune, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
