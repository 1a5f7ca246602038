package cypher

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// shortestPathNode is shortestPath(...) or allShortestPaths(...) between
// two bound nodes: for each input row, the shortest paths from the left
// end to the right end as written (see shortest_search.go for the search
// and plan_shortest.go for the predicates it checks).
type shortestPathNode struct {
	input            planNode
	sel              Shortest
	from, to         int // slots of the left and right ends
	fromName, toName string
	fromPos, toPos   Pos
	dir              Direction // as written: DirOut is left → right
	types            edgeSet
	min, max         int
	rel              int  // the relationship slot
	list             bool // the relationship slot holds a list (variable length)
	path             int  // the path slot, -1 when the path is not named
	hopFilters       []*searchFilter
	nodeFilters      []*searchFilter
	pathFilters      []*cexpr // checked on whole paths, shortest first
	uniq, uniqLists  []int    // relationships of the same MATCH the path must avoid
	text             string
}

func (n *shortestPathNode) inputs() []planNode { return []planNode{n.input} }

func (n *shortestPathNode) describe() string {
	op := "ShortestPath"
	if n.sel == ShortestAll {
		op = "AllShortestPaths"
	}
	s := op + " " + n.text
	var during []string
	for _, f := range n.hopFilters {
		during = append(during, f.src.String())
	}
	for _, f := range n.nodeFilters {
		during = append(during, f.src.String())
	}
	if len(during) > 0 {
		s += "; in the search: " + strings.Join(during, ", ")
	}
	if len(n.pathFilters) > 0 {
		s += "; on whole paths, shortest first: " + joinExprs(n.pathFilters)
	}
	return s
}

func (n *shortestPathNode) subplans() []planNode {
	var out []planNode
	for _, f := range n.hopFilters {
		out = append(out, f.pred.sub...)
	}
	for _, f := range n.nodeFilters {
		out = append(out, f.pred.sub...)
	}
	return append(out, subplansOf(n.pathFilters...)...)
}

func (n *shortestPathNode) open(ec *execCtx, arg []Value) iterator {
	return &shortestIter{n: n, in: n.input.open(ec, arg)}
}

type shortestIter struct {
	n      *shortestPathNode
	in     iterator
	row    []Value
	search pathSearch
	active bool
}

func (it *shortestIter) next(ec *execCtx) ([]Value, error) {
	n := it.n
	for {
		if !it.active {
			in, err := it.in.next(ec)
			if in == nil || err != nil {
				return nil, err
			}
			a, ok, err := endNode(in[n.from], n.fromName, n.fromPos)
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			b, ok, err := endNode(in[n.to], n.toName, n.toPos)
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			it.row = in // pass the row through: this operator writes only its own slots
			it.search.start(ec, n, in, a, b)
			it.active = true
		}
		rels, nodes, ok, err := it.search.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			it.search.finish()
			it.active = false
			continue
		}
		n.bind(it.row, rels, nodes)
		return it.row, nil
	}
}

// bind writes a path found by the search into the row: the relationship
// (a list for a variable-length pattern) and the named path.
func (n *shortestPathNode) bind(row []Value, rels []Value, nodes []memgraph.NodeID) {
	if n.list {
		row[n.rel] = ListValue(rels)
	} else {
		row[n.rel] = rels[0]
	}
	if n.path >= 0 {
		row[n.path] = PathValue(&Path{Nodes: nodes, Rels: rels})
	}
}

// endNode reads an end of a shortest path: ok is false for null, an
// error for anything but a node.
func endNode(v Value, name string, pos Pos) (memgraph.NodeID, bool, error) {
	switch v.kind {
	case KindNode:
		return v.Node(), true, nil
	case KindNull:
		return 0, false, nil
	}
	return 0, false, typeErr(pos, "`%s` is used as a node in a pattern but holds a value of type %s", name, typeName(v))
}
