package search

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// RRFK is the constant of reciprocal rank fusion: a list's item at rank r
// (from 1) adds 1/(RRFK+r). 60 is the value of the method's authors; it
// keeps one list's top item from outweighing agreement between lists.
const RRFK = 60

// Fuse merges ranked lists by reciprocal rank: each node scores the sum
// of 1/(RRFK+rank) over the lists it is in. Ties keep the node that ranks
// first in the earliest list first. At most limit hits are returned.
func Fuse(limit int, lists ...[]Hit) []Hit {
	score := map[memgraph.NodeID]float64{}
	first := map[memgraph.NodeID]int{} // position in the concatenated lists
	pos := 0
	for _, l := range lists {
		for r, h := range l {
			score[h.Node] += 1 / float64(RRFK+r+1)
			if _, ok := first[h.Node]; !ok {
				first[h.Node] = pos
			}
			pos++
		}
	}
	out := make([]Hit, 0, len(score))
	for n, s := range score {
		out = append(out, Hit{Node: n, Score: s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return first[out[i].Node] < first[out[j].Node]
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
