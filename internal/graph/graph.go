package graph

import (
	"cmp"
	"slices"
	"strings"
)

// Node is one vertex of the code graph. Lines are 1-based and inclusive.
type Node struct {
	ID            string
	Kind          NodeKind
	Name          string
	QualifiedName string
	FilePath      string // repository-relative, '/'-separated
	StartLine     int
	EndLine       int
	Signature     string
	Doc           string
	Exported      bool
	Language      string
	Content       string
}

// Edge is one directed relationship between two nodes, by id.
type Edge struct {
	Src, Dst   string
	Type       EdgeType
	Confidence float64
	Reason     Reason
	// Line is the 1-based line in the source's file where the relationship
	// is written (the first call site of a CALLS edge, the import line of an
	// IMPORTS edge); 0 when the edge has no single site.
	Line int
	// More are the further lines where the same relationship is written
	// (a function calling another from three places has Line and two More),
	// ascending, each greater than Line.
	More []int
}

// Graph is a set of nodes and edges under construction. It deduplicates nodes
// by id and edges by (src, dst, type), keeping the most confident edge.
type Graph struct {
	nodes []Node
	// nodeIdx gives each node's slot (the order it was added in), and
	// slotAt each slot's position in nodes: a sort moves the positions in
	// slotAt, one integer a node, and leaves the map alone (rewriting a
	// map of 240,000 ids took 40-60 ms of every sort of the Go standard
	// library's graph).
	nodeIdx map[string]int
	slotAt  []int32
	edges   []Edge
	edgeIdx map[edgeKey]int // nil after Edges sorted the edges, until the next AddEdge
	flows   *Flows          // communities and processes (flows.go)
	history *History
	// nodesSorted and edgesSorted record that Nodes and Edges have sorted
	// the slices and nothing was appended since: the pipeline asks for them
	// several times (summary, communities, store), and sorting 860,000
	// edges again costs about 0.4 s.
	nodesSorted, edgesSorted bool
	// sortedPrefix is how many edges, from the first, were in order after
	// the last sort: edges are only ever appended after it. nodesPrefix is
	// the same for nodes.
	sortedPrefix, nodesPrefix int
	// ends are the node positions of the first sortedPrefix edges' ends
	// (EdgeEnds): what the edge sort found, moved along by every node sort
	// since.
	ends [][2]int32
	// known are the node positions of the ends of the edges from
	// knownAt on, as many as known holds (AppendNewEdgesAt), moved along by
	// every node sort since; -1 for an end not in the graph.
	known   [][2]int32
	knownAt int
}

type edgeKey struct {
	src, dst string
	typ      EdgeType
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{nodeIdx: map[string]int{}, edgeIdx: map[edgeKey]int{}}
}

// NewSized returns an empty graph with room for about this many nodes and
// edges, of which indexed are added with AddEdge (the others with
// AddNewEdge or AppendNewEdges, which need no room in the edge index): a
// re-index knows the size of the graph it rebuilds, and growing the
// slices and indexes to a million edges step by step copied and rehashed
// them about twice over.
func NewSized(nodes, edges, indexed int) *Graph {
	nodes, edges, indexed = max(nodes, 0), max(edges, 0), max(indexed, 0)
	return &Graph{nodes: make([]Node, 0, nodes), nodeIdx: make(map[string]int, nodes), slotAt: make([]int32, 0, nodes),
		edges: make([]Edge, 0, edges), edgeIdx: make(map[edgeKey]int, indexed)}
}

// Copy returns a new graph with g's nodes and edges (not its flows or
// history): Nodes and Edges sort g's slices in place, and a copy keeps a
// graph apart from what is done to another.
func (g *Graph) Copy() *Graph {
	c := New()
	for _, n := range g.Nodes() {
		c.AddNode(n)
	}
	for _, e := range g.Edges() {
		c.AddNewEdge(e)
	}
	return c
}

// AddNode adds n unless a node with the same id exists; it reports whether n
// was added.
func (g *Graph) AddNode(n Node) bool {
	if _, ok := g.nodeIdx[n.ID]; ok {
		return false
	}
	g.nodeIdx[n.ID] = len(g.slotAt)
	g.slotAt = append(g.slotAt, int32(len(g.nodes)))
	g.nodes = append(g.nodes, n)
	g.nodesSorted = false
	return true
}

