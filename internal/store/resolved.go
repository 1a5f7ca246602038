package store

import (
	"math"

	"gitnexus.dev/gitnexus/internal/graph"
)

// ResolvedEdges returns the index's CALLS and REFERENCES edges out of the
// files from accepts (the file of an edge is its source node's), as
// resolution added them, sorted as the snapshot holds them: a re-index
// that resolves only the files an edit can affect copies the others'
// (ingest/resolve.go). The snapshot keeps a confidence as a float32;
// resolution gives every such edge its reason's confidence, which is
// restored. ends are each edge's source and destination by their place in
// the snapshot's nodes (Renumber turns them into a graph's). why is not
// empty when an edge's confidence is not its reason's (the edges cannot
// then be given exactly) and says so.
func (a *Ahead) ResolvedEdges(from func(path string) bool) (edges []graph.Edge, ends [][2]int32, why string) {
	s := a.snap
	// Two passes: the first checks and counts the edges (and their further
	// lines), so that the second writes them into arrays of the right
	// size; growing an array of half a million edges step by step took
	// most of the time.
	kept := make([]bool, len(s.Edges))
	fromFile := make([]int8, len(s.Nodes)) // by node: 0 not asked yet, 1 from a kept file, -1 not
	// Edges come sorted by source and type, so an edge's reason is most
	// often the last one's: the same string, compared at once.
	types := s.edgeTypes()
	var lastReason string
	var conf float64
	n, nMore := 0, 0
	for k := range s.Edges {
		e := &s.Edges[k]
		if typ := types[k]; typ != graph.EdgeCalls && typ != graph.EdgeReferences {
			continue
		}
		f := fromFile[e.Src]
		if f == 0 {
			f = -1
			if from(s.Nodes[e.Src].FilePath) {
				f = 1
			}
			fromFile[e.Src] = f
		}
		if f < 0 {
			continue
		}
		if e.Reason != lastReason || n == 0 {
			lastReason, conf = e.Reason, graph.Reason(e.Reason).Confidence()
		}
		if float32(conf) != e.Confidence || math.IsNaN(float64(e.Confidence)) {
			return nil, nil, "an edge of the index has a confidence that is not its reason's"
		}
		kept[k] = true
		n++
		nMore += len(e.More)
	}
	edges = make([]graph.Edge, 0, n)
	ends = make([][2]int32, 0, n)
	more := make([]int, 0, nMore)
	lastReason = ""
	for k := range s.Edges {
		if !kept[k] {
			continue
		}
		e := &s.Edges[k]
		typ := types[k]
		if e.Reason != lastReason {
			lastReason, conf = e.Reason, graph.Reason(e.Reason).Confidence()
		}
		ge := graph.Edge{Src: s.Nodes[e.Src].ID, Dst: s.Nodes[e.Dst].ID, Type: typ, Confidence: conf,
			Reason: graph.Reason(e.Reason), Line: int(e.Line)}
		if len(e.More) > 0 {
			at := len(more)
			for _, l := range e.More {
				more = append(more, int(l))
			}
			ge.More = more[at:len(more):len(more)]
		}
		edges = append(edges, ge)
		ends = append(ends, [2]int32{int32(e.Src), int32(e.Dst)})
	}
	return edges, ends, ""
}

// Renumber gives, for each of the snapshot's nodes, its place in nodes (a
// graph's, sorted by id as the snapshot's are), -1 when it is not there:
// one walk through both, where looking each id up in the graph is a map
// lookup an end. It returns nil when the snapshot's nodes are not in
// order.
func (a *Ahead) Renumber(nodes []graph.Node) []int32 {
	old := a.snap.Nodes
	at := make([]int32, len(old))
	j := 0
	for i := range old {
		id := old[i].ID
		if i > 0 && old[i-1].ID >= id {
			return nil
		}
		for j < len(nodes) && nodes[j].ID < id {
			j++
		}
		if j < len(nodes) && nodes[j].ID == id {
			at[i] = int32(j)
			j++
		} else {
			at[i] = -1
		}
	}
	return at
}
