package ingest

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Summary is what an analysis reports and what meta.json keeps as stats.
type Summary struct {
	Stats
	Nodes         int                       `json:"nodes"`
	Edges         int                       `json:"edges"`
	Symbols       int                       `json:"symbols"`
	Functions     int                       `json:"functions"` // functions, methods and constructors
	NodesByKind   map[string]int            `json:"nodesByKind"`
	EdgesByType   map[string]int            `json:"edgesByType"`
	EdgesByReason map[string]map[string]int `json:"edgesByReason"` // type → reason → count
	TotalMillis   int64                     `json:"totalMillis"`
	IndexBytes    int64                     `json:"indexBytes"`
	// Update describes an index changed in place; Rewritten says why a new
	// file was written instead (store.Save). Neither is kept in meta.json.
	Update    *store.UpdateStats `json:"update,omitempty"`
	Rewritten string             `json:"rewritten,omitempty"`
}

// Summarize counts the graph of a result.
func Summarize(r *Result) Summary {
	s := Summary{Stats: r.Stats, NodesByKind: map[string]int{}, EdgesByType: map[string]int{},
		EdgesByReason: map[string]map[string]int{}}
	nodes, edges := r.Graph.Nodes(), r.Graph.Edges()
	// Counted by kind and type first, named after: maps of strings per
	// edge took 100 ms on a graph the size of the Go standard library's
	// (BenchmarkSummarize), this 25 ms.
	var byKind [256]int
	for i := range nodes {
		byKind[nodes[i].Kind]++
	}
	for k, n := range byKind {
		if n == 0 {
			continue
		}
		s.addNodes(graph.NodeKind(k), n)
	}
	// Each type's reasons are a handful, and mostly the same strings:
	// looked up in a short list rather than a map.
	type reasonCount struct {
		r graph.Reason
		n int
	}
	var byType [256][]reasonCount
	for i := range edges {
		e := &edges[i]
		rs := byType[e.Type]
		j := 0
		for j < len(rs) && rs[j].r != e.Reason {
			j++
		}
		if j == len(rs) {
			byType[e.Type] = append(rs, reasonCount{e.Reason, 1})
			continue
		}
		rs[j].n++
	}
	for t, rs := range byType {
		for _, rc := range rs {
			s.addEdges(graph.EdgeType(t), rc.r, rc.n)
		}
	}
	if hc := r.CarriedHistory; hc != nil {
		// The history part kept in the index is counted from it.
		for k, n := range hc.NodesByKind {
			s.addNodes(k, n)
		}
		for t, byReason := range hc.EdgesByReason {
			for reason, n := range byReason {
				s.addEdges(t, reason, n)
			}
		}
	}
	return s
}

// addNodes counts n nodes of a kind.
func (s *Summary) addNodes(kind graph.NodeKind, n int) {
	s.Nodes += n
	s.NodesByKind[kind.String()] += n
	if kind.IsSymbol() {
		s.Symbols += n
	}
	if kind.IsCallable() {
		s.Functions += n
	}
}

// addEdges counts n edges of a type and reason.
func (s *Summary) addEdges(t graph.EdgeType, r graph.Reason, n int) {
	name := t.String()
	s.Edges += n
	s.EdgesByType[name] += n
	if s.EdgesByReason[name] == nil {
		s.EdgesByReason[name] = map[string]int{}
	}
	s.EdgesByReason[name][string(r)] += n
}
