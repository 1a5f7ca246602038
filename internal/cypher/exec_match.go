package cypher

import (
	"fmt"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// ---- Start / Argument ----

// argumentNode yields one row: a copy of the outer row, or an all-null row
// at the top of a plan.
type argumentNode struct{ top bool }

func (n *argumentNode) inputs() []planNode { return nil }
func (n *argumentNode) describe() string {
	if n.top {
		return "Start"
	}
	return "Argument"
}

func (n *argumentNode) open(ec *execCtx, arg []Value) iterator {
	row := ec.newRow()
	copy(row, arg)
	return &onceIter{row: row}
}

type onceIter struct {
	row  []Value
	done bool
}

func (it *onceIter) next(*execCtx) ([]Value, error) {
	if it.done {
		return nil, nil
	}
	it.done = true
	return it.row, nil
}

// ---- NodeScan: bind a pattern node from an index or a label ----

type scanKind uint8

const (
	scanAll scanKind = iota
	scanLabel
	scanID
	scanName
	scanFile
)

type nodeScanNode struct {
	input   planNode
	slot    int
	name    string
	kinds   kindSet
	how     scanKind
	key     *cexpr // scanID, scanName, scanFile: the value looked up
	keyList bool   // key is a list: look each element up (IN)
	est     int    // estimated candidates, for EXPLAIN
	labels  string // the labels as written, for EXPLAIN
}

func (n *nodeScanNode) inputs() []planNode { return []planNode{n.input} }

func (n *nodeScanNode) describe() string {
	node := "(" + quoteName(n.name) + n.labels + ")"
	op := map[scanKind]string{scanAll: "AllNodesScan", scanLabel: "NodeByLabelScan", scanID: "NodeByIdSeek",
		scanName: "NodeByNameSeek", scanFile: "NodeByFileSeek"}[n.how]
	prop := map[scanKind]string{scanID: "id", scanName: "name", scanFile: "filePath"}[n.how]
	s := op + " " + node
	if n.key != nil {
		cmp := " = "
		if n.keyList {
			cmp = " IN "
		}
		s += " " + quoteName(n.name) + "." + prop + cmp + n.key.String()
	}
	return s + fmt.Sprintf(" (est. %d)", n.est)
}

func (n *nodeScanNode) open(ec *execCtx, arg []Value) iterator {
	return &nodeScanIter{n: n, in: n.input.open(ec, arg)}
}

type nodeScanIter struct {
	n       *nodeScanNode
	in      iterator
	row     []Value
	segs    [][]memgraph.NodeID // candidate lists still to visit
	pos     int
	all     bool
	allNext int
	haveRow bool
}

func (it *nodeScanIter) next(ec *execCtx) ([]Value, error) {
	g := ec.g
	for {
		if !it.haveRow {
			in, err := it.in.next(ec)
			if in == nil || err != nil {
				return nil, err
			}
			it.row = in // pass the row through: this operator writes only its own slots
			if err := it.candidates(ec); err != nil {
				return nil, err
			}
			it.haveRow = true
		}
		var cand memgraph.NodeID
		switch {
		case it.all:
			if it.allNext >= g.Len() {
				it.haveRow = false
				continue
			}
			cand = memgraph.NodeID(it.allNext)
			it.allNext++
		default:
			for len(it.segs) > 0 && it.pos >= len(it.segs[0]) {
				it.segs, it.pos = it.segs[1:], 0
			}
			if len(it.segs) == 0 {
				it.haveRow = false
				continue
			}
			cand = it.segs[0][it.pos]
			it.pos++
		}
		if err := ec.tick(); err != nil {
			return nil, err
		}
		if it.n.kinds != allKinds && !it.n.kinds.has(g.Nodes[cand].Kind) {
			continue
		}
		it.row[it.n.slot] = NodeValue(cand)
		return it.row, nil
	}
}

// candidates sets up the candidate lists for the current input row.
func (it *nodeScanIter) candidates(ec *execCtx) error {
	n, g := it.n, ec.g
	it.segs, it.pos, it.all, it.allNext = it.segs[:0], 0, false, 0
	switch n.how {
	case scanAll:
		it.all = true
		return nil
	case scanLabel:
		for _, k := range graph.AllKinds() {
			if n.kinds.has(k) {
				it.segs = append(it.segs, g.ByKind(k))
			}
		}
		return nil
	}
	key, err := n.key.eval(ec, it.row)
	if err != nil {
		return err
	}
	keys := []Value{key}
	if n.keyList {
		if key.kind != KindList {
			if key.kind == KindNull {
				return nil
			}
			return typeErr(n.key.src.exprPos(), "IN expects a list, got %s", typeName(key))
		}
		keys = dedupeStrings(key.List())
	}
	for _, k := range keys {
		if k.kind != KindString {
			continue // no node has a non-string id, name or path
		}
		switch n.how {
		case scanID:
			if id, ok := g.Lookup(k.s); ok {
				it.segs = append(it.segs, []memgraph.NodeID{id})
			}
		case scanName:
			it.segs = append(it.segs, g.ByName(k.s))
		case scanFile:
			it.segs = append(it.segs, g.InFile(k.s))
		}
	}
	return nil
}

// dedupeStrings keeps the first of equal strings (other values are
// dropped by the caller).
func dedupeStrings(l []Value) []Value {
	seen := map[string]bool{}
	var out []Value
	for _, v := range l {
		if v.kind == KindString && !seen[v.s] {
			seen[v.s] = true
			out = append(out, v)
		}
	}
	return out
}

// ---- Expand: follow one relationship from a bound node ----

type expandNode struct {
	input     planNode
	from      int
	fromName  string
	fromPos   Pos
	rel       int
	to        int
	dir       Direction // relative to from: DirOut follows outgoing edges
	types     edgeSet
	toKinds   kindSet
	into      bool  // to is bound already: only edges reaching it
	relBound  bool  // rel is bound already: only that relationship
	uniq      []int // relationship slots of the same MATCH it must differ from
	uniqLists []int // variable-length relationship lists of the same MATCH
	skipRel   bool  // nothing reads the relationship: do not build it
	text      string
}

func (n *expandNode) inputs() []planNode { return []planNode{n.input} }
func (n *expandNode) describe() string {
	op := "Expand"
	if n.into {
		op = "ExpandInto"
	}
	return op + " " + n.text
}

func (n *expandNode) open(ec *execCtx, arg []Value) iterator {
	return &expandIter{n: n, in: n.input.open(ec, arg)}
}

type expandIter struct {
	n       *expandNode
	in      iterator
	row     []Value
	from    memgraph.NodeID
	edges   []memgraph.Edge
	pos     int
	phase   int // 0: outgoing (or incoming for DirIn), 1: incoming of DirBoth
	haveRow bool
}

// boundNode reads the node an expansion starts from: ok is false for null,
// an error for anything but a node.
func (n *expandNode) boundNode(v Value) (memgraph.NodeID, bool, error) {
	switch v.kind {
	case KindNode:
		return v.Node(), true, nil
	case KindNull:
		return 0, false, nil
	}
	return 0, false, typeErr(n.fromPos, "`%s` is used as a node in a pattern but holds a value of type %s", n.fromName, typeName(v))
}

func (it *expandIter) next(ec *execCtx) ([]Value, error) {
	n, g := it.n, ec.g
	for {
		if !it.haveRow {
			in, err := it.in.next(ec)
			if in == nil || err != nil {
				return nil, err
			}
			var from memgraph.NodeID
			if v := &in[n.from]; v.kind == KindNode {
				from = memgraph.NodeID(v.i)
			} else {
				_, _, err := n.boundNode(*v)
				if err != nil {
					return nil, err
				}
				continue // null: nothing to expand
			}
			it.row = in // pass the row through: this operator writes only its own slots
			it.from, it.pos, it.phase, it.haveRow = from, 0, 0, true
			if n.dir == DirIn {
				it.edges = g.In(from)
			} else {
				it.edges = g.Out(from)
			}
		}
		if it.pos >= len(it.edges) {
			if n.dir == DirBoth && it.phase == 0 {
				it.phase, it.pos, it.edges = 1, 0, g.In(it.from)
				continue
			}
			it.haveRow = false
			continue
		}
		e := it.edges[it.pos]
		it.pos++
		if err := ec.tick(); err != nil {
			return nil, err
		}
		if !n.types.has(e.Type) {
			continue
		}
		incoming := n.dir == DirIn || it.phase == 1
		if incoming && n.dir == DirBoth && e.To == it.from {
			continue // a self-loop is matched once, in the outgoing pass
		}
		if n.toKinds != allKinds && !n.toKinds.has(g.Nodes[e.To].Kind) {
			continue
		}
		if n.into && (it.row[n.to].kind != KindNode || it.row[n.to].Node() != e.To) {
			continue
		}
		if n.skipRel {
			it.row[n.to] = NodeValue(e.To)
			return it.row, nil
		}
		var rel Value
		if incoming {
			rel = relValue(g, e.To, it.from, e)
		} else {
			rel = relValue(g, it.from, e.To, e)
		}
		if n.relBound && (it.row[n.rel].kind != KindRel || it.row[n.rel].relKey() != rel.relKey()) {
			continue
		}
		if !relUnique(it.row, rel, n.uniq, n.uniqLists) {
			continue
		}
		it.row[n.rel] = rel
		it.row[n.to] = NodeValue(e.To)
		return it.row, nil
	}
}

// relUnique reports whether rel differs from the relationships already
// bound by the same MATCH (Cypher matches each relationship once per
// pattern).
func relUnique(row []Value, rel Value, uniq, lists []int) bool {
	k := rel.relKey()
	for _, s := range uniq {
		if row[s].kind == KindRel && row[s].relKey() == k {
			return false
		}
	}
	for _, s := range lists {
		for _, r := range row[s].List() {
			if r.relKey() == k {
				return false
			}
		}
	}
	return true
}

// ---- Filter ----

type filterNode struct {
	input planNode
	pred  *cexpr
}

func (n *filterNode) inputs() []planNode { return []planNode{n.input} }
func (n *filterNode) describe() string   { return "Filter " + n.pred.String() }

func (n *filterNode) open(ec *execCtx, arg []Value) iterator {
	return &filterIter{n: n, in: n.input.open(ec, arg)}
}

type filterIter struct {
	n  *filterNode
	in iterator
}

func (it *filterIter) next(ec *execCtx) ([]Value, error) {
	for {
		row, err := it.in.next(ec)
		if row == nil || err != nil {
			return nil, err
		}
		ok, err := truth(ec, it.n.pred, row)
		if err != nil {
			return nil, err
		}
		if ok {
			return row, nil
		}
	}
}

// truth evaluates a predicate: true keeps the row; false and null drop
// it; anything else is a type error.
func truth(ec *execCtx, pred *cexpr, row []Value) (bool, error) {
	v, err := pred.eval(ec, row)
	if err != nil {
		return false, err
	}
	switch v.kind {
	case KindBool:
		return v.i != 0, nil
	case KindNull:
		return false, nil
	}
	return false, typeErr(pred.src.exprPos(), "WHERE expects a boolean, got %s: %s", typeName(v), pred.String())
}
