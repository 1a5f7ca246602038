package cypher

import (
	"slices"
	"strings"
)

// Planning shortestPath(...) and allShortestPaths(...).
//
// The function wraps one relationship; the planner binds both of its ends
// first (by the usual starts and expansions, a Cartesian product when
// nothing joins them) and expands every other relationship of the MATCH
// before it, so that the search can avoid the relationships those matched
// (Cypher matches a relationship once per MATCH) and every predicate of
// the MATCH is either about the ends, applied before the search, or
// about the path.
//
// A predicate about the path selects among the paths, as in Neo4j: the
// result is the shortest path that satisfies it, not the shortest path
// filtered afterwards. Two kinds are checked during the search, on each
// relationship or node as the search reaches it, which keeps it a
// breadth-first search:
//
//   - all(x IN relationships(p) WHERE pred), all(x IN r WHERE pred) for
//     the relationship list r, none(...) and NOT any(...) of the same,
//     a property map on the relationship ({reason: 'same-file'}), and,
//     for a single hop, any predicate that reads only the relationship;
//   - all(x IN nodes(p) WHERE pred), none(...) and NOT any(...).
//
// pred may read variables bound before the MATCH or by the rest of it,
// not the path itself. Every other predicate on the path (length(p) > 2,
// any(...), a condition on nodes(p)[1]) is checked on whole paths, which
// are enumerated in increasing length from the shortest one: correct, and
// slower (EXPLAIN says which predicates are checked where).

// searchFilter is a predicate checked on each relationship or each node
// a shortest path search reaches.
type searchFilter struct {
	rel   *patRel // the shortest relationship it constrains
	nodes bool    // about the nodes of the path, else its relationships
	slot  int     // where the relationship or node is written for pred
	pred  *cexpr
	want  bool // all(): pred is true; none(), NOT any(): pred is false
	src   *cexpr
}

// shortestPart checks the pattern of shortestPath(...) and marks its
// relationship.
func (c *compiler) shortestPart(part *PatternPart, rels []*patRel, pp *patPath) {
	fn := part.Shortest.String()
	switch {
	case len(rels) == 0:
		c.errorf(part.ShortestPos, SemanticError, "%[1]s(...) needs a relationship between two nodes, as in %[1]s((a)-[:CALLS*..5]->(b))", fn)
		return
	case len(rels) > 1:
		c.errorf(part.Rels[1].Pos, SemanticError, "%[1]s(...) takes one relationship, not %[2]d: match the rest of the pattern beside it, "+
			"as in MATCH p = %[1]s((a)-[:CALLS*..5]->(b)), (b)-[:CALLS]->(c)", fn, len(rels))
		return
	}
	r, rp := rels[0], part.Rels[0]
	if rp.Min > 1 {
		c.errorf(rp.Pos, SemanticError, "%s(...) searches from a minimum length of 0 or 1, not %d: "+
			"keep the minimum at 1 and add WHERE length(p) >= %d, which keeps the shortest paths that long", fn, rp.Min, rp.Min)
	}
	if r.left == r.right {
		c.errorf(part.ShortestPos, SemanticError, "%s(...) needs two different end nodes, not `%s` at both: "+
			"for the shortest cycle through a node write MATCH p = (a)-[*]->(a) RETURN p ORDER BY length(p) LIMIT 1", fn, r.left.name)
	}
	if r.bound {
		c.errorf(rp.Pos, SemanticError, "`%s` is already defined and cannot be matched again in %s(...)", rp.Var, fn)
	}
	r.shortest, r.path = part.Shortest, pp
	if r.varLen {
		r.needList = true
	}
}

// nextShortest returns the first shortest relationship not yet planned.
func nextShortest(spec *matchSpec) *patRel {
	for _, r := range spec.rels {
		if !r.done && r.shortest != AllPaths {
			return r
		}
	}
	return nil
}

// searchFilterOf recognises a predicate that holds for every relationship
// or every node of a shortest path: all(x IN list WHERE pred), none(...)
// and NOT any(...), where list is the relationship list of a shortest
// relationship, relationships(p) or nodes(p) of a shortest path. It
// compiles pred with x in a slot of its own. Whether pred reads only what
// is bound before the search is checked by the planner.
func (c *compiler) searchFilterOf(e Expr, sc *scope, spec *matchSpec) *searchFilter {
	want := true
	if u, ok := e.(*UnaryExpr); ok && u.Op == "NOT" {
		if q, ok := u.X.(*Quantifier); ok && q.Kind == "any" {
			e, want = q, false
		}
	}
	q, ok := e.(*Quantifier)
	if !ok || q.Where == nil {
		return nil
	}
	switch {
	case q.Kind == "none":
		want = false
	case q.Kind != "all" && want:
		return nil
	}
	r, nodes := shortestList(q.List, sc, spec)
	if r == nil {
		return nil
	}
	inner, slot := c.iterationScope(sc, q.Var)
	pred := c.top(func() *cexpr { return c.predicate(q.Where, inner) })
	return &searchFilter{rel: r, nodes: nodes, slot: slot, pred: pred, want: want}
}

