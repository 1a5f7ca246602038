package backend

import (
	"context"
	"fmt"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The graph as the web view draws it (GET /api/v1/graph/...): typed
// answers over a repository's in-memory graph, computed by the analysis
// package. Ids are the graph's node ids.

// NeighbourhoodAnswer is a symbol's neighbourhood.
type NeighbourhoodAnswer struct {
	Repo   string `json:"repo"`
	Center string `json:"center"`
	analysis.GraphView
}

// Neighbourhood returns the nodes within opt.Depth edges of the node with
// id uid in repository ref, and the edges among them.
func (b *Backend) Neighbourhood(ctx context.Context, ref, uid string, opt analysis.NeighbourhoodOptions) (*NeighbourhoodAnswer, error) {
	var out *NeighbourhoodAnswer
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		n, ok := s.Graph.Lookup(uid)
		if !ok {
			return nil, &NotFoundError{What: fmt.Sprintf("no node has the id %q in %s: take ids from the answers "+
				"of the query or context tools (e.g. Method:store/store.go:Store.Get)", uid, s.Repo.ID)}
		}
		out = &NeighbourhoodAnswer{Repo: s.Repo.ID, Center: uid, GraphView: analysis.Neighbourhood(s.Graph, n, opt)}
		return nil, nil
	})
	return out, err
}

// CommunityMapAnswer is a repository's communities and their links.
type CommunityMapAnswer struct {
	Repo string `json:"repo"`
	analysis.CommunityMapView
}

// CommunityMap returns the communities of repository ref (the largest
// limit of them) and the links among them.
func (b *Backend) CommunityMap(ctx context.Context, ref string, limit int) (*CommunityMapAnswer, error) {
	var out *CommunityMapAnswer
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		out = &CommunityMapAnswer{Repo: s.Repo.ID, CommunityMapView: analysis.CommunityMap(s.Graph, limit)}
		return nil, nil
	})
	return out, err
}

// CommunityAnswer is one community's members and the edges among them.
type CommunityAnswer struct {
	Repo  string `json:"repo"`
	ID    string `json:"id"`
	Label string `json:"label"`
	analysis.GraphView
}

// CommunityView returns the members of community id (a Community node's
// id, or its label) in repository ref, at most limit, and the code edges
// among them.
func (b *Backend) CommunityView(ctx context.Context, ref, id string, limit int) (*CommunityAnswer, error) {
	var out *CommunityAnswer
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		n, ok := flowNode(s.Graph, id, "Community:", graph.KindCommunity)
		if !ok {
			return nil, &NotFoundError{What: fmt.Sprintf("no community %q in %s: take ids from GET /api/v1/graph/communities", id, s.Repo.ID)}
		}
		out = &CommunityAnswer{Repo: s.Repo.ID, ID: s.Graph.Nodes[n].ID, GraphView: analysis.CommunityView(s.Graph, n, limit)}
		if c, ok := s.Graph.CommunityInfo(n); ok {
			out.Label = c.Label
		}
		return nil, nil
	})
	return out, err
}

// ProcessListAnswer is a repository's processes.
type ProcessListAnswer struct {
	Repo string `json:"repo"`
	analysis.ProcessListView
}

// ProcessList returns the processes of repository ref, the first limit
// by rank.
func (b *Backend) ProcessList(ctx context.Context, ref string, limit int) (*ProcessListAnswer, error) {
	var out *ProcessListAnswer
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		out = &ProcessListAnswer{Repo: s.Repo.ID, ProcessListView: analysis.ProcessList(s.Graph, limit)}
		return nil, nil
	})
	return out, err
}

// ProcessAnswer is one process's steps and the calls among them.
type ProcessAnswer struct {
	Repo string `json:"repo"`
	analysis.ProcessView
}

// ProcessSteps returns the steps of process id (a Process node's id) in
// repository ref.
func (b *Backend) ProcessSteps(ctx context.Context, ref, id string) (*ProcessAnswer, error) {
	var out *ProcessAnswer
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		n, ok := flowNode(s.Graph, id, "Process:", graph.KindProcess)
		if !ok {
			return nil, &NotFoundError{What: fmt.Sprintf("no process %q in %s: take ids from GET /api/v1/graph/processes", id, s.Repo.ID)}
		}
		out = &ProcessAnswer{Repo: s.Repo.ID, ProcessView: analysis.ProcessSteps(s.Graph, n)}
		return nil, nil
	})
	return out, err
}

// flowNode finds a node of kind by its id, or by its id without the
// kind's prefix.
func flowNode(g *memgraph.Graph, id, prefix string, kind graph.NodeKind) (memgraph.NodeID, bool) {
	for _, cand := range []string{id, prefix + id} {
		if n, ok := g.Lookup(cand); ok && g.Nodes[n].Kind == kind {
			return n, true
		}
	}
	return 0, false
}