// Grow makes room for this many more nodes and edges: the slices grow
// once.
func (g *Graph) Grow(nodes, edges int) {
	g.nodes = slices.Grow(g.nodes, nodes)
	g.edges = slices.Grow(g.edges, edges)
}

// indexEdges (re)builds the edge index with room for size entries.
func (g *Graph) indexEdges(size int) {
	idx := make(map[edgeKey]int, max(size, len(g.edges)))
	for i := range g.edges {
		e := &g.edges[i]
		idx[edgeKey{e.Src, e.Dst, e.Type}] = i
	}
	g.edgeIdx = idx
}

// HasNode reports whether a node with this id exists.
func (g *Graph) HasNode(id string) bool {
	_, ok := g.nodeIdx[id]
	return ok
}

// Node returns the node with this id.
func (g *Graph) Node(id string) (Node, bool) {
	i, ok := g.Position(id)
	if !ok {
		return Node{}, false
	}
	return g.nodes[i], true
}

// Position returns where the node with this id is in the slice the last
// call of Nodes returned.
func (g *Graph) Position(id string) (int, bool) {
	s, ok := g.nodeIdx[id]
	if !ok {
		return 0, false
	}
	return int(g.slotAt[s]), true
}

// AddEdge adds e. When an edge with the same (src, dst, type) exists, the
// two merge: the higher confidence (and its reason) wins, and the site lines
// of both are kept, the first in Line and the others in More.
func (g *Graph) AddEdge(e Edge) {
	if g.edgeIdx == nil {
		g.indexEdges(0)
	}
	k := edgeKey{e.Src, e.Dst, e.Type}
	if i, ok := g.edgeIdx[k]; ok {
		old := &g.edges[i]
		if e.Confidence > old.Confidence {
			old.Confidence, old.Reason = e.Confidence, e.Reason
		}
		old.addLine(e.Line)
		for _, l := range e.More {
			old.addLine(l)
		}
		return
	}
	e.sortLines()
	g.edgeIdx[k] = len(g.edges)
	g.edges = append(g.edges, e)
	g.edgesSorted = false
}

// AddNewEdge adds e, whose (src, dst, type) no edge of the graph has: the
// caller knows it is new (a symbol's MEMBER_OF edge to its one community,
// a step of a trace, a commit's own history edges), so it is appended
// without a lookup. After a sort the edge index is left
// to be rebuilt, and rebuilding it for 860,000 edges to add 150,000
// membership edges cost 0.3 s on the Go standard library.
func (g *Graph) AddNewEdge(e Edge) {
	e.sortLines()
	if g.edgeIdx != nil {
		g.edgeIdx[edgeKey{e.Src, e.Dst, e.Type}] = len(g.edges)
	}
	g.edges = append(g.edges, e)
	g.edgesSorted = false
}

// AppendNewEdges adds edges that no edge of the graph has the (src, dst,
// type) of, nor each other, with their lines in order (as Edges gives
// them): a re-index copies the index's edges of the files it did not
// resolve again. They are appended without a lookup, and the edge index
// is dropped (AddEdge rebuilds it when it next runs).
func (g *Graph) AppendNewEdges(es []Edge) {
	if len(es) == 0 {
		return
	}
	g.edges = append(g.edges, es...)
	g.edgeIdx = nil
	g.edgesSorted = false
}

// AppendNewEdgesAt is AppendNewEdges for edges whose ends' positions in
// the slice Nodes returns are known: ends[i] are es[i]'s, -1 for an end
// that is not in the graph (the edge is then dropped, as Edges drops any
// such edge). The next sort of the edges takes their positions from there
// rather than looking their ids up, and when they come in its order (a
// re-index copies the index's edges, which are), merges them with the
// others rather than sorting them: two thirds of the Go standard
// library's edges. The nodes must be sorted, and no other edges' ends be
// pending; else the ends are not used.
func (g *Graph) AppendNewEdgesAt(es []Edge, ends [][2]int32) {
	if len(es) == 0 {
		return
	}
	if g.nodesSorted && g.known == nil && len(ends) == len(es) {
		g.known, g.knownAt = ends, len(g.edges)
	}
	g.AppendNewEdges(es)
}

