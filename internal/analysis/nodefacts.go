package analysis

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// nodeFacts are per-node answers the analyses ask for on every edge they
// follow, computed once per graph (memgraph.Graph.Memo): whether the node
// is test code, and the module it belongs to.
type nodeFacts struct {
	test    []bool
	module  []int32 // index in modules
	modules []string
}

type nodeFactsKey struct{}

func factsOf(g *memgraph.Graph) *nodeFacts {
	return g.Memo(nodeFactsKey{}, func() any { return buildNodeFacts(g) }).(*nodeFacts)
}

func buildNodeFacts(g *memgraph.Graph) *nodeFacts {
	f := &nodeFacts{test: make([]bool, g.Len()), module: make([]int32, g.Len())}
	type fileFact struct {
		test   bool
		module int32
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
			ff = fileFact{test: IsTestPath(nd.FilePath), module: intern(name)}
			byFile[nd.FilePath] = ff
		}
		f.test[i], f.module[i] = ff.test, ff.module
	}
	return f
}

func (f *nodeFacts) isTest(n memgraph.NodeID) bool { return f.test[n] }

func (f *nodeFacts) moduleOf(n memgraph.NodeID) string { return f.modules[f.module[n]] }
