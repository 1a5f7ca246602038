package analysis

import (
	"cmp"
	"slices"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The graph as the web view draws it: a symbol's neighbourhood, a
// community's members, the map of communities and the steps of a process.
// Every answer is a bounded set of nodes with the edges among them, in a
// fixed order (nodes by id, edges by source, target and type), and says
// when a bound cut it.

// Bounds of the graph views.
const (
	DefaultViewNodes = 2000
	MaxViewNodes     = 20000
	// viewEdgesPerNode bounds the edges of a view at this many per node
	// allowed: a dense area of 2,000 nodes rarely has more than 10,000
	// edges among them, and a page cannot draw many more.
	viewEdgesPerNode = 5
	MaxNeighbourhood = 3
	DefaultFlowList  = 500
	MaxFlowList      = 5000
)

// CodeEdgeTypes are the relationships between code at HEAD: what a
// neighbourhood follows by default (not membership of communities and
// processes, not the history).
func CodeEdgeTypes() []graph.EdgeType {
	var out []graph.EdgeType
	for _, t := range graph.AllEdgeTypes() {
		if t <= graph.EdgeReferences {
			out = append(out, t)
		}
	}
	return out
}

// ViewNode is a node of a graph view.
type ViewNode struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	FilePath  string `json:"filePath"`
	StartLine int    `json:"startLine"`
	// Community is the id of the Community node the symbol is a member
	// of ("" when none).
	Community string `json:"community"`
	IsTest    bool   `json:"isTest"`
}

// ViewEdge is an edge of a graph view.
type ViewEdge struct {
	Src        string  `json:"src"`
	Dst        string  `json:"dst"`
	Type       string  `json:"type"`
	Confidence float64 `json:"confidence"`
}

// GraphView is a set of nodes and the edges among them.
type GraphView struct {
	Nodes     []ViewNode `json:"nodes"`
	Edges     []ViewEdge `json:"edges"`
	Truncated bool       `json:"truncated"`
}

// NeighbourhoodOptions choose what a neighbourhood holds.
type NeighbourhoodOptions struct {
	// Depth is the most edges between the center and a node (1 when
	// 0, at most MaxNeighbourhood).
	Depth int
	// Types are the edge types followed and shown (CodeEdgeTypes when
	// empty).
	Types []graph.EdgeType
	// MinConfidence leaves out edges below it.
	MinConfidence float64
	// HideTests leaves out nodes in test files (not the center).
	HideTests bool
	// Limit bounds the nodes (DefaultViewNodes when 0, at most
	// MaxViewNodes); the edges are bounded at five per node allowed.
	Limit int
}

func viewLimit(limit int) int {
	if limit <= 0 {
		return DefaultViewNodes
	}
	return min(limit, MaxViewNodes)
}

// ViewNodeOf describes node n for a view.
func ViewNodeOf(g *memgraph.Graph, n memgraph.NodeID) ViewNode {
	nd := &g.Nodes[n]
	v := ViewNode{ID: nd.ID, Name: nd.Name, Kind: nd.Kind.String(), FilePath: nd.FilePath, StartLine: int(nd.StartLine),
		IsTest: nd.FilePath != "" && IsTestPath(nd.FilePath)}
	if c, ok := g.CommunityOf(n); ok {
		v.Community = g.Nodes[c].ID
	}
	return v
}

