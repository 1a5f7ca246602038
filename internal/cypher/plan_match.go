package cypher

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Planning a pattern (MATCH, OPTIONAL MATCH, and the patterns of EXISTS,
// COUNT, pattern predicates and comprehensions).
//
// The pattern becomes a graph of pattern nodes and relationships; inline
// property maps and the conjuncts of WHERE become predicates. The planner
// then binds one element at a time:
//
//  1. a node bound by an earlier clause is where the walk starts;
//  2. otherwise the unbound node with the fewest candidates starts it: an
//     id equality (1), a name or file equality through the in-memory
//     indexes (the index's exact count when the value is a constant or a
//     parameter), a label scan (the count of the label), or all nodes;
//  3. from bound nodes, relationships are expanded: first those whose far
//     end is bound too (a check), then single hops before variable-length
//     ones, then towards the far end with the fewest candidates;
//  4. each predicate runs as soon as every variable it reads is bound;
//  5. the relationship of shortestPath(...) or allShortestPaths(...)
//     comes last, once both of its ends are bound, with the predicates
//     on its path (plan_shortest.go).
//
// Disconnected parts of a pattern each start at their own best node (a
// nested loop over the parts).

type patNode struct {
	pos    Pos
	name   string
	slot   int
	kinds  kindSet
	labels string // as written, for EXPLAIN
	bound  bool   // bound before this pattern
	order  int
}

type patRel struct {
	name        string
	slot        int
	left, right *patNode
	dir         Direction // as written: DirOut is left → right
	types       edgeSet
	typesText   string
	varLen      bool
	min, max    int
	bound       bool // bound before this pattern (a relationship variable)
	needList    bool
	inPath      bool
	order       int
	done        bool // expanded by the plan
	// shortest is set on the one relationship of shortestPath(...) or
	// allShortestPaths(...); path is its named path, if any.
	shortest Shortest
	path     *patPath
}

type patPath struct {
	name  string
	slot  int
	part  *PatternPart
	nodes []*patNode
	rels  []*patRel
	done  bool // bound by the plan
}

// conjunct is one predicate of a pattern; seek says when it can find the
// candidates of a node through an index.
type conjunct struct {
	e    *cexpr
	seek *seekInfo
	// search is set when the predicate holds for every hop or every node
	// of a shortest path, so that the search can check it (plan_shortest.go).
	search *searchFilter
	done   bool
}

type seekInfo struct {
	node *patNode
	how  scanKind
	key  *cexpr
	list bool
}

type matchSpec struct {
	nodes    []*patNode
	rels     []*patRel
	paths    []*patPath
	conj     []*conjunct
	outer    []int // slots bound before the pattern
	newSlots []int
	newNames []string
}

// matchSpec builds the pattern graph of parts and the predicates of where,
// declaring new variables in sc.
func (c *compiler) matchSpec(parts []*PatternPart, where Expr, sc *scope) *matchSpec {
	spec := &matchSpec{outer: sc.visibleSlots()}
	byName := map[string]*patNode{}
	relNames := map[string]bool{}
	declare := func(name string, typ varType, prefix string) int {
		hidden := name == ""
		if hidden {
			name = c.hiddenName(prefix)
		}
		slot := c.newSlot(name)
		if !hidden {
			sc.declare(&binding{name: name, slot: slot, typ: typ})
		}
		spec.newSlots = append(spec.newSlots, slot)
		spec.newNames = append(spec.newNames, name)
		return slot
	}
	var labelChecks []*conjunct
	type propMap struct {
		target Expr
		props  *MapLit
		rel    *patRel
	}
	var props []propMap
	node := func(np *NodePattern) *patNode {
		var n *patNode
		if np.Var != "" {
			n = byName[np.Var]
		}
		if n == nil {
			n = &patNode{pos: np.Pos, name: np.Var, kinds: allKinds, order: len(spec.nodes)}
			if b, _ := sc.lookup(np.Var); np.Var != "" && b != nil {
				if b.typ != vtAny && b.typ != vtNode {
					c.errorf(np.Pos, SemanticError, "`%s` is a %s, not a node", np.Var, typeWord(b.typ))
				}
				n.slot, n.bound = b.slot, true
			} else {
				n.slot = declare(np.Var, vtNode, "n")
				if np.Var == "" {
					n.name = c.slotNames[n.slot]
				}
			}
			if np.Var != "" {
				byName[np.Var] = n
			}
			spec.nodes = append(spec.nodes, n)
		}
		if len(np.Labels) > 0 {
			n.kinds &= c.labelSet(np.Labels, false)
			var b strings.Builder
			writeLabels(&b, np.Labels)
			n.labels += b.String()
			if n.bound {
				lc := &LabelExpr{Pos: np.Pos, X: &Variable{Pos: np.Pos, Name: np.Var}, Labels: np.Labels}
				labelChecks = append(labelChecks, &conjunct{})
				labelChecks[len(labelChecks)-1].e = c.top(func() *cexpr { return c.expr(lc, sc) })
			}
		}
		if np.Props != nil {
			props = append(props, propMap{target: c.elementRef(n.name, np.Var, n.slot, vtNode, np.Pos), props: np.Props})
		}
		return n
	}
	for _, part := range parts {
		var pp *patPath
		if part.PathVar != "" {
			if b, _ := sc.lookup(part.PathVar); b != nil {
				c.errorf(part.PathPos, SemanticError, "variable `%s` is already defined", part.PathVar)
			}
			pp = &patPath{name: part.PathVar, part: part}
		}
		left := node(part.Nodes[0])
		if pp != nil {
			pp.nodes = append(pp.nodes, left)
		}
		for i, rp := range part.Rels {
			right := node(part.Nodes[i+1])
			r := &patRel{name: rp.Var, left: left, right: right, dir: rp.Dir, varLen: rp.VarLen, min: rp.Min, max: rp.Max,
				order: len(spec.rels), types: allEdges}
			if rp.Var != "" && relNames[rp.Var] {
				c.errorf(rp.Pos, SemanticError, "relationship variable `%s` is used twice in one pattern", rp.Var)
			}
			relNames[rp.Var] = true
			typ := vtRel
			if rp.VarLen {
				typ = vtRelList
			}
			if b, _ := sc.lookup(rp.Var); rp.Var != "" && b != nil {
				if rp.VarLen || (b.typ != vtAny && b.typ != vtRel) {
					c.errorf(rp.Pos, SemanticError, "`%s` is already defined and cannot be matched again here", rp.Var)
				}
				r.slot, r.bound = b.slot, true
			} else {
				r.slot = declare(rp.Var, typ, "r")
				if rp.Var == "" {
					r.name = c.slotNames[r.slot]
				}
			}
			c.relTypes(r, rp)
			if rp.Props != nil {
				props = append(props, propMap{target: c.elementRef(r.name, rp.Var, r.slot, typ, rp.Pos), props: rp.Props, rel: r})
			}
			spec.rels = append(spec.rels, r)
			if pp != nil {
				pp.rels = append(pp.rels, r)
				r.inPath = true
				pp.nodes = append(pp.nodes, right)
				if r.varLen {
					r.needList = true
				}
			}
			left = right
		}
		if pp != nil {
			pp.slot = declare(pp.name, vtPath, "p")
			spec.paths = append(spec.paths, pp)
		}
		if part.Shortest != AllPaths {
			c.shortestPart(part, spec.rels[len(spec.rels)-len(part.Rels):], pp)
		}
	}
	for _, r := range spec.rels {
		if r.varLen && (r.name != "" && !strings.HasPrefix(r.name, "#") || len(spec.rels) > 1) {
			r.needList = true
		}
	}
	// A node bound before the pattern and joined by no relationship must
	// still be a node (not null from an OPTIONAL MATCH).
	for _, n := range spec.nodes {
		if n.bound && !n.joined(spec.rels) {
			spec.conj = append(spec.conj, &conjunct{e: isNodeCheck(n)})
		}
	}
	// Predicates: labels of bound nodes, property maps, WHERE.
	spec.conj = append(spec.conj, labelChecks...)
	for _, pm := range props {
		for i, key := range pm.props.Keys {
			val := pm.props.Vals[i]
			if pm.rel != nil && key == "type" && c.constantRelType(pm.rel, val) {
				continue
			}
			var pred Expr = &BinaryExpr{Pos: val.exprPos(), Op: "=", L: &PropAccess{Pos: val.exprPos(), X: pm.target, Name: key}, R: val}
			if pm.rel != nil && pm.rel.varLen {
				pm.rel.needList = true
				x := c.hiddenName("x")
				pred = &Quantifier{Pos: val.exprPos(), Kind: "all", Var: x, List: pm.target,
					Where: &BinaryExpr{Pos: val.exprPos(), Op: "=", L: &PropAccess{Pos: val.exprPos(), X: &Variable{Name: x}, Name: key}, R: val}}
			}
			spec.conj = append(spec.conj, c.conjunct(pred, sc, spec))
		}
	}
	for _, w := range splitAnd(where) {
		spec.conj = append(spec.conj, c.conjunct(w, sc, spec))
	}
	return spec
}

// joined reports whether a relationship of the pattern touches n.
func (n *patNode) joined(rels []*patRel) bool {
	for _, r := range rels {
		if r.left == n || r.right == n {
			return true
		}
	}
	return false
}

// isNodeCheck keeps rows where the bound variable of n holds a node: null
// matches no node pattern; anything else is a type error.
func isNodeCheck(n *patNode) *cexpr {
	src := &IsNullExpr{Pos: n.pos, X: &Variable{Pos: n.pos, Name: n.name}, Not: true}
	slot := n.slot
	return &cexpr{src: src, slots: []int{slot}, eval: func(_ *execCtx, row []Value) (Value, error) {
		switch row[slot].kind {
		case KindNode:
			return BoolValue(true), nil
		case KindNull:
			return BoolValue(false), nil
		}
		return Null, typeErr(n.pos, "`%s` is used as a node in a pattern but holds a value of type %s", n.name, typeName(row[slot]))
	}}
}

func typeWord(t varType) string {
	switch t {
	case vtRel:
		return "relationship"
	case vtRelList:
		return "list of relationships"
	case vtPath:
		return "path"
	}
	return "value"
}

// elementRef is an expression naming a pattern element: its variable, or
// its hidden slot.
func (c *compiler) elementRef(name, written string, slot int, typ varType, pos Pos) Expr {
	if written != "" {
		return &Variable{Pos: pos, Name: written}
	}
	return &slotExpr{pos: pos, name: name, slot: slot, typ: typ}
}

// relTypes reads `:A|B` of a relationship pattern.
func (c *compiler) relTypes(r *patRel, rp *RelPattern) {
	if len(rp.Types) == 0 {
		return
	}
	var set edgeSet
	for _, t := range rp.Types {
		s, ok := relTypeEdges(t)
		if !ok {
			c.warnf("relationship type `%s` does not exist, so nothing matches it (types: %s, or %s for all)",
				t, strings.Join(edgeTypeNames(), ", "), RelationshipType)
		}
		set |= s
	}
	r.types &= set
	r.typesText = ":" + strings.Join(quoteNames(rp.Types), "|")
}

// constantRelType applies {type: 'CALLS'} (a constant) as a type
// restriction; it reports false when the value is not constant.
func (c *compiler) constantRelType(r *patRel, val Expr) bool {
	n0 := len(c.subs)
	ce := c.expr(val, newScope(nil))
	c.subs = c.subs[:n0]
	if len(ce.slots) > 0 {
		return false
	}
	v, err := c.constEval(ce)
	if err != nil {
		return false
	}
	var set edgeSet
	if v.kind == KindString {
		t := graph.ParseEdgeType(v.s)
		if t == graph.EdgeInvalid {
			c.warnf("no relationship has type %s, so nothing matches it (types: %s)", literalString(v), strings.Join(edgeTypeNames(), ", "))
		} else {
			set = edgeBit(t)
		}
	}
	r.types &= set
	r.typesText += " {type: " + literalString(v) + "}"
	return true
}

func edgeTypeNames() []string {
	var out []string
	for _, t := range graph.AllEdgeTypes() {
		out = append(out, t.String())
	}
	return out
}

// splitAnd splits a predicate into its top-level conjuncts.
func splitAnd(e Expr) []Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*BinaryExpr); ok && b.Op == "AND" {
		return append(splitAnd(b.L), splitAnd(b.R)...)
	}
	return []Expr{e}
}

