package cypher

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// aggregateNode groups rows by its key items and computes its aggregates
// per group. Groups come out in the order their first row came in; with
// no key items there is exactly one group, even for no rows (count(*) is
// then 0).
type aggregateNode struct {
	input planNode
	keys  []projItem
	aggs  []aggItem
	// keyVars copies a key that is a plain variable back to that
	// variable's slot, so that expressions over it (n.name after
	// RETURN n, count(*)) still read it.
	keyVars [][2]int
	// memoSlot, when not -1, is the one node variable every key reads:
	// the same node always falls in the same group, so after the first
	// rows the group is found by the node's index (keys are not
	// evaluated again). -1 otherwise.
	memoSlot int
}

// memoAfter is how many rows an aggregation reads before it remembers
// groups by node: small aggregations do not pay for the table.
const memoAfter = 2048

type aggItem struct {
	slot     int
	name     string
	fn       string // count, collect, sum, avg, min, max
	distinct bool
	arg      *cexpr // nil for count(*)
	src      *CallExpr
}

func (n *aggregateNode) inputs() []planNode { return []planNode{n.input} }
func (n *aggregateNode) describe() string {
	parts := make([]string, len(n.aggs))
	for i, a := range n.aggs {
		parts[i] = exprString(a.src)
	}
	s := "Aggregate " + strings.Join(parts, ", ")
	if len(n.keys) > 0 {
		s += " grouped by " + joinItems(n.keys)
	}
	return s
}

func (n *aggregateNode) open(ec *execCtx, arg []Value) iterator {
	return &aggregateIter{n: n, in: n.input.open(ec, arg)}
}

type aggGroup struct {
	keys []Value
	accs []accumulator
}

type aggregateIter struct {
	groupSlab []aggGroup
	keySlab   []Value
	accSlab   []accumulator
	countSlab []countAcc
	n         *aggregateNode
	in        iterator
	groups    []*aggGroup
	pos       int
	done      bool
	row       []Value
}

func (it *aggregateIter) fill(ec *execCtx) error {
	n := it.n
	index := map[string]int{}
	// One string key (the common GROUP BY name) is looked up as it is,
	// without encoding it.
	byString := map[string]int{}
	keyVals := make([]Value, len(n.keys))
	var memo []int32
	rows := 0
	for {
		row, err := it.in.next(ec)
		if err != nil {
			return err
		}
		if row == nil {
			break
		}
		rows++
		var node memgraph.NodeID = 0
		haveNode := false
		if n.memoSlot >= 0 && row[n.memoSlot].kind == KindNode {
			node, haveNode = row[n.memoSlot].Node(), true
			if memo == nil && rows > memoAfter {
				memo = make([]int32, ec.g.Len())
				for i := range memo {
					memo[i] = -1
				}
			}
			if memo != nil && memo[node] >= 0 {
				if err := it.accumulate(ec, it.groups[memo[node]], row); err != nil {
					return err
				}
				continue
			}
		}
		for i, k := range n.keys {
			if keyVals[i], err = k.expr.eval(ec, row); err != nil {
				return err
			}
		}
		var gi int
		var ok bool
		single := len(keyVals) == 1 && keyVals[0].kind == KindString
		if single {
			gi, ok = byString[keyVals[0].s]
		} else {
			key := ec.keyBuf[:0]
			for _, v := range keyVals {
				key = appendKey(key, v)
			}
			ec.keyBuf = key
			gi, ok = index[string(key)]
		}
		if !ok {
			keyBytes := len(ec.keyBuf)
			if single {
				keyBytes = 0 // looked up by the string itself, counted below
			}
			w := keyWeight(keyBytes) + int64(len(n.aggs))*valueBytes
			for _, v := range keyVals {
				w += weight(v)
			}
			if err := ec.hold(w, "aggregation groups"); err != nil {
				return err
			}
			gi = len(it.groups)
			if single {
				byString[keyVals[0].s] = gi
			} else {
				index[string(ec.keyBuf)] = gi
			}
			it.groups = append(it.groups, it.newGroup(keyVals))
		}
		if memo != nil && haveNode {
			memo[node] = int32(gi)
		}
		if err := it.accumulate(ec, it.groups[gi], row); err != nil {
			return err
		}
	}
	if len(it.groups) == 0 && len(n.keys) == 0 {
		it.groups = append(it.groups, it.newGroup(nil))
	}
	return nil
}

// accumulate adds a row to the aggregates of its group.
func (it *aggregateIter) accumulate(ec *execCtx, g *aggGroup, row []Value) error {
	for i, a := range it.n.aggs {
		if a.arg == nil && !a.distinct {
			g.accs[i].(*countAcc).n++ // count(*) counts rows
			continue
		}

		v := BoolValue(true)
		if a.arg != nil {
			var err error
			if v, err = a.arg.eval(ec, row); err != nil {
				return err
			}
		}
		if err := g.accs[i].add(ec, v); err != nil {
			return err
		}
	}
	return nil
}

// newGroup makes a group with a copy of keys. Groups, their keys, their
// accumulator lists and count(*) counters come from slabs: an aggregation
// over a large graph makes tens of thousands of groups.
func (it *aggregateIter) newGroup(keys []Value) *aggGroup {
	const slab = 256
	if len(it.groupSlab) == 0 {
		it.groupSlab = make([]aggGroup, slab)
	}
	g := &it.groupSlab[0]
	it.groupSlab = it.groupSlab[1:]
	if len(keys) > 0 {
		if len(it.keySlab) < len(keys) {
			it.keySlab = make([]Value, slab*len(keys))
		}
		g.keys = it.keySlab[:len(keys):len(keys)]
		it.keySlab = it.keySlab[len(keys):]
		copy(g.keys, keys)
	}
	n := len(it.n.aggs)
	if len(it.accSlab) < n {
		it.accSlab = make([]accumulator, slab*n)
	}
	g.accs = it.accSlab[:n:n]
	it.accSlab = it.accSlab[n:]
	for i, a := range it.n.aggs {
		if a.fn == "count" && !a.distinct {
			if len(it.countSlab) == 0 {
				it.countSlab = make([]countAcc, slab)
			}
			g.accs[i] = &it.countSlab[0]
			it.countSlab = it.countSlab[1:]
			continue
		}
		g.accs[i] = newAccumulator(a)
	}
	return g
}

