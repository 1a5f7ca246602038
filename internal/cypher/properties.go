package cypher

import (
	"context"
	"fmt"
	"slices"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The graph as Cypher sees it. Labels are node kinds (graph.AllKinds);
// node and relationship properties are the tables below. The executor
// reads properties only through these tables, so a new property (or a new
// node kind with properties of its own) is one entry here, and the schema
// text for agents is generated from the same entries.

// TextSource supplies the large text of nodes that the in-memory graph
// leaves in the store. store.Reader implements it; rid is the
// node's (memgraph.Graph.Rid).
type TextSource interface {
	NodeText(ctx context.Context, rid int64) (content, doc string, err error)
}

// NodeProperty is one property of nodes.
type NodeProperty struct {
	Name string
	Type string // as shown to agents: STRING, INTEGER, BOOLEAN
	Doc  string
	// Lazy properties are fetched from the TextSource, once per node and
	// query, and only when a query reads them.
	Lazy bool
	// Kinds are the node kinds that have the property; nil: every kind.
	Kinds []graph.NodeKind
	get   func(pr *propReader, n memgraph.NodeID) (Value, error)
}

// hasKind reports whether nodes of kind k have the property.
func (p *NodeProperty) hasKind(k graph.NodeKind) bool {
	return p.Kinds == nil || slices.Contains(p.Kinds, k)
}

// RelProperty is one property of relationships.
type RelProperty struct {
	Name string
	Type string
	Doc  string
	get  func(g *memgraph.Graph, v Value) Value
}

// RelationshipType is the one relationship type of the graph; every edge
// kind (CALLS, IMPORTS, ...) is the value of its `type` property, and may
// also be written as a relationship type in patterns.
const RelationshipType = "CodeRelation"

// NodeProperties lists the node properties, in the order keys() returns
// them: those of every node, then those of some kinds only.
var NodeProperties = slices.Concat(symbolNodeProperties, flowNodeProperties)

var symbolNodeProperties = []NodeProperty{
	{Name: "id", Type: "STRING", Doc: "stable id: `Function:path/file.go:Name`, `File:path`, `Package:key`",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) { return StringValue(pr.g.Nodes[n].ID), nil }},
	{Name: "name", Type: "STRING", Doc: "simple name: `Serve`, `server.go`, `http`",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) { return StringValue(pr.g.Nodes[n].Name), nil }},
	{Name: "qualifiedName", Type: "STRING", Doc: "`http.Server.Serve`; the path for files and folders; the package key for packages",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return StringValue(pr.g.Nodes[n].QualifiedName), nil
		}},
	{Name: "filePath", Type: "STRING", Doc: "repository-relative, `/`-separated; the directory for folders and packages",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return StringValue(pr.g.Nodes[n].FilePath), nil
		}},
	{Name: "startLine", Type: "INTEGER", Doc: "first line, 1-based; 0 for folders and packages",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return IntValue(int64(pr.g.Nodes[n].StartLine)), nil
		}},
	{Name: "endLine", Type: "INTEGER", Doc: "last line, inclusive",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return IntValue(int64(pr.g.Nodes[n].EndLine)), nil
		}},
	{Name: "signature", Type: "STRING", Doc: "the declaration header on one line; empty for files, folders and packages",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return StringValue(pr.g.Nodes[n].Signature), nil
		}},
	{Name: "doc", Type: "STRING", Doc: "first paragraph of the doc comment or docstring; empty when there is none", Lazy: true,
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			t, err := pr.text(n)
			if err != nil || !t.ok {
				return Null, err
			}
			return StringValue(t.doc), nil
		}},
	{Name: "isExported", Type: "BOOLEAN", Doc: "visible outside its package or module",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) { return BoolValue(pr.g.Nodes[n].Exported), nil }},
	{Name: "language", Type: "STRING", Doc: "`go`, `python`, `typescript`, `javascript`, `java`; empty for folders and files in no supported language",
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			return StringValue(pr.g.Nodes[n].Language), nil
		}},
	{Name: "content", Type: "STRING", Doc: "the symbol's source, at most 4 KiB (cut at a line end)", Lazy: true,
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			t, err := pr.text(n)
			if err != nil || !t.ok {
				return Null, err
			}
			return StringValue(t.content), nil
		}},
}

func init() { NodeProperties = append(NodeProperties, historyNodeProperties...) }

// RelProperties lists the relationship properties.
var RelProperties = []RelProperty{
	{Name: "type", Type: "STRING", Doc: "the edge kind: CALLS, IMPORTS, ...",
		get: func(_ *memgraph.Graph, v Value) Value { return StringValue(v.et.String()) }},
	{Name: "confidence", Type: "FLOAT", Doc: "in (0, 1]: how sure the indexer is (see the reasons)",
		get: func(_ *memgraph.Graph, v Value) Value { return FloatValue(v.relConfidence()) }},
	{Name: "reason", Type: "STRING", Doc: "how the edge was established (below)",
		get: func(_ *memgraph.Graph, v Value) Value { return StringValue(v.s) }},
	{Name: "line", Type: "INTEGER", Doc: "line of the first call site (CALLS) or import (IMPORTS) in the source's file; 0 when not applicable",
		get: lineProperty},
	{Name: "step", Type: "INTEGER", Doc: "STEP_IN_PROCESS: the symbol's 1-based position in the process; null on other relationships",
		get: stepProperty},
}

