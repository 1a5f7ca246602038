package cypher

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The properties of Community and Process nodes; null on every other node.
var flowNodeProperties = []NodeProperty{
	{Name: "label", Type: "STRING", Kinds: []graph.NodeKind{graph.KindCommunity, graph.KindProcess},
		Doc: "Community: a name from the folder most members live in (`http`, `orders (refund)`); Process: `Entry → Terminal`",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if c, ok := pr.g.CommunityInfo(n); ok {
				return StringValue(c.Label), nil
			}
			if p, ok := pr.g.ProcessInfo(n); ok {
				return StringValue(p.Label), nil
			}
			return Null, nil
		}},
	{Name: "cohesion", Type: "FLOAT", Kinds: []graph.NodeKind{graph.KindCommunity},
		Doc: "Community: share of its members' call and type edges that stay inside, in [0, 1]",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if c, ok := pr.g.CommunityInfo(n); ok {
				return FloatValue(c.Cohesion), nil
			}
			return Null, nil
		}},
	{Name: "symbolCount", Type: "INTEGER", Kinds: []graph.NodeKind{graph.KindCommunity},
		Doc: "Community: number of members (MEMBER_OF edges)",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if c, ok := pr.g.CommunityInfo(n); ok {
				return IntValue(int64(c.SymbolCount)), nil
			}
			return Null, nil
		}},
	{Name: "keywords", Type: "LIST", Kinds: []graph.NodeKind{graph.KindCommunity},
		Doc: "Community: the most frequent words of its members' names",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			c, ok := pr.g.CommunityInfo(n)
			if !ok {
				return Null, nil
			}
			l := make([]Value, len(c.Keywords))
			for i, k := range c.Keywords {
				l[i] = StringValue(k)
			}
			return ListValue(l), nil
		}},
	{Name: "processType", Type: "STRING", Kinds: []graph.NodeKind{graph.KindProcess},
		Doc: "Process: `intra_community` (every step in one community) or `cross_community`",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if p, ok := pr.g.ProcessInfo(n); ok {
				return StringValue(p.Type), nil
			}
			return Null, nil
		}},
	{Name: "stepCount", Type: "INTEGER", Kinds: []graph.NodeKind{graph.KindProcess},
		Doc: "Process: number of steps (STEP_IN_PROCESS edges)",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if p, ok := pr.g.ProcessInfo(n); ok {
				return IntValue(int64(p.StepCount)), nil
			}
			return Null, nil
		}},
	{Name: "entryPointId", Type: "STRING", Kinds: []graph.NodeKind{graph.KindProcess},
		Doc: "Process: id of the entry symbol (step 1)",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if p, ok := pr.g.ProcessInfo(n); ok {
				return StringValue(pr.g.Nodes[p.Entry].ID), nil
			}
			return Null, nil
		}},
	{Name: "terminalId", Type: "STRING", Kinds: []graph.NodeKind{graph.KindProcess},
		Doc: "Process: id of the last step",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if p, ok := pr.g.ProcessInfo(n); ok {
				return StringValue(pr.g.Nodes[p.Terminal].ID), nil
			}
			return Null, nil
		}},
}

// stepProperty reads the step of a STEP_IN_PROCESS relationship, which the
// graph keeps as its line.
func stepProperty(_ *memgraph.Graph, v Value) Value {
	if v.et == graph.EdgeStepInProcess {
		return IntValue(int64(v.line))
	}
	return Null
}

// lineProperty is the line of a relationship; STEP_IN_PROCESS edges have
// none (their line holds the step).
func lineProperty(_ *memgraph.Graph, v Value) Value {
	if v.et == graph.EdgeStepInProcess {
		return IntValue(0)
	}
	return IntValue(int64(v.line))
}
