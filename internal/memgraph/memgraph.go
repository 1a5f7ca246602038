// Package memgraph holds a repository's graph in memory for traversals: nodes
// by dense integer index, adjacency in compressed sparse row form in both
// directions, and indexes by id, name, kind and file. Large text (content,
// doc) stays in the store and is fetched on demand.
//
// Loading reads every node and edge once and sorts edges with a counting
// sort, so load time is linear; memory is about 16 bytes per edge per
// direction plus the node strings (see the benchmarks in memgraph_test.go).
package memgraph

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
)

// NodeID indexes the nodes of a Graph, in the order of their ids (the
// store's snapshot order). The store's tables key a node by its rid, which
// an incremental write keeps stable and which is therefore not in that
// order: Graph.Rid and Graph.NodeOfRid translate.
type NodeID uint32

// Node is one node's attributes.
type Node struct {
	ID            string
	Kind          graph.NodeKind
	Name          string
	QualifiedName string
	FilePath      string
	StartLine     int32
	EndLine       int32
	Signature     string
	Exported      bool
	Language      string
}

// Edge is one adjacency entry: the node at the other end and the edge's
// attributes.
type Edge struct {
	To         NodeID
	Type       graph.EdgeType
	reason     uint8
	Confidence float32
	// Line is the first line where the relationship is written (0: none);
	// Graph.Lines gives all of them.
	Line int32
	more uint32 // index in Graph.more of the further lines' count; 0: none
}

// Graph is an immutable in-memory graph. It is safe for concurrent readers.
type Graph struct {
	Nodes []Node

	outOff []uint32 // len(Nodes)+1
	out    []Edge
	inOff  []uint32
	in     []Edge

	reasons []graph.Reason
	// more holds the further site lines of edges written more than once:
	// at an edge's index, the count, then the lines. Index 0 is unused.
	more   []int32
	byID   map[string]NodeID
	rids   []int64  // by NodeID
	byRid  []NodeID // by rid; noNode where no node has the rid
	byName map[string][]NodeID
	byKind map[graph.NodeKind][]NodeID
	byFile map[string][]NodeID // sorted by start line

	hist *history // nil when the index has no git history

	memoMu sync.Mutex
	memo   map[any]any

	flows flowIndex // communities and processes (flows.go)

	meta store.Meta // of the index state loaded
}

// noNode marks a rid without a node in Graph.byRid.
const noNode = ^NodeID(0)

// Rid returns the store's rid of node n: the key of its rows in the
// node, search and embedding tables.
func (g *Graph) Rid(n NodeID) int64 { return g.rids[n] }

// NodeOfRid returns the node the store keys by rid. A rid the graph does
// not have (a row written by a later incremental run, read by a call that
// began before it) is reported as missing.
func (g *Graph) NodeOfRid(rid int64) (NodeID, bool) {
	if rid < 1 || rid >= int64(len(g.byRid)) || g.byRid[rid] == noNode {
		return 0, false
	}
	return g.byRid[rid], true
}

// indexRids fills byRid from rids; two nodes with one rid are an error.
func (g *Graph) indexRids() error {
	var top int64
	for _, r := range g.rids {
		if r < 1 {
			return fmt.Errorf("load graph: node rid %d", r)
		}
		top = max(top, r)
	}
	g.byRid = make([]NodeID, top+1)
	for i := range g.byRid {
		g.byRid[i] = noNode
	}
	for i, r := range g.rids {
		if g.byRid[r] != noNode {
			return fmt.Errorf("load graph: two nodes have rid %d", r)
		}
		g.byRid[r] = NodeID(i)
	}
	return nil
}

// Memo returns the value stored under key, building it with build the first
// time: derived data (per-node tables an analysis needs) lives exactly as
// long as the graph. build runs once per key even under concurrent calls.
func (g *Graph) Memo(key any, build func() any) any {
	g.memoMu.Lock()
	defer g.memoMu.Unlock()
	if v, ok := g.memo[key]; ok {
		return v
	}
	if g.memo == nil {
		g.memo = map[any]any{}
	}
	v := build()
	g.memo[key] = v
	return v
}

// Lines returns every line where the edge's relationship is written,
// ascending: Line and the further ones. Nil when it has no site.
func (g *Graph) Lines(e Edge) []int32 {
	if e.Line <= 0 {
		return nil
	}
	if e.more == 0 {
		return []int32{e.Line}
	}
	n := g.more[e.more]
	out := make([]int32, 0, n+1)
	out = append(out, e.Line)
	return append(out, g.more[e.more+1:e.more+1+uint32(n)]...)
}

