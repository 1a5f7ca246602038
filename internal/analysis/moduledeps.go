package analysis

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The dependencies of a module (get_module_dependencies): the file-level
// IMPORTS and CALLS edges that cross the module's boundary, counted by the
// module at the other end. A module is a package (the Package node and the
// files it contains) or a folder (every file under it, sub-folders
// included); the other end is counted in its own package, or its folder
// when it has none, the modules every other tool reports.

// RootModule is the module of files at the repository root that belong to
// no package.
const RootModule = "(root)"

// ModuleRef is the module a get_module_dependencies call asked about.
type ModuleRef struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"` // package or folder
	ID    string `json:"id,omitempty"`
	Files int    `json:"files"`
}

// ModuleLink is another module linked to the asked one, with how many
// import edges and call edges link them in that direction.
type ModuleLink struct {
	Module  string `json:"module"`
	Imports int    `json:"imports"`
	Calls   int    `json:"calls"`
	// TestOnly: every edge counted has test code at one end.
	TestOnly bool `json:"testOnly,omitempty"`
}

// ModuleDepsResult is the answer of get_module_dependencies.
type ModuleDepsResult struct {
	Module ModuleRef `json:"module"`
	// Downstream are the modules the module imports or calls; Upstream
	// the modules that import or call it. Both are sorted by imports plus
	// calls, most first, then by name, and hold at most MaxNavResults.
	Downstream      []ModuleLink `json:"downstream"`
	Upstream        []ModuleLink `json:"upstream"`
	DownstreamTotal int          `json:"downstreamTotal"`
	UpstreamTotal   int          `json:"upstreamTotal"`
	Truncated       bool         `json:"truncated"`
}

// ModuleDependencies counts the IMPORTS and CALLS edges between the module
// named name (a package key, Package:<key>, a folder path, or RootModule)
// and the rest of the repository. An unknown module is an InputError that
// lists the closest module names.
func ModuleDependencies(g *memgraph.Graph, name string) (ModuleDepsResult, error) {
	ref, members, err := resolveModule(g, name)
	if err != nil {
		return ModuleDepsResult{}, err
	}
	facts := factsOf(g)
	inside := memgraph.NewNodeSet(g.Len())
	for _, n := range members {
		inside.Add(n)
	}
	type tally struct {
		imports, calls int
		code           bool // some edge has no test code at either end
	}
	down, up := map[string]*tally{}, map[string]*tally{}
	count := func(m map[string]*tally, other memgraph.NodeID, self memgraph.NodeID, t graph.EdgeType) {
		name := facts.moduleOf(other)
		c := m[name]
		if c == nil {
			c = &tally{}
			m[name] = c
		}
		if t == graph.EdgeImports {
			c.imports++
		} else {
			c.calls++
		}
		if !facts.isTest(other) && !facts.isTest(self) {
			c.code = true
		}
	}
	for _, n := range members {
		for _, e := range g.Out(n) {
			if (e.Type == graph.EdgeImports || e.Type == graph.EdgeCalls) && !inside.Has(e.To) {
				count(down, e.To, n, e.Type)
			}
		}
		for _, e := range g.In(n) {
			if (e.Type == graph.EdgeImports || e.Type == graph.EdgeCalls) && !inside.Has(e.To) {
				count(up, e.To, n, e.Type)
			}
		}
	}
	links := func(m map[string]*tally) []ModuleLink {
		out := make([]ModuleLink, 0, len(m))
		for name, c := range m {
			out = append(out, ModuleLink{Module: name, Imports: c.imports, Calls: c.calls, TestOnly: !c.code})
		}
		sort.Slice(out, func(i, j int) bool {
			a, b := out[i], out[j]
			if a.Imports+a.Calls != b.Imports+b.Calls {
				return a.Imports+a.Calls > b.Imports+b.Calls
			}
			return a.Module < b.Module
		})
		return out
	}
	res := ModuleDepsResult{Module: ref, Downstream: links(down), Upstream: links(up)}
	res.DownstreamTotal, res.UpstreamTotal = len(res.Downstream), len(res.Upstream)
	if len(res.Downstream) > MaxNavResults {
		res.Downstream, res.Truncated = res.Downstream[:MaxNavResults], true
	}
	if len(res.Upstream) > MaxNavResults {
		res.Upstream, res.Truncated = res.Upstream[:MaxNavResults], true
	}
	return res, nil
}

