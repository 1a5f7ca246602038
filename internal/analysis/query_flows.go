package analysis

import (
	"math"
	"sort"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// QueryProcess is an execution flow some hits of a search are steps of.
type QueryProcess struct {
	ProcessRef
	Score   float64           `json:"score"`
	Symbols []QueryProcessHit `json:"symbols"`
}

// QueryProcessHit is a hit and its step in the process.
type QueryProcessHit struct {
	UID   string  `json:"uid"`
	Name  string  `json:"name"`
	Step  int     `json:"step"`
	Score float64 `json:"score"`
}

// cohesionBoost scales a process's score by 1 + cohesionBoost × the
// cohesion of its entry's community: among flows whose hits score alike,
// the one inside a well-separated area ranks first.
const cohesionBoost = 0.1

// processRanking accumulates the hits of a search by process.
type processRanking struct {
	g     *memgraph.Graph
	procs map[memgraph.NodeID]*QueryProcess
}

func newProcessRanking(g *memgraph.Graph) *processRanking {
	return &processRanking{g: g, procs: map[memgraph.NodeID]*QueryProcess{}}
}

func (r *processRanking) add(n memgraph.NodeID, qs QuerySymbol) {
	for _, ps := range r.g.ProcessesOf(n) {
		p := r.procs[ps.Process]
		if p == nil {
			p = &QueryProcess{ProcessRef: processRef(r.g, ps.Process, 0)}
			r.procs[ps.Process] = p
		}
		p.Score += qs.Score
		p.Symbols = append(p.Symbols, QueryProcessHit{UID: qs.UID, Name: qs.Name, Step: ps.Step, Score: qs.Score})
	}
}

// ranked returns the best limit processes, each with at most perProcess
// hits in step order, and whether any were cut.
func (r *processRanking) ranked(limit, perProcess int) ([]QueryProcess, bool) {
	out := make([]QueryProcess, 0, len(r.procs))
	cut := false
	for pn, p := range r.procs {
		cohesion := 0.0
		if info, ok := r.g.ProcessInfo(pn); ok {
			if c, ok := r.g.CommunityOf(info.Entry); ok {
				if ci, ok := r.g.CommunityInfo(c); ok {
					cohesion = ci.Cohesion
				}
			}
		}
		p.Score = math.Round(p.Score*(1+cohesionBoost*cohesion)*1000) / 1000
		sort.Slice(p.Symbols, func(i, j int) bool { return p.Symbols[i].Step < p.Symbols[j].Step })
		if len(p.Symbols) > perProcess {
			p.Symbols, cut = p.Symbols[:perProcess], true
		}
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].UID < out[j].UID
	})
	if len(out) > limit {
		out, cut = out[:limit], true
	}
	return out, cut
}
