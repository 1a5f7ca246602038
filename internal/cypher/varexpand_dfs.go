package cypher

import (
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// A variable-length relationship (-[:CALLS*1..3]->) enumerates trails
// depth first with an explicit stack: each frame is a node and its
// position in its adjacency list; the path holds the relationships from
// the start. A relationship is never used twice in one path, nor reused
// from the other relationships of the same MATCH.

type varExpandNode struct {
	expandNode
	min, max int
	reverse  bool // expanding right to left: store the list in pattern order
	needList bool // the relationship list is read (variable, path, uniqueness)
	// distinctEnds: only which nodes are reached matters (the consumer
	// ignores duplicate rows), so each end is found once, breadth first
	// (see varexpand_bfs.go).
	distinctEnds bool
}

func (n *varExpandNode) describe() string {
	op := "VarLengthExpand"
	if n.into {
		op = "VarLengthExpandInto"
	}
	if n.distinctEnds {
		op += "(each end once)"
	}
	return op + " " + n.text
}

func (n *varExpandNode) open(ec *execCtx, arg []Value) iterator {
	if n.distinctEnds {
		return &reachIter{n: n, in: n.input.open(ec, arg)}
	}
	return &varExpandIter{n: n, in: n.input.open(ec, arg)}
}

type dfsFrame struct {
	node  memgraph.NodeID
	edges []memgraph.Edge
	pos   int
	phase int
	via   bool // reached through a relationship on the path (not the root)
}

type varExpandIter struct {
	n       *varExpandNode
	in      iterator
	row     []Value
	stack   []dfsFrame
	path    []Value
	from    memgraph.NodeID
	pending bool // the zero-length match of the current row is still due
}

func (it *varExpandIter) frame(ec *execCtx, node memgraph.NodeID, via bool) dfsFrame {
	f := dfsFrame{node: node, via: via}
	if it.n.dir == DirIn {
		f.edges = ec.g.In(node)
	} else {
		f.edges = ec.g.Out(node)
	}
	return f
}

func (it *varExpandIter) next(ec *execCtx) ([]Value, error) {
	n, g := it.n, ec.g
	for {
		if len(it.stack) == 0 && !it.pending {
			in, err := it.in.next(ec)
			if in == nil || err != nil {
				return nil, err
			}
			from, ok, err := n.boundNode(in[n.from])
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			it.row = in // pass the row through: this operator writes only its own slots
			it.from = from
			it.path = it.path[:0]
			it.pending = n.min == 0 && n.max >= 0
			if n.max > 0 && n.min <= n.max {
				it.stack = append(it.stack[:0], it.frame(ec, from, false))
			}
			continue // nothing to do (an empty range) fetches the next row
		}
		if it.pending {
			it.pending = false
			if it.n.accepts(g, it.row, it.from) {
				return it.emit(it.from), nil
			}
			continue
		}
		top := &it.stack[len(it.stack)-1]
		if top.pos >= len(top.edges) {
			if n.dir == DirBoth && top.phase == 0 {
				top.phase, top.pos, top.edges = 1, 0, g.In(top.node)
				continue
			}
			if top.via {
				it.path = it.path[:len(it.path)-1]
			}
			it.stack = it.stack[:len(it.stack)-1]
			continue
		}
		e := top.edges[top.pos]
		top.pos++
		if err := ec.tick(); err != nil {
			return nil, err
		}
		if !n.types.has(e.Type) {
			continue
		}
		incoming := n.dir == DirIn || top.phase == 1
		if incoming && n.dir == DirBoth && e.To == top.node {
			continue
		}
		var rel Value
		if incoming {
			rel = relValue(g, e.To, top.node, e)
		} else {
			rel = relValue(g, top.node, e.To, e)
		}
		if !it.unique(rel) {
			continue
		}
		it.path = append(it.path, rel)
		depth := len(it.path)
		var out []Value
		if depth >= n.min && it.n.accepts(g, it.row, e.To) {
			out = it.emit(e.To)
		}
		if depth < n.max {
			it.stack = append(it.stack, it.frame(ec, e.To, true))
		} else {
			it.path = it.path[:depth-1]
		}
		if out != nil {
			return out, nil
		}
	}
}

func (it *varExpandIter) unique(rel Value) bool {
	k := rel.relKey()
	for _, r := range it.path {
		if r.relKey() == k {
			return false
		}
	}
	return relUnique(it.row, rel, it.n.uniq, it.n.uniqLists)
}

func (it *varExpandIter) emit(to memgraph.NodeID) []Value {
	n := it.n
	if n.needList {
		l := make([]Value, len(it.path))
		if n.reverse {
			for i, r := range it.path {
				l[len(l)-1-i] = r
			}
		} else {
			copy(l, it.path)
		}
		it.row[n.rel] = ListValue(l)
	}
	it.row[n.to] = NodeValue(to)
	return it.row
}

// accepts reports whether a walk may end at node to: it has one of the
// end's labels, and it is the node the row already binds there when the
// end is bound.
func (n *varExpandNode) accepts(g *memgraph.Graph, row []Value, to memgraph.NodeID) bool {
	if n.toKinds != allKinds && !n.toKinds.has(g.Nodes[to].Kind) {
		return false
	}
	return !n.into || row[n.to].kind == KindNode && row[n.to].Node() == to
}