// Neighbourhood returns the nodes within opt.Depth edges of center, in
// either direction, found breadth first, and the edges among them. When
// the limit cuts a level, the nodes of that level kept are the most
// closely tied to the nodes before it (closer first): more edges from the
// level before, then the strongest kind of edge (calls and inheritance,
// then references and imports, then what defines or holds them), then
// the most confident, then code before tests, then by id.
func Neighbourhood(g *memgraph.Graph, center memgraph.NodeID, opt NeighbourhoodOptions) GraphView {
	depth := min(max(opt.Depth, 1), MaxNeighbourhood)
	limit := viewLimit(opt.Limit)
	follow := edgeTypeSet(opt.Types)
	keep := func(e memgraph.Edge) bool {
		// Compared as stored: 0.95 is a float32 below the float64 0.95.
		return follow[e.Type] && e.Confidence >= float32(opt.MinConfidence)
	}
	seen := memgraph.NewNodeSet(g.Len())
	seen.Add(center)
	nodes := []memgraph.NodeID{center}
	frontier := []memgraph.NodeID{center}
	truncated := false
	for d := 0; d < depth && len(frontier) > 0 && !truncated; d++ {
		var next []memgraph.NodeID
		ties := map[memgraph.NodeID]*tie{}
		visit := func(e memgraph.Edge) {
			if t := ties[e.To]; t != nil {
				t.add(e)
				return
			}
			if seen.Has(e.To) {
				return
			}
			seen.Add(e.To)
			if opt.HideTests && IsTestPath(g.Nodes[e.To].FilePath) {
				return
			}
			t := &tie{strength: 3}
			if IsTestPath(g.Nodes[e.To].FilePath) {
				t.test = 1
			}
			t.add(e)
			ties[e.To] = t
			next = append(next, e.To)
		}
		for _, n := range frontier {
			for _, e := range g.Out(n) {
				if keep(e) {
					visit(e)
				}
			}
			for _, e := range g.In(n) {
				if keep(e) {
					visit(e)
				}
			}
		}
		slices.SortFunc(next, func(a, b memgraph.NodeID) int {
			ta, tb := ties[a], ties[b]
			return cmp.Or(cmp.Compare(tb.edges, ta.edges), cmp.Compare(ta.strength, tb.strength),
				cmp.Compare(tb.confidence, ta.confidence), cmp.Compare(ta.test, tb.test), cmp.Compare(g.Nodes[a].ID, g.Nodes[b].ID))
		})
		if room := limit - len(nodes); len(next) > room {
			next, truncated = next[:room], true
		}
		nodes = append(nodes, next...)
		frontier = next
	}
	return viewOf(g, nodes, limit, keep, truncated)
}

// tie is how a node found at one level of a neighbourhood is tied to the
// level before it.
type tie struct {
	edges      int     // edges from the level before
	strength   int     // the strongest kind among them (edgeStrength: 0 strongest)
	confidence float32 // the most confident of them
	test       int     // 1 when the node is in a test file, else 0
}

func (t *tie) add(e memgraph.Edge) {
	t.edges++
	t.strength = min(t.strength, edgeStrength(e.Type))
	t.confidence = max(t.confidence, e.Confidence)
}

// edgeStrength ranks what an edge says of the code it joins: a call or
// inheritance first, then a reference or import, then definition and
// membership.
func edgeStrength(t graph.EdgeType) int {
	switch t {
	case graph.EdgeCalls, graph.EdgeExtends, graph.EdgeImplements:
		return 0
	case graph.EdgeReferences, graph.EdgeImports:
		return 1
	}
	return 2
}

// CommunityView returns the members of community c (by id, at most
// limit) and the code edges among them.
func CommunityView(g *memgraph.Graph, c memgraph.NodeID, limit int) GraphView {
	limit = viewLimit(limit)
	var members []memgraph.NodeID
	for _, e := range g.In(c) {
		if e.Type == graph.EdgeMemberOf {
			members = append(members, e.To)
		}
	}
	slices.SortFunc(members, func(a, b memgraph.NodeID) int { return cmp.Compare(g.Nodes[a].ID, g.Nodes[b].ID) })
	members = slices.Compact(members)
	truncated := len(members) > limit
	if truncated {
		members = members[:limit]
	}
	follow := edgeTypeSet(nil)
	return viewOf(g, members, limit, func(e memgraph.Edge) bool { return follow[e.Type] }, truncated)
}

// viewOf describes nodes, sorted by id, and the edges among them that
// keep allows (at most viewEdgesPerNode × limit).
func viewOf(g *memgraph.Graph, nodes []memgraph.NodeID, limit int, keep func(memgraph.Edge) bool, truncated bool) GraphView {
	in := memgraph.NewNodeSet(g.Len())
	for _, n := range nodes {
		in.Add(n)
	}
	slices.SortFunc(nodes, func(a, b memgraph.NodeID) int { return cmp.Compare(g.Nodes[a].ID, g.Nodes[b].ID) })
	v := GraphView{Nodes: make([]ViewNode, 0, len(nodes)), Edges: []ViewEdge{}, Truncated: truncated}
	maxEdges := limit * viewEdgesPerNode
	for _, n := range nodes {
		v.Nodes = append(v.Nodes, ViewNodeOf(g, n))
		out := g.Out(n)
		start := len(v.Edges)
		for _, e := range out {
			if !in.Has(e.To) || !keep(e) {
				continue
			}
			if len(v.Edges) == maxEdges {
				v.Truncated = true
				break
			}
			v.Edges = append(v.Edges, ViewEdge{Src: g.Nodes[n].ID, Dst: g.Nodes[e.To].ID, Type: e.Type.String(),
				Confidence: roundConfidence(e.Confidence)})
		}
		added := v.Edges[start:]
		slices.SortFunc(added, func(a, b ViewEdge) int {
			return cmp.Or(cmp.Compare(a.Dst, b.Dst), cmp.Compare(a.Type, b.Type))
		})
	}
	return v
}

