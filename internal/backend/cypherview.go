package backend

import (
	"cmp"
	"context"
	"slices"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// A Cypher query's answer for the web view (POST /api/v1/cypher): the
// table, and the nodes and relationships in it as a graph to draw.

// Bounds of a Cypher answer for the web view.
const (
	DefaultCypherViewRows = 200
	MaxCypherViewRows     = 5000
	// maxCypherGraph bounds the nodes, and separately the edges, that
	// the graph of an answer collects.
	maxCypherGraph = 20000
)

// CypherNode is a node of a query's answer.
type CypherNode struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	FilePath  string `json:"filePath"`
	StartLine int    `json:"startLine"`
}

// CypherEdge is a relationship of a query's answer.
type CypherEdge struct {
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	Type string `json:"type"`
}

// CypherGraph is every node and relationship in a query's rows (in lists,
// maps and paths too), and the nodes at the ends of those relationships;
// nodes by id, edges by source, target and type.
type CypherGraph struct {
	Nodes []CypherNode `json:"nodes"`
	Edges []CypherEdge `json:"edges"`
	// Truncated: the rows held more than 20,000 nodes or relationships.
	Truncated bool `json:"truncated"`
}

// CypherView is a query's answer: its columns, its rows (values as
// cypher.Result.JSONValue writes them) and its graph.
type CypherView struct {
	Repo      string      `json:"repo"`
	Columns   []string    `json:"columns"`
	Rows      [][]any     `json:"rows"`
	Truncated bool        `json:"truncated"`
	Warnings  []string    `json:"warnings,omitempty"`
	Graph     CypherGraph `json:"graph"`
}

// CypherView runs a read-only query over the graph of repository ref,
// keeping at most limit rows (DefaultCypherViewRows when 0, at most
// MaxCypherViewRows), and collects the graph in its rows. A query that
// fails is a *cypher.Error.
func (b *Backend) CypherView(ctx context.Context, ref, query string, params map[string]any, limit int) (*CypherView, error) {
	if limit <= 0 {
		limit = DefaultCypherViewRows
	}
	limit = min(limit, MaxCypherViewRows)
	var out *CypherView
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		res, err := cypher.New(s.Graph, s.Reader).Query(ctx, query, cypher.Options{Params: params, MaxRows: limit})
		if err != nil {
			return nil, err
		}
		v := &CypherView{Repo: s.Repo.ID, Columns: res.Columns, Rows: make([][]any, 0, len(res.Rows)),
			Truncated: res.Truncated, Warnings: res.Warnings}
		if v.Columns == nil {
			v.Columns = []string{}
		}
		c := graphCollector{g: s.Graph, nodes: map[memgraph.NodeID]bool{}, edges: map[CypherEdge]bool{}}
		for _, row := range res.Rows {
			cells := make([]any, len(row))
			for i, val := range row {
				cells[i] = res.JSONValue(val)
				c.add(val)
			}
			v.Rows = append(v.Rows, cells)
		}
		v.Graph = c.graph()
		out = v
		return nil, nil
	})
	return out, err
}

// graphCollector gathers the nodes and relationships of values.
type graphCollector struct {
	g         *memgraph.Graph
	nodes     map[memgraph.NodeID]bool
	edges     map[CypherEdge]bool
	truncated bool
}

func (c *graphCollector) node(n memgraph.NodeID) {
	if c.nodes[n] {
		return
	}
	if len(c.nodes) == maxCypherGraph {
		c.truncated = true
		return
	}
	c.nodes[n] = true
}

func (c *graphCollector) rel(v cypher.Value) {
	e := CypherEdge{Src: c.g.Nodes[v.RelSrc()].ID, Dst: c.g.Nodes[v.RelDst()].ID, Type: v.RelType().String()}
	if !c.edges[e] {
		if len(c.edges) == maxCypherGraph {
			c.truncated = true
			return
		}
		c.edges[e] = true
	}
	c.node(v.RelSrc())
	c.node(v.RelDst())
}

func (c *graphCollector) add(v cypher.Value) {
	switch v.Kind() {
	case cypher.KindNode:
		c.node(v.Node())
	case cypher.KindRel:
		c.rel(v)
	case cypher.KindPath:
		p := v.Path()
		for _, n := range p.Nodes {
			c.node(n)
		}
		for _, r := range p.Rels {
			c.rel(r)
		}
	case cypher.KindList:
		for _, e := range v.List() {
			c.add(e)
		}
	case cypher.KindMap:
		for _, e := range v.Map().Vals {
			c.add(e)
		}
	}
}

func (c *graphCollector) graph() CypherGraph {
	out := CypherGraph{Nodes: make([]CypherNode, 0, len(c.nodes)), Edges: make([]CypherEdge, 0, len(c.edges)), Truncated: c.truncated}
	for n := range c.nodes {
		nd := &c.g.Nodes[n]
		out.Nodes = append(out.Nodes, CypherNode{ID: nd.ID, Name: nd.Name, Kind: nd.Kind.String(), FilePath: nd.FilePath, StartLine: int(nd.StartLine)})
	}
	for e := range c.edges {
		out.Edges = append(out.Edges, e)
	}
	slices.SortFunc(out.Nodes, func(a, b CypherNode) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(out.Edges, func(a, b CypherEdge) int {
		return cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Dst, b.Dst), cmp.Compare(a.Type, b.Type))
	})
	return out
}
