// Package analysis holds the query-plane algorithms the tools run on a
// repository's in-memory graph: finding the symbol a user means, its
// context, the impact of changing it, the symbols a diff touches, renames,
// the repository overview, and the navigation answers: where a name is
// defined, a symbol's callers and callees by depth, and a module's
// dependencies.
package analysis

import (
	"math"
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// SymbolRef is how a caller names a symbol: a uid (node id), or a name
// narrowed by file and kind.
type SymbolRef struct {
	UID      string
	Name     string
	FilePath string
	Kind     string
}

// SymbolInfo describes one node for tool results.
type SymbolInfo struct {
	UID           string `json:"uid"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	QualifiedName string `json:"qualifiedName"`
	FilePath      string `json:"filePath"`
	StartLine     int    `json:"startLine"`
	EndLine       int    `json:"endLine"`
	Signature     string `json:"signature,omitempty"`
	Exported      bool   `json:"isExported"`
	Language      string `json:"language,omitempty"`
	Doc           string `json:"doc,omitempty"`
	Content       string `json:"content,omitempty"`
}

// Info returns the description of node n (without doc and content).
func Info(g *memgraph.Graph, n memgraph.NodeID) SymbolInfo {
	nd := &g.Nodes[n]
	return SymbolInfo{UID: nd.ID, Name: nd.Name, Kind: nd.Kind.String(), QualifiedName: nd.QualifiedName,
		FilePath: nd.FilePath, StartLine: int(nd.StartLine), EndLine: int(nd.EndLine), Signature: nd.Signature,
		Exported: nd.Exported, Language: nd.Language}
}

// Candidate is one of several symbols a name may mean, with a score that
// ranks the likelier first.
type Candidate struct {
	SymbolInfo
	Score float64 `json:"score"`
}

// Lookup is the outcome of finding a symbol.
type Lookup struct {
	Status     string          `json:"status"` // found, ambiguous, not_found
	Node       memgraph.NodeID `json:"-"`
	Candidates []Candidate     `json:"candidates,omitempty"`
	// TotalCandidates counts every match; Candidates holds the best
	// MaxCandidates of them.
	TotalCandidates int `json:"totalCandidates,omitempty"`
}

// MaxCandidates bounds the candidates an ambiguous lookup lists.
const MaxCandidates = 10

// FindSymbol resolves a reference to one node: by uid exactly; otherwise by
// name (simple, qualified, dotted suffix such as Server.Serve, or a file
// path), filtered by file (exact or path suffix) and kind. Several matches
// make it ambiguous, with candidates ranked by likelihood.
func FindSymbol(g *memgraph.Graph, ref SymbolRef) Lookup {
	if ref.UID != "" {
		if n, ok := g.Lookup(ref.UID); ok {
			return Lookup{Status: "found", Node: n}
		}
		return Lookup{Status: "not_found"}
	}
	name := strings.TrimSpace(ref.Name)
	if name == "" {
		return Lookup{Status: "not_found"}
	}
	cands := g.Find(name)
	if len(cands) == 0 {
		if n, ok := g.Lookup("File:" + strings.TrimPrefix(name, "./")); ok {
			cands = []memgraph.NodeID{n}
		}
	}
	var kept []memgraph.NodeID
	for _, n := range cands {
		nd := &g.Nodes[n]
		if ref.Kind != "" && !strings.EqualFold(nd.Kind.String(), ref.Kind) {
			continue
		}
		if ref.FilePath != "" && !pathMatches(nd.FilePath, ref.FilePath) {
			continue
		}
		kept = append(kept, n)
	}
	return lookupOf(g, kept, name)
}

// lookupOf is the outcome of a lookup that matched kept: not found, found,
// or ambiguous with the best candidates ranked.
func lookupOf(g *memgraph.Graph, kept []memgraph.NodeID, name string) Lookup {
	switch len(kept) {
	case 0:
		return Lookup{Status: "not_found"}
	case 1:
		return Lookup{Status: "found", Node: kept[0]}
	}
	ranked := rank(g, kept, name)
	out := Lookup{Status: "ambiguous", TotalCandidates: len(ranked)}
	if len(ranked) > MaxCandidates {
		ranked = ranked[:MaxCandidates]
	}
	out.Candidates = ranked
	return out
}

// pathMatches reports whether file is want or ends with /want.
func pathMatches(file, want string) bool {
	want = strings.TrimPrefix(path.Clean(strings.TrimPrefix(want, "./")), "/")
	return file == want || strings.HasSuffix(file, "/"+want)
}

// rank orders candidates: exact qualified-name matches, code over tests,
// exported over internal, then by how much the rest of the code depends on
// them (incoming edges).
func rank(g *memgraph.Graph, ids []memgraph.NodeID, name string) []Candidate {
	out := make([]Candidate, 0, len(ids))
	for _, n := range ids {
		nd := &g.Nodes[n]
		score := 0.0
		if nd.QualifiedName == name || nd.ID == name {
			score += 4
		}
		if !IsTestPath(nd.FilePath) {
			score += 2
		}
		if nd.Exported {
			score += 1
		}
		if nd.Kind.IsCallable() || nd.Kind.IsType() {
			score += 0.5
		}
		score += math.Log1p(float64(len(g.In(n)))) / 4
		out = append(out, Candidate{SymbolInfo: Info(g, n), Score: math.Round(score*100) / 100})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].UID < out[j].UID
	})
	return out
}

// IsTestPath reports whether a repository path is test code by the naming
// conventions of the supported languages (graph.IsTestPath).
func IsTestPath(p string) bool { return graph.IsTestPath(p) }

// ModuleOf returns the package (or, without one, the folder) a node's file
// belongs to: its name and node id ("" for files at the root without a
// package).
func ModuleOf(g *memgraph.Graph, n memgraph.NodeID) (name, id string) {
	nd := &g.Nodes[n]
	file := nd.FilePath
	if nd.Kind == graph.KindPackage {
		return nd.QualifiedName, nd.ID
	}
	if f, ok := g.Lookup(graph.FileID(file)); ok {
		for _, e := range g.In(f) {
			if e.Type == graph.EdgeContains && g.Nodes[e.To].Kind == graph.KindPackage {
				return g.Nodes[e.To].QualifiedName, g.Nodes[e.To].ID
			}
		}
	}
	dir := path.Dir(file)
	if dir == "." {
		return "(root)", ""
	}
	return dir, graph.FolderID(dir)
}