// resolveModule finds the module a name means and its member nodes: the
// files' nodes (the File node and its symbols) and the Package nodes inside
// it. A package key (or Package:<key>) wins over a folder of the same path
// (TypeScript packages are directories).
func resolveModule(g *memgraph.Graph, name string) (ModuleRef, []memgraph.NodeID, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return ModuleRef{}, nil, inputErrorf("give a module: a package path or a folder path")
	}
	key := strings.TrimPrefix(name, "Package:")
	if p, ok := g.Lookup("Package:" + key); ok {
		ref := ModuleRef{Name: g.Nodes[p].QualifiedName, Kind: "package", ID: g.Nodes[p].ID}
		members := []memgraph.NodeID{p}
		for _, e := range g.Out(p) {
			if e.Type == graph.EdgeContains && g.Nodes[e.To].Kind == graph.KindFile {
				ref.Files++
				members = append(members, g.InFile(g.Nodes[e.To].FilePath)...)
			}
		}
		return ref, members, nil
	}
	facts := factsOf(g)
	dir := strings.Trim(path.Clean(strings.TrimPrefix(strings.TrimPrefix(name, "Folder:"), "./")), "/")
	var ref ModuleRef
	var under func(nd *memgraph.Node) bool
	switch {
	case name == RootModule:
		ref = ModuleRef{Name: RootModule, Kind: "folder"}
		under = func(nd *memgraph.Node) bool { return path.Dir(nd.FilePath) == "." }
	default:
		f, ok := g.Lookup(graph.FolderID(dir))
		if !ok {
			return ModuleRef{}, nil, unknownModule(g, name)
		}
		ref = ModuleRef{Name: dir, Kind: "folder", ID: g.Nodes[f].ID}
		under = func(nd *memgraph.Node) bool { return strings.HasPrefix(nd.FilePath, dir+"/") }
	}
	var members []memgraph.NodeID
	for _, f := range g.ByKind(graph.KindFile) {
		nd := &g.Nodes[f]
		if !under(nd) || (name == RootModule && facts.moduleOf(f) != RootModule) {
			continue
		}
		ref.Files++
		members = append(members, g.InFile(nd.FilePath)...)
	}
	for _, p := range g.ByKind(graph.KindPackage) {
		nd := &g.Nodes[p]
		if name != RootModule && (nd.FilePath == dir || strings.HasPrefix(nd.FilePath, dir+"/")) {
			members = append(members, p)
		}
	}
	if ref.Files == 0 && name == RootModule {
		return ModuleRef{}, nil, unknownModule(g, name)
	}
	return ref, members, nil
}

// unknownModule is the error for a module name that names nothing, with the
// closest package keys and folder paths.
func unknownModule(g *memgraph.Graph, name string) error {
	var names []string
	for _, p := range g.ByKind(graph.KindPackage) {
		names = append(names, g.Nodes[p].QualifiedName)
	}
	for _, f := range g.ByKind(graph.KindFolder) {
		names = append(names, g.Nodes[f].FilePath)
	}
	close := closeNames(name, names, 10)
	if len(close) == 0 {
		return inputErrorf("no package or folder %q in the graph: give a package path (as in Package node ids) or a folder path; call overview for the biggest modules", name)
	}
	return inputErrorf("no package or folder %q in the graph; close matches: %s", name, strings.Join(close, ", "))
}

// closeNames returns up to limit names close to want: those containing it
// or contained in it (ignoring case), then those within a few edits of it
// (or whose last segments are: shop/ordr is one edit from
// example.com/shop/order), then those ending in the same segment; each
// group by edit distance (of the trailing segments, then of the whole
// name), then name.
func closeNames(want string, names []string, limit int) []string {
	lw := strings.ToLower(want)
	segs := strings.FieldsFunc(lw, isPathSep)
	type scored struct {
		name              string
		group, dist, full int
	}
	seen := map[string]bool{}
	var out []scored
	for _, n := range names {
		if seen[n] || n == "" {
			continue
		}
		seen[n] = true
		ln := strings.ToLower(n)
		nsegs := strings.FieldsFunc(ln, isPathSep)
		full := editDistance(lw, ln)
		d := full
		if len(nsegs) > len(segs) && len(segs) > 0 {
			d = min(d, editDistance(strings.Join(segs, "/"), strings.Join(nsegs[len(nsegs)-len(segs):], "/")))
		}
		switch {
		case strings.Contains(ln, lw) || strings.Contains(lw, ln):
			out = append(out, scored{n, 0, d, full})
		case d <= max(2, len(lw)/4):
			out = append(out, scored{n, 1, d, full})
		case len(segs) > 0 && len(nsegs) > 0 && segs[len(segs)-1] == nsegs[len(nsegs)-1]:
			out = append(out, scored{n, 2, d, full})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].group != out[j].group {
			return out[i].group < out[j].group
		}
		if out[i].dist != out[j].dist {
			return out[i].dist < out[j].dist
		}
		if out[i].full != out[j].full {
			return out[i].full < out[j].full
		}
		return out[i].name < out[j].name
	})
	res := make([]string, 0, min(limit, len(out)))
	for _, s := range out[:min(limit, len(out))] {
		res = append(res, s.name)
	}
	return res
}

func isPathSep(r rune) bool { return r == '/' || r == '.' }

// editDistance is the edit distance between a and b (suggest.go's
// boundedDistance, unbounded).
func editDistance(a, b string) int {
	return boundedDistance([]rune(a), []rune(b), len(a)+len(b))
}
