package analysis

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// ProcessImpact is an execution flow that passes through the target of an
// impact or through a symbol at depth 1. BrokenStep is where the flow meets
// the change: the target's step when the flow passes through the target,
// else the earliest step that is a depth-1 symbol. Hits counts the steps
// that are the target or affected at any depth.
type ProcessImpact struct {
	ProcessRef
	BrokenStep int  `json:"brokenStep"`
	Hits       int  `json:"hits"`
	Target     bool `json:"throughTarget"`
}

// CommunityImpact is a community that affected symbols belong to; Direct
// when it holds the target or a depth-1 symbol.
type CommunityImpact struct {
	UID    string `json:"uid"`
	Label  string `json:"label"`
	Hits   int    `json:"hits"`
	Direct bool   `json:"direct"`
}

// touched is a symbol an impact reached, at its depth (0: the target).
type touched struct {
	node  memgraph.NodeID
	depth int
}

// flowImpact finds the processes and communities the touched symbols
// belong to. Processes through the target come first, then by the
// earliest broken step and the most hits; communities direct first, then
// by hits.
func flowImpact(g *memgraph.Graph, ts []touched) ([]ProcessImpact, []CommunityImpact) {
	procs := map[memgraph.NodeID]*ProcessImpact{}
	comms := map[memgraph.NodeID]*CommunityImpact{}
	// Processes through the target or a depth-1 symbol (ts lists depth
	// 0, then 1, then deeper).
	for _, t := range ts {
		if t.depth > 1 {
			break
		}
		for _, ps := range g.ProcessesOf(t.node) {
			p := procs[ps.Process]
			switch {
			case p == nil:
				procs[ps.Process] = &ProcessImpact{ProcessRef: processRef(g, ps.Process, 0), BrokenStep: ps.Step,
					Target: t.depth == 0}
			case p.Target == (t.depth == 0):
				p.BrokenStep = min(p.BrokenStep, ps.Step)
			}
		}
	}
	for _, t := range ts {
		for _, ps := range g.ProcessesOf(t.node) {
			if p := procs[ps.Process]; p != nil {
				p.Hits++
			}
		}
		if c, ok := g.CommunityOf(t.node); ok {
			ci := comms[c]
			if ci == nil {
				ref := communityRef(g, c)
				ci = &CommunityImpact{UID: ref.UID, Label: ref.Label}
				comms[c] = ci
			}
			ci.Hits++
			if t.depth <= 1 {
				ci.Direct = true
			}
		}
	}
	outP := make([]ProcessImpact, 0, len(procs))
	for _, p := range procs {
		outP = append(outP, *p)
	}
	sort.Slice(outP, func(i, j int) bool {
		a, b := outP[i], outP[j]
		if a.Target != b.Target {
			return a.Target
		}
		if a.BrokenStep != b.BrokenStep {
			return a.BrokenStep < b.BrokenStep
		}
		if a.Hits != b.Hits {
			return a.Hits > b.Hits
		}
		return a.UID < b.UID
	})
	outC := make([]CommunityImpact, 0, len(comms))
	for _, c := range comms {
		outC = append(outC, *c)
	}
	sort.Slice(outC, func(i, j int) bool {
		a, b := outC[i], outC[j]
		if a.Direct != b.Direct {
			return a.Direct
		}
		if a.Hits != b.Hits {
			return a.Hits > b.Hits
		}
		return a.Label < b.Label
	})
	return outP, outC
}
