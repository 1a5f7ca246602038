package analysis

import (
	"slices"
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The call paths from one symbol to another (trace): how does A end up
// calling B? Paths follow CALLS edges, visit no symbol twice, and come
// shortest first.

// Trace bounds.
const (
	DefaultTraceDepth = 5
	MaxTraceDepth     = 5
	DefaultTracePaths = 5
	MaxTracePaths     = 50
	// traceVisit bounds the backward walk that measures how far each
	// symbol is from the target; traceSteps bounds the path search. Past
	// either the answer says it may be incomplete.
	traceVisit = 200000
	traceSteps = 2000000
)

// TraceStep is one symbol of a path. Every step but the first is reached
// by a call written in the previous step's code: CallFile and CallLines
// say where, Confidence and Reason how sure the call graph is of it.
type TraceStep struct {
	SymbolHead
	Test       bool    `json:"test,omitempty"`
	CallFile   string  `json:"callFile,omitempty"`
	CallLines  []int32 `json:"callLines,omitempty"`
	Confidence float32 `json:"confidence,omitempty"`
	Reason     string  `json:"reason,omitempty"`
}

// TracePath is one call path: Length calls, the product of their
// confidences, and its symbols from the start to the target.
type TracePath struct {
	Length     int         `json:"length"`
	Confidence float32     `json:"confidence"`
	Steps      []TraceStep `json:"steps"`
}

// TraceResult is the answer of trace.
type TraceResult struct {
	From     SymbolInfo `json:"from"`
	To       SymbolInfo `json:"to"`
	MaxDepth int        `json:"maxDepth"`
	Limit    int        `json:"limit"`
	// Paths come shortest first; within a length the most confident
	// first, paths through test code last.
	Paths []TracePath `json:"paths"`
	// More: the search stopped at Limit paths with paths of the same or
	// a greater length (within MaxDepth) left unsearched or unlisted.
	More bool `json:"more"`
	// Exhaustive false: a search bound was hit, so a path may be missing.
	Exhaustive bool `json:"exhaustive"`
	// Reverse is, when no path leads from From to To, the length of the
	// shortest path from To back to From (0: none within MaxDepth).
	Reverse int `json:"reverse,omitempty"`
}

// Trace finds at most limit call paths from one symbol to another, of at
// most depth calls (1..MaxTraceDepth), shortest first. A symbol is never
// visited twice on a path; from == to asks for the cycles through it.
func Trace(g *memgraph.Graph, from, to memgraph.NodeID, depth, limit int) TraceResult {
	depth = max(1, min(depth, MaxTraceDepth))
	limit = max(1, min(limit, MaxTracePaths))
	res := TraceResult{From: Info(g, from), To: Info(g, to), MaxDepth: depth, Limit: limit, Paths: []TracePath{}, Exhaustive: true}
	dist, complete := callDistances(g, to, depth)
	res.Exhaustive = complete
	d, ok := dist[from]
	if !ok {
		back, _ := callDistances(g, from, depth)
		if r, ok := back[to]; ok {
			res.Reverse = int(r)
		}
		return res
	}
	s := &pathSearch{g: g, facts: factsOf(g), from: from, to: to, dist: dist, steps: traceSteps}
	for length := max(1, int(d)); length <= depth && len(res.Paths) < limit; length++ {
		// A length's paths are gathered (up to a cap), ranked, then taken.
		s.found, s.cap = s.found[:0], max(100, 10*limit)
		s.onPath = map[memgraph.NodeID]bool{}
		s.walk([]memgraph.NodeID{from}, length)
		if s.steps <= 0 {
			res.Exhaustive = false
		}
		ranked := s.rank()
		take := min(len(ranked), limit-len(res.Paths))
		res.Paths = append(res.Paths, ranked[:take]...)
		if take < len(ranked) || s.capped {
			res.More = true
		}
		if s.steps <= 0 {
			break
		}
	}
	if !res.More && len(res.Paths) == limit {
		// Whether longer paths exist within the depth is not searched
		// further; say there may be more.
		last := res.Paths[len(res.Paths)-1].Length
		res.More = last < depth
	}
	return res
}

// callDistances walks CALLS edges backwards from target, depth levels:
// for every symbol found, the fewest calls from it to target (target: 0).
// complete is false when the walk stopped at its bound.
func callDistances(g *memgraph.Graph, target memgraph.NodeID, depth int) (map[memgraph.NodeID]int8, bool) {
	dist := map[memgraph.NodeID]int8{target: 0}
	frontier := []memgraph.NodeID{target}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var next []memgraph.NodeID
		for _, n := range frontier {
			for _, e := range g.In(n) {
				if e.Type != graph.EdgeCalls {
					continue
				}
				if _, seen := dist[e.To]; seen {
					continue
				}
				if len(dist) >= traceVisit {
					return dist, false
				}
				dist[e.To] = int8(level)
				next = append(next, e.To)
			}
		}
		frontier = next
	}
	return dist, true
}