// shortestList finds the shortest relationship whose relationships (or
// nodes) list is the expression.
func shortestList(list Expr, sc *scope, spec *matchSpec) (*patRel, bool) {
	slotOf := func(x Expr) int {
		switch x := x.(type) {
		case *Variable:
			if b, _ := sc.lookup(x.Name); b != nil {
				return b.slot
			}
		case *slotExpr:
			return x.slot
		}
		return -1
	}
	if call, ok := list.(*CallExpr); ok {
		name := strings.ToLower(call.Name)
		if (name != "relationships" && name != "nodes") || len(call.Args) != 1 || call.Distinct || call.Star {
			return nil, false
		}
		slot := slotOf(call.Args[0])
		for _, r := range spec.rels {
			if r.shortest != AllPaths && r.path != nil && r.path.slot == slot {
				return r, name == "nodes"
			}
		}
		return nil, false
	}
	slot := slotOf(list)
	for _, r := range spec.rels {
		if r.shortest != AllPaths && r.varLen && r.slot == slot {
			return r, false
		}
	}
	return nil, false
}

// planShortest adds the operator that finds the shortest paths of r
// between its two bound ends, and hands it the predicates that read the
// path: those it can check on each hop or node during the search, the
// rest on whole paths.
func (c *compiler) planShortest(plan planNode, r *patRel, spec *matchSpec, bound map[int]bool, uniq, uniqLists []int) planNode {
	own := []int{r.slot}
	if r.path != nil {
		own = append(own, r.path.slot)
	}
	n := &shortestPathNode{input: plan, sel: r.shortest, from: r.left.slot, to: r.right.slot,
		fromName: r.left.name, toName: r.right.name, fromPos: r.left.pos, toPos: r.right.pos,
		dir: r.dir, types: r.types, min: r.min, max: r.max, rel: r.slot, list: r.varLen, path: -1,
		uniq: slices.Clone(uniq), uniqLists: slices.Clone(uniqLists)}
	if r.path != nil {
		n.path = r.path.slot
	}
	if !r.varLen {
		n.min, n.max = 1, 1
	}
	if n.max < 0 || n.max > MaxVarLength {
		if n.max > MaxVarLength {
			c.warnf("variable-length bound *%d..%d is above the cap: at most %d hops are followed", r.min, r.max, MaxVarLength)
		}
		n.max = MaxVarLength
	}
	if n.min > n.max {
		c.warnf("variable-length bound *%d..%d is empty: the lower bound is above the upper bound (or the cap of %d)", r.min, r.max, MaxVarLength)
	}
	for _, cj := range spec.conj {
		if cj.done || !slices.ContainsFunc(cj.e.slots, func(s int) bool { return slices.Contains(own, s) }) ||
			!subsetOf(withoutSlots(cj.e.slots, own...), bound) {
			continue // not about this path, or also about a path planned later
		}
		cj.done = true
		if f := cj.search; f != nil && f.rel == r && subsetOf(withoutSlots(f.pred.slots, f.slot), bound) {
			f.src = cj.e
			if f.nodes {
				n.nodeFilters = append(n.nodeFilters, f)
			} else {
				n.hopFilters = append(n.hopFilters, f)
			}
			continue
		}
		if !r.varLen && subsetOf(withoutSlots(cj.e.slots, r.slot), bound) {
			// A predicate on the one relationship of a single hop.
			n.hopFilters = append(n.hopFilters, &searchFilter{rel: r, slot: r.slot, pred: cj.e, want: true, src: cj.e})
			continue
		}
		n.pathFilters = append(n.pathFilters, cj.e)
	}
	n.text = expandText(r.left, r, r.right, r.dir)
	if r.path != nil {
		n.text += " AS " + quoteName(r.path.name)
	}
	r.done = true
	bound[r.slot] = true
	if r.path != nil {
		r.path.done = true
		bound[r.path.slot] = true
	}
	return n
}
