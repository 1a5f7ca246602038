package cypher

import (
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The search behind shortestPath(...) and allShortestPaths(...), for one
// pair of ends a (left, as written) and b (right).
//
// 1. The length: a breadth-first search from both ends at once, one whole
//    level at a time, always on the side whose frontier has fewer edges to
//    follow. The first level on which the two sides meet gives the length
//    d, and the nodes where they met. On 200 pairs of callables of the Go
//    standard library three or four calls apart (BenchmarkShortestPath,
//    868,846 edges), the median query takes 74 µs against 231 µs searching
//    from a alone; the same pairs reversed, mostly without a path, 26 µs
//    against 67 µs, and at the 99th percentile 95 µs against 4.7 ms: a
//    function called from everywhere is reached, not searched from.
// 2. The paths: from the meeting nodes, back towards a over nodes the
//    first side reached one level earlier, and on towards b over nodes the
//    second side reached one level nearer to b, marks every node of every
//    shortest path with its position. A walk from a in adjacency order
//    over marked nodes, one position at a time, then finds each shortest
//    path once, without a dead end: shortestPath returns the first
//    (smallest relationship types, then node ids, hop by hop from a, since
//    that is the order of the adjacency lists), allShortestPaths all of
//    them in that order.
// 3. With predicates on whole paths (plan_shortest.go), the paths are
//    trails enumerated from a in increasing length from d, a hop followed
//    only when b is still reachable in the hops left (the second side's
//    search, continued as deep as needed, gives that distance); the first
//    length with a path that satisfies them ends the search.
//
// Predicates on each hop or node, and the relationships the rest of the
// MATCH bound, restrict what every step follows, so the search stays
// breadth first. Every edge looked at is a step of work; every node
// reached holds visitBytes of the query's memory until the pair is done.
// A pair of equal ends has only the path of length zero, when the
// minimum is 0 (Neo4j refuses such a pair unless configured to skip it;
// we skip it), so a Cartesian product of candidates never fails.

// visitBytes is the memory one reached node holds: its entry in a
// distance map and in a frontier.
const visitBytes = 40

// bfsSide is one side of the search: the distance of every node within
// depth hops of root.
type bfsSide struct {
	root     memgraph.NodeID
	forward  bool // follows the pattern's direction (from a), else against it (from b)
	dist     map[memgraph.NodeID]int32
	frontier []memgraph.NodeID
	next     []memgraph.NodeID
	cost     int // edges the frontier would follow
	depth    int
}

func (s *bfsSide) reset(root memgraph.NodeID, forward bool) {
	if s.dist == nil {
		s.dist = map[memgraph.NodeID]int32{}
	}
	clear(s.dist)
	s.root, s.forward, s.depth = root, forward, 0
	s.dist[root] = 0
	s.frontier = append(s.frontier[:0], root)
	s.cost = 0
}

// walkFrame is a node of the walk and where it is in its adjacency.
type walkFrame struct {
	node  memgraph.NodeID
	lists [2][]memgraph.Edge
	inc   [2]bool
	li    int
	pos   int
}

// pathSearch is the search for one input row.
type pathSearch struct {
	n    *shortestPathNode
	ec   *execCtx
	row  []Value
	a, b memgraph.NodeID
	fwd  bfsSide
	bwd  bfsSide
	held int64

	state  int
	dist   int                       // the shortest length
	onPath map[memgraph.NodeID]int32 // nodes of shortest paths by position
	length int                       // the length the walk enumerates
	trails bool                      // the walk enumerates trails (path predicates)
	found  int
	frames []walkFrame
	rels   []Value
	nodes  []memgraph.NodeID
}

const (
	searchStart = iota
	searchWalk
	searchDone
)

func (s *pathSearch) start(ec *execCtx, n *shortestPathNode, row []Value, a, b memgraph.NodeID) {
	if s.held > 0 {
		s.ec.release(s.held)
	}
	s.ec, s.n, s.row, s.a, s.b = ec, n, row, a, b
	s.state, s.found, s.held = searchStart, 0, 0
}

// finish gives back the memory of the pair.
func (s *pathSearch) finish() {
	s.ec.release(s.held)
	s.held = 0
	s.state = searchDone
}

func (s *pathSearch) hold(k int) error {
	w := int64(k) * visitBytes
	s.held += w
	return s.ec.hold(w, s.n.sel.String()+"(...)")
}

// next returns the next path of the pair: its relationships and nodes
// from a to b (fresh slices), or ok false when there is none.
func (s *pathSearch) next() (rels []Value, nodes []memgraph.NodeID, ok bool, err error) {
	for {
		switch s.state {
		case searchDone:
			return nil, nil, false, nil
		case searchStart:
			s.state = searchDone
			if s.a == s.b {
				return s.zeroLength()
			}
			if s.n.max < 1 || s.n.min > s.n.max {
				continue
			}
			for _, end := range []memgraph.NodeID{s.a, s.b} {
				if ok, err := s.nodeAllowed(end); !ok || err != nil {
					return nil, nil, false, err
				}
			}
			met, err := s.meet()
			if err != nil || met == nil {
				return nil, nil, false, err
			}
			s.dist = s.fwd.depth + s.bwd.depth
			s.length = s.dist
			s.trails = len(s.n.pathFilters) > 0
			if s.trails {
				if err := s.deepen(s.length - 1); err != nil {
					return nil, nil, false, err
				}
			} else if err := s.mark(met); err != nil {
				return nil, nil, false, err
			}
			s.startWalk()
			s.state = searchWalk
		case searchWalk:
			rels, nodes, ok, err := s.walk()
			if err != nil {
				return nil, nil, false, err
			}
			if !ok {
				s.state = searchDone
				if s.trails && s.found == 0 && s.length < s.n.max {
					// No path of this length satisfies the predicates: try
					// one hop longer.
					s.length++
					if err := s.deepen(s.length - 1); err != nil {
						return nil, nil, false, err
					}
					s.startWalk()
					s.state = searchWalk
				}
				continue
			}
			if s.trails {
				keep, err := s.pathAllowed(rels, nodes)
				if err != nil {
					return nil, nil, false, err
				}
				if !keep {
					continue
				}
			}
			s.found++
			if s.n.sel == ShortestOne {
				s.state = searchDone
			}
			return rels, nodes, true, nil
		}
	}
}

// zeroLength is the one path between equal ends: a itself, when the
// minimum length is 0 and it satisfies the predicates.
func (s *pathSearch) zeroLength() ([]Value, []memgraph.NodeID, bool, error) {
	if s.n.min > 0 {
		return nil, nil, false, nil
	}
	ok, err := s.nodeAllowed(s.a)
	if !ok || err != nil {
		return nil, nil, false, err
	}
	rels, nodes := []Value{}, []memgraph.NodeID{s.a}
	if len(s.n.pathFilters) > 0 {
		if ok, err := s.pathAllowed(rels, nodes); !ok || err != nil {
			return nil, nil, false, err
		}
	}
	return rels, nodes, true, nil
}

// pathAllowed binds a whole path in the row and checks the path
// predicates.
func (s *pathSearch) pathAllowed(rels []Value, nodes []memgraph.NodeID) (bool, error) {
	if !s.n.list && len(rels) == 0 {
		return false, nil
	}
	s.n.bind(s.row, rels, nodes)
	for _, p := range s.n.pathFilters {
		ok, err := truth(s.ec, p, s.row)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// meet runs the two-sided breadth-first search until the sides meet,
// and returns the nodes where they met (nil: no path within the maximum
// length).
func (s *pathSearch) meet() ([]memgraph.NodeID, error) {
	s.fwd.reset(s.a, true)
	s.bwd.reset(s.b, false)
	if err := s.hold(2); err != nil {
		return nil, err
	}
	s.fwd.cost = s.adjacencyLen(s.a, true)
	s.bwd.cost = s.adjacencyLen(s.b, false)
	for s.fwd.depth+s.bwd.depth < s.n.max {
		if len(s.fwd.frontier) == 0 || len(s.bwd.frontier) == 0 {
			return nil, nil
		}
		side, other := &s.fwd, &s.bwd
		if s.bwd.cost < s.fwd.cost {
			side, other = other, side
		}
		met, err := s.expand(side, other)
		if err != nil || len(met) > 0 {
			return met, err
		}
	}
	return nil, nil
}

// deepen continues the second side's search until it knows every node
// within depth hops of b (or has reached all it can).
func (s *pathSearch) deepen(depth int) error {
	for s.bwd.depth < depth && len(s.bwd.frontier) > 0 {
		if _, err := s.expand(&s.bwd, nil); err != nil {
			return err
		}
	}
	return nil
}

// expand follows one level of side; met lists the nodes it reached that
// other had reached.
func (s *pathSearch) expand(side, other *bfsSide) (met []memgraph.NodeID, err error) {
	d := int32(side.depth + 1)
	side.next = side.next[:0]
	cost := 0
	for _, u := range side.frontier {
		lists, inc := s.n.adjacency(s.ec.g, u, side.forward)
		for li, edges := range lists {
			for _, e := range edges {
				if err := s.ec.tick(); err != nil {
					return nil, err
				}
				if _, seen := side.dist[e.To]; seen {
					continue
				}
				if _, ok, err := s.follow(u, e, inc[li]); !ok || err != nil {
					if err != nil {
						return nil, err
					}
					continue
				}
				side.dist[e.To] = d
				side.next = append(side.next, e.To)
				cost += s.adjacencyLen(e.To, side.forward)
				if other != nil {
					if _, ok := other.dist[e.To]; ok {
						met = append(met, e.To)
					}
				}
			}
		}
	}
	if err := s.hold(len(side.next)); err != nil {
		return nil, err
	}
	side.frontier, side.next = side.next, side.frontier
	side.cost = cost
	side.depth++
	return met, nil
}

// mark records the position of every node of every shortest path: the
// meeting nodes are at the first side's depth i; a node one position
// nearer a is one the first side reached at the level before, and one
// nearer b one the second side reached at the level before.
func (s *pathSearch) mark(met []memgraph.NodeID) error {
	if s.onPath == nil {
		s.onPath = map[memgraph.NodeID]int32{}
	}
	clear(s.onPath)
	i := int32(s.fwd.depth)
	for _, m := range met {
		s.onPath[m] = i
	}
	if err := s.hold(len(met)); err != nil {
		return err
	}
	var level, prev []memgraph.NodeID
	for dir, sweep := range []struct {
		side *bfsSide
		step int32
	}{{&s.fwd, -1}, {&s.bwd, 1}} {
		level = append(level[:0], met...)
		for pos := i; len(level) > 0; pos += sweep.step {
			prev = prev[:0]
			for _, v := range level {
				// Towards a, follow the edges that reach v from a's side;
				// towards b, the edges the pattern follows from v.
				lists, inc := s.n.adjacency(s.ec.g, v, dir == 1)
				for li, edges := range lists {
					for _, e := range edges {
						if err := s.ec.tick(); err != nil {
							return err
						}
						want := pos + sweep.step
						if dir == 1 {
							want = int32(s.dist) - want // the second side counts from b
						}
						if d, ok := sweep.side.dist[e.To]; !ok || d != want {
							continue
						}
						if _, marked := s.onPath[e.To]; marked {
							continue
						}
						if _, ok, err := s.follow(v, e, inc[li]); !ok || err != nil {
							if err != nil {
								return err
							}
							continue
						}
						s.onPath[e.To] = pos + sweep.step
						prev = append(prev, e.To)
					}
				}
			}
			if err := s.hold(len(prev)); err != nil {
				return err
			}
			level, prev = prev, level
		}
	}
	return nil
}

// startWalk starts the walk from a for paths of s.length hops.
func (s *pathSearch) startWalk() {
	s.frames = s.frames[:0]
	s.rels = s.rels[:0]
	s.nodes = append(s.nodes[:0], s.a)
	s.push(s.a)
}

func (s *pathSearch) push(node memgraph.NodeID) {
	lists, inc := s.n.adjacency(s.ec.g, node, true)
	s.frames = append(s.frames, walkFrame{node: node, lists: lists, inc: inc})
}

// walk returns the next path of s.length hops from a to b, depth first in
// adjacency order: over the marked nodes, a step to the next position;
// over trails, a step from which b is still reachable in the hops left.
func (s *pathSearch) walk() ([]Value, []memgraph.NodeID, bool, error) {
	for len(s.frames) > 0 {
		top := &s.frames[len(s.frames)-1]
		if top.li < len(top.lists) && top.pos >= len(top.lists[top.li]) {
			top.li, top.pos = top.li+1, 0
			continue
		}
		if top.li >= len(top.lists) {
			s.frames = s.frames[:len(s.frames)-1]
			if len(s.rels) > 0 {
				s.rels = s.rels[:len(s.rels)-1]
				s.nodes = s.nodes[:len(s.nodes)-1]
			}
			continue
		}
		e := top.lists[top.li][top.pos]
		top.pos++
		if err := s.ec.tick(); err != nil {
			return nil, nil, false, err
		}
		depth := len(s.frames) // the position of e.To on the path
		if !s.reaches(e.To, depth) {
			continue
		}
		rel, ok, err := s.follow(top.node, e, top.inc[top.li])
		if err != nil {
			return nil, nil, false, err
		}
		if !ok || (s.trails && !s.newOnTrail(rel)) {
			continue
		}
		if depth == s.length {
			if e.To != s.b {
				continue
			}
			rels := append(make([]Value, 0, depth), s.rels...)
			rels = append(rels, rel)
			nodes := append(make([]memgraph.NodeID, 0, depth+1), s.nodes...)
			nodes = append(nodes, e.To)
			return rels, nodes, true, nil
		}
		s.rels = append(s.rels, rel)
		s.nodes = append(s.nodes, e.To)
		s.push(e.To)
	}
	return nil, nil, false, nil
}

// reaches reports whether a path of s.length hops can go on from node w
// at position depth to b.
func (s *pathSearch) reaches(w memgraph.NodeID, depth int) bool {
	if !s.trails {
		pos, ok := s.onPath[w]
		return ok && int(pos) == depth
	}
	d, ok := s.bwd.dist[w]
	return ok && int(d) <= s.length-depth
}

// newOnTrail reports whether rel is not yet on the trail being walked.
func (s *pathSearch) newOnTrail(rel Value) bool {
	k := rel.relKey()
	for _, r := range s.rels {
		if r.relKey() == k {
			return false
		}
	}
	return true
}

// follow checks one edge from u: its type, the relationships of the rest
// of the MATCH, the predicates on each hop, and those on the node it
// leads to. It returns the relationship.
func (s *pathSearch) follow(u memgraph.NodeID, e memgraph.Edge, incoming bool) (Value, bool, error) {
	n := s.n
	if !n.types.has(e.Type) {
		return Value{}, false, nil
	}
	if incoming && n.dir == DirBoth && e.To == u {
		return Value{}, false, nil // a self-loop is followed once, as outgoing
	}
	var rel Value
	if incoming {
		rel = relValue(s.ec.g, e.To, u, e)
	} else {
		rel = relValue(s.ec.g, u, e.To, e)
	}
	if !relUnique(s.row, rel, n.uniq, n.uniqLists) {
		return Value{}, false, nil
	}
	for _, f := range n.hopFilters {
		if ok, err := f.holds(s.ec, s.row, rel); !ok || err != nil {
			return Value{}, false, err
		}
	}
	ok, err := s.nodeAllowed(e.To)
	return rel, ok, err
}

// nodeAllowed checks the predicates on each node of the path.
func (s *pathSearch) nodeAllowed(w memgraph.NodeID) (bool, error) {
	for _, f := range s.n.nodeFilters {
		if ok, err := f.holds(s.ec, s.row, NodeValue(w)); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// holds evaluates the filter for one relationship or node.
func (f *searchFilter) holds(ec *execCtx, row []Value, v Value) (bool, error) {
	row[f.slot] = v
	t, err := evalTri(ec, f.pred, row)
	if err != nil {
		return false, err
	}
	return t == triOf(f.want), nil
}

// adjacency returns the edge lists a search follows from u, with the
// pattern's direction (forward) or against it; inc says which hold
// incoming edges (u is their target, e.To their source).
func (n *shortestPathNode) adjacency(g *memgraph.Graph, u memgraph.NodeID, forward bool) ([2][]memgraph.Edge, [2]bool) {
	switch {
	case n.dir == DirBoth:
		return [2][]memgraph.Edge{g.Out(u), g.In(u)}, [2]bool{false, true}
	case (n.dir == DirOut) == forward:
		return [2][]memgraph.Edge{g.Out(u)}, [2]bool{false}
	}
	return [2][]memgraph.Edge{g.In(u)}, [2]bool{true}
}

// adjacencyLen is the number of edges the search would look at from u.
func (s *pathSearch) adjacencyLen(u memgraph.NodeID, forward bool) int {
	lists, _ := s.n.adjacency(s.ec.g, u, forward)
	return len(lists[0]) + len(lists[1])
}
