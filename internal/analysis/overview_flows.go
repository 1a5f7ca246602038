package analysis

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// ClusterInfo is one functional area of the overview: the communities that
// share a base label, merged.
type ClusterInfo struct {
	Label       string  `json:"label"`
	Symbols     int     `json:"symbolCount"`
	Cohesion    float64 `json:"cohesion"` // weighted by the communities' sizes
	Communities int     `json:"communities"`
}

// MinOverviewCluster is the smallest area the overview lists: smaller ones
// orient no one.
const MinOverviewCluster = 5

// Clusters merges communities by base label and lists the largest, at most
// limit, hiding those under minSymbols symbols.
func Clusters(g *memgraph.Graph, limit, minSymbols int) []ClusterInfo {
	byLabel := map[string]*ClusterInfo{}
	weighted := map[string]float64{}
	for _, c := range g.Communities() {
		base := BaseLabel(c.Label)
		ci := byLabel[base]
		if ci == nil {
			ci = &ClusterInfo{Label: base}
			byLabel[base] = ci
		}
		ci.Symbols += c.SymbolCount
		ci.Communities++
		weighted[base] += c.Cohesion * float64(c.SymbolCount)
	}
	out := []ClusterInfo{}
	for base, ci := range byLabel {
		if ci.Symbols < minSymbols {
			continue
		}
		ci.Cohesion = math.Round(weighted[base]/float64(ci.Symbols)*100) / 100
		out = append(out, *ci)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Symbols != out[j].Symbols {
			return out[i].Symbols > out[j].Symbols
		}
		return out[i].Label < out[j].Label
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// MainProcesses lists the execution flows in the indexer's rank order
// (entry score: mains and handlers first, then length), at most limit.
func MainProcesses(g *memgraph.Graph, limit int) []ProcessRef {
	ps := slices.Clone(g.Processes())
	slices.SortFunc(ps, func(a, b memgraph.Process) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Node, b.Node))
	})
	out := make([]ProcessRef, 0, min(limit, len(ps)))
	for _, p := range ps {
		if len(out) == limit {
			break
		}
		out = append(out, processRef(g, p.Node, 0))
	}
	return out
}
