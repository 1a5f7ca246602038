package enrich

import (
	"cmp"
	"fmt"
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
	// kept tells, for a local update, the community of prev each one is
	// (-1: a new community); nil after a detection.
	kept []int32
	prev *graph.Partition
}

// minCommunitySize is the smallest community that becomes a node: single
// symbols with no edges are areas of nothing.
const minCommunitySize = 2

// detectionGraph is the weighted graph communities are found on.
type detectionGraph struct {
	back  []int32 // detection node -> view node
	graph *community.Graph
	edges int
}

func newDetectionGraph(v *view, opt Options) *detectionGraph {
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
	return &detectionGraph{back: back, graph: community.NewGraph(len(back), edges), edges: len(edges)}
}

func detectCommunities(v *view, opt Options, st *Stats) *communities {
	dg := newDetectionGraph(v, opt)
	cg := dg.graph
	resolution := opt.Resolution
	if resolution <= 0 {
		resolution = autoResolution(dg.edges)
	}
	st.Resolution = math.Round(resolution*100) / 100
	st.CommunityNodes = len(dg.back)
	var part []int32
	var count int
	var kept []int32 // per community of part: the previous one it is, -1
	if prev := opt.Previous; prev != nil {
		if p, n, k, why := placeLocally(v, dg, prev, opt.Changed, st); why == "" {
			part, count, kept = p, n, k
			st.CommunityUpdate = "local"
		} else {
			st.CommunityWhy = why
		}
	} else {
		st.CommunityWhy = cmp.Or(opt.PreviousWhy, "no communities to start from")
	}
	if part == nil {
		res := community.Detect(cg, community.Options{Seed: opt.Seed, Resolution: resolution, Budget: opt.Budget})
		part, count = res.Community, res.Count
		st.CommunityStop = res.Stopped
		st.CommunityUpdate = "detected"
		st.CommunityDrift = 0
	}
	st.Modularity = math.Round(community.Modularity(cg, part, 1)*1e4) / 1e4
	coh := community.Cohesion(cg, part, count)

	groups := make([][]int32, count)
	for l, c := range part {
		groups[c] = append(groups[c], dg.back[l])
	}
	order := make([]int, 0, len(groups))
	for c, m := range groups {
		if len(m) >= minCommunitySize {
			order = append(order, c)
		}
	}
	if kept == nil {
		// Numbered by size (largest first), then by the first member's id.
		slices.SortFunc(order, func(a, b int) int {
			if len(groups[a]) != len(groups[b]) {
				return len(groups[b]) - len(groups[a])
			}
			return int(groups[a][0] - groups[b][0])
		})
	}
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
		if kept != nil {
			out.kept = append(out.kept, kept[c])
			if kept[c] < 0 {
				st.CommunitiesAdded++
			}
		}
	}
	if kept != nil {
		out.prev = opt.Previous
		st.CommunitiesDissolved = len(opt.Previous.Communities) - (len(out.members) - st.CommunitiesAdded)
	}
	return out
}

// Local updates. A re-index starts from the communities its index kept
// (graph.Partition) and, while few symbols changed since they were last
// detected, updates them instead of detecting them again:
//
//   - a symbol that was in a community stays in it;
//   - a symbol of a changed file that is in none (a new symbol, most
//     often) joins the community its edges weigh most towards (the
//     detection graph's weights; ties go to the community whose id comes
//     first). Symbols placed join in id order, pass after pass, so that a
//     new function called only by another new one follows it;
//   - the symbols of changed files that still have no community and are
//     linked to each other form new communities, one per connected group
//     of at least minCommunitySize; the rest stay without one, as do the
//     symbols of unchanged files that had none;
//   - a community left with fewer than minCommunitySize members is
//     dissolved;
//   - communities keep their id, label and keywords; their member count
//     and cohesion are computed anew, as are processes (traced again on
//     every run) and the modularity reported.
//
// Changed symbols are the symbols of changed files (their edges may have
// changed) plus the members that are gone. They add up across local
// updates (CommunityDetection.Drift); once the sum would pass LocalLimit of
// the symbols last detected, communities are detected on the whole graph
// again, exactly as a rebuild does.

// LocalShare and LocalFloor make the drift limit.
const (
	LocalShare = 0.05
	LocalFloor = 10
)

// LocalLimit is how many symbols may change, in all, before communities
// detected among symbols are detected again.
func LocalLimit(symbols int) int {
	return max(LocalFloor, int(LocalShare*float64(symbols)))
}

