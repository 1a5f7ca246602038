package analysis

import (
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// MaxNavResults bounds the answers of the navigation tools (find_symbol,
// get_callers_of, get_callees_of and each list of get_module_dependencies):
// enough to see a symbol's neighbourhood, small enough for a model's
// context. A longer answer is cut and says so.
const MaxNavResults = 100

// DefinitionsOptions narrow a definition search.
type DefinitionsOptions struct {
	Name string // a simple name, or a qualified name (or a dotted suffix of one: Type.method)
	Kind graph.NodeKind
	// File keeps definitions in this file (exact path or path suffix) or
	// under this directory; empty keeps all.
	File string
}

// Definition is one place a symbol is defined.
type Definition struct {
	SymbolInfo
	// Module is the package the symbol belongs to, or its folder without
	// one.
	Module string `json:"module"`
	Test   bool   `json:"test,omitempty"`
}

// DefinitionsResult is the answer of find_symbol.
type DefinitionsResult struct {
	Name string `json:"name"`
	// Match is "exact" when the name matched with its case, "case-insensitive"
	// when only a match ignoring case was found, "none" otherwise.
	Match       string       `json:"match"`
	Total       int          `json:"total"`
	Returned    int          `json:"returned"`
	Truncated   bool         `json:"truncated"`
	Definitions []Definition `json:"definitions"`
}

// Definitions finds where the symbols called name are defined: an exact
// match of the simple name or the qualified name (a dotted name matches
// whole trailing segments of qualified names, so Store.Get finds
// store.Store.Get), with its case first and, when nothing matches, ignoring
// case. Kind and file narrow the matches. Code comes before tests, then by
// file and line; at most MaxNavResults are listed.
func Definitions(g *memgraph.Graph, opt DefinitionsOptions) DefinitionsResult {
	name := strings.TrimSpace(opt.Name)
	res := DefinitionsResult{Name: name, Match: "none", Definitions: []Definition{}}
	if name == "" {
		return res
	}
	keep := func(ids []memgraph.NodeID) []memgraph.NodeID {
		var out []memgraph.NodeID
		for _, n := range ids {
			nd := &g.Nodes[n]
			if !nd.Kind.IsSymbol() || (opt.Kind != graph.KindInvalid && nd.Kind != opt.Kind) {
				continue
			}
			if opt.File != "" && !inFileOrDir(nd.FilePath, opt.File) {
				continue
			}
			out = append(out, n)
		}
		return out
	}
	found := keep(definitionsCased(g, name))
	if len(found) > 0 {
		res.Match = "exact"
	} else if found = keep(definitionsFolded(g, name)); len(found) > 0 {
		res.Match = "case-insensitive"
	}
	facts := factsOf(g)
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if ta, tb := facts.isTest(a), facts.isTest(b); ta != tb {
			return !ta
		}
		na, nb := &g.Nodes[a], &g.Nodes[b]
		if na.FilePath != nb.FilePath {
			return na.FilePath < nb.FilePath
		}
		if na.StartLine != nb.StartLine {
			return na.StartLine < nb.StartLine
		}
		return na.ID < nb.ID
	})
	res.Total = len(found)
	if len(found) > MaxNavResults {
		found, res.Truncated = found[:MaxNavResults], true
	}
	for _, n := range found {
		res.Definitions = append(res.Definitions, Definition{SymbolInfo: Info(g, n), Module: facts.moduleOf(n), Test: facts.isTest(n)})
	}
	res.Returned = len(res.Definitions)
	return res
}

// definitionsCased matches name with its case: the simple name, or for a
// dotted name the qualified name or whole trailing segments of it.
func definitionsCased(g *memgraph.Graph, name string) []memgraph.NodeID {
	if !strings.Contains(name, ".") {
		return g.ByName(name)
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	var out []memgraph.NodeID
	for _, n := range g.ByName(last) {
		if q := g.Nodes[n].QualifiedName; q == name || strings.HasSuffix(q, "."+name) {
			out = append(out, n)
		}
	}
	return out
}

// definitionsFolded is definitionsCased ignoring case; it scans every
// symbol, so it runs only when the cased match found nothing.
func definitionsFolded(g *memgraph.Graph, name string) []memgraph.NodeID {
	lower := strings.ToLower(name)
	dotted := strings.Contains(name, ".")
	var out []memgraph.NodeID
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		if !nd.Kind.IsSymbol() {
			continue
		}
		if dotted {
			q := strings.ToLower(nd.QualifiedName)
			if q == lower || strings.HasSuffix(q, "."+lower) {
				out = append(out, memgraph.NodeID(i))
			}
		} else if strings.EqualFold(nd.Name, name) {
			out = append(out, memgraph.NodeID(i))
		}
	}
	return out
}

// inFileOrDir reports whether file is want, ends with /want, or lies under
// the directory want.
func inFileOrDir(file, want string) bool {
	if pathMatches(file, want) {
		return true
	}
	dir := strings.Trim(strings.TrimPrefix(want, "./"), "/")
	return dir == "" || dir == "." || strings.HasPrefix(file, dir+"/")
}