// roundConfidence gives a float32 confidence back as the decimal it was
// written as (0.95, not 0.949999988079071).
func roundConfidence(c float32) float64 {
	f := float64(c)
	return float64(int64(f*1e4+0.5)) / 1e4
}

func edgeTypeSet(types []graph.EdgeType) map[graph.EdgeType]bool {
	if len(types) == 0 {
		types = CodeEdgeTypes()
	}
	set := make(map[graph.EdgeType]bool, len(types))
	for _, t := range types {
		set[t] = true
	}
	return set
}

// CommunitySummary is one community of the map.
type CommunitySummary struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Symbols int    `json:"symbols"`
	Files   int    `json:"files"`
}

// CommunityLink is the weight of the CALLS and IMPORTS edges between the
// members of two communities (Src's id sorts before Dst's).
type CommunityLink struct {
	Src    string `json:"src"`
	Dst    string `json:"dst"`
	Weight int    `json:"weight"`
}

// CommunityMapView is the communities and the links between them.
type CommunityMapView struct {
	Communities []CommunitySummary `json:"communities"`
	Links       []CommunityLink    `json:"links"`
	Truncated   bool               `json:"truncated"`
}

// CommunityMap lists the largest communities (at most limit: by members,
// then id; DefaultFlowList when 0) and the links among them, heaviest
// first.
func CommunityMap(g *memgraph.Graph, limit int) CommunityMapView {
	if limit <= 0 {
		limit = DefaultFlowList
	}
	limit = min(limit, MaxFlowList)
	type comm struct {
		node    memgraph.NodeID
		label   string
		members []memgraph.NodeID
	}
	var all []comm
	for _, c := range g.Communities() {
		cm := comm{node: c.Node, label: c.Label}
		for _, e := range g.In(c.Node) {
			if e.Type == graph.EdgeMemberOf {
				cm.members = append(cm.members, e.To)
			}
		}
		all = append(all, cm)
	}
	slices.SortFunc(all, func(a, b comm) int {
		return cmp.Or(cmp.Compare(len(b.members), len(a.members)), cmp.Compare(g.Nodes[a.node].ID, g.Nodes[b.node].ID))
	})
	v := CommunityMapView{Communities: []CommunitySummary{}, Links: []CommunityLink{}}
	if len(all) > limit {
		all, v.Truncated = all[:limit], true
	}
	of := map[memgraph.NodeID]int{} // member -> index in all
	for i, c := range all {
		files := map[string]bool{}
		for _, m := range c.members {
			of[m] = i
			if p := g.Nodes[m].FilePath; p != "" {
				files[p] = true
			}
		}
		v.Communities = append(v.Communities, CommunitySummary{ID: g.Nodes[c.node].ID, Label: c.label,
			Symbols: len(c.members), Files: len(files)})
	}
	weights := map[[2]int]int{}
	for i, c := range all {
		for _, m := range c.members {
			for _, e := range g.Out(m) {
				if e.Type != graph.EdgeCalls && e.Type != graph.EdgeImports {
					continue
				}
				j, ok := of[e.To]
				if !ok || j == i {
					continue
				}
				a, b := v.Communities[i].ID, v.Communities[j].ID
				if a < b {
					weights[[2]int{i, j}]++
				} else {
					weights[[2]int{j, i}]++
				}
			}
		}
	}
	for k, w := range weights {
		v.Links = append(v.Links, CommunityLink{Src: v.Communities[k[0]].ID, Dst: v.Communities[k[1]].ID, Weight: w})
	}
	slices.SortFunc(v.Links, func(a, b CommunityLink) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Src, b.Src), cmp.Compare(a.Dst, b.Dst))
	})
	return v
}

