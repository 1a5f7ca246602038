package cypher

import (
	"math"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Estimates for seeks whose key is only known at run time (it reads a
// variable bound earlier).
const (
	estNameSeek = 10
	estFileSeek = 50
)

// planMatch adds to input the operators that bind spec (see the note in
// plan_match.go).
func (c *compiler) planMatch(input planNode, spec *matchSpec) planNode {
	c.currentRels = spec.rels
	defer func() { c.currentRels = nil }()
	bound := map[int]bool{}
	for _, s := range spec.outer {
		bound[s] = true
	}
	plan := input
	applyFilters := func() {
		for _, cj := range spec.conj {
			if !cj.done && subsetOf(cj.e.slots, bound) {
				cj.done = true
				plan = &filterNode{input: plan, pred: cj.e}
			}
		}
	}
	bindPaths := func() {
		for _, p := range spec.paths {
			if p.done {
				continue
			}
			ready := true
			for _, n := range p.nodes {
				ready = ready && bound[n.slot]
			}
			for _, r := range p.rels {
				ready = ready && bound[r.slot]
			}
			if ready {
				p.done = true
				bound[p.slot] = true
				plan = &projectNode{input: plan, label: "BindPath",
					items: []projItem{{slot: p.slot, name: p.name, expr: pathExpr(p)}}}
			}
		}
	}
	var uniq, uniqLists []int
	applyFilters()
	for {
		bindPaths()
		applyFilters()
		if r, from := c.nextRel(spec, bound); r != nil {
			plan = c.expand(plan, r, from, bound, uniq, uniqLists)
			if r.varLen {
				if r.needList {
					uniqLists = append(uniqLists, r.slot)
				}
			} else {
				uniq = append(uniq, r.slot)
			}
			continue
		}
		var start *patNode
		var startSeek *conjunct
		startHow, startEst := scanAll, math.MaxInt
		for _, n := range spec.nodes {
			if bound[n.slot] {
				continue
			}
			how, seek, est := c.bestStart(n, spec)
			if est < startEst {
				start, startSeek, startHow, startEst = n, seek, how, est
			}
		}
		if start == nil {
			// Every node is bound and every other relationship expanded:
			// the shortest paths come last, so that they can avoid the
			// relationships the rest of the pattern matched.
			if r := nextShortest(spec); r != nil {
				plan = c.planShortest(plan, r, spec, bound, uniq, uniqLists)
				if r.varLen {
					uniqLists = append(uniqLists, r.slot)
				} else {
					uniq = append(uniq, r.slot)
				}
				continue
			}
			break
		}
		scan := &nodeScanNode{input: plan, slot: start.slot, name: start.name, kinds: start.kinds, how: startHow,
			est: startEst, labels: start.labels}
		if startSeek != nil {
			startSeek.done = true
			scan.key, scan.keyList = startSeek.seek.key, startSeek.seek.list
		}
		plan = scan
		bound[start.slot] = true
	}
	applyFilters()
	return plan
}

// bestStart finds the cheapest way to enumerate the candidates of n.
func (c *compiler) bestStart(n *patNode, spec *matchSpec) (scanKind, *conjunct, int) {
	how, est := scanAll, c.g.Len()
	if n.kinds != allKinds {
		how, est = scanLabel, 0
		for _, k := range graph.AllKinds() {
			if n.kinds.has(k) {
				est += len(c.g.ByKind(k))
			}
		}
	}
	var best *conjunct
	for _, cj := range spec.conj {
		if cj.done || cj.seek == nil || cj.seek.node != n {
			continue
		}
		e := c.seekEstimate(cj.seek)
		if e < est {
			how, est, best = cj.seek.how, e, cj
		}
	}
	return how, best, est
}

// seekEstimate is the number of candidates a seek yields: exact when its
// key is a constant or a parameter.
func (c *compiler) seekEstimate(s *seekInfo) int {
	if len(s.key.slots) > 0 {
		switch s.how {
		case scanID:
			return 1
		case scanName:
			return estNameSeek
		}
		return estFileSeek
	}
	v, err := c.constEval(s.key)
	if err != nil {
		return math.MaxInt - 1
	}
	keys := []Value{v}
	if s.list {
		keys = dedupeStrings(v.List())
	}
	n := 0
	for _, k := range keys {
		if k.kind != KindString {
			continue
		}
		switch s.how {
		case scanID:
			if _, ok := c.g.Lookup(k.s); ok {
				n++
			}
		case scanName:
			n += len(c.g.ByName(k.s))
		case scanFile:
			n += len(c.g.InFile(k.s))
		}
	}
	return n
}

// nextRel picks the next relationship to expand and the bound end to
// expand it from, or nil when none touches a bound node.
func (c *compiler) nextRel(spec *matchSpec, bound map[int]bool) (*patRel, *patNode) {
	var best *patRel
	var bestFrom *patNode
	bestScore := [4]int{math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt}
	for _, r := range spec.rels {
		if r.done || r.shortest != AllPaths {
			continue
		}
		lb, rb := bound[r.left.slot], bound[r.right.slot]
		if !lb && !rb {
			continue
		}
		from, to := r.left, r.right
		if !lb {
			from, to = r.right, r.left
		}
		score := [4]int{1, 0, 0, r.order}
		if lb && rb {
			score[0] = 0
		}
		if r.varLen {
			score[1] = 1
		}
		if !bound[to.slot] {
			_, _, score[2] = c.bestStart(to, spec)
		}
		if less4(score, bestScore) {
			best, bestFrom, bestScore = r, from, score
		}
	}
	return best, bestFrom
}

func less4(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// expand adds the operator that follows r from the bound node from.
func (c *compiler) expand(plan planNode, r *patRel, from *patNode, bound map[int]bool, uniq, uniqLists []int) planNode {
	to := r.right
	dir := r.dir
	reverse := false
	if from == r.right {
		to = r.left
		reverse = true
		switch dir {
		case DirOut:
			dir = DirIn
		case DirIn:
			dir = DirOut
		}
	}
	e := expandNode{input: plan, from: from.slot, fromName: from.name, fromPos: from.pos, rel: r.slot, to: to.slot, dir: dir, types: r.types,
		toKinds: to.kinds, into: bound[to.slot], relBound: r.bound,
		uniq: append([]int(nil), uniq...), uniqLists: append([]int(nil), uniqLists...)}
	e.text = expandText(from, r, to, dir)
	// A hidden relationship that no path holds and no other relationship
	// of the pattern must differ from is never read: it is not built.
	e.skipRel = strings.HasPrefix(r.name, "#") && !r.inPath && !r.bound && len(uniq) == 0 && len(uniqLists) == 0 &&
		len(c.currentRels) == 1
	bound[r.slot], bound[to.slot] = true, true
	r.done = true
	if !r.varLen {
		return &e
	}
	lo, hi := r.min, r.max
	if hi < 0 || hi > MaxVarLength {
		if hi > MaxVarLength {
			c.warnf("variable-length bound *%d..%d is above the cap: at most %d hops are followed", r.min, r.max, MaxVarLength)
		}
		hi = MaxVarLength
	}
	if lo > hi {
		c.warnf("variable-length bound *%d..%d is empty: the lower bound is above the upper bound (or the cap of %d)", r.min, r.max, MaxVarLength)
	}
	return &varExpandNode{expandNode: e, min: lo, max: hi, reverse: reverse, needList: r.needList}
}

// expandText prints an expansion as a pattern from the bound node.
func expandText(from *patNode, r *patRel, to *patNode, dir Direction) string {
	var b strings.Builder
	b.WriteString("(" + quoteName(from.name) + ")")
	if dir == DirIn {
		b.WriteByte('<')
	}
	b.WriteString("-[" + quoteName(r.name) + r.typesText)
	if r.varLen {
		hi := r.max
		if hi < 0 || hi > MaxVarLength {
			hi = MaxVarLength
		}
		b.WriteString(varLenString(r.min, hi))
	}
	b.WriteString("]-")
	if dir == DirOut {
		b.WriteByte('>')
	}
	b.WriteString("(" + quoteName(to.name) + to.labels + ")")
	return b.String()
}

// pathExpr builds the value of a named path from the slots of its
// elements, in the order the pattern is written.
func pathExpr(p *patPath) *cexpr {
	nodes := p.nodes
	rels := p.rels
	var slots []int
	for _, n := range nodes {
		slots = append(slots, n.slot)
	}
	for _, r := range rels {
		slots = append(slots, r.slot)
	}
	return &cexpr{src: &PatternExpr{Pos: p.part.Pos, Part: p.part}, slots: unionSlots(slots), eval: func(ec *execCtx, row []Value) (Value, error) {
		first := row[nodes[0].slot]
		if first.kind != KindNode {
			return Null, nil
		}
		path := &Path{Nodes: []memgraph.NodeID{first.Node()}}
		for i, r := range rels {
			v := row[r.slot]
			if !r.varLen {
				next := row[nodes[i+1].slot]
				if v.kind != KindRel || next.kind != KindNode {
					return Null, nil
				}
				path.Rels = append(path.Rels, v)
				path.Nodes = append(path.Nodes, next.Node())
				continue
			}
			if v.kind != KindList {
				return Null, nil
			}
			for _, rel := range v.List() {
				cur := path.Nodes[len(path.Nodes)-1]
				next := rel.RelDst()
				if rel.RelSrc() != cur {
					next = rel.RelSrc()
				}
				path.Rels = append(path.Rels, rel)
				path.Nodes = append(path.Nodes, next)
			}
		}
		return PathValue(path), nil
	}}
}
