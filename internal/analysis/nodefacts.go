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
	layerIdx := map[string]uint8{"": 0}
	internLayer := func(name string) uint8 {
		i, ok := layerIdx[name]
		if !ok {
			i = uint8(len(f.layers))
			layerIdx[name] = i
			f.layers = append(f.layers, name)
		}
		return i
	}
	byFile := map[string]fileFact{}
	moduleIdx := map[string]int32{}
	intern := func(name string) int32 {
		i, ok := moduleIdx[name]
		if !ok {
			i = int32(len(f.modules))
			moduleIdx[name] = i
			f.modules = append(f.modules, name)
		}
		return i
	}
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		if nd.Kind == graph.KindPackage {
			f.module[i] = intern(nd.QualifiedName)
			continue
		}
		ff, ok := byFile[nd.FilePath]
		if !ok {
			name, _ := ModuleOf(g, memgraph.NodeID(i))
			ff = fileFact{test: IsTestPath(nd.FilePath), module: intern(name), layer: internLayer(LayerOf(nd.FilePath, name))}
			byFile[nd.FilePath] = ff
		}
		f.test[i], f.module[i], f.layer[i], f.member[i] = ff.test, ff.module, ff.layer, ff.layer
		if ff.layer == 0 && nd.Kind.IsSymbol() {
			f.member[i] = internLayer(memberLayer(g, memgraph.NodeID(i)))
		}
	}
	return f
}

func (f *nodeFacts) isTest(n memgraph.NodeID) bool { return f.test[n] }

func (f *nodeFacts) moduleOf(n memgraph.NodeID) string { return f.modules[f.module[n]] }

// layerOf is n's layer (see LayerOf), "" when none is known.
func (f *nodeFacts) layerOf(n memgraph.NodeID) string { return f.layers[f.member[n]] }

// fileLayer is the layer of n's file, read off its path and module alone:
// what a module is said to be.
func (f *nodeFacts) fileLayer(n memgraph.NodeID) string { return f.layers[f.layer[n]] }