func (it *aggregateIter) next(ec *execCtx) ([]Value, error) {
	if !it.done {
		it.done = true
		if err := it.fill(ec); err != nil {
			return nil, err
		}
	}
	if it.pos >= len(it.groups) {
		return nil, nil
	}
	g := it.groups[it.pos]
	it.pos++
	if it.row == nil {
		it.row = ec.newRow()
	}
	clear(it.row)
	for i, k := range it.n.keys {
		it.row[k.slot] = g.keys[i]
	}
	for _, kv := range it.n.keyVars {
		it.row[kv[1]] = it.row[kv[0]]
	}
	for i, a := range it.n.aggs {
		v, err := g.accs[i].result()
		if err != nil {
			return nil, err
		}
		it.row[a.slot] = v
	}
	return it.row, nil
}

// accumulator computes one aggregate over the values of one group.
type accumulator interface {
	add(ec *execCtx, v Value) error
	result() (Value, error)
}

func newAccumulator(a aggItem) accumulator {
	var acc accumulator
	switch a.fn {
	case "count":
		acc = &countAcc{}
	case "collect":
		acc = &collectAcc{}
	case "sum":
		acc = &sumAcc{item: a}
	case "avg":
		acc = &avgAcc{item: a}
	case "min":
		acc = &extremeAcc{sign: -1}
	case "max":
		acc = &extremeAcc{sign: 1}
	}
	if a.distinct {
		return &distinctAcc{inner: acc, seen: map[string]struct{}{}}
	}
	return acc
}

// distinctAcc passes each distinct non-null value once to its inner
// accumulator.
type distinctAcc struct {
	inner accumulator
	seen  map[string]struct{}
}

func (d *distinctAcc) add(ec *execCtx, v Value) error {
	if v.IsNull() {
		return nil
	}
	key := appendKey(ec.keyBuf[:0], v)
	ec.keyBuf = key
	if err := ec.work(int64(len(key))); err != nil {
		return err
	}
	if _, dup := d.seen[string(key)]; dup {
		return nil
	}
	if err := ec.hold(keyWeight(len(key)), "DISTINCT inside an aggregate"); err != nil {
		return err
	}
	d.seen[string(key)] = struct{}{}
	return d.inner.add(ec, v)
}

func (d *distinctAcc) result() (Value, error) { return d.inner.result() }

type countAcc struct{ n int64 }

func (c *countAcc) add(_ *execCtx, v Value) error {
	if !v.IsNull() {
		c.n++
	}
	return nil
}
func (c *countAcc) result() (Value, error) { return IntValue(c.n), nil }

type collectAcc struct {
	l []Value
	w int64 // the weight of l's elements
}

func (c *collectAcc) add(ec *execCtx, v Value) error {
	if v.IsNull() {
		return nil
	}
	if err := ec.hold(weight(v), "collect()"); err != nil {
		return err
	}
	c.l = append(c.l, v)
	c.w += weight(v)
	return nil
}

func (c *collectAcc) result() (Value, error) {
	if c.l == nil {
		return ListValue([]Value{}), nil
	}
	return listValueOf(c.l, valueBytes+c.w), nil
}

type sumAcc struct {
	item    aggItem
	i       int64
	f       float64
	isFloat bool
}

func (s *sumAcc) add(_ *execCtx, v Value) error {
	switch v.kind {
	case KindNull:
	case KindInt:
		if s.isFloat {
			s.f += float64(v.i)
			return nil
		}
		r := s.i + v.i
		if (r > s.i) != (v.i > 0) {
			return argErr(s.item.src.Pos, "integer overflow in sum()")
		}
		s.i = r
	case KindFloat:
		if !s.isFloat {
			s.isFloat, s.f = true, float64(s.i)
		}
		s.f += v.f
	default:
		return typeErr(s.item.arg.src.exprPos(), "sum() expects numbers, got %s", typeName(v))
	}
	return nil
}

func (s *sumAcc) result() (Value, error) {
	if s.isFloat {
		return FloatValue(s.f), nil
	}
	return IntValue(s.i), nil
}

type avgAcc struct {
	item aggItem
	sum  float64
	n    int64
}

func (a *avgAcc) add(_ *execCtx, v Value) error {
	if v.IsNull() {
		return nil
	}
	f, ok := v.number()
	if !ok {
		return typeErr(a.item.arg.src.exprPos(), "avg() expects numbers, got %s", typeName(v))
	}
	a.sum += f
	a.n++
	return nil
}

func (a *avgAcc) result() (Value, error) {
	if a.n == 0 {
		return Null, nil
	}
	return FloatValue(a.sum / float64(a.n)), nil
}

// extremeAcc is min (sign -1) or max (sign 1) in ORDER BY order.
type extremeAcc struct {
	sign int
	best Value
	have bool
}

func (e *extremeAcc) add(_ *execCtx, v Value) error {
	if v.IsNull() {
		return nil
	}
	if !e.have || order(v, e.best)*e.sign > 0 {
		e.best, e.have = v, true
	}
	return nil
}

func (e *extremeAcc) result() (Value, error) { return e.best, nil }
