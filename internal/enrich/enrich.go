// Package enrich adds what is learnt from the whole graph once resolution is
// done: communities (functional areas, found by modularity on the graph of
// callables and types) and processes (execution flows traced from scored
// entry points over confident calls). Both become nodes and edges of the
// graph, with their extra properties in graph.Flows.
//
// Everything here is deterministic: nodes are visited in id order, the
// community detection is seeded, and every list is sorted.
package enrich

import (
	"context"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// Options tune the enrichment. The zero value uses the defaults.
type Options struct {
	// Community detection.
	Seed       int64
	Resolution float64       // automatic when 0: see autoResolution
	HubDegree  int           // DefaultHubDegree when 0; negative: no damping
	Budget     time.Duration // DefaultBudget when 0
	// Previous are the communities the index kept: when set, they are
	// updated locally while the change allows (LocalLimit), else detected
	// again. Changed tells the files whose facts changed since.
	Previous *graph.Partition
	Changed  func(path string) bool
	// PreviousWhy says why Previous is nil, for Stats.CommunityWhy.
	PreviousWhy string
	// Processes.
	MaxProcesses int // DefaultMaxProcesses when 0
}

// Defaults. bench/flows/RESULTS.md has the measurements behind them.
const (
	DefaultHubDegree    = 10
	DefaultBudget       = 20 * time.Second
	DefaultMaxProcesses = 300
)

func (o Options) withDefaults() Options {
	if o.HubDegree == 0 {
		o.HubDegree = DefaultHubDegree
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.MaxProcesses <= 0 {
		o.MaxProcesses = DefaultMaxProcesses
	}
	return o
}

// Stats describe one enrichment.
type Stats struct {
	Communities    int     `json:"communities"`
	Modularity     float64 `json:"modularity"`       // at resolution 1
	Resolution     float64 `json:"resolution"`       // the one detection used
	CommunityNodes int     `json:"communityNodes"`   // symbols in the detection graph
	CommunityStop  bool    `json:"communityStopped"` // the budget ran out
	// CommunityUpdate is "detected" or "local" (updated from the index's
	// communities); CommunityWhy says why they were detected.
	CommunityUpdate string `json:"communityUpdate"`
	CommunityWhy    string `json:"communityWhy,omitempty"`
	// A local update: symbols changed since the last detection and the
	// limit they may reach, symbols placed in a community, communities
	// added and dissolved.
	CommunityDrift       int   `json:"communityDrift,omitempty"`
	CommunityDriftLimit  int   `json:"communityDriftLimit,omitempty"`
	CommunityPlaced      int   `json:"communityPlaced,omitempty"`
	CommunitiesAdded     int   `json:"communitiesAdded,omitempty"`
	CommunitiesDissolved int   `json:"communitiesDissolved,omitempty"`
	EntryPoints          int   `json:"entryPoints"`
	Traces               int   `json:"traces"` // before dropping contained ones and capping
	Processes            int   `json:"processes"`
	CommunityMillis      int64 `json:"communityMillis"`
	ProcessMillis        int64 `json:"processMillis"`
}

// Run finds the communities and processes of g, adds their nodes and edges
// to g and attaches their properties (g.SetFlows).
func Run(ctx context.Context, g *graph.Graph, opt Options) (Stats, error) {
	opt = opt.withDefaults()
	var st Stats
	v := newView(g)
	timeline.Mark("enrich: view")
	// Tracing does not depend on the communities (they only label the
	// processes found, in addProcesses), and each reads the view apart:
	// the two run side by side. Tracing writes its own fields of the view
	// (fanIn, onward, callees) and of a Stats of its own.
	type traced struct {
		procs  []trace
		st     Stats
		millis int64
	}
	tracing := make(chan traced, 1)
	go func() {
		var t traced
		start := time.Now()
		t.procs = traceProcesses(ctx, v, opt, &t.st)
		t.millis = time.Since(start).Milliseconds()
		timeline.Mark("enrich: processes traced")
		tracing <- t
	}()
	start := time.Now()
	comms := detectCommunities(v, opt, &st)
	st.CommunityMillis = time.Since(start).Milliseconds()
	timeline.Mark("enrich: communities")
	t := <-tracing
	procs := t.procs
	st.EntryPoints, st.Traces, st.ProcessMillis = t.st.EntryPoints, t.st.Traces, t.millis
	if err := ctx.Err(); err != nil {
		return st, err
	}
	flows := &graph.Flows{Detection: graph.CommunityDetection{Symbols: st.CommunityNodes}}
	if comms.kept != nil {
		flows.Detection = graph.CommunityDetection{Symbols: opt.Previous.Detection.Symbols, Drift: st.CommunityDrift}
	}
	addCommunities(g, v, comms, flows)
	addProcesses(g, v, procs, comms, flows)
	g.SetFlows(flows)
	timeline.Mark("enrich: flows added")
	st.Communities = len(flows.Communities)
	st.Processes = len(flows.Processes)
	return st, nil
}
