package analysis

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// OverviewResult summarises a repository.
type OverviewResult struct {
	Nodes       int            `json:"nodes"`
	Edges       int            `json:"edges"`
	NodesByKind map[string]int `json:"nodesByKind"`
	EdgesByType map[string]int `json:"edgesByType"`
	Languages   map[string]int `json:"filesByLanguage"`
	Modules     []ModuleInfo   `json:"modules"`
	EntryPoints []EntryPoint   `json:"entry_points"`
	Clusters    []ClusterInfo  `json:"clusters"`
	Processes   []ProcessRef   `json:"processes"`
}

// ModuleInfo is a package (or folder) and its size.
type ModuleInfo struct {
	Name    string `json:"name"`
	Layer   string `json:"layer,omitempty"` // see LayerOf
	Files   int    `json:"files"`
	Symbols int    `json:"symbols"`
}

// EntryPoint is where code is entered from outside: a main, a library's
// API, a handler.
type EntryPoint struct {
	SymbolInfo
	// Group is why it is where it is in the ranking (EntryRanking): main,
	// api or other.
	Group string `json:"group"`
	Reach int    `json:"reach"` // callables reachable within 3 calls
}

// Overview counts a repository's graph and names its biggest modules and
// likeliest entry points (up to limit of each).
func Overview(g *memgraph.Graph, limit int) OverviewResult {
	if limit <= 0 {
		limit = 10
	}
	res := OverviewResult{NodesByKind: map[string]int{}, EdgesByType: map[string]int{}, Languages: map[string]int{},
		Modules: []ModuleInfo{}, EntryPoints: []EntryPoint{}, Clusters: Clusters(g, limit, MinOverviewCluster), Processes: MainProcesses(g, limit)}
	res.Nodes, res.Edges = g.Len(), g.EdgeCount()
	modules := map[string]*ModuleInfo{}
	facts := factsOf(g)
	for i := range g.Nodes {
		n := memgraph.NodeID(i)
		nd := &g.Nodes[i]
		res.NodesByKind[nd.Kind.String()]++
		for _, e := range g.Out(n) {
			res.EdgesByType[e.Type.String()]++
		}
		if nd.Kind == graph.KindFile && nd.Language != "" {
			res.Languages[nd.Language]++
		}
		if nd.Kind == graph.KindFile || nd.Kind.IsSymbol() {
			name, _ := ModuleOf(g, n)
			m := modules[name]
			if m == nil {
				m = &ModuleInfo{Name: name}
				modules[name] = m
			}
			if m.Layer == "" {
				m.Layer = facts.fileLayer(n)
			}
			if nd.Kind == graph.KindFile {
				m.Files++
			} else {
				m.Symbols++
			}
		}
	}
	for _, m := range modules {
		if m.Symbols > 0 {
			res.Modules = append(res.Modules, *m)
		}
	}
	sort.Slice(res.Modules, func(i, j int) bool {
		if res.Modules[i].Symbols != res.Modules[j].Symbols {
			return res.Modules[i].Symbols > res.Modules[j].Symbols
		}
		return res.Modules[i].Name < res.Modules[j].Name
	})
	if len(res.Modules) > limit {
		res.Modules = res.Modules[:limit]
	}
	res.EntryPoints = entryPoints(g, limit)
	return res
}

// Entry point groups, in the order they are listed.
const (
	entryMain = iota
	entryAPI
	entryOther
)

var entryGroupNames = [...]string{"main", "api", "other"}

// EntryRanking says how entryPoints ranks, for the answer to quote.
const EntryRanking = "mains first; then the API: exported functions, constructors and methods of exported types, " +
	"outside internal/ and examples/, that no code outside tests calls or that tests call (methods that " +
	"implement common interfaces, such as String or MarshalJSON, are not API); then the other symbols no code " +
	"outside tests calls; within each, those reaching the most code within 3 calls first"

