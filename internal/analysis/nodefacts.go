package analysis

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// nodeFacts are per-node answers the analyses ask for on every edge they
// follow, computed once per graph (memgraph.Graph.Memo): whether the node
// is test code, the module it belongs to and its layer.
type nodeFacts struct {
	test    []bool
	module  []int32 // index in modules
	modules []string
	// layer is the layer of the node's file, member the node's own: the
	// file's, else its community's (index in layers; 0: none).
	layer, member []uint8
	layers        []string
}

type nodeFactsKey struct{}

func factsOf(g *memgraph.Graph) *nodeFacts {
	return g.Memo(nodeFactsKey{}, func() any { return buildNodeFacts(g) }).(*nodeFacts)
}

func buildNodeFacts(g *memgraph.Graph) *nodeFacts {
	f := &nodeFacts{test: make([]bool, g.Len()), module: make([]int32, g.Len()), layer: make([]uint8, g.Len()),
		member: make([]uint8, g.Len()), layers: []string{""}}
	type fileFact struct {
		test   bool
		module int32
		layer  uint8
	}
	layerIdx, moduleIdx := map[string]uint8{"": 0}, map[string]int32{}
	internLayer := func(name string) uint8 { return intern(layerIdx, &f.layers, name) }
	internModule := func(name string) int32 { return intern(moduleIdx, &f.modules, name) }
	byFile := map[string]fileFact{}
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		if nd.Kind == graph.KindPackage {
			f.module[i] = internModule(nd.QualifiedName)
			continue
		}
		ff, ok := byFile[nd.FilePath]
		if !ok {
			name, _ := ModuleOf(g, memgraph.NodeID(i))
			ff = fileFact{test: IsTestPath(nd.FilePath), module: internModule(name), layer: internLayer(LayerOf(nd.FilePath, name))}
			byFile[nd.FilePath] = ff
		}
		f.test[i], f.module[i], f.layer[i], f.member[i] = ff.test, ff.module, ff.layer, ff.layer
		if ff.layer == 0 && nd.Kind.IsSymbol() {
			f.member[i] = internLayer(memberLayer(g, memgraph.NodeID(i)))
		}
	}
	return f
}

// intern is the number of name in names, appending it when new.
func intern[T int32 | uint8](idx map[string]T, names *[]string, name string) T {
	i, ok := idx[name]
	if !ok {
		i = T(len(*names))
		idx[name] = i
		*names = append(*names, name)
	}
	return i
}

func (f *nodeFacts) isTest(n memgraph.NodeID) bool { return f.test[n] }

func (f *nodeFacts) moduleOf(n memgraph.NodeID) string { return f.modules[f.module[n]] }

// layerOf is n's layer (see LayerOf), "" when none is known.
func (f *nodeFacts) layerOf(n memgraph.NodeID) string { return f.layers[f.member[n]] }

// fileLayer is the layer of n's file, read off its path and module alone:
// what a module is said to be.
func (f *nodeFacts) fileLayer(n memgraph.NodeID) string { return f.layers[f.layer[n]] }
