package enrich

import (
	"math"
	"slices"

	"gitnexus.dev/gitnexus/internal/community"
	"gitnexus.dev/gitnexus/internal/graph"
)

// The detection graph: callables and types outside test code, joined by
// CALLS, EXTENDS and IMPLEMENTS, undirected. An edge weighs its
// confidence, times 1 + ln(call sites) for calls written several times;
// name-only guesses are left out. Edges at a hub (a node with more than
// HubDegree distinct neighbours: loggers, error constructors, string
// helpers) are damped by sqrt(HubDegree/degree) at each hub end, so that
// utilities called from everywhere do not glue unrelated areas together.
// Plain Louvain on the Go standard library put 10k symbols in one
// community; the numbers that chose the damping and the resolution are in
// bench/flows/RESULTS.md.
//
// The resolution grows with the graph: modularity cannot see communities
// much smaller than the square root of the graph's edge count (its
// resolution limit), which only hurts large graphs, while a high
// resolution splits the areas of small ones. It is 1 up to 1,000 edges,
// 2 from 100,000, and log-linear between.

// communities is the partition of the view's nodes.
type communities struct {
	of       []int32   // community of each view node, -1 when none
	members  [][]int32 // per community, view nodes in id order
	cohesion []float64
}

// minCommunitySize is the smallest community that becomes a node: single
// symbols with no edges are areas of nothing.
const minCommunitySize = 2

func detectCommunities(v *view, opt Options, st *Stats) *communities {
	local := make([]int32, len(v.nodes)) // view node -> detection node, -1
	var back []int32
	for i := range v.nodes {
		local[i] = -1
		if v.member(int32(i)) {
			local[i] = int32(len(back))
			back = append(back, int32(i))
		}
	}
	weights := map[[2]int32]float64{}
	link := func(a, b int32, w float64) {
		la, lb := local[a], local[b]
		if la < 0 || lb < 0 || la == lb || w <= 0 {
			return
		}
		if la > lb {
			la, lb = lb, la
		}
		weights[[2]int32{la, lb}] += w
	}
	for src, cs := range v.calls {
		for _, c := range cs {
			if c.reason == graph.ReasonNameOnly {
				continue
			}
			link(int32(src), c.to, c.confidence*(1+math.Log(float64(c.sites))))
		}
	}
	for _, h := range v.heritage {
		link(h.from, h.to, h.confidence)
	}
	keys := make([][2]int32, 0, len(weights))
	degree := make([]int, len(back))
	for k := range weights {
		keys = append(keys, k)
		degree[k[0]]++
		degree[k[1]]++
	}
	slices.SortFunc(keys, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	damp := func(n int32) float64 {
		if opt.HubDegree < 0 || degree[n] <= opt.HubDegree {
			return 1
		}
		return math.Sqrt(float64(opt.HubDegree) / float64(degree[n]))
	}
	edges := make([]community.Edge, 0, len(keys))
	for _, k := range keys {
		edges = append(edges, community.Edge{U: k[0], V: k[1], W: weights[k] * damp(k[0]) * damp(k[1])})
	}
	cg := community.NewGraph(len(back), edges)
	resolution := opt.Resolution
	if resolution <= 0 {
		resolution = autoResolution(len(edges))
	}
	res := community.Detect(cg, community.Options{Seed: opt.Seed, Resolution: resolution, Budget: opt.Budget})
	st.Resolution = math.Round(resolution*100) / 100
	st.CommunityNodes = len(back)
	st.Modularity = math.Round(community.Modularity(cg, res.Community, 1)*1e4) / 1e4
	st.CommunityStop = res.Stopped
	coh := community.Cohesion(cg, res.Community, res.Count)

	// Keep communities of at least minCommunitySize, numbered by size
	// (largest first), then by their first member's id.
	groups := make([][]int32, res.Count)
	for l, c := range res.Community {
		groups[c] = append(groups[c], back[l])
	}
	order := make([]int, 0, len(groups))
	for c, m := range groups {
		if len(m) >= minCommunitySize {
			order = append(order, c)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if len(groups[a]) != len(groups[b]) {
			return len(groups[b]) - len(groups[a])
		}
		return int(groups[a][0] - groups[b][0])
	})
	out := &communities{of: make([]int32, len(v.nodes))}
	for i := range out.of {
		out.of[i] = -1
	}
	for _, c := range order {
		idx := int32(len(out.members))
		for _, n := range groups[c] {
			out.of[n] = idx
		}
		out.members = append(out.members, groups[c])
		out.cohesion = append(out.cohesion, math.Round(coh[c]*1e4)/1e4)
	}
	return out
}

// addCommunities adds a Community node per community and a MEMBER_OF edge
// from each member.
func addCommunities(g *graph.Graph, v *view, cs *communities, flows *graph.Flows) {
	labels := labelCommunities(v, cs)
	for c, members := range cs.members {
		l := labels[c]
		id := "Community:" + l.label
		g.AddNode(graph.Node{ID: id, Kind: graph.KindCommunity, Name: l.label, QualifiedName: l.label,
			Language: l.language})
		for _, m := range members { // a node is in one community: its edge is new
			g.AddNewEdge(graph.Edge{Src: v.nodes[m].ID, Dst: id, Type: graph.EdgeMemberOf,
				Confidence: graph.ReasonCommunity.Confidence(), Reason: graph.ReasonCommunity})
		}
		flows.Communities = append(flows.Communities, graph.CommunityFacts{ID: id, Label: l.label,
			Cohesion: cs.cohesion[c], SymbolCount: len(members), Keywords: l.keywords})
	}
}

// autoResolution is the resolution for a graph of m edges: 1 up to 1e3, 2
// from 1e5, log-linear between.
func autoResolution(m int) float64 {
	if m <= 1000 {
		return 1
	}
	return 1 + min(1, (math.Log10(float64(m))-3)/2)
}
