package analysis

import (
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The communities and processes the indexer found, as the tools show them.

// ProcessRef is a process and, for a symbol, its place in it.
type ProcessRef struct {
	UID   string `json:"uid"`
	Label string `json:"label"`
	Type  string `json:"processType"`
	Steps int    `json:"stepCount"`
	Step  int    `json:"step,omitempty"` // the symbol's 1-based step
}

// CommunityRef is a community.
type CommunityRef struct {
	UID      string   `json:"uid"`
	Label    string   `json:"label"`
	Cohesion float64  `json:"cohesion"`
	Symbols  int      `json:"symbolCount"`
	Keywords []string `json:"keywords,omitempty"`
}

// isFlowEdge reports edges to communities and processes, which the tools
// show in sections of their own rather than as relations.
func isFlowEdge(t graph.EdgeType) bool {
	return t == graph.EdgeMemberOf || t == graph.EdgeStepInProcess || t == graph.EdgeEntryPointOf
}

func processRef(g *memgraph.Graph, p memgraph.NodeID, step int) ProcessRef {
	ref := ProcessRef{UID: g.Nodes[p].ID, Label: g.Nodes[p].Name, Step: step}
	if info, ok := g.ProcessInfo(p); ok {
		ref.Label, ref.Type, ref.Steps = info.Label, info.Type, info.StepCount
	}
	return ref
}

func communityRef(g *memgraph.Graph, c memgraph.NodeID) CommunityRef {
	ref := CommunityRef{UID: g.Nodes[c].ID, Label: g.Nodes[c].Name}
	if info, ok := g.CommunityInfo(c); ok {
		ref.Label, ref.Cohesion, ref.Symbols, ref.Keywords = info.Label, info.Cohesion, info.SymbolCount, info.Keywords
	}
	return ref
}

// ProcessesOf lists the processes symbol n is a step of, by label.
func ProcessesOf(g *memgraph.Graph, n memgraph.NodeID) []ProcessRef {
	out := []ProcessRef{}
	for _, ps := range g.ProcessesOf(n) {
		out = append(out, processRef(g, ps.Process, ps.Step))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Label != out[j].Label {
			return out[i].Label < out[j].Label
		}
		return out[i].UID < out[j].UID
	})
	return out
}

// CommunityOf returns the community of symbol n, nil when it has none.
func CommunityOf(g *memgraph.Graph, n memgraph.NodeID) *CommunityRef {
	c, ok := g.CommunityOf(n)
	if !ok {
		return nil
	}
	ref := communityRef(g, c)
	return &ref
}

// BaseLabel is a community label without what tells equal labels apart:
// "http (cookie)" and "http 2" are both "http".
func BaseLabel(label string) string {
	if i := strings.Index(label, " ("); i > 0 && strings.HasSuffix(label, ")") {
		return label[:i]
	}
	if i := strings.LastIndexByte(label, ' '); i > 0 && isDigits(label[i+1:]) {
		return label[:i]
	}
	return label
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// FindCommunities returns the communities whose label or base label is
// name (case-insensitively), largest first.
func FindCommunities(g *memgraph.Graph, name string) []memgraph.NodeID {
	var out []memgraph.NodeID
	for _, c := range g.Communities() {
		if strings.EqualFold(c.Label, name) || strings.EqualFold(BaseLabel(c.Label), name) {
			out = append(out, c.Node)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := g.CommunityInfo(out[i])
		b, _ := g.CommunityInfo(out[j])
		return a.SymbolCount > b.SymbolCount
	})
	return out
}

// FindProcess returns the process whose id or label is name.
func FindProcess(g *memgraph.Graph, name string) (memgraph.NodeID, bool) {
	if n, ok := g.Lookup(name); ok && g.Nodes[n].Kind == graph.KindProcess {
		return n, true
	}
	for _, p := range g.Processes() {
		if p.Label == name {
			return p.Node, true
		}
	}
	for _, p := range g.Processes() {
		if strings.EqualFold(p.Label, name) {
			return p.Node, true
		}
	}
	return 0, false
}

// ClusterDetail is one functional area: the communities that share its
// label (or the one with exactly that label) and their members.
type ClusterDetail struct {
	Label       string         `json:"label"`
	Communities []CommunityRef `json:"communities"`
	Members     []SymbolInfo   `json:"members"`
	Processes   []ProcessRef   `json:"processes"` // flows that enter the area
	Truncated   bool           `json:"truncated"`
}

// Cluster describes the area named name, listing at most limit members
// (by file and line) and the processes whose entry is a member.
func Cluster(g *memgraph.Graph, name string, limit int) (ClusterDetail, bool) {
	comms := FindCommunities(g, name)
	if len(comms) == 0 {
		return ClusterDetail{}, false
	}
	res := ClusterDetail{Label: name, Communities: []CommunityRef{}, Members: []SymbolInfo{}, Processes: []ProcessRef{}}
	in := map[memgraph.NodeID]bool{}
	var members []memgraph.NodeID
	for _, c := range comms {
		res.Communities = append(res.Communities, communityRef(g, c))
		in[c] = true
		for _, e := range g.In(c) {
			if e.Type == graph.EdgeMemberOf {
				members = append(members, e.To)
			}
		}
	}
	sort.Slice(members, func(i, j int) bool {
		a, b := &g.Nodes[members[i]], &g.Nodes[members[j]]
		if a.FilePath != b.FilePath {
			return a.FilePath < b.FilePath
		}
		if a.StartLine != b.StartLine {
			return a.StartLine < b.StartLine
		}
		return members[i] < members[j]
	})
	for i, m := range members {
		if i == limit {
			res.Truncated = true
			break
		}
		res.Members = append(res.Members, Info(g, m))
	}
	for _, p := range g.Processes() {
		if c, ok := g.CommunityOf(p.Entry); ok && in[c] {
			res.Processes = append(res.Processes, processRef(g, p.Node, 0))
		}
	}
	return res, true
}

// ProcessDetail is one execution flow with its steps in order.
type ProcessDetail struct {
	ProcessRef
	Trace []ProcessStepInfo `json:"steps"`
}

// ProcessStepInfo is one step: the symbol, its community, and the line
// where the previous step calls it.
type ProcessStepInfo struct {
	SymbolInfo
	Step      int    `json:"step"`
	Community string `json:"community,omitempty"`
	CallLine  int    `json:"callLine,omitempty"` // in the previous step's file
}

// Process describes the process named name (its id or label).
func Process(g *memgraph.Graph, name string) (ProcessDetail, bool) {
	p, ok := FindProcess(g, name)
	if !ok {
		return ProcessDetail{}, false
	}
	res := ProcessDetail{ProcessRef: processRef(g, p, 0), Trace: []ProcessStepInfo{}}
	steps := g.Steps(p)
	for i, s := range steps {
		st := ProcessStepInfo{SymbolInfo: Info(g, s), Step: i + 1}
		if c := CommunityOf(g, s); c != nil {
			st.Community = c.Label
		}
		if i > 0 {
			for _, e := range g.Out(steps[i-1]) {
				if e.To == s && e.Type == graph.EdgeCalls {
					st.CallLine = int(e.Line)
				}
			}
		}
		res.Trace = append(res.Trace, st)
	}
	return res, true
}