func init() { RelProperties = append(RelProperties, historyRelProperties...) }

var (
	nodePropIndex = map[string]int{}
	relPropIndex  = map[string]int{}
)

func init() {
	for i, p := range NodeProperties {
		nodePropIndex[p.Name] = i
	}
	for i, p := range RelProperties {
		relPropIndex[p.Name] = i
	}
}

// nodeText is the lazily fetched text of one node.
type nodeText struct {
	content, doc string
	ok           bool // false when the engine has no text source
}

// propReader reads node properties for one query execution, caching the
// text it fetched.
type propReader struct {
	ctx     context.Context
	g       *memgraph.Graph
	src     TextSource
	cache   map[memgraph.NodeID]nodeText
	fetches int
}

func (pr *propReader) text(n memgraph.NodeID) (nodeText, error) {
	if pr.src == nil {
		return nodeText{}, nil
	}
	if t, ok := pr.cache[n]; ok {
		return t, nil
	}
	content, doc, err := pr.src.NodeText(pr.ctx, pr.g.Rid(n))
	if err != nil {
		return nodeText{}, fmt.Errorf("read the text of %s: %w", pr.g.Nodes[n].ID, err)
	}
	if pr.cache == nil {
		pr.cache = map[memgraph.NodeID]nodeText{}
	}
	t := nodeText{content: content, doc: doc, ok: true}
	pr.cache[n] = t
	pr.fetches++
	return t, nil
}

// nodeProperty returns property name of node n; unknown names are null.
func (pr *propReader) nodeProperty(n memgraph.NodeID, name string) (Value, error) {
	i, ok := nodePropIndex[name]
	if !ok {
		return Null, nil
	}
	return NodeProperties[i].get(pr, n)
}

// nodeMap returns all properties of n as a map (properties(n)).
func (pr *propReader) nodeMap(n memgraph.NodeID) (Value, error) {
	keys := make([]string, 0, len(NodeProperties))
	vals := make([]Value, 0, len(NodeProperties))
	for _, p := range NodeProperties {
		if !p.hasKind(pr.g.Nodes[n].Kind) {
			continue
		}
		v, err := p.get(pr, n)
		if err != nil {
			return Null, err
		}
		if v.IsNull() {
			continue
		}
		keys = append(keys, p.Name)
		vals = append(vals, v)
	}
	return MapValue(keys, vals), nil
}

// relProperty returns property name of relationship v; unknown names are
// null.
func relProperty(g *memgraph.Graph, v Value, name string) Value {
	i, ok := relPropIndex[name]
	if !ok {
		return Null
	}
	return RelProperties[i].get(g, v)
}

func relMap(g *memgraph.Graph, v Value) Value {
	var keys []string
	var vals []Value
	for _, p := range RelProperties {
		if x := p.get(g, v); !x.IsNull() {
			keys = append(keys, p.Name)
			vals = append(vals, x)
		}
	}
	return MapValue(keys, vals)
}

// nodeKeys lists the property names of a node that are not null.
func (pr *propReader) nodeKeys(n memgraph.NodeID) []Value {
	out := make([]Value, 0, len(NodeProperties))
	for _, p := range NodeProperties {
		if p.Lazy && pr.src == nil || !p.hasKind(pr.g.Nodes[n].Kind) {
			continue
		}
		if p.Kinds != nil {
			if v, err := p.get(pr, n); err != nil || v.IsNull() {
				continue
			}
		}
		out = append(out, StringValue(p.Name))
	}
	return out
}

func relKeys(g *memgraph.Graph, v Value) []Value {
	var out []Value
	for _, p := range RelProperties {
		if !p.get(g, v).IsNull() {
			out = append(out, StringValue(p.Name))
		}
	}
	return out
}

// kindSet is a set of node kinds (labels) as a bit mask.
type kindSet uint64

const allKinds = ^kindSet(0)

func kindBit(k graph.NodeKind) kindSet { return 1 << k }

func (s kindSet) has(k graph.NodeKind) bool { return s&kindBit(k) != 0 }

// edgeSet is a set of edge types as a bit mask.
type edgeSet uint64

const allEdges = ^edgeSet(0)

func edgeBit(t graph.EdgeType) edgeSet { return 1 << t }

func (s edgeSet) has(t graph.EdgeType) bool { return s&edgeBit(t) != 0 }

// labelKinds returns the kinds a label names: a node kind, or none.
func labelKinds(label string) (kindSet, bool) {
	k := graph.ParseKind(label)
	if k == graph.KindInvalid {
		return 0, false
	}
	return kindBit(k), true
}

// relTypeEdges returns the edge types a relationship type names: every
// type for CodeRelation, one for an edge kind, none for anything else.
func relTypeEdges(name string) (edgeSet, bool) {
	if name == RelationshipType {
		return allEdges, true
	}
	t := graph.ParseEdgeType(name)
	if t == graph.EdgeInvalid {
		return 0, false
	}
	return edgeBit(t), true
}