// Reason returns the edge's reason.
func (g *Graph) Reason(e Edge) graph.Reason { return g.reasons[e.reason] }

// Load reads a whole index into memory, from its snapshot when it has one
// (one read), else by scanning the node and edge tables. All its reads see
// one state of the index (store.Reader.Consistent), whose meta the graph
// keeps (Graph.Meta).
func Load(ctx context.Context, r *store.Reader) (*Graph, error) {
	var g *Graph
	meta, err := r.Consistent(ctx, func(v *store.Reader) error {
		var err error
		g, err = load(ctx, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	g.meta = meta
	return g, nil
}

// Meta is the meta of the state of the index the graph was loaded from.
func (g *Graph) Meta() store.Meta { return g.meta }

func load(ctx context.Context, r *store.Reader) (*Graph, error) {
	snap, err := r.Snapshot(ctx)
	if errors.Is(err, store.ErrNoSnapshot) {
		return loadTables(ctx, r)
	}
	if err != nil {
		return nil, err
	}
	b := newBuilder(len(snap.Nodes), len(snap.Edges))
	b.strs = nil // the snapshot's strings are already shared
	for i := range snap.Nodes {
		b.addNode(&snap.Nodes[i])
	}
	for i := range snap.Edges {
		e := &snap.Edges[i]
		b.addEdge(NodeID(e.Src), NodeID(e.Dst), e.Type, e.Reason, e.Confidence, e.Line, e.More)
	}
	return b.load(ctx, r)
}

// loadTables builds the graph by scanning the node and edge tables.
func loadTables(ctx context.Context, r *store.Reader) (*Graph, error) {
	nNodes, nEdges, err := r.Counts(ctx)
	if err != nil {
		return nil, err
	}
	b := newBuilder(int(nNodes), int(nEdges))
	err = r.ScanNodes(ctx, func(n *store.NodeRow) error {
		if n.Rid != int64(len(b.g.Nodes))+1 {
			return fmt.Errorf("load graph: node rids are not dense at %d", n.Rid)
		}
		b.addNode(n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := int64(len(b.g.Nodes))
	err = r.ScanEdges(ctx, func(e *store.EdgeRow) error {
		if e.Src < 1 || e.Dst < 1 || e.Src > n || e.Dst > n {
			return fmt.Errorf("load graph: edge %d -> %d points outside the nodes", e.Src, e.Dst)
		}
		more := make([]int32, len(e.More))
		for i, l := range e.More {
			more[i] = int32(l)
		}
		b.addEdge(NodeID(e.Src-1), NodeID(e.Dst-1), e.Type, e.Reason, float32(e.Confidence), int32(e.Line), more)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.load(ctx, r)
}

// load finishes the graph and reads what the store keeps beside the
// nodes and edges (the rid index, flows and history).
func (b *builder) load(ctx context.Context, r *store.Reader) (*Graph, error) {
	g := b.finish()
	if err := g.indexRids(); err != nil {
		return nil, err
	}
	if err := g.loadRecords(ctx, r); err != nil {
		return nil, err
	}
	return g, nil
}

type rawEdge struct {
	src, dst NodeID
	e        Edge
}

// builder collects nodes and edges, then lays the edges out in CSR form.
type builder struct {
	g         *Graph
	raw       []rawEdge
	reasonIdx map[string]uint8
	strs      interner
}

func newBuilder(nodes, edges int) *builder {
	return &builder{
		g: &Graph{
			Nodes:  make([]Node, 0, nodes),
			byID:   make(map[string]NodeID, nodes),
			byName: map[string][]NodeID{},
			byKind: map[graph.NodeKind][]NodeID{},
			byFile: map[string][]NodeID{},
		},
		raw:       make([]rawEdge, 0, edges),
		reasonIdx: map[string]uint8{},
		strs:      interner{},
	}
}

func (b *builder) addNode(n *store.NodeRow) {
	id := NodeID(len(b.g.Nodes))
	b.g.Nodes = append(b.g.Nodes, Node{
		ID: n.ID, Kind: graph.ParseKind(n.Kind), Name: b.strs.get(n.Name), QualifiedName: n.QualifiedName,
		FilePath: b.strs.get(n.FilePath), StartLine: int32(n.StartLine), EndLine: int32(n.EndLine),
		Signature: n.Signature, Exported: n.Exported, Language: b.strs.get(n.Language),
	})
	b.g.byID[n.ID] = id
	b.g.rids = append(b.g.rids, n.Rid)
}

func (b *builder) addEdge(src, dst NodeID, typ, reason string, conf float32, line int32, more []int32) {
	ri, ok := b.reasonIdx[reason]
	if !ok {
		ri = uint8(len(b.g.reasons))
		b.reasonIdx[reason] = ri
		b.g.reasons = append(b.g.reasons, graph.Reason(reason))
	}
	var mi uint32
	if len(more) > 0 && line > 0 {
		if len(b.g.more) == 0 {
			b.g.more = append(b.g.more, 0)
		}
		mi = uint32(len(b.g.more))
		b.g.more = append(b.g.more, int32(len(more)))
		b.g.more = append(b.g.more, more...)
	}
	b.raw = append(b.raw, rawEdge{src, dst, Edge{Type: graph.ParseEdgeType(typ), reason: ri, Confidence: conf, Line: line, more: mi}})
}

// finish sorts the edges into CSR arrays with a counting sort, both
// directions, and builds the indexes.
func (b *builder) finish() *Graph {
	g := b.g
	n := uint32(len(g.Nodes))
	g.outOff = make([]uint32, n+1)
	g.inOff = make([]uint32, n+1)
	for _, e := range b.raw {
		g.outOff[e.src+1]++
		g.inOff[e.dst+1]++
	}
	for i := uint32(1); i <= n; i++ {
		g.outOff[i] += g.outOff[i-1]
		g.inOff[i] += g.inOff[i-1]
	}
	g.out = make([]Edge, len(b.raw))
	g.in = make([]Edge, len(b.raw))
	outPos := append([]uint32(nil), g.outOff[:n]...)
	inPos := append([]uint32(nil), g.inOff[:n]...)
	for _, e := range b.raw {
		o := e.e
		o.To = e.dst
		g.out[outPos[e.src]] = o
		outPos[e.src]++
		i := e.e
		i.To = e.src
		g.in[inPos[e.dst]] = i
		inPos[e.dst]++
	}
	b.raw = nil
	g.buildIndexes()
	return g
}

func (g *Graph) buildIndexes() {
	for i := range g.Nodes {
		id := NodeID(i)
		nd := &g.Nodes[i]
		g.byName[nd.Name] = append(g.byName[nd.Name], id)
		g.byKind[nd.Kind] = append(g.byKind[nd.Kind], id)
		if nd.Kind != graph.KindFolder && nd.Kind != graph.KindPackage {
			g.byFile[nd.FilePath] = append(g.byFile[nd.FilePath], id)
		}
	}
	for _, ids := range g.byFile {
		sort.SliceStable(ids, func(a, b int) bool { return g.Nodes[ids[a]].StartLine < g.Nodes[ids[b]].StartLine })
	}
}

type interner map[string]string

func (in interner) get(s string) string {
	if in == nil {
		return s
	}
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// Len is the number of nodes.
func (g *Graph) Len() int { return len(g.Nodes) }

// EdgeCount is the number of edges.
func (g *Graph) EdgeCount() int { return len(g.out) }

// Out returns the outgoing edges of n.
func (g *Graph) Out(n NodeID) []Edge { return g.out[g.outOff[n]:g.outOff[n+1]] }

// In returns the incoming edges of n (Edge.To is the source).
func (g *Graph) In(n NodeID) []Edge { return g.in[g.inOff[n]:g.inOff[n+1]] }

// Lookup returns the node with this id.
func (g *Graph) Lookup(id string) (NodeID, bool) {
	n, ok := g.byID[id]
	return n, ok
}

// ByName returns the nodes with this simple name.
func (g *Graph) ByName(name string) []NodeID { return g.byName[name] }

// Names calls yield with every simple name and its number of nodes, in
// no order, until yield returns false.
func (g *Graph) Names(yield func(name string, nodes int) bool) {
	for name, ns := range g.byName {
		if !yield(name, len(ns)) {
			return
		}
	}
}

// ByKind returns the nodes of a kind.
func (g *Graph) ByKind(k graph.NodeKind) []NodeID { return g.byKind[k] }

// InFile returns the nodes of a file (the File node and its symbols),
// sorted by start line.
func (g *Graph) InFile(path string) []NodeID { return g.byFile[path] }

// loadRecords reads what the store keeps beside the nodes and edges: the
// communities and processes, and the git history.
func (g *Graph) loadRecords(ctx context.Context, r *store.Reader) error {
	if err := g.loadFlows(ctx, r); err != nil {
		return err
	}
	return g.loadHistory(ctx, r)
}
