package analysis

import (
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Relation is a node related to the symbol of a context, and how.
type Relation struct {
	UID       string `json:"uid"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	FilePath  string `json:"filePath"`
	StartLine int    `json:"startLine"`
	SiteLine  int    `json:"siteLine,omitempty"` // where the relation is written (the first call site)
	// SiteLines are all the lines where it is written, when more than one.
	SiteLines  []int32 `json:"siteLines,omitempty"`
	Confidence float32 `json:"confidence"`
	Reason     string  `json:"reason"`
	Test       bool    `json:"test,omitempty"`
}

// RelationGroup is the relations of one type and direction.
type RelationGroup struct {
	Total     int        `json:"total"`
	Items     []Relation `json:"items"`
	Truncated bool       `json:"truncated,omitempty"`
}

// ContextResult is the 360-degree view of one symbol.
type ContextResult struct {
	Status          string                   `json:"status"` // found, ambiguous, not_found
	Symbol          *SymbolInfo              `json:"symbol,omitempty"`
	Module          string                   `json:"module,omitempty"`
	Layer           string                   `json:"layer,omitempty"` // see LayerOf
	Candidates      []Candidate              `json:"candidates,omitempty"`
	TotalCandidates int                      `json:"totalCandidates,omitempty"`
	Incoming        map[string]RelationGroup `json:"incoming,omitempty"`
	Outgoing        map[string]RelationGroup `json:"outgoing,omitempty"`
	// Community is the functional area the symbol belongs to; Processes
	// the execution flows it is a step of.
	Community *CommunityRef `json:"community,omitempty"`
	Processes []ProcessRef  `json:"processes"`
	// TotalProcesses counts the processes when more than PerGroup were
	// found and only PerGroup are listed.
	TotalProcesses int `json:"totalProcesses,omitempty"`
}

// ContextOptions bound a context.
type ContextOptions struct {
	PerGroup int // relations listed per type and direction; DefaultPerGroup when 0
}

// DefaultPerGroup is how many relations of one type a context lists.
const DefaultPerGroup = 50

// RelationKey is the name a relation group has in results: the edge type
// in lower case ("calls", "has_method").
func RelationKey(t graph.EdgeType) string { return strings.ToLower(t.String()) }

// Context describes symbol n and everything linked to it, grouped by edge
// type and direction, most confident first.
func Context(g *memgraph.Graph, n memgraph.NodeID, opt ContextOptions) ContextResult {
	if opt.PerGroup <= 0 {
		opt.PerGroup = DefaultPerGroup
	}
	info := Info(g, n)
	mod, _ := ModuleOf(g, n)
	res := ContextResult{Status: "found", Symbol: &info, Module: mod, Layer: factsOf(g).layerOf(n), Processes: ProcessesOf(g, n),
		Community: CommunityOf(g, n), Incoming: group(g, g.In(n), opt.PerGroup), Outgoing: group(g, g.Out(n), opt.PerGroup)}
	if len(res.Processes) > opt.PerGroup {
		res.TotalProcesses = len(res.Processes)
		res.Processes = res.Processes[:opt.PerGroup]
	}
	return res
}

func group(g *memgraph.Graph, edges []memgraph.Edge, per int) map[string]RelationGroup {
	facts := factsOf(g)
	// Sort positions into edges by type, then order; only the listed
	// relations are built.
	byType := map[graph.EdgeType][]int{}
	for i, e := range edges {
		if isFlowEdge(e.Type) {
			continue // shown as the community and the processes
		}
		byType[e.Type] = append(byType[e.Type], i)
	}
	out := map[string]RelationGroup{}
	for t, idx := range byType {
		sort.SliceStable(idx, func(i, j int) bool {
			a, b := edges[idx[i]], edges[idx[j]]
			if ta, tb := facts.isTest(a.To), facts.isTest(b.To); ta != tb {
				return !ta
			}
			if a.Confidence != b.Confidence {
				return a.Confidence > b.Confidence
			}
			na, nb := &g.Nodes[a.To], &g.Nodes[b.To]
			if na.FilePath != nb.FilePath {
				return na.FilePath < nb.FilePath
			}
			return na.StartLine < nb.StartLine
		})
		grp := RelationGroup{Total: len(idx)}
		if len(idx) > per {
			idx, grp.Truncated = idx[:per], true
		}
		grp.Items = make([]Relation, 0, len(idx))
		for _, i := range idx {
			e := edges[i]
			other := &g.Nodes[e.To]
			rel := Relation{UID: other.ID, Name: other.Name, Kind: other.Kind.String(), FilePath: other.FilePath,
				StartLine: int(other.StartLine), SiteLine: int(e.Line), Confidence: e.Confidence,
				Reason: string(g.Reason(e)), Test: facts.isTest(e.To)}
			if lines := g.Lines(e); len(lines) > 1 {
				rel.SiteLines = lines
			}
			grp.Items = append(grp.Items, rel)
		}
		out[RelationKey(t)] = grp
	}
	return out
}