// conjunct compiles one predicate and finds whether it can seek.
func (c *compiler) conjunct(e Expr, sc *scope, spec *matchSpec) *conjunct {
	cj := &conjunct{e: c.top(func() *cexpr { return c.predicate(e, sc) })}
	cj.search = c.searchFilterOf(e, sc, spec)
	b, ok := e.(*BinaryExpr)
	if !ok || (b.Op != "=" && b.Op != "IN") {
		return cj
	}
	try := func(propSide, keySide Expr, list bool) *seekInfo {
		pa, ok := propSide.(*PropAccess)
		if !ok {
			return nil
		}
		var slot = -1
		switch x := pa.X.(type) {
		case *Variable:
			if bnd, _ := sc.lookup(x.Name); bnd != nil {
				slot = bnd.slot
			}
		case *slotExpr:
			slot = x.slot
		}
		var n *patNode
		for _, pn := range spec.nodes {
			if pn.slot == slot && !pn.bound {
				n = pn
			}
		}
		if n == nil {
			return nil
		}
		how := scanAll
		switch pa.Name {
		case "id":
			how = scanID
		case "name":
			how = scanName
		case "filePath":
			// The file index holds files and symbols, not folders and
			// packages.
			if n.kinds == allKinds || n.kinds.has(graph.KindFolder) || n.kinds.has(graph.KindPackage) {
				return nil
			}
			how = scanFile
		default:
			return nil
		}
		n0 := len(c.subs)
		key := c.expr(keySide, sc) // compiled a second time: its plans are printed with the conjunct
		c.subs = c.subs[:n0]
		for _, s := range key.slots {
			for _, ns := range spec.newSlots {
				if s == ns {
					return nil // depends on this pattern
				}
			}
		}
		return &seekInfo{node: n, how: how, key: key, list: list}
	}
	if b.Op == "=" {
		if cj.seek = try(b.L, b.R, false); cj.seek == nil {
			cj.seek = try(b.R, b.L, false)
		}
	} else {
		cj.seek = try(b.L, b.R, true)
	}
	return cj
}