type pathSearch struct {
	g        *memgraph.Graph
	facts    *nodeFacts
	from, to memgraph.NodeID
	dist     map[memgraph.NodeID]int8
	onPath   map[memgraph.NodeID]bool
	steps    int
	found    [][]memgraph.NodeID
	cap      int
	capped   bool
}

// walk extends path (which ends short of the target) by calls, so that it
// reaches the target in exactly left more calls, recording every path
// found. dist prunes: a symbol more than left-1 calls from the target
// cannot be next.
func (s *pathSearch) walk(path []memgraph.NodeID, left int) {
	cur := path[len(path)-1]
	s.onPath[cur] = true
	defer delete(s.onPath, cur)
	for _, e := range s.g.Out(cur) { // one CALLS edge per pair of symbols
		if e.Type != graph.EdgeCalls {
			continue
		}
		if s.steps--; s.steps <= 0 {
			return
		}
		if len(s.found) >= s.cap {
			s.capped = true
			return
		}
		switch {
		case e.To == s.to:
			if left == 1 {
				s.found = append(s.found, append(slices.Clone(path), s.to))
			}
		case left > 1 && !s.onPath[e.To] && e.To != s.from:
			if d, ok := s.dist[e.To]; ok && int(d) <= left-1 {
				s.walk(append(path, e.To), left-1)
			}
		}
	}
}

// rank turns the paths found at one length into answers, the most
// confident first, paths through test code after the others, then by the
// symbols' ids.
func (s *pathSearch) rank() []TracePath {
	type cand struct {
		p    TracePath
		test bool
		key  string
	}
	cands := make([]cand, 0, len(s.found))
	for _, nodes := range s.found {
		c := cand{p: TracePath{Length: len(nodes) - 1, Confidence: 1}}
		for i, n := range nodes {
			st := TraceStep{SymbolHead: headOf(s.g, n), Test: s.facts.isTest(n)}
			if i > 0 {
				e := s.edge(nodes[i-1], n)
				st.CallFile, st.CallLines = s.g.Nodes[nodes[i-1]].FilePath, nonNilLines(s.g.Lines(e))
				st.Confidence, st.Reason = e.Confidence, string(s.g.Reason(e))
				c.p.Confidence *= e.Confidence
			}
			c.test = c.test || st.Test
			c.key += st.UID + "\x00"
			c.p.Steps = append(c.p.Steps, st)
		}
		cands = append(cands, c)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := &cands[i], &cands[j]
		if a.test != b.test {
			return !a.test
		}
		if a.p.Confidence != b.p.Confidence {
			return a.p.Confidence > b.p.Confidence
		}
		return a.key < b.key
	})
	out := make([]TracePath, len(cands))
	for i := range cands {
		out[i] = cands[i].p
	}
	return out
}

// edge is the CALLS edge from a to b.
func (s *pathSearch) edge(a, b memgraph.NodeID) memgraph.Edge {
	for _, e := range s.g.Out(a) {
		if e.Type == graph.EdgeCalls && e.To == b {
			return e
		}
	}
	panic("trace: a path without its edge")
}
