package cypher

// matchClause plans MATCH and OPTIONAL MATCH. New variables are declared in
// sc; an OPTIONAL MATCH runs its plan once per input row and sets them to
// null when it finds nothing.
func (c *compiler) matchClause(input planNode, cl *MatchClause, sc *scope) planNode {
	spec := c.matchSpec(cl.Pattern, cl.Where, sc)
	if !cl.Optional {
		return c.planMatch(input, spec)
	}
	inner := c.planMatch(&argumentNode{}, spec)
	return &optionalNode{input: input, inner: inner, nullSlots: spec.newSlots, names: spec.newNames}
}

// subKind is what a pattern used inside an expression evaluates to.
type subKind uint8

const (
	subExists subKind = iota // EXISTS { }, exists(), a pattern predicate: is there a match?
	subCount                 // COUNT { }: how many matches
	subPaths                 // a pattern as a value: the list of matching paths
)

// subquery compiles a pattern used in an expression. Its plan starts from
// the row being evaluated (variables of the enclosing scope are bound);
// variables it introduces are local to it.
func (c *compiler) subquery(src Expr, parts []*PatternPart, where Expr, sc *scope, kind subKind) *cexpr {
	defer c.addSub(len(c.subs))()
	inner := newScope(sc)
	if kind == subPaths && parts[0].PathVar == "" {
		p := *parts[0]
		p.PathVar = c.hiddenName("path")
		parts = []*PatternPart{&p}
	}
	spec := c.matchSpec(parts, where, inner)
	plan := c.planMatch(&argumentNode{}, spec)
	c.lastSub = plan
	if kind == subExists {
		markDistinctEnds(plan) // whether a row exists, not how many
	}
	reads := subqueryReads(spec)
	var pathSlot int
	if kind == subPaths {
		pathSlot = spec.paths[0].slot
	}
	return &cexpr{src: src, slots: reads, eval: func(ec *execCtx, row []Value) (Value, error) {
		saved := ec.pending
		defer func() { ec.pending = saved }()
		it := plan.open(ec, row)
		var n int64
		var paths []Value
		for {
			r, err := it.next(ec)
			if err != nil {
				return Null, err
			}
			if r == nil {
				break
			}
			switch kind {
			case subExists:
				return BoolValue(true), nil
			case subPaths:
				if err := ec.carry(weight(r[pathSlot]), "a pattern expression"); err != nil {
					return Null, err
				}
				paths = append(paths, r[pathSlot])
			}
			n++
		}
		switch kind {
		case subExists:
			return BoolValue(false), nil
		case subCount:
			return IntValue(n), nil
		}
		if paths == nil {
			paths = []Value{}
		}
		return ListValue(paths), nil
	}}
}

// addSub records the plan of a pattern compiled in an expression: the
// plans of patterns nested in it are already attached to its own
// operators, so only it is kept.
func (c *compiler) addSub(start int) func() {
	return func() {
		c.subs = append(c.subs[:start], c.lastSub)
	}
}

// subqueryReads lists the slots of the enclosing scope a pattern reads.
func subqueryReads(spec *matchSpec) []int {
	var sets [][]int
	for _, cj := range spec.conj {
		sets = append(sets, cj.e.slots)
	}
	for _, n := range spec.nodes {
		if n.bound {
			sets = append(sets, []int{n.slot})
		}
	}
	for _, r := range spec.rels {
		if r.bound {
			sets = append(sets, []int{r.slot})
		}
	}
	return withoutSlots(unionSlots(sets...), spec.newSlots...)
}

func (c *compiler) patternComp(e *PatternComp, sc *scope) *cexpr {
	defer c.addSub(len(c.subs))()
	inner := newScope(sc)
	spec := c.matchSpec([]*PatternPart{e.Part}, e.Where, inner)
	plan := c.planMatch(&argumentNode{}, spec)
	c.lastSub = plan
	proj := c.expr(e.Proj, inner)
	reads := withoutSlots(unionSlots(subqueryReads(spec), proj.slots), spec.newSlots...)
	return &cexpr{src: e, slots: reads, eval: func(ec *execCtx, row []Value) (Value, error) {
		saved := ec.pending
		defer func() { ec.pending = saved }()
		it := plan.open(ec, row)
		out := []Value{}
		w := valueBytes
		for {
			r, err := it.next(ec)
			if err != nil {
				return Null, err
			}
			if r == nil {
				return listValueOf(out, w), nil
			}
			v, err := proj.eval(ec, r)
			if err != nil {
				return Null, err
			}
			if err := ec.carry(weight(v), "a pattern comprehension"); err != nil {
				return Null, err
			}
			out = append(out, v)
			w += weight(v)
		}
	}}
}
