package cypher

import (
	"context"
	"strings"
)

var backgroundCtx = context.Background()

// restriction limits what an expression may read: after aggregation or
// DISTINCT, only the projected items (matched by their printed form), the
// aggregates computed, and the grouping-key variables.
type restriction struct {
	items   map[string]int    // printed expression → slot holding its value
	aggs    map[*CallExpr]int // aggregate calls → slot of their result
	keyVars map[string]bool   // variables that are grouping keys (still in their slot)
	outer   *scope            // the scope before the projection
	what    string            // "RETURN with aggregation", for messages
}

// projection plans WITH and RETURN: items, aggregation, DISTINCT, ORDER
// BY, SKIP, LIMIT and (WITH only) WHERE. It returns the plan, the scope
// after the projection and the column names.
func (c *compiler) projection(input planNode, pr *Projection, sc *scope, where Expr, isReturn bool) (planNode, *scope, []string) {
	clause := "WITH"
	if isReturn {
		clause = "RETURN"
	}
	items := pr.Items
	if pr.Star {
		names := sc.userNames()
		if len(names) == 0 {
			c.errorf(pr.StarPos, SemanticError, "%s * needs variables in scope, and there are none", clause)
		}
		var star []*ProjItem
		for _, n := range names {
			star = append(star, &ProjItem{Expr: &Variable{Pos: pr.StarPos, Name: n}, Text: n})
		}
		items = append(star, items...)
	}
	seen := map[string]bool{}
	for _, it := range items {
		name := it.Name()
		if seen[name] {
			c.errorf(it.Expr.exprPos(), SemanticError, "column `%s` is projected twice: give one an alias with AS", name)
		}
		seen[name] = true
		if _, isVar := it.Expr.(*Variable); !isReturn && !isVar && it.Alias == "" {
			c.errorf(it.Expr.exprPos(), SemanticError, "expression `%s` in WITH must be aliased: add AS name", it.Text)
		}
	}

	hasAgg := false
	for _, it := range items {
		if len(findAggregates(it.Expr)) > 0 {
			hasAgg = true
		}
	}
	if duplicatesIgnored(items, pr.Distinct, hasAgg) {
		markDistinctEnds(input)
	}
	newSc := newScope(nil)
	slots := make([]int, len(items))
	plan := input
	var restrictOrder *restriction
	if !hasAgg {
		var proj []projItem
		for i, it := range items {
			if v, ok := it.Expr.(*Variable); ok {
				if b, _ := sc.lookup(v.Name); b != nil {
					// A variable passes through in its slot.
					slots[i] = b.slot
					newSc.declare(&binding{name: it.Name(), slot: b.slot, typ: b.typ})
					continue
				}
			}
			e := c.top(func() *cexpr { return c.expr(it.Expr, sc) })
			slots[i] = c.newSlot(it.Name())
			newSc.declare(&binding{name: it.Name(), slot: slots[i], typ: exprType(it.Expr, sc)})
			proj = append(proj, projItem{slot: slots[i], name: it.Name(), expr: e})
		}
		if len(proj) > 0 {
			plan = &projectNode{input: plan, items: proj, label: "Project"}
		}
		if pr.Distinct {
			restrictOrder = c.itemRestriction(items, slots, sc, clause+" DISTINCT")
		}
	} else {
		plan = c.aggregation(plan, items, slots, sc, newSc, clause)
		restrictOrder = c.itemRestriction(items, slots, sc, clause+" with aggregation")
	}
	columns := make([]string, len(items))
	for i, it := range items {
		columns[i] = it.Name()
	}
	if pr.Distinct {
		plan = &distinctNode{input: plan, slots: slots, names: columns}
	}
	var skip, limit int64 = 0, -1
	if pr.Skip != nil {
		skip, _ = c.constInt(pr.Skip, "SKIP")
	}
	if pr.Limit != nil {
		limit, _ = c.constInt(pr.Limit, "LIMIT")
	}
	if len(pr.Order) > 0 {
		// Projected names shadow earlier ones. After DISTINCT or
		// aggregation, the restriction rejects earlier variables that
		// are not projected.
		orderSc := newScope(sc)
		for _, name := range newSc.order {
			orderSc.declare(newSc.vars[name])
		}
		keys := make([]sortKey, len(pr.Order))
		for i, o := range pr.Order {
			c.restrict = restrictOrder
			keys[i] = sortKey{expr: c.top(func() *cexpr { return c.expr(o.Expr, orderSc) }), desc: o.Desc}
			c.restrict = nil
		}
		top := int64(-1)
		if limit >= 0 {
			top = skip + limit
		}
		plan = &sortNode{input: plan, keys: keys, top: top}
	}
	if skip > 0 {
		plan = &skipNode{input: plan, n: skip}
	}
	if limit >= 0 {
		plan = &limitNode{input: plan, n: limit}
	}
	if where != nil {
		plan = &filterNode{input: plan, pred: c.top(func() *cexpr { return c.predicate(where, newSc) })}
	}
	if isReturn {
		plan = &resultsNode{input: plan, slots: slots, columns: columns}
	}
	return plan, newSc, columns
}