// sortLines puts the edge's own site lines in addLine's order, in a slice
// of its own.
func (e *Edge) sortLines() {
	more := e.More
	e.More = nil
	for _, l := range more {
		e.addLine(l)
	}
}

// addLine records one more site line, keeping Line the smallest and More
// ascending without duplicates.
func (e *Edge) addLine(l int) {
	switch {
	case l <= 0 || l == e.Line:
		return
	case e.Line == 0:
		e.Line = l
		return
	case l < e.Line:
		l, e.Line = e.Line, l
	}
	i, found := slices.BinarySearch(e.More, l)
	if !found {
		e.More = slices.Insert(e.More, i, l)
	}
}

// NodeCount and EdgeCount report the sizes.
func (g *Graph) NodeCount() int { return len(g.nodes) }

// EdgeCount reports the number of distinct edges.
func (g *Graph) EdgeCount() int { return len(g.edges) }

// Nodes returns the nodes sorted by id. The slice is owned by the graph.
//
// Nodes and edges are large structs: sorting them in place moved them
// around so much that the two sorts took 1.7 s of an incremental run on
// the Go standard library. A permutation of small keys is sorted instead,
// then applied once.
func (g *Graph) Nodes() []Node {
	if g.nodesSorted {
		return g.nodes
	}
	perm := make([]int32, len(g.nodes))
	for i := range perm {
		perm[i] = int32(i)
	}
	byID := func(a, b int32) int { return strings.Compare(g.nodes[a].ID, g.nodes[b].ID) }
	if p := g.nodesPrefix; p > 0 && p <= len(perm) {
		// The nodes sorted last time are still in order: sort the ones
		// added since and merge (the pipeline adds communities, processes
		// and the history after the code's nodes were sorted).
		perm = mergeSorted(perm, p, byID)
	} else {
		perm = sortFunc(perm, byID)
	}
	// Where each node goes: the slots and the sorted edges' ends move
	// with their nodes.
	at := make([]int32, len(perm))
	for k, old := range perm {
		at[old] = int32(k)
	}
	for s, p := range g.slotAt {
		g.slotAt[s] = at[p]
	}
	for i := range g.ends {
		g.ends[i] = [2]int32{at[g.ends[i][0]], at[g.ends[i][1]]}
	}
	for i, e := range g.known {
		if e[0] >= 0 && e[1] >= 0 {
			g.known[i] = [2]int32{at[e[0]], at[e[1]]}
		}
	}
	permuteMerged(g.nodes, perm, g.nodesPrefix)
	g.nodesSorted = true
	g.nodesPrefix = len(g.nodes)
	return g.nodes
}

