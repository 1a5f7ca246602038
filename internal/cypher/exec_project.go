package cypher

import (
	"fmt"
	"strings"
)

// ---- Project: WITH / RETURN items, named paths ----

type projectNode struct {
	input planNode
	items []projItem
	label string // "Project", or "BindPath" for named paths
}

func (n *projectNode) inputs() []planNode { return []planNode{n.input} }
func (n *projectNode) describe() string   { return n.label + " " + joinItems(n.items) }

func (n *projectNode) open(ec *execCtx, arg []Value) iterator {
	return &projectIter{n: n, in: n.input.open(ec, arg)}
}

type projectIter struct {
	n  *projectNode
	in iterator
}

func (it *projectIter) next(ec *execCtx) ([]Value, error) {
	row, err := it.in.next(ec)
	if row == nil || err != nil {
		return nil, err
	}
	// Every item reads the scope before the projection; the slots it
	// writes are its own, so writing in place is safe. The items of one
	// row are carried together: a row of many large values is refused
	// while it is made.
	saved := ec.pending
	defer func() { ec.pending = saved }()
	for _, item := range it.n.items {
		v, err := item.expr.eval(ec, row)
		if err != nil {
			return nil, err
		}
		if err := ec.carry(weight(v), "a row"); err != nil {
			return nil, err
		}
		row[item.slot] = v
	}
	return row, nil
}

// ---- Unwind ----

type unwindNode struct {
	input planNode
	expr  *cexpr
	slot  int
	name  string
}

func (n *unwindNode) inputs() []planNode { return []planNode{n.input} }
func (n *unwindNode) describe() string {
	return "Unwind " + n.expr.String() + " AS " + quoteName(n.name)
}

func (n *unwindNode) open(ec *execCtx, arg []Value) iterator {
	return &unwindIter{n: n, in: n.input.open(ec, arg)}
}

type unwindIter struct {
	n    *unwindNode
	in   iterator
	row  []Value
	list []Value
	pos  int
}

func (it *unwindIter) next(ec *execCtx) ([]Value, error) {
	for {
		if it.pos < len(it.list) {
			it.row[it.n.slot] = it.list[it.pos]
			it.pos++
			if err := ec.tick(); err != nil {
				return nil, err
			}
			return it.row, nil
		}
		in, err := it.in.next(ec)
		if in == nil || err != nil {
			return nil, err
		}
		v, err := it.n.expr.eval(ec, in)
		if err != nil {
			return nil, err
		}
		it.row = in // pass the row through: this operator writes only its own slots
		it.pos = 0
		switch v.kind {
		case KindList:
			it.list = v.List()
		case KindNull:
			it.list = nil
		default:
			it.list = []Value{v} // UNWIND of a single value yields it once
		}
	}
}

// ---- Distinct ----

type distinctNode struct {
	input planNode
	slots []int
	names []string
}

func (n *distinctNode) inputs() []planNode { return []planNode{n.input} }
func (n *distinctNode) describe() string {
	return "Distinct " + strings.Join(quoteNames(n.names), ", ")
}

func quoteNames(names []string) []string {
	out := make([]string, len(names))
	for i, s := range names {
		out[i] = quoteName(s)
	}
	return out
}

func (n *distinctNode) open(ec *execCtx, arg []Value) iterator {
	return &distinctIter{n: n, in: n.input.open(ec, arg), seen: map[string]struct{}{}}
}

type distinctIter struct {
	n    *distinctNode
	in   iterator
	seen map[string]struct{}
}

func (it *distinctIter) next(ec *execCtx) ([]Value, error) {
	for {
		row, err := it.in.next(ec)
		if row == nil || err != nil {
			return nil, err
		}
		key := ec.keyBuf[:0]
		for _, s := range it.n.slots {
			key = appendKey(key, row[s])
		}
		ec.keyBuf = key
		if err := ec.work(int64(len(key))); err != nil {
			return nil, err
		}
		if _, dup := it.seen[string(key)]; dup {
			continue
		}
		if err := ec.hold(keyWeight(len(key)), "DISTINCT"); err != nil {
			return nil, err
		}
		it.seen[string(key)] = struct{}{}
		return row, nil
	}
}

