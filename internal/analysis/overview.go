package analysis

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// OverviewResult summarises a repository.
type OverviewResult struct {
	Nodes       int            `json:"nodes"`
	Edges       int            `json:"edges"`
	NodesByKind map[string]int `json:"nodesByKind"`
	EdgesByType map[string]int `json:"edgesByType"`
	Languages   map[string]int `json:"filesByLanguage"`
	Modules     []ModuleInfo   `json:"modules"`
	EntryPoints []EntryPoint   `json:"entry_points"`
	Clusters    []ClusterInfo  `json:"clusters"`
	Processes   []ProcessRef   `json:"processes"`
}

// ModuleInfo is a package (or folder) and its size.
type ModuleInfo struct {
	Name    string `json:"name"`
	Files   int    `json:"files"`
	Symbols int    `json:"symbols"`
}

// EntryPoint is a callable that nothing in the repository calls but that
// calls into it: a main, a handler, a public API.
type EntryPoint struct {
	SymbolInfo
	Reach int `json:"reach"` // callables reachable within 3 calls
}

// Overview counts a repository's graph and names its biggest modules and
// likeliest entry points (up to limit of each).
func Overview(g *memgraph.Graph, limit int) OverviewResult {
	if limit <= 0 {
		limit = 10
	}
	res := OverviewResult{NodesByKind: map[string]int{}, EdgesByType: map[string]int{}, Languages: map[string]int{},
		Modules: []ModuleInfo{}, EntryPoints: []EntryPoint{}, Clusters: Clusters(g, limit, MinOverviewCluster), Processes: MainProcesses(g, limit)}
	res.Nodes, res.Edges = g.Len(), g.EdgeCount()
	modules := map[string]*ModuleInfo{}
	for i := range g.Nodes {
		n := memgraph.NodeID(i)
		nd := &g.Nodes[i]
		res.NodesByKind[nd.Kind.String()]++
		for _, e := range g.Out(n) {
			res.EdgesByType[e.Type.String()]++
		}
		if nd.Kind == graph.KindFile && nd.Language != "" {
			res.Languages[nd.Language]++
		}
		if nd.Kind == graph.KindFile || nd.Kind.IsSymbol() {
			name, _ := ModuleOf(g, n)
			m := modules[name]
			if m == nil {
				m = &ModuleInfo{Name: name}
				modules[name] = m
			}
			if nd.Kind == graph.KindFile {
				m.Files++
			} else {
				m.Symbols++
			}
		}
	}
	for _, m := range modules {
		if m.Symbols > 0 {
			res.Modules = append(res.Modules, *m)
		}
	}
	sort.Slice(res.Modules, func(i, j int) bool {
		if res.Modules[i].Symbols != res.Modules[j].Symbols {
			return res.Modules[i].Symbols > res.Modules[j].Symbols
		}
		return res.Modules[i].Name < res.Modules[j].Name
	})
	if len(res.Modules) > limit {
		res.Modules = res.Modules[:limit]
	}
	res.EntryPoints = entryPoints(g, limit)
	return res
}

// entryPoints ranks callables without callers (outside tests) by how much
// of the code they reach; only the 200 with the most direct callees are
// walked, which keeps the overview of a large repository fast.
func entryPoints(g *memgraph.Graph, limit int) []EntryPoint {
	calls := []graph.EdgeType{graph.EdgeCalls}
	type cand struct {
		n   memgraph.NodeID
		out int
	}
	var cands []cand
	for _, n := range append(g.ByKind(graph.KindFunction), g.ByKind(graph.KindMethod)...) {
		nd := &g.Nodes[n]
		if IsTestPath(nd.FilePath) {
			continue
		}
		called := false
		for _, e := range g.In(n) {
			if e.Type == graph.EdgeCalls {
				called = true
				break
			}
		}
		if called {
			continue
		}
		out1 := 0
		for _, e := range g.Out(n) {
			if e.Type == graph.EdgeCalls {
				out1++
			}
		}
		if out1 == 0 {
			continue
		}
		cands = append(cands, cand{n, out1})
	}
	sort.Slice(cands, func(i, j int) bool {
		mi, mj := g.Nodes[cands[i].n].Name == "main", g.Nodes[cands[j].n].Name == "main"
		if mi != mj {
			return mi
		}
		if cands[i].out != cands[j].out {
			return cands[i].out > cands[j].out
		}
		return cands[i].n < cands[j].n
	})
	if len(cands) > 200 {
		cands = cands[:200]
	}
	var out []EntryPoint
	for _, c := range cands {
		reach := g.Walk([]memgraph.NodeID{c.n}, memgraph.WalkOptions{Types: calls, MaxDepth: 3, Limit: 500})
		out = append(out, EntryPoint{SymbolInfo: Info(g, c.n), Reach: len(reach.Hits)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		am, bm := a.Name == "main", b.Name == "main"
		if am != bm {
			return am
		}
		if a.Reach != b.Reach {
			return a.Reach > b.Reach
		}
		return a.UID < b.UID
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
