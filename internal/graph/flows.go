package graph

// Communities and execution flows are nodes and edges like any other
// (KindCommunity, KindProcess; MEMBER_OF, STEP_IN_PROCESS, ENTRY_POINT_OF),
// plus the few properties that do not fit a Node. The enrichment stage of
// the pipeline fills them; the store keeps them in tables of their own.

// Process types.
const (
	ProcessIntraCommunity = "intra_community"
	ProcessCrossCommunity = "cross_community"
)

// CommunityFacts are the properties of one Community node.
type CommunityFacts struct {
	ID          string
	Label       string
	Cohesion    float64 // share of the members' edge weight that stays inside
	SymbolCount int
	Keywords    []string // most frequent words of the members' names
}

// ProcessFacts are the properties of one Process node.
type ProcessFacts struct {
	ID    string
	Label string // "Entry → Terminal"
	Type  string // ProcessIntraCommunity or ProcessCrossCommunity
	// Steps are the node ids of the trace in order: Steps[0] is the entry,
	// the last the terminal. STEP_IN_PROCESS edges carry the 1-based
	// position as their Line.
	Steps []string
}

// Flows are the communities and processes of a graph. Processes are in
// rank order, the most important first.
type Flows struct {
	Communities []CommunityFacts
	Processes   []ProcessFacts
}

// SetFlows attaches the communities and processes found on the graph.
func (g *Graph) SetFlows(f *Flows) { g.flows = f }

// Flows returns the communities and processes attached to the graph, nil
// when none were computed.
func (g *Graph) Flows() *Flows { return g.flows }
