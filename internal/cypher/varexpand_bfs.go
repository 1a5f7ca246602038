package cypher

import (
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Variable-length patterns enumerate trails: one row per path. From a node
// that calls an interface method with many implementations, `*1..3`
// enumerates hundreds of thousands of paths that end at a few hundred
// nodes (bufio.Writer.Flush in the Go standard library: 325,981 paths, 797
// ends). When the consumer ignores duplicate rows — DISTINCT, aggregates
// that are all DISTINCT or min/max, EXISTS and pattern predicates — and
// nothing reads the relationships, the rows of one input row differ only
// in the path taken, so the planner marks the expansion to find each end
// once, breadth first. That is exact for directed expansions from one hop
// (min ≤ 1): a node reachable by a walk of length ≤ max is reachable by a
// shortest path, which is a trail; the start node itself is an end when a
// cycle leads back to it, and the shortest such cycle is a trail too.

// enumerateAllPaths turns the optimisation off (tests compare both).
var enumerateAllPaths = false

// markDistinctEnds marks the variable-length expansions below a consumer
// that ignores duplicates, through the operators that map each input row
// to the same outputs every time.
func markDistinctEnds(n planNode) {
	switch n := n.(type) {
	case *varExpandNode:
		if !n.needList && n.dir != DirBoth && n.min <= 1 && n.min <= n.max && !enumerateAllPaths {
			n.distinctEnds = true
		}
		markDistinctEnds(n.input)
	case *filterNode:
		markDistinctEnds(n.input)
	case *projectNode:
		markDistinctEnds(n.input)
	case *expandNode:
		markDistinctEnds(n.input)
	case *nodeScanNode:
		markDistinctEnds(n.input)
	case *unwindNode:
		markDistinctEnds(n.input)
	case *optionalNode:
		markDistinctEnds(n.inner)
		markDistinctEnds(n.input)
	}
}

// reachIter yields, for each input row, every node the expansion reaches
// once: breadth first, each level in frontier order and adjacency order.
type reachIter struct {
	n         *varExpandNode
	in        iterator
	row       []Value
	from      memgraph.NodeID
	active    bool
	pending   bool // the zero-hop match (min 0) is still due
	startDone bool // the start node was reached back through a cycle
	depth     int
	frontier  []memgraph.NodeID
	upcoming  []memgraph.NodeID
	fi        int
	edges     []memgraph.Edge
	ei        int
	visited   map[memgraph.NodeID]struct{}
}

func (it *reachIter) next(ec *execCtx) ([]Value, error) {
	n, g := it.n, ec.g
	for {
		if !it.active {
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
			if it.visited == nil {
				it.visited = map[memgraph.NodeID]struct{}{}
			}
			it.row = in // pass the row through: this operator writes only its own slots
			clear(it.visited)
			it.visited[from] = struct{}{}
			it.from, it.active, it.depth = from, true, 1
			it.pending, it.startDone = n.min == 0, n.min == 0
			it.frontier = append(it.frontier[:0], from)
			it.upcoming, it.fi, it.edges, it.ei = it.upcoming[:0], 0, nil, 0
		}
		if it.pending {
			it.pending = false
			if it.n.accepts(g, it.row, it.from) {
				return it.emit(it.from), nil
			}
			continue
		}
		if it.ei < len(it.edges) {
			e := it.edges[it.ei]
			it.ei++
			if err := ec.tick(); err != nil {
				return nil, err
			}
			if !n.types.has(e.Type) {
				continue
			}
			to := e.To
			if to == it.from {
				if !it.startDone {
					it.startDone = true
					if it.n.accepts(g, it.row, to) {
						return it.emit(to), nil
					}
				}
				continue
			}
			if _, seen := it.visited[to]; seen {
				continue
			}
			it.visited[to] = struct{}{}
			it.upcoming = append(it.upcoming, to)
			if it.n.accepts(g, it.row, to) {
				return it.emit(to), nil
			}
			continue
		}
		if it.fi < len(it.frontier) {
			node := it.frontier[it.fi]
			it.fi++
			if n.dir == DirIn {
				it.edges = g.In(node)
			} else {
				it.edges = g.Out(node)
			}
			it.ei = 0
			continue
		}
		it.depth++
		if it.depth > n.max || len(it.upcoming) == 0 {
			it.active = false
			continue
		}
		it.frontier, it.upcoming = it.upcoming, it.frontier[:0]
		it.fi, it.edges, it.ei = 0, nil, 0
	}
}

func (it *reachIter) emit(to memgraph.NodeID) []Value {
	it.row[it.n.to] = NodeValue(to)
	return it.row
}
