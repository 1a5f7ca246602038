package lang

import "gitnexus.dev/gitnexus/internal/graph"

// ImportEdgeOnce returns what adds an IMPORTS edge from f to target at
// line, once per target: a second import of the same target, an import
// of f itself and an empty target add none.
func ImportEdgeOnce(f *File) func(target string, line int) {
	seen := map[string]bool{}
	return func(target string, line int) {
		if target == "" || target == graph.FileID(f.Facts.Path) || seen[target] {
			return
		}
		seen[target] = true
		f.ImportEdges = append(f.ImportEdges, ImportEdge{Target: target, Line: line})
	}
}

// Subpackage is the module m.name (a package below package m), or none.
func Subpackage(p *Program, m *Module, name string) Value {
	if sub, ok := p.Modules[m.Key+"."+name]; ok {
		return ModuleValue(sub)
	}
	return None()
}