// ---- Skip and Limit ----

type skipNode struct {
	input planNode
	n     int64
}

func (n *skipNode) inputs() []planNode { return []planNode{n.input} }
func (n *skipNode) describe() string   { return fmt.Sprintf("Skip %d", n.n) }
func (n *skipNode) open(ec *execCtx, arg []Value) iterator {
	return &skipIter{n: n, in: n.input.open(ec, arg)}
}

type skipIter struct {
	n       *skipNode
	in      iterator
	skipped int64
}

func (it *skipIter) next(ec *execCtx) ([]Value, error) {
	for it.skipped < it.n.n {
		row, err := it.in.next(ec)
		if row == nil || err != nil {
			return nil, err
		}
		it.skipped++
	}
	return it.in.next(ec)
}

type limitNode struct {
	input planNode
	n     int64
}

func (n *limitNode) inputs() []planNode { return []planNode{n.input} }
func (n *limitNode) describe() string   { return fmt.Sprintf("Limit %d", n.n) }
func (n *limitNode) open(ec *execCtx, arg []Value) iterator {
	return &limitIter{n: n, in: n.input.open(ec, arg)}
}

type limitIter struct {
	n     *limitNode
	in    iterator
	given int64
}

func (it *limitIter) next(ec *execCtx) ([]Value, error) {
	if it.given >= it.n.n {
		return nil, nil // stop pulling: the input is not run further
	}
	row, err := it.in.next(ec)
	if row != nil {
		it.given++
	}
	return row, err
}

// ---- Results: the columns of RETURN ----

// resultsNode compacts rows to the returned columns, in order.
type resultsNode struct {
	input   planNode
	slots   []int
	columns []string
}

func (n *resultsNode) inputs() []planNode { return []planNode{n.input} }
func (n *resultsNode) describe() string {
	return "Results " + strings.Join(quoteNames(n.columns), ", ")
}

func (n *resultsNode) open(ec *execCtx, arg []Value) iterator {
	return &resultsIter{n: n, in: n.input.open(ec, arg), row: make([]Value, len(n.slots))}
}

type resultsIter struct {
	n   *resultsNode
	in  iterator
	row []Value
}

func (it *resultsIter) next(ec *execCtx) ([]Value, error) {
	row, err := it.in.next(ec)
	if row == nil || err != nil {
		return nil, err
	}
	for i, s := range it.n.slots {
		it.row[i] = row[s]
	}
	return it.row, nil
}

// ---- Union ----

// unionNode concatenates the rows of its parts (each ending in Results);
// UNION without ALL removes duplicate rows.
type unionNode struct {
	parts    []planNode
	distinct bool
}

func (n *unionNode) inputs() []planNode { return n.parts }
func (n *unionNode) describe() string {
	if n.distinct {
		return "Union (distinct rows)"
	}
	return "Union all"
}

func (n *unionNode) open(ec *execCtx, arg []Value) iterator {
	it := &unionIter{n: n, ec: ec, arg: arg}
	if n.distinct {
		it.seen = map[string]struct{}{}
	}
	return it
}

type unionIter struct {
	n    *unionNode
	ec   *execCtx
	arg  []Value
	part int
	cur  iterator
	seen map[string]struct{}
}

func (it *unionIter) next(ec *execCtx) ([]Value, error) {
	for it.part < len(it.n.parts) {
		if it.cur == nil {
			it.cur = it.n.parts[it.part].open(ec, it.arg)
		}
		row, err := it.cur.next(ec)
		if err != nil {
			return nil, err
		}
		if row == nil {
			it.part++
			it.cur = nil
			continue
		}
		if it.seen != nil {
			key := ec.keyBuf[:0]
			for _, v := range row {
				key = appendKey(key, v)
			}
			ec.keyBuf = key
			if err := ec.work(int64(len(key))); err != nil {
				return nil, err
			}
			if _, dup := it.seen[string(key)]; dup {
				continue
			}
			if err := ec.hold(keyWeight(len(key)), "UNION"); err != nil {
				return nil, err
			}
			it.seen[string(key)] = struct{}{}
		}
		return row, nil
	}
	return nil, nil
}
