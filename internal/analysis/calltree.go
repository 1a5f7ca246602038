package analysis

import (
	"slices"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The callers and callees of a symbol (get_callers_of, get_callees_of): a
// breadth-first walk over CALLS edges, each symbol listed once at the
// depth it is first reached, with the lines of the call.

// Call-tree bounds.
const (
	DefaultCallDepth = 1
	MaxCallDepth     = 5
	// MaxCallVisit bounds the walk itself; past it the counts are lower
	// bounds and the result says so.
	MaxCallVisit = 20000
)

// SymbolHead names a symbol in a list: its id, names, kind and where it
// is defined.
type SymbolHead struct {
	UID           string `json:"uid"`
	Name          string `json:"name"`
	QualifiedName string `json:"qualifiedName"`
	Kind          string `json:"kind"`
	FilePath      string `json:"filePath"`
	StartLine     int    `json:"startLine"`
}

// headOf is the SymbolHead of node n.
func headOf(g *memgraph.Graph, n memgraph.NodeID) SymbolHead {
	nd := &g.Nodes[n]
	return SymbolHead{UID: nd.ID, Name: nd.Name, QualifiedName: nd.QualifiedName, Kind: nd.Kind.String(),
		FilePath: nd.FilePath, StartLine: int(nd.StartLine)}
}

// CallItem is one caller or callee.
type CallItem struct {
	SymbolHead
	Module string `json:"module"`
	// Layer is the module's layer ("API layer", "storage", ...; see
	// LayerOf), when its path or community names one.
	Layer       string `json:"layer,omitempty"`
	moduleLayer string // the layer of its file's path
	// Community is the label of the functional area the symbol belongs to,
	// when communities were detected.
	Community string `json:"community,omitempty"`
	Test      bool   `json:"test,omitempty"`
	Depth     int    `json:"depth"`
	// Via is the symbol one level closer to the target that this one
	// calls (callers) or is called by (callees): the target at depth 1.
	Via string `json:"via"`
	// CallFile and CallLines are where the call is written: the caller's
	// file, every line of it that makes the call.
	CallFile   string  `json:"callFile"`
	CallLines  []int32 `json:"callLines"`
	Confidence float32 `json:"confidence"`
	Reason     string  `json:"reason"`
}

// CallLevel is the callers (or callees) found at one depth.
type CallLevel struct {
	Depth int `json:"depth"`
	// Count is how many were found at this depth; Items lists them unless
	// the answer was cut at MaxNavResults.
	Count int        `json:"count"`
	Items []CallItem `json:"items"`
}

// CallModule is a module the listed callers (or callees) belong to.
type CallModule struct {
	Name    string   `json:"name"`
	Symbols []string `json:"symbols"` // names as written in their files
	Test    bool     `json:"test,omitempty"`
	Layer   string   `json:"layer,omitempty"` // its path's (see LayerOf)
	// Communities are the functional areas of those symbols, when
	// communities were detected.
	Communities []string `json:"communities,omitempty"`
}

// CallTreeResult is the answer of get_callers_of and get_callees_of.
type CallTreeResult struct {
	Symbol    SymbolInfo `json:"symbol"`
	Module    string     `json:"module"`
	Direction string     `json:"direction"` // callers or callees
	Depth     int        `json:"depth"`
	Total     int        `json:"total"`
	Returned  int        `json:"returned"`
	// Truncated: more than MaxNavResults were found; the nearest are
	// listed.
	Truncated bool        `json:"truncated"`
	Levels    []CallLevel `json:"levels"`
	// Recursive: the symbol calls itself (a call the walk does not list).
	Recursive bool `json:"recursive,omitempty"`
	// Modules places the listed items in their packages or folders, code
	// before tests, most items first.
	Modules []CallModule `json:"modules"`
	// Exhaustive false: the walk stopped at MaxCallVisit symbols, so the
	// counts are lower bounds.
	Exhaustive bool `json:"exhaustive"`
}

// CallTreeOptions say which way and how far a call tree goes.
type CallTreeOptions struct {
	Callers bool // who calls the symbol; else what it calls
	Depth   int  // levels, 1..MaxCallDepth
	// MaxVisit bounds the walk (MaxCallVisit when 0).
	MaxVisit int
	// MinConfidence leaves out edges below it.
	MinConfidence float32
}

// CallTree walks CALLS edges from n, upstream (callers) or downstream
// (callees), opt.Depth levels (1..MaxCallDepth), each symbol once. Within a
// depth, code comes before tests, then the more confident edges, then by
// file and line; at most MaxNavResults items are listed, nearest depths
// first.
func CallTree(g *memgraph.Graph, n memgraph.NodeID, opt CallTreeOptions) CallTreeResult {
	depth := max(1, min(opt.Depth, MaxCallDepth))
	callers := opt.Callers
	maxVisit := opt.MaxVisit
	if maxVisit <= 0 {
		maxVisit = MaxCallVisit
	}
	facts := factsOf(g)
	mod := facts.moduleOf(n)
	res := CallTreeResult{Symbol: Info(g, n), Module: mod, Direction: "callees", Depth: depth,
		Levels: []CallLevel{}, Modules: []CallModule{}, Exhaustive: true}
	if callers {
		res.Direction = "callers"
	}
	for _, e := range g.Out(n) {
		if e.Type == graph.EdgeCalls && e.To == n {
			res.Recursive = true
		}
	}
	dir := memgraph.Outgoing
	if callers {
		dir = memgraph.Incoming
	}
	walk := g.Walk([]memgraph.NodeID{n}, memgraph.WalkOptions{Direction: dir, Types: []graph.EdgeType{graph.EdgeCalls},
		MaxDepth: depth, Limit: maxVisit, MinConfidence: opt.MinConfidence})
	res.Exhaustive = !walk.Truncated
	levels := walk.Levels()
	left := MaxNavResults
	for i, level := range levels {
		sort.Slice(level, func(a, b int) bool {
			x, y := &level[a], &level[b]
			if tx, ty := facts.isTest(x.Node), facts.isTest(y.Node); tx != ty {
				return !tx
			}
			if x.Via.Confidence != y.Via.Confidence {
				return x.Via.Confidence > y.Via.Confidence
			}
			nx, ny := &g.Nodes[x.Node], &g.Nodes[y.Node]
			if nx.FilePath != ny.FilePath {
				return nx.FilePath < ny.FilePath
			}
			if nx.StartLine != ny.StartLine {
				return nx.StartLine < ny.StartLine
			}
			return nx.ID < ny.ID
		})
		res.Total += len(level)
		lv := CallLevel{Depth: i + 1, Count: len(level), Items: []CallItem{}}
		for _, h := range level[:min(left, len(level))] {
			caller := h.Node
			if !callers {
				caller = h.From
			}
			community := ""
			if c := CommunityOf(g, h.Node); c != nil {
				community = c.Label
			}
			lv.Items = append(lv.Items, CallItem{SymbolHead: headOf(g, h.Node), Community: community,
				Module: facts.moduleOf(h.Node), Layer: facts.layerOf(h.Node), moduleLayer: facts.fileLayer(h.Node), Test: facts.isTest(h.Node), Depth: i + 1, Via: g.Nodes[h.From].ID,
				CallFile: g.Nodes[caller].FilePath, CallLines: nonNilLines(g.Lines(h.Via)),
				Confidence: h.Via.Confidence, Reason: string(g.Reason(h.Via))})
		}
		left -= len(lv.Items)
		res.Returned += len(lv.Items)
		res.Levels = append(res.Levels, lv)
	}
	res.Truncated = res.Returned < res.Total
	res.Modules = callModules(res.Levels)
	return res
}

func nonNilLines(lines []int32) []int32 {
	if lines == nil {
		return []int32{}
	}
	return lines
}

// callModules groups the listed items by module: code modules before test
// code, then the modules with more items first, then by name. A module
// holding both code and tests appears twice, once marked as tests.
func callModules(levels []CallLevel) []CallModule {
	type key struct {
		name string
		test bool
	}
	byKey := map[key]*CallModule{}
	var order []key
	for _, lv := range levels {
		for _, it := range lv.Items {
			k := key{it.Module, it.Test}
			m := byKey[k]
			if m == nil {
				m = &CallModule{Name: it.Module, Test: it.Test, Layer: it.moduleLayer, Symbols: []string{}}
				byKey[k] = m
				order = append(order, k)
			}
			m.Symbols = append(m.Symbols, NameInFile(it.UID, it.Kind, it.FilePath, it.Name))
			if it.Community != "" && !slices.Contains(m.Communities, it.Community) {
				m.Communities = append(m.Communities, it.Community)
			}
		}
	}
	out := make([]CallModule, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Test != out[j].Test {
			return !out[i].Test
		}
		if len(out[i].Symbols) != len(out[j].Symbols) {
			return len(out[i].Symbols) > len(out[j].Symbols)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// NameInFile is a symbol's name as written in its file (Service.Place for a
// method), read off its id "<Kind>:<path>:<name in file>". Other nodes keep
// their name.
func NameInFile(uid, kind, file, name string) string {
	if rest, ok := strings.CutPrefix(uid, kind+":"+file+":"); ok && rest != "" {
		return rest
	}
	return name
}
