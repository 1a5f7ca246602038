package memgraph

import "gitnexus.dev/gitnexus/internal/graph"

// EdgeIndex returns the position of the edge src → dst of type t among
// all edges in outgoing order (0 ≤ index < EdgeCount), and whether it
// exists. The graph holds at most one edge per (src, dst, type), so the
// index identifies a relationship; it is stable for one loaded index.
func (g *Graph) EdgeIndex(src, dst NodeID, t graph.EdgeType) (int, bool) {
	if int(src) >= len(g.Nodes) {
		return 0, false
	}
	for i, e := range g.Out(src) {
		if e.To == dst && e.Type == t {
			return int(g.outOff[src]) + i, true
		}
	}
	return 0, false
}