// Edges returns the edges sorted by (src, type, dst). Edges whose endpoints
// are missing are dropped first, so the result is always consistent.
func (g *Graph) Edges() []Edge {
	if g.edgesSorted {
		return g.edges // no edge came since; nodes are never removed
	}
	g.Nodes() // node positions are in id order: edges sort by them
	kept := g.edges[:0]
	// Source and destination positions of the kept edges: the sorted
	// ones' are known (ends), the others' looked up (two map lookups an
	// edge, 0.3 s on the Go standard library's million edges).
	pos := make([][2]int32, 0, len(g.edges))
	if p := g.sortedPrefix; p > 0 && p == len(g.ends) && p <= len(g.edges) {
		pos = append(pos, g.ends...)
		kept = g.edges[:p]
	}
	rest := g.edges[len(kept):]
	base := len(kept)                 // rest[i] is g.edges[base+i]
	at := make([][2]int32, len(rest)) // -1: the end is missing
	lookup := func(from, to int) {
		for i := from; i < to; i++ {
			if k := base + i - g.knownAt; k >= 0 && k < len(g.known) {
				if e := g.known[k]; e[0] >= 0 && e[1] >= 0 {
					at[i] = e
				} else {
					at[i] = [2]int32{-1, -1}
				}
				continue
			}
			src, ok1 := g.Position(rest[i].Src)
			dst, ok2 := g.Position(rest[i].Dst)
			if !ok1 || !ok2 {
				src = -1
			}
			at[i] = [2]int32{int32(src), int32(dst)}
		}
	}
	if len(rest) < parallelMin {
		lookup(0, len(rest))
	} else {
		// Two cores read the index at once: nothing writes it meanwhile.
		done := make(chan struct{})
		go func() {
			defer close(done)
			lookup(0, len(rest)/2)
		}()
		lookup(len(rest)/2, len(rest))
		<-done
	}
	// The kept edges whose ends were known are kept[knownFrom:knownTo]:
	// those of rest[first:last+1].
	knownFrom, knownTo := -1, -1
	first, last := g.knownAt-base, g.knownAt-base+len(g.known)-1
	for i := range rest {
		if i == first {
			knownFrom = len(kept)
		}
		if at[i][0] >= 0 {
			pos = append(pos, at[i])
			kept = append(kept, rest[i])
		}
		if i == last && knownFrom >= 0 {
			knownTo = len(kept)
		}
	}
	g.known, g.knownAt = nil, 0
	g.edges = kept
	perm := make([]int32, len(kept))
	if len(g.nodes) < 1<<24 {
		// One integer per edge: source position, type and destination
		// position in 24, 8 and 32 bits.
		type key struct {
			k    uint64
			edge int32
		}
		keys := make([]key, len(kept))
		for i := range kept {
			keys[i] = key{uint64(pos[i][0])<<40 | uint64(kept[i].Type)<<32 | uint64(pos[i][1]), int32(i)}
		}
		byKey := func(a, b key) int { return cmp.Compare(a.k, b.k) }
		p := g.sortedPrefix
		if p <= 0 || p > len(keys) {
			p = 0
		}
		if knownFrom >= p && knownTo > knownFrom && slices.IsSortedFunc(keys[knownFrom:knownTo], byKey) {
			// The edges whose ends were known came in order: the others
			// are sorted and the runs merged.
			others := slices.Concat(keys[p:knownFrom], keys[knownTo:])
			merged := mergeRuns(keys[knownFrom:knownTo], sortFunc(others, byKey), byKey)
			if p > 0 {
				merged = mergeRuns(keys[:p], merged, byKey)
			}
			keys = merged
		} else if p > 0 {
			// The edges sorted last time are still in order (nodes added
			// since keep the order of the others): sort the ones added
			// after them and merge.
			keys = mergeSorted(keys, p, byKey)
		} else {
			keys = sortFunc(keys, byKey)
		}
		for i, k := range keys {
			perm[i] = k.edge
		}
	} else {
		for i := range perm {
			perm[i] = int32(i)
		}
		slices.SortFunc(perm, func(a, b int32) int {
			return cmp.Or(cmp.Compare(pos[a][0], pos[b][0]), cmp.Compare(kept[a].Type, kept[b].Type), cmp.Compare(pos[a][1], pos[b][1]))
		})
	}
	g.ends = make([][2]int32, len(perm))
	for i, p := range perm {
		g.ends[i] = pos[p]
	}
	if knownTo == len(kept) && knownFrom > 0 && g.sortedPrefix <= 0 {
		permuteMergedSuffix(g.edges, perm, knownFrom) // consumes perm
	} else {
		permuteMerged(g.edges, perm, g.sortedPrefix) // consumes perm
	}
	// The index is made again only when an edge comes: the pipeline adds
	// none after the store asks for them (0.25 s on the Go standard library).
	g.edgeIdx = nil
	g.edgesSorted = true
	g.sortedPrefix = len(g.edges)
	return g.edges
}

// EdgeEnds returns, for each edge of Edges, the positions of its source
// and destination in Nodes: what a sort of the edges finds anyway, and
// two map lookups per edge for whoever needs them after (0.2 s on the Go
// standard library for each).
func (g *Graph) EdgeEnds() [][2]int32 {
	g.Nodes() // nodes that came after the edges were sorted move the ends
	g.Edges()
	return g.ends
}
