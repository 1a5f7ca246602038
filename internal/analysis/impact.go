package analysis

import (
	"sort"
	"strconv"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// ImpactOptions configure an impact analysis.
type ImpactOptions struct {
	Upstream      bool             // who depends on the target (callers); else what it depends on
	MaxDepth      int              // levels, 1..MaxImpactDepth
	Types         []graph.EdgeType // edge types followed
	IncludeTests  bool             // follow and list test code
	MinConfidence float32
	Limit         int // items listed per depth
	Offset        int // items skipped per depth
	SummaryOnly   bool
}

// Impact defaults and bounds.
const (
	DefaultImpactDepth = 3
	MaxImpactDepth     = 5
	DefaultImpactLimit = 100
	// MaxImpactVisit bounds the walk itself; past it the counts are lower
	// bounds and the result says so.
	MaxImpactVisit = 20000
)

// DefaultImpactTypes are the edges an impact follows by default.
var DefaultImpactTypes = []graph.EdgeType{graph.EdgeCalls, graph.EdgeImports, graph.EdgeExtends, graph.EdgeImplements}

// ImpactItem is one affected node.
type ImpactItem struct {
	Relation
	Depth int    `json:"depth"`
	Via   string `json:"via"` // the edge type that reached it
	From  string `json:"from"`
}

// ModuleImpact is a package or folder that affected nodes belong to.
type ModuleImpact struct {
	Name   string `json:"name"`
	Layer  string `json:"layer,omitempty"` // its path's (see LayerOf)
	Hits   int    `json:"hits"`
	Direct bool   `json:"direct"` // holds a depth-1 item
}

// ImpactSummary counts what an impact found.
type ImpactSummary struct {
	Direct    int `json:"direct"`
	Total     int `json:"total"`
	Modules   int `json:"modules"`
	Processes int `json:"processes"`
}

// ImpactResult is the blast radius of changing a symbol.
type ImpactResult struct {
	Status            string                  `json:"status"`
	Target            *SymbolInfo             `json:"target,omitempty"`
	Candidates        []Candidate             `json:"candidates,omitempty"`
	TotalCandidates   int                     `json:"totalCandidates,omitempty"`
	Direction         string                  `json:"direction"`
	MaxDepth          int                     `json:"maxDepth"`
	Risk              string                  `json:"risk"`
	Summary           ImpactSummary           `json:"summary"`
	ByDepth           map[string][]ImpactItem `json:"byDepth,omitempty"`
	ByDepthCounts     map[string]int          `json:"byDepthCounts"`
	AffectedModules   []ModuleImpact          `json:"affected_modules"`
	AffectedProcesses []ProcessImpact         `json:"affected_processes"`
	// AffectedCommunities are the communities of the target and the
	// affected symbols.
	AffectedCommunities []CommunityImpact `json:"affected_communities"`
	// Truncated: some depth lists more items than Limit from Offset; ask
	// again with Offset = NextOffset. Exhaustive false: the walk stopped at
	// MaxImpactVisit nodes, so the counts are lower bounds.
	Truncated  bool `json:"truncated"`
	Offset     int  `json:"offset"`
	Limit      int  `json:"limit"`
	NextOffset int  `json:"nextOffset,omitempty"`
	Exhaustive bool `json:"exhaustive"`
}

// Risk levels and their thresholds (docs/tools.md). The level is the
// highest any measure reaches.
const (
	RiskLow      = "LOW"
	RiskMedium   = "MEDIUM"
	RiskHigh     = "HIGH"
	RiskCritical = "CRITICAL"
)

// RiskLevel grades an impact from its direct and total counts, the modules
// and the processes it reaches.
func RiskLevel(s ImpactSummary) string {
	switch {
	case s.Direct >= 30 || s.Total >= 300 || s.Modules >= 15 || s.Processes >= 10:
		return RiskCritical
	case s.Direct >= 10 || s.Total >= 100 || s.Modules >= 8 || s.Processes >= 5:
		return RiskHigh
	case s.Direct >= 3 || s.Total >= 20 || s.Modules >= 3 || s.Processes >= 2:
		return RiskMedium
	}
	return RiskLow
}

// Impact walks from start breadth first, one level at a time, each node once,
// and reports the affected nodes by depth with the edge that first reached
// them, the modules they belong to and a risk level.
func Impact(g *memgraph.Graph, start []memgraph.NodeID, opt ImpactOptions) ImpactResult {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultImpactDepth
	}
	if opt.MaxDepth > MaxImpactDepth {
		opt.MaxDepth = MaxImpactDepth
	}
	if opt.Limit <= 0 {
		opt.Limit = DefaultImpactLimit
	}
	if len(opt.Types) == 0 {
		opt.Types = DefaultImpactTypes
	}
	dir := "downstream"
	if opt.Upstream {
		dir = "upstream"
	}
	res := ImpactResult{Status: "found", Direction: dir, MaxDepth: opt.MaxDepth, ByDepthCounts: map[string]int{},
		Offset: opt.Offset, Limit: opt.Limit,
		AffectedModules: []ModuleImpact{}, AffectedProcesses: []ProcessImpact{}, AffectedCommunities: []CommunityImpact{},
		Exhaustive: true}
	// The walk keeps small records; only the items a page lists become
	// ImpactItems. Module and test status are computed once per file.
	facts := factsOf(g)
	dirn := memgraph.Outgoing
	if opt.Upstream {
		dirn = memgraph.Incoming
	}
	wo := memgraph.WalkOptions{Direction: dirn, Types: opt.Types, MaxDepth: opt.MaxDepth,
		MinConfidence: opt.MinConfidence, Limit: MaxImpactVisit}
	if !opt.IncludeTests {
		wo.Skip = facts.isTest
	}
	walk := g.Walk(start, wo)
	res.Exhaustive = !walk.Truncated
	levels := walk.Levels()
	modules := map[string]*ModuleImpact{}
	for _, level := range levels {
		for _, h := range level {
			name := facts.moduleOf(h.Node)
			m := modules[name]
			if m == nil {
				m = &ModuleImpact{Name: name, Layer: facts.fileLayer(h.Node)}
				modules[name] = m
			}
			m.Hits++
			if h.Depth == 1 {
				m.Direct = true
			}
		}
	}
	for _, m := range modules {
		res.AffectedModules = append(res.AffectedModules, *m)
	}
	sort.Slice(res.AffectedModules, func(i, j int) bool {
		a, b := res.AffectedModules[i], res.AffectedModules[j]
		if a.Direct != b.Direct {
			return a.Direct
		}
		if a.Hits != b.Hits {
			return a.Hits > b.Hits
		}
		return a.Name < b.Name
	})
	if !opt.SummaryOnly {
		res.ByDepth = map[string][]ImpactItem{}
	}
	for i, level := range levels {
		depth := strconv.Itoa(i + 1)
		res.ByDepthCounts[depth] = len(level)
		res.Summary.Total += len(level)
		if i == 0 {
			res.Summary.Direct = len(level)
		}
		if opt.SummaryOnly {
			continue
		}
		// Most confident first, then by file and line: the order of
		// the pages.
		sort.Slice(level, func(a, b int) bool {
			x, y := &level[a], &level[b]
			if x.Via.Confidence != y.Via.Confidence {
				return x.Via.Confidence > y.Via.Confidence
			}
			nx, ny := &g.Nodes[x.Node], &g.Nodes[y.Node]
			if nx.FilePath != ny.FilePath {
				return nx.FilePath < ny.FilePath
			}
			if nx.StartLine != ny.StartLine {
				return nx.StartLine < ny.StartLine
			}
			return x.Node < y.Node
		})
		lo := min(opt.Offset, len(level))
		hi := min(lo+opt.Limit, len(level))
		items := make([]ImpactItem, 0, hi-lo)
		for _, h := range level[lo:hi] {
			other := &g.Nodes[h.Node]
			items = append(items, ImpactItem{Relation: Relation{UID: other.ID, Name: other.Name,
				Kind: other.Kind.String(), FilePath: other.FilePath, StartLine: int(other.StartLine),
				SiteLine: int(h.Via.Line), Confidence: h.Via.Confidence, Reason: string(g.Reason(h.Via)),
				Test: facts.isTest(h.Node)},
				Depth: h.Depth, Via: h.Via.Type.String(), From: g.Nodes[h.From].ID})
		}
		res.ByDepth[depth] = items
		if hi < len(level) {
			res.Truncated = true
			res.NextOffset = opt.Offset + opt.Limit
		}
	}
	res.Summary.Modules = len(res.AffectedModules)
	ts := make([]touched, 0, len(start)+len(walk.Hits))
	for _, s := range start {
		ts = append(ts, touched{s, 0})
	}
	for _, level := range levels {
		for _, h := range level {
			ts = append(ts, touched{h.Node, h.Depth})
		}
	}
	res.AffectedProcesses, res.AffectedCommunities = flowImpact(g, ts)
	// The risk counts the flows that run through the target itself; those
	// that only pass a depth-1 symbol may never reach the change.
	for _, p := range res.AffectedProcesses {
		if p.Target {
			res.Summary.Processes++
		}
	}
	res.Risk = RiskLevel(res.Summary)
	return res
}