// duplicatesIgnored reports whether a projection gives the same rows when
// its input rows come more than once: DISTINCT without aggregates, or
// aggregates that are all DISTINCT, min or max.
func duplicatesIgnored(items []*ProjItem, distinct, hasAgg bool) bool {
	if !hasAgg {
		return distinct
	}
	for _, it := range items {
		for _, call := range findAggregates(it.Expr) {
			fn := strings.ToLower(call.Name)
			if !call.Distinct && fn != "min" && fn != "max" {
				return false
			}
		}
	}
	return true
}

// itemRestriction lets ORDER BY after DISTINCT or aggregation use the
// projected items, by alias or by repeating the expression.
func (c *compiler) itemRestriction(items []*ProjItem, slots []int, outer *scope, what string) *restriction {
	r := &restriction{items: map[string]int{}, keyVars: map[string]bool{}, outer: outer, what: what}
	for i, it := range items {
		r.items[exprString(it.Expr)] = slots[i]
	}
	return r
}

// aggregation plans a projection with aggregates: the grouping keys are
// the items without aggregates; each aggregate call is computed once per
// group; items that combine aggregates (count(*) * 2) are computed after.
func (c *compiler) aggregation(input planNode, items []*ProjItem, slots []int, sc, newSc *scope, clause string) planNode {
	node := &aggregateNode{input: input}
	r := &restriction{items: map[string]int{}, aggs: map[*CallExpr]int{}, keyVars: map[string]bool{}, outer: sc,
		what: clause + " with aggregation"}
	var post []projItem
	// Keys first, so that aggregate items can refer to them.
	for i, it := range items {
		if len(findAggregates(it.Expr)) > 0 {
			continue
		}
		e := c.top(func() *cexpr { return c.expr(it.Expr, sc) })
		slots[i] = c.newSlot(it.Name())
		node.keys = append(node.keys, projItem{slot: slots[i], name: it.Name(), expr: e})
		r.items[exprString(it.Expr)] = slots[i]
		typ := exprType(it.Expr, sc)
		if v, ok := it.Expr.(*Variable); ok {
			if b, _ := sc.lookup(v.Name); b != nil {
				node.keyVars = append(node.keyVars, [2]int{slots[i], b.slot})
				r.keyVars[v.Name] = true
			}
		}
		newSc.declare(&binding{name: it.Name(), slot: slots[i], typ: typ})
	}
	for i, it := range items {
		calls := findAggregates(it.Expr)
		if len(calls) == 0 {
			continue
		}
		for _, call := range calls {
			if _, done := r.aggs[call]; done {
				continue
			}
			a := aggItem{name: exprString(call), fn: strings.ToLower(call.Name), distinct: call.Distinct, src: call}
			a.slot = c.newSlot(a.name)
			switch {
			case call.Star:
				if a.fn != "count" {
					c.errorf(call.Pos, SemanticError, "only count accepts *")
				}
			case len(call.Args) != 1:
				c.errorf(call.Pos, SemanticError, "%s() takes exactly one argument", call.Name)
			default:
				for _, inner := range findAggregates(call.Args[0]) {
					c.errorf(inner.Pos, SemanticError, "aggregate %s() cannot be nested inside %s()", inner.Name, call.Name)
				}
				a.arg = c.top(func() *cexpr { return c.expr(call.Args[0], sc) })
			}
			r.aggs[call] = a.slot
			node.aggs = append(node.aggs, a)
		}
		if call, ok := it.Expr.(*CallExpr); ok && len(calls) == 1 && calls[0] == call {
			slots[i] = r.aggs[call]
		} else {
			c.restrict = r
			e := c.top(func() *cexpr { return c.expr(it.Expr, sc) })
			c.restrict = nil
			slots[i] = c.newSlot(it.Name())
			post = append(post, projItem{slot: slots[i], name: it.Name(), expr: e})
		}
		newSc.declare(&binding{name: it.Name(), slot: slots[i]})
	}
	node.memoSlot = -1
	var keySlots [][]int
	for _, k := range node.keys {
		keySlots = append(keySlots, k.expr.slots)
	}
	if ks := unionSlots(keySlots...); len(ks) == 1 && sc.typeOfSlot(ks[0]) == vtNode {
		node.memoSlot = ks[0]
	}
	var plan planNode = node
	if len(post) > 0 {
		plan = &projectNode{input: plan, items: post, label: "Project"}
	}
	return plan
}

