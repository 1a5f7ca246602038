package cypher

import (
	"strings"
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
}

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
	n      *aggregateNode
	in     iterator
	groups []*aggGroup
	pos    int
	done   bool
	row    []Value
}

func (it *aggregateIter) fill(ec *execCtx) error {
	n := it.n
	index := map[string]int{}
	keyVals := make([]Value, len(n.keys))
	for {
		row, err := it.in.next(ec)
		if err != nil {
			return err
		}
		if row == nil {
			break
		}
		key := ec.keyBuf[:0]
		for i, k := range n.keys {
			if keyVals[i], err = k.expr.eval(ec, row); err != nil {
				return err
			}
			key = appendKey(key, keyVals[i])
		}
		ec.keyBuf = key
		gi, ok := index[string(key)]
		if !ok {
			if err := ec.hold(1+len(n.keys)+len(n.aggs), "aggregation groups"); err != nil {
				return err
			}
			gi = len(it.groups)
			index[string(key)] = gi
			it.groups = append(it.groups, it.newGroup(append([]Value(nil), keyVals...)))
		}
		g := it.groups[gi]
		for i, a := range n.aggs {
			v := BoolValue(true) // count(*) counts rows
			if a.arg != nil {
				if v, err = a.arg.eval(ec, row); err != nil {
					return err
				}
			}
			if err := g.accs[i].add(ec, v); err != nil {
				return err
			}
		}
	}
	if len(it.groups) == 0 && len(n.keys) == 0 {
		it.groups = append(it.groups, it.newGroup(nil))
	}
	return nil
}

func (it *aggregateIter) newGroup(keys []Value) *aggGroup {
	g := &aggGroup{keys: keys, accs: make([]accumulator, len(it.n.aggs))}
	for i, a := range it.n.aggs {
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
	if _, dup := d.seen[string(key)]; dup {
		return nil
	}
	if err := ec.hold(1, "DISTINCT inside an aggregate"); err != nil {
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

type collectAcc struct{ l []Value }

func (c *collectAcc) add(ec *execCtx, v Value) error {
	if v.IsNull() {
		return nil
	}
	if err := ec.hold(1, "collect()"); err != nil {
		return err
	}
	c.l = append(c.l, v)
	return nil
}

func (c *collectAcc) result() (Value, error) {
	if c.l == nil {
		return ListValue([]Value{}), nil
	}
	return ListValue(c.l), nil
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
