package cypher

import (
	"container/heap"
	"slices"
	"strings"
)

// sortNode is ORDER BY. With a LIMIT (top >= 0, SKIP included) it keeps
// only the best top rows in a heap, so memory stays at top rows however
// many rows come in. Ties keep the input order.
type sortNode struct {
	input planNode
	keys  []sortKey
	top   int64 // -1: no limit
}

type sortKey struct {
	expr *cexpr
	desc bool
}

func (n *sortNode) inputs() []planNode { return []planNode{n.input} }
func (n *sortNode) describe() string {
	parts := make([]string, len(n.keys))
	for i, k := range n.keys {
		parts[i] = k.expr.String()
		if k.desc {
			parts[i] += " DESC"
		}
	}
	if n.top >= 0 {
		return "Top " + itoa(n.top) + " by " + strings.Join(parts, ", ")
	}
	return "Sort by " + strings.Join(parts, ", ")
}

func (n *sortNode) open(ec *execCtx, arg []Value) iterator {
	return &sortIter{n: n, in: n.input.open(ec, arg)}
}

type sortEntry struct {
	row  []Value
	keys []Value
	seq  int
	w    int64 // the memory it holds: the row's values and its keys
}

// entryWeight is what a sort entry holds: the row's values and its keys
// (which mostly are values of the row).
func entryWeight(row []Value, keys int) int64 { return rowWeight(row) + int64(keys)*valueBytes }

type sortIter struct {
	n       *sortNode
	in      iterator
	entries []sortEntry
	pos     int
	done    bool
}

// less orders two entries by the sort keys, then by arrival.
func (n *sortNode) less(a, b *sortEntry) bool {
	for i, k := range n.keys {
		c := order(a.keys[i], b.keys[i])
		if k.desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return a.seq < b.seq
}

// worstFirst is a heap whose root is the entry that sorts last.
type worstFirst struct {
	n *sortNode
	e []sortEntry
}

func (h *worstFirst) Len() int           { return len(h.e) }
func (h *worstFirst) Less(i, j int) bool { return h.n.less(&h.e[j], &h.e[i]) }
func (h *worstFirst) Swap(i, j int)      { h.e[i], h.e[j] = h.e[j], h.e[i] }
func (h *worstFirst) Push(x any)         { h.e = append(h.e, x.(sortEntry)) }
func (h *worstFirst) Pop() any {
	x := h.e[len(h.e)-1]
	h.e = h.e[:len(h.e)-1]
	return x
}

func (it *sortIter) fill(ec *execCtx) error {
	n := it.n
	if n.top == 0 {
		return nil
	}
	h := &worstFirst{n: n}
	seq := 0
	for {
		row, err := it.in.next(ec)
		if err != nil {
			return err
		}
		if row == nil {
			break
		}
		e := sortEntry{keys: make([]Value, len(n.keys)), seq: seq}
		seq++
		for i, k := range n.keys {
			if e.keys[i], err = k.expr.eval(ec, row); err != nil {
				return err
			}
		}
		if n.top > 0 && int64(len(h.e)) == n.top {
			if !n.less(&e, &h.e[0]) {
				continue
			}
			e.w = entryWeight(row, len(n.keys))
			ec.release(h.e[0].w)
			if err := ec.hold(e.w, "ORDER BY"); err != nil {
				return err
			}
			e.row = append(h.e[0].row[:0], row...)
			h.e[0] = e
			heap.Fix(h, 0)
			continue
		}
		e.w = entryWeight(row, len(n.keys))
		if err := ec.hold(e.w, "ORDER BY"); err != nil {
			return err
		}
		e.row = slices.Clone(row)
		if n.top > 0 {
			heap.Push(h, e)
		} else {
			h.e = append(h.e, e)
		}
	}
	it.entries = h.e
	slices.SortFunc(it.entries, func(a, b sortEntry) int {
		if n.less(&a, &b) {
			return -1
		}
		if n.less(&b, &a) {
			return 1
		}
		return 0
	})
	return nil
}

func (it *sortIter) next(ec *execCtx) ([]Value, error) {
	if !it.done {
		it.done = true
		if err := it.fill(ec); err != nil {
			return nil, err
		}
	}
	if it.pos >= len(it.entries) {
		return nil, nil
	}
	it.pos++
	return it.entries[it.pos-1].row, nil
}
