package memgraph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Community is the properties of one Community node.
type Community struct {
	Node        NodeID
	Label       string
	Cohesion    float64
	SymbolCount int
	Keywords    []string
}

// Process is the properties of one Process node.
type Process struct {
	Node            NodeID
	Label           string
	Type            string // graph.ProcessIntraCommunity or graph.ProcessCrossCommunity
	StepCount       int
	Entry, Terminal NodeID
	Rank            int // 1 first: by the entry's score, then the length
}

// flowIndex holds the communities and processes of a graph, in node order.
type flowIndex struct {
	communities []Community
	processes   []Process
	community   map[NodeID]int // Community node -> index in communities
	process     map[NodeID]int
}

// loadFlows reads the properties of the communities and processes.
func (g *Graph) loadFlows(ctx context.Context, r *store.Reader) error {
	cs, ps, err := r.Flows(ctx)
	if err != nil {
		return err
	}
	g.flows = flowIndex{community: map[NodeID]int{}, process: map[NodeID]int{}}
	// The tables are in rid order, which after incremental writes is not
	// the nodes' order; the lists are kept in node order.
	for _, c := range cs {
		n, ok := g.NodeOfRid(c.Rid)
		if !ok {
			return fmt.Errorf("load graph: community %d points outside the nodes", c.Rid)
		}
		g.flows.communities = append(g.flows.communities, Community{Node: n, Label: c.Label,
			Cohesion: c.Cohesion, SymbolCount: c.SymbolCount, Keywords: c.Keywords})
	}
	for _, p := range ps {
		n, ok1 := g.NodeOfRid(p.Rid)
		entry, ok2 := g.NodeOfRid(p.Entry)
		terminal, ok3 := g.NodeOfRid(p.Terminal)
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("load graph: process %d points outside the nodes", p.Rid)
		}
		g.flows.processes = append(g.flows.processes, Process{Node: n, Label: p.Label, Type: p.Type,
			StepCount: p.StepCount, Entry: entry, Terminal: terminal, Rank: p.Rank})
	}
	slices.SortFunc(g.flows.communities, func(a, b Community) int { return cmp.Compare(a.Node, b.Node) })
	slices.SortFunc(g.flows.processes, func(a, b Process) int { return cmp.Compare(a.Node, b.Node) })
	for i, c := range g.flows.communities {
		g.flows.community[c.Node] = i
	}
	for i, p := range g.flows.processes {
		g.flows.process[p.Node] = i
	}
	return nil
}

// Communities returns every community, in node order. The slice is owned
// by the graph.
func (g *Graph) Communities() []Community { return g.flows.communities }

// Processes returns every process, in node order. The slice is owned by
// the graph.
func (g *Graph) Processes() []Process { return g.flows.processes }

// CommunityInfo returns the properties of Community node n.
func (g *Graph) CommunityInfo(n NodeID) (*Community, bool) {
	i, ok := g.flows.community[n]
	if !ok {
		return nil, false
	}
	return &g.flows.communities[i], true
}

// ProcessInfo returns the properties of Process node n.
func (g *Graph) ProcessInfo(n NodeID) (*Process, bool) {
	i, ok := g.flows.process[n]
	if !ok {
		return nil, false
	}
	return &g.flows.processes[i], true
}

// CommunityOf returns the community symbol n belongs to.
func (g *Graph) CommunityOf(n NodeID) (NodeID, bool) {
	for _, e := range g.Out(n) {
		if e.Type == graph.EdgeMemberOf {
			return e.To, true
		}
	}
	return 0, false
}

// ProcessStep is a symbol's place in a process.
type ProcessStep struct {
	Process NodeID
	Step    int // 1-based
}

// ProcessesOf returns the processes symbol n is a step of, with its step,
// in process node order.
func (g *Graph) ProcessesOf(n NodeID) []ProcessStep {
	var out []ProcessStep
	for _, e := range g.Out(n) {
		if e.Type == graph.EdgeStepInProcess {
			out = append(out, ProcessStep{Process: e.To, Step: int(e.Line)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Process < out[j].Process })
	return out
}

// Steps returns the steps of process p in order.
func (g *Graph) Steps(p NodeID) []NodeID {
	type step struct {
		n NodeID
		k int32
	}
	var ss []step
	for _, e := range g.In(p) {
		if e.Type == graph.EdgeStepInProcess {
			ss = append(ss, step{e.To, e.Line})
		}
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].k < ss[j].k })
	out := make([]NodeID, len(ss))
	for i, s := range ss {
		out[i] = s.n
	}
	return out
}