// placeLocally updates prev's partition to the detection graph. It returns
// the partition (every detection node in a community, a singleton when in
// none), its size, and for each community the one of prev it is (-1 when
// new or a singleton); why says why it could not (too much change).
func placeLocally(v *view, dg *detectionGraph, prev *graph.Partition, changed func(string) bool,
	st *Stats) (part []int32, count int, kept []int32, why string) {
	n := len(dg.back)
	part = make([]int32, n)
	present := 0
	drift := prev.Detection.Drift
	var open []int32 // symbols of changed files in no community, in id order
	for l, vi := range dg.back {
		node := &v.nodes[vi]
		c, ok := prev.Of[node.ID]
		part[l] = -1
		if ok {
			part[l] = c
			present++
		}
		if changed != nil && changed(node.FilePath) {
			drift++
			if !ok {
				open = append(open, int32(l))
			}
		}
	}
	drift += len(prev.Of) - present // members that are gone
	st.CommunityDrift = drift
	st.CommunityDriftLimit = LocalLimit(prev.Detection.Symbols)
	if drift > st.CommunityDriftLimit {
		return nil, 0, nil, fmt.Sprintf("%d symbols changed since communities were last detected, over the limit of %d",
			drift, st.CommunityDriftLimit)
	}
	// Join the community weighed most, pass after pass.
	weight := map[int32]float64{}
	for placed := true; placed; {
		placed = false
		for _, l := range open {
			if part[l] >= 0 {
				continue
			}
			clear(weight)
			adj, w := dg.graph.Neighbors(l)
			for k, u := range adj {
				if c := part[u]; c >= 0 {
					weight[c] += w[k]
				}
			}
			best, bestW := int32(-1), 0.0
			for c, cw := range weight {
				if cw > bestW || (cw == bestW && c < best) {
					best, bestW = c, cw
				}
			}
			if best >= 0 {
				part[l] = best
				placed = true
				st.CommunityPlaced++
			}
		}
	}
	// New communities: connected groups of what is left.
	count = len(prev.Communities)
	kept = make([]int32, count, count+len(open))
	for c := range kept {
		kept[c] = int32(c)
	}
	for _, l := range open {
		if part[l] >= 0 {
			continue
		}
		c := int32(count)
		count++
		kept = append(kept, -1)
		part[l] = c
		stack := []int32{l}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			adj, _ := dg.graph.Neighbors(x)
			for _, u := range adj {
				if part[u] < 0 && changed(v.nodes[dg.back[u]].FilePath) {
					part[u] = c
					stack = append(stack, u)
				}
			}
		}
	}
	// Symbols of unchanged files in no community stay alone.
	for l := range part {
		if part[l] < 0 {
			part[l] = int32(count)
			count++
			kept = append(kept, -1)
		}
	}
	return part, count, kept, ""
}

// addCommunities adds a Community node per community and a MEMBER_OF edge
// from each member.
func addCommunities(g *graph.Graph, v *view, cs *communities, flows *graph.Flows) {
	labels := communityLabels(v, cs)
	for c, members := range cs.members {
		l := labels[c]
		id := "Community:" + l.label
		if cs.kept != nil && cs.kept[c] >= 0 {
			id = cs.prev.Communities[cs.kept[c]].ID
		}
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

// communityLabels labels detected communities; after a local update, the
// communities kept keep their label, keywords and language, and the new
// ones are labelled among themselves and told apart from the kept ones.
func communityLabels(v *view, cs *communities) []communityLabel {
	if cs.kept == nil {
		return labelCommunities(v, cs, map[string]bool{})
	}
	out := make([]communityLabel, len(cs.members))
	used := map[string]bool{}
	fresh := &communities{}
	var where []int
	for c, k := range cs.kept {
		if k < 0 {
			fresh.members = append(fresh.members, cs.members[c])
			where = append(where, c)
			continue
		}
		p := &cs.prev.Communities[k]
		out[c] = communityLabel{label: p.Label, base: p.Label, language: cs.prev.Languages[k], keywords: p.Keywords}
		used[p.Label] = true
	}
	if len(where) > 0 {
		ls := labelCommunities(v, fresh, used)
		for i, c := range where {
			out[c] = ls[i]
		}
	}
	return out
}

// autoResolution is the resolution for a graph of m edges: 1 up to 1e3, 2
// from 1e5, log-linear between.
func autoResolution(m int) float64 {
	if m <= 1000 {
		return 1
	}
	return 1 + min(1, (math.Log10(float64(m))-3)/2)
}