// ProcessEntry names a process's entry point.
type ProcessEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ProcessSummary is one process of the list.
type ProcessSummary struct {
	ID    string       `json:"id"`
	Label string       `json:"label"`
	Steps int          `json:"steps"`
	Entry ProcessEntry `json:"entry"`
}

// ProcessListView is the processes of a repository.
type ProcessListView struct {
	Processes []ProcessSummary `json:"processes"`
	Truncated bool             `json:"truncated"`
}

// ProcessList lists the processes by rank (the entry's score, then the
// length), then id; at most limit (DefaultFlowList when 0).
func ProcessList(g *memgraph.Graph, limit int) ProcessListView {
	if limit <= 0 {
		limit = DefaultFlowList
	}
	limit = min(limit, MaxFlowList)
	ps := slices.Clone(g.Processes())
	slices.SortFunc(ps, func(a, b memgraph.Process) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(g.Nodes[a.Node].ID, g.Nodes[b.Node].ID))
	})
	v := ProcessListView{Processes: []ProcessSummary{}}
	if len(ps) > limit {
		ps, v.Truncated = ps[:limit], true
	}
	for _, p := range ps {
		v.Processes = append(v.Processes, ProcessSummary{ID: g.Nodes[p.Node].ID, Label: p.Label, Steps: p.StepCount,
			Entry: ProcessEntry{ID: g.Nodes[p.Entry].ID, Name: g.Nodes[p.Entry].Name}})
	}
	return v
}

// ProcessStepView is one step of a process.
type ProcessStepView struct {
	Step      int    `json:"step"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	FilePath  string `json:"filePath"`
	StartLine int    `json:"startLine"`
}

// ProcessEdge is a call between two steps of a process.
type ProcessEdge struct {
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	Type string `json:"type"`
}

// ProcessView is a process's steps in order and the calls among them.
type ProcessView struct {
	ID    string            `json:"id"`
	Label string            `json:"label"`
	Steps []ProcessStepView `json:"steps"`
	Edges []ProcessEdge     `json:"edges"`
}

// ProcessSteps returns the steps of process p (a Process node) and the
// CALLS edges among them, ordered by the step of their source, then of
// their target.
func ProcessSteps(g *memgraph.Graph, p memgraph.NodeID) ProcessView {
	v := ProcessView{ID: g.Nodes[p].ID, Steps: []ProcessStepView{}, Edges: []ProcessEdge{}}
	if info, ok := g.ProcessInfo(p); ok {
		v.Label = info.Label
	}
	step := map[memgraph.NodeID]int{}
	for _, e := range g.In(p) {
		if e.Type == graph.EdgeStepInProcess {
			if _, dup := step[e.To]; !dup {
				step[e.To] = int(e.Line)
			}
		}
	}
	for n, k := range step {
		nd := &g.Nodes[n]
		v.Steps = append(v.Steps, ProcessStepView{Step: k, ID: nd.ID, Name: nd.Name, Kind: nd.Kind.String(),
			FilePath: nd.FilePath, StartLine: int(nd.StartLine)})
	}
	slices.SortFunc(v.Steps, func(a, b ProcessStepView) int { return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.ID, b.ID)) })
	type pair struct{ a, b int }
	var calls []pair
	for n, k := range step {
		for _, e := range g.Out(n) {
			if to, ok := step[e.To]; ok && e.Type == graph.EdgeCalls {
				calls = append(calls, pair{k, to})
				v.Edges = append(v.Edges, ProcessEdge{Src: g.Nodes[n].ID, Dst: g.Nodes[e.To].ID, Type: e.Type.String()})
			}
		}
	}
	idx := make([]int, len(calls))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		return cmp.Or(cmp.Compare(calls[i].a, calls[j].a), cmp.Compare(calls[i].b, calls[j].b),
			cmp.Compare(v.Edges[i].Src, v.Edges[j].Src), cmp.Compare(v.Edges[i].Dst, v.Edges[j].Dst))
	})
	sorted := make([]ProcessEdge, len(idx))
	for k, i := range idx {
		sorted[k] = v.Edges[i]
	}
	v.Edges = sorted
	return v
}
