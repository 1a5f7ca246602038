package graph

import "slices"

// mergeSorted sorts s, whose first p elements are in order, by sorting the
// rest and merging the two runs; it returns the result in a new slice.
func mergeSorted[T any](s []T, p int, cmp func(a, b T) int) []T {
	return mergeRuns(s[:p], sortFunc(s[p:], cmp), cmp)
}

// mergeRuns merges the sorted runs a and b into a new slice.
func mergeRuns[T any](a, b []T, cmp func(a, b T) int) []T {
	merged := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			merged = append(merged, b[j])
			j++
		} else {
			merged = append(merged, a[i])
			i++
		}
	}
	return append(append(merged, a[i:]...), b[j:]...)
}

// parallelMin is the length from which sortFunc and the edges' lookups
// split their work in two.
const parallelMin = 1 << 15

// sortFunc sorts s by cmp, whose keys must be unique (every sort then
// gives the same order), and returns it, or a sorted copy: a long slice is
// sorted in two halves at once, which are then merged. The graph is
// sorted between resolution and the store, when the second core is most
// often idle (the Go standard library's first sort: 0.45 s on one core).
func sortFunc[T any](s []T, cmp func(a, b T) int) []T {
	if len(s) < parallelMin {
		slices.SortFunc(s, cmp)
		return s
	}
	h := len(s) / 2
	done := make(chan struct{})
	go func() {
		defer close(done)
		slices.SortFunc(s[:h], cmp)
	}()
	slices.SortFunc(s[h:], cmp)
	<-done
	return mergeRuns(s[:h], s[h:], cmp)
}

// permuteMerged is permute for a perm that merges the first p elements,
// which keep their order, with the others: each of the first p moves
// only towards the end, so the order is made from the last position
// back, the others taken from a copy. A sort after enrichment merges its
// 48,000 edges into the 870,000 sorted before (Go standard library):
// following the cycles of that permutation moved the edges about 15
// times slower. Any other perm (p out of range, or the first p not in
// order) is permuted as permute does.
func permuteMerged[T any](s []T, perm []int32, p int) {
	if p <= 0 || p > len(s) || len(perm) != len(s) {
		permute(s, perm)
		return
	}
	last := p
	for k := len(perm) - 1; k >= 0; k-- {
		if src := int(perm[k]); src < p {
			if src >= last || src > k {
				permute(s, perm)
				return
			}
			last = src
		}
	}
	rest := slices.Clone(s[p:])
	for k := len(perm) - 1; k >= 0; k-- {
		if src := int(perm[k]); src >= p {
			s[k] = rest[src-p]
		} else {
			s[k] = s[src]
		}
		perm[k] = -1
	}
}

// permuteMergedSuffix is permuteMerged for a perm that merges the
// elements from q on, which keep their order, with the others: each of
// those moves only towards the front, so the order is made from the first
// position on, the others taken from a copy. The first sort of a
// re-index merges the index's copied edges, appended last, with the
// others (AppendNewEdgesAt). Any other perm is permuted as permute does.
func permuteMergedSuffix[T any](s []T, perm []int32, q int) {
	if q < 0 || q >= len(s) || len(perm) != len(s) {
		permute(s, perm)
		return
	}
	last := q - 1
	for k := range perm {
		if src := int(perm[k]); src >= q {
			if src <= last || src < k {
				permute(s, perm)
				return
			}
			last = src
		}
	}
	head := slices.Clone(s[:q])
	for k := range perm {
		if src := int(perm[k]); src < q {
			s[k] = head[src]
		} else {
			s[k] = s[src]
		}
		perm[k] = -1
	}
}

// permute reorders s so that the new s[i] is the old s[perm[i]], in
// place; perm is used up.
func permute[T any](s []T, perm []int32) {
	for i := range perm {
		if perm[i] < 0 {
			continue
		}
		// Follow the cycle through i: each slot takes the element the
		// permutation names, and the first one's goes last.
		first := s[i]
		j := i
		for {
			k := int(perm[j])
			perm[j] = -1
			if k == i {
				s[j] = first
				break
			}
			s[j] = s[k]
			j = k
		}
	}
}