// aggregateNames are the aggregate functions.
var aggregateNames = map[string]bool{"count": true, "collect": true, "sum": true, "avg": true, "min": true, "max": true}

func isAggregate(call *CallExpr) bool { return aggregateNames[strings.ToLower(call.Name)] }

// findAggregates returns the outermost aggregate calls in e, not looking
// into subqueries and pattern comprehensions (which have their own scope).
func findAggregates(e Expr) []*CallExpr {
	var out []*CallExpr
	walkExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *CallExpr:
			if isAggregate(x) {
				out = append(out, x)
				return false
			}
		case *SubqueryExpr, *PatternComp, *PatternExpr:
			return false
		}
		return true
	})
	return out
}

// exprType is what a projected expression is known to hold.
func exprType(e Expr, sc *scope) varType {
	if v, ok := e.(*Variable); ok {
		if b, _ := sc.lookup(v.Name); b != nil {
			return b.typ
		}
	}
	return vtAny
}

// walkExpr calls f on e and, while f returns true, on its children.
func walkExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	w := func(xs ...Expr) {
		for _, x := range xs {
			walkExpr(x, f)
		}
	}
	switch e := e.(type) {
	case *ListLit:
		w(e.Elems...)
	case *MapLit:
		w(e.Vals...)
	case *PropAccess:
		w(e.X)
	case *IndexExpr:
		w(e.X, e.Index)
	case *SliceExpr:
		w(e.X, e.From, e.To)
	case *UnaryExpr:
		w(e.X)
	case *BinaryExpr:
		w(e.L, e.R)
	case *IsNullExpr:
		w(e.X)
	case *LabelExpr:
		w(e.X)
	case *CallExpr:
		w(e.Args...)
	case *CaseExpr:
		w(e.Subject, e.Else)
		w(e.Whens...)
		w(e.Thens...)
	case *ListComp:
		w(e.List, e.Where, e.Proj)
	case *Quantifier:
		w(e.List, e.Where)
	case *ReduceExpr:
		w(e.Init, e.List, e.Expr)
	case *PatternComp:
		w(e.Where, e.Proj)
	case *SubqueryExpr:
		w(e.Where)
	case *MapProjection:
		for _, it := range e.Items {
			w(it.Expr)
		}
	}
}