// protocolMethods are method names the languages' own libraries call
// through an interface or a protocol (formatting, comparison, encoding,
// I/O, disposal): a type implements them to be used by those libraries,
// which makes them poor guesses at a codebase's own API.
var protocolMethods = map[string]bool{
	// Go
	"String": true, "GoString": true, "Error": true, "Format": true, "Unwrap": true, "Is": true, "As": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true,
	"MarshalBinary": true, "UnmarshalBinary": true, "MarshalYAML": true, "UnmarshalYAML": true,
	"MarshalXML": true, "UnmarshalXML": true, "GobEncode": true, "GobDecode": true, "Scan": true, "Value": true,
	"Len": true, "Less": true, "Swap": true, "Read": true, "Write": true, "Close": true, "Seek": true,
	"ReadFrom": true, "WriteTo": true, "ReadAt": true, "WriteAt": true,
	// Java, Kotlin, C#, JavaScript, TypeScript
	"toString": true, "equals": true, "hashCode": true, "compareTo": true, "clone": true, "finalize": true,
	"ToString": true, "Equals": true, "GetHashCode": true, "CompareTo": true, "Dispose": true, "toJSON": true,
	"valueOf": true,
	// Ruby
	"to_s": true, "inspect": true, "to_h": true, "to_a": true, "hash": true, "eql?": true, "each": true,
	// Rust
	"fmt": true, "drop": true, "eq": true, "partial_cmp": true, "cmp": true, "from": true, "into": true,
	"default": true, "deref": true, "deref_mut": true, "next": true,
}

// nonPublicDirs are path segments whose code is not a module's public
// face.
var nonPublicDirs = map[string]bool{"internal": true, "example": true, "examples": true, "_examples": true,
	"testdata": true, "vendor": true, "third_party": true}

// entryPoints lists the likeliest entry points (see EntryRanking). Only
// the 1,000 best placed by group and direct callees are walked, which
// keeps the overview of a large repository fast.
func entryPoints(g *memgraph.Graph, limit int) []EntryPoint {
	calls := []graph.EdgeType{graph.EdgeCalls}
	type cand struct {
		n     memgraph.NodeID
		group int
		out   int
		tests int // calls from tests
	}
	var cands []cand
	facts := factsOf(g) // test or not, once per file
	kinds := [][]memgraph.NodeID{g.ByKind(graph.KindFunction), g.ByKind(graph.KindMethod), g.ByKind(graph.KindConstructor)}
	for _, ids := range kinds {
		for _, n := range ids {
			nd := &g.Nodes[n]
			if facts.isTest(n) {
				continue
			}
			called, tests := false, 0
			for _, e := range g.In(n) {
				if e.Type != graph.EdgeCalls {
					continue
				}
				if facts.isTest(e.To) {
					tests++
				} else {
					called = true
				}
			}
			out1 := 0
			for _, e := range g.Out(n) {
				if e.Type == graph.EdgeCalls {
					out1++
				}
			}
			group := entryOther
			switch {
			case nd.Kind == graph.KindFunction && nd.Name == "main":
				group = entryMain
			case isAPI(g, n):
				group = entryAPI
			}
			switch {
			case called && (group != entryAPI || tests == 0):
				continue // a step of the code's own work
			case out1 == 0 && group != entryAPI:
				continue // neither API nor a caller of anything
			}
			cands = append(cands, cand{n, group, out1, tests})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].group != cands[j].group {
			return cands[i].group < cands[j].group
		}
		if cands[i].out != cands[j].out {
			return cands[i].out > cands[j].out
		}
		return cands[i].n < cands[j].n
	})
	if len(cands) > 1000 {
		cands = cands[:1000]
	}
	type ranked struct {
		EntryPoint
		group, tests int
	}
	var out []ranked
	for _, c := range cands {
		reach := g.Walk([]memgraph.NodeID{c.n}, memgraph.WalkOptions{Types: calls, MaxDepth: 3, Limit: 500})
		out = append(out, ranked{EntryPoint{SymbolInfo: Info(g, c.n), Group: entryGroupNames[c.group], Reach: len(reach.Hits)}, c.group, c.tests})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.Reach != b.Reach {
			return a.Reach > b.Reach
		}
		if a.tests != b.tests {
			return a.tests > b.tests
		}
		return a.UID < b.UID
	})
	res := make([]EntryPoint, 0, min(limit, len(out)))
	for _, r := range out[:min(limit, len(out))] {
		res = append(res, r.EntryPoint)
	}
	return res
}

// isAPI: an exported function, constructor or method of an exported type,
// outside internal/ and examples/, and not a method implementing a common
// interface.
func isAPI(g *memgraph.Graph, n memgraph.NodeID) bool {
	nd := &g.Nodes[n]
	if !nd.Exported || !publicPath(nd.FilePath) {
		return false
	}
	if nd.Kind != graph.KindMethod {
		return true
	}
	if protocolMethods[nd.Name] || (strings.HasPrefix(nd.Name, "__") && strings.HasSuffix(nd.Name, "__")) {
		return false
	}
	for _, e := range g.In(n) {
		if e.Type == graph.EdgeHasMethod && !g.Nodes[e.To].Exported {
			return false // a method of an unexported type
		}
	}
	return true
}

// publicPath: no folder of the path marks its code as not public.
func publicPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if nonPublicDirs[seg] {
			return false
		}
	}
	return true
}
