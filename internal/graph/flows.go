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
	// Detection says how far the communities are from the last time
	// they were detected on the whole graph.
	Detection CommunityDetection
}

// CommunityDetection is what a graph's communities keep of their last
// detection: how many symbols it partitioned, and how many symbols were
// changed (added, removed, or in a file that changed) since then, while
// the communities were only updated locally. An index keeps it in its
// meta; a re-index detects communities again once Drift grows past a
// share of Symbols (enrich.LocalLimit).
type CommunityDetection struct {
	Symbols int `json:"symbols"`
	Drift   int `json:"drift"`
}

// Partition is a graph's division into communities as its index kept
// it: what a re-index starts from to update communities locally instead
// of detecting them again.
type Partition struct {
	Detection CommunityDetection
	// Communities, in id order, with their node's language.
	Communities []CommunityFacts
	Languages   []string
	// Of tells the community (an index into Communities) of each member
	// symbol, by id.
	Of map[string]int32
}

// SetFlows attaches the communities and processes found on the graph.
func (g *Graph) SetFlows(f *Flows) { g.flows = f }

// Flows returns the communities and processes attached to the graph, nil
// when none were computed.
func (g *Graph) Flows() *Flows { return g.flows }
