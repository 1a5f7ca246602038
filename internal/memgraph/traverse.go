package memgraph

import (
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Direction of a traversal.
type Direction uint8

// Directions: Outgoing follows edges from source to target (callees),
// Incoming from target to source (callers).
const (
	Outgoing Direction = iota
	Incoming
)

// Defaults and caps for traversals.
const (
	DefaultLimit = 100
	MaxDepth     = 10
)

// WalkOptions bound a traversal.
type WalkOptions struct {
	Direction     Direction
	Types         []graph.EdgeType // edge types to follow; empty follows all
	MaxDepth      int              // 1 when 0; capped at MaxDepth
	MinConfidence float32
	Limit         int // results, DefaultLimit when 0
	// Skip, when set, leaves nodes out of the walk: they are neither
	// listed nor walked through.
	Skip func(NodeID) bool
}

// Hit is one node reached by a walk, with the edge that first reached it.
type Hit struct {
	Node  NodeID
	Depth int
	From  NodeID
	Via   Edge
}

// WalkResult is what a walk found. Truncated says the limit cut it short;
// Depth is the deepest level reached.
type WalkResult struct {
	Hits      []Hit
	Truncated bool
	Depth     int
}

// Walk runs a breadth-first traversal from start, one depth level at a
// time, visiting each node once. Hits come in discovery order: by level,
// then by the order of the frontier, then by adjacency order (edges are
// stored sorted by source id), so results are deterministic and a walk
// stops as soon as the limit is reached, however large a hub's fan-in.
func (g *Graph) Walk(start []NodeID, opt WalkOptions) WalkResult {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 1
	}
	if opt.MaxDepth > MaxDepth {
		opt.MaxDepth = MaxDepth
	}
	if opt.Limit <= 0 {
		opt.Limit = DefaultLimit
	}
	var follow [256]bool // by EdgeType (a uint8)
	for _, t := range opt.Types {
		follow[t] = true
	}
	all := len(opt.Types) == 0
	visited := NewNodeSet(g.Len())
	for _, s := range start {
		visited.Add(s)
	}
	var res WalkResult
	frontier := append([]NodeID(nil), start...)
	for depth := 1; depth <= opt.MaxDepth && len(frontier) > 0; depth++ {
		levelStart := len(res.Hits)
		for _, n := range frontier {
			edges := g.Out(n)
			if opt.Direction == Incoming {
				edges = g.In(n)
			}
			for _, e := range edges {
				if (!all && !follow[e.Type]) || e.Confidence < opt.MinConfidence {
					continue
				}
				if visited.Has(e.To) || (opt.Skip != nil && opt.Skip(e.To)) {
					continue
				}
				if len(res.Hits) == opt.Limit {
					res.Truncated = true
					return res
				}
				visited.Add(e.To)
				res.Hits = append(res.Hits, Hit{Node: e.To, Depth: depth, From: n, Via: e})
				res.Depth = depth
			}
		}
		frontier = frontier[:0]
		for _, h := range res.Hits[levelStart:] {
			frontier = append(frontier, h.Node)
		}
	}
	return res
}

// Levels splits a walk's hits, which come level by level, into one slice
// per depth (1 first).
func (r *WalkResult) Levels() [][]Hit {
	var out [][]Hit
	for i := 0; i < len(r.Hits); {
		j := i + 1
		for j < len(r.Hits) && r.Hits[j].Depth == r.Hits[i].Depth {
			j++
		}
		out = append(out, r.Hits[i:j])
		i = j
	}
	return out
}

// NodeSet is a set of nodes as a bitset: a walk's visited set without
// hashing.
type NodeSet []uint64

// NewNodeSet returns an empty set for a graph of n nodes.
func NewNodeSet(n int) NodeSet { return make(NodeSet, (n+63)/64) }

// Has reports whether n is in the set.
func (s NodeSet) Has(n NodeID) bool { return s[n/64]&(1<<(n%64)) != 0 }

// Add puts n in the set.
func (s NodeSet) Add(n NodeID) { s[n/64] |= 1 << (n % 64) }

// Step is one edge of a path.
type Step struct {
	From, To NodeID
	Via      Edge
}

// ShortestPath finds a shortest path from a to b following edges of the
// given types (all when empty) in the given direction, up to maxDepth
// edges. It returns nil when there is none within the bound.
func (g *Graph) ShortestPath(a, b NodeID, dir Direction, types []graph.EdgeType, maxDepth int) []Step {
	if maxDepth <= 0 || maxDepth > MaxDepth {
		maxDepth = MaxDepth
	}
	if a == b {
		return []Step{}
	}
	var follow [256]bool // by EdgeType (a uint8)
	for _, t := range types {
		follow[t] = true
	}
	all := len(types) == 0
	parent := map[NodeID]Step{a: {From: a, To: a}}
	frontier := []NodeID{a}
	for depth := 0; depth < maxDepth && len(frontier) > 0; depth++ {
		var next []NodeID
		for _, n := range frontier {
			edges := g.Out(n)
			if dir == Incoming {
				edges = g.In(n)
			}
			for _, e := range edges {
				if !all && !follow[e.Type] {
					continue
				}
				if _, seen := parent[e.To]; seen {
					continue
				}
				parent[e.To] = Step{From: n, To: e.To, Via: e}
				if e.To == b {
					var path []Step
					for cur := b; cur != a; cur = parent[cur].From {
						path = append(path, parent[cur])
					}
					slices.Reverse(path)
					return path
				}
				next = append(next, e.To)
			}
		}
		frontier = next
	}
	return nil
}

// Subgraph is the nodes of one file and every edge touching them.
type Subgraph struct {
	Nodes []NodeID
	Edges []Step
}

// FileSubgraph returns the nodes of a file (sorted by line) and the edges
// that start or end at them, outgoing first.
func (g *Graph) FileSubgraph(path string) Subgraph {
	nodes := g.InFile(path)
	sg := Subgraph{Nodes: nodes}
	in := make(map[NodeID]bool, len(nodes))
	for _, n := range nodes {
		in[n] = true
	}
	for _, n := range nodes {
		for _, e := range g.Out(n) {
			sg.Edges = append(sg.Edges, Step{From: n, To: e.To, Via: e})
		}
	}
	for _, n := range nodes {
		for _, e := range g.In(n) {
			if !in[e.To] {
				sg.Edges = append(sg.Edges, Step{From: e.To, To: n, Via: e})
			}
		}
	}
	return sg
}

// Find resolves a user's reference to symbols: an exact node id, a
// qualified name ("http.Server.Serve" or a dotted suffix of one such as
// "Server.Serve"), or a simple name. Only code symbols are returned,
// sorted by id.
func (g *Graph) Find(ref string) []NodeID {
	if n, ok := g.byID[ref]; ok {
		return []NodeID{n}
	}
	var out []NodeID
	if strings.Contains(ref, ".") {
		last := ref[strings.LastIndexByte(ref, '.')+1:]
		for _, n := range g.byName[last] {
			q := g.Nodes[n].QualifiedName
			if g.Nodes[n].Kind.IsSymbol() && (q == ref || strings.HasSuffix(q, "."+ref)) {
				out = append(out, n)
			}
		}
		if len(out) > 0 {
			slices.Sort(out)
			return out
		}
	}
	for _, n := range g.byName[ref] {
		if g.Nodes[n].Kind.IsSymbol() {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
