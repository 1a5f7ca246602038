package history_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
)

// TestLinkEdgesOnce: records that lead to the same edge within a commit
// (a message that names the reverted commit twice, two changes of one
// symbol, a rename and a change that end at one path) give that edge
// once, with the merged attributes an edge added twice would have.
func TestLinkEdgesOnce(t *testing.T) {
	a, b := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	g := graph.New()
	g.AddNode(graph.Node{ID: graph.FileID("x.go"), Kind: graph.KindFile, Name: "x.go", FilePath: "x.go"})
	fn := graph.SymbolID(graph.KindFunction, "x.go", "F")
	g.AddNode(graph.Node{ID: fn, Kind: graph.KindFunction, Name: "F", FilePath: "x.go"})
	h := &graph.History{
		Commits: []graph.Commit{
			{Hash: b, Parents: []string{a}, Message: "undo\n\nThis reverts commit " + a + ".\nThis reverts commit " + a + "."},
			{Hash: a, Message: "add"},
		},
		Files: []graph.FileChange{
			{Commit: b, Status: 'M', Path: "x.go"},
			{Commit: b, Status: 'M', Path: "x.go"},
			{Commit: a, Status: 'A', Path: "x.go"},
		},
		Symbols: []graph.SymbolChange{
			{Commit: b, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeModified},
			{Commit: b, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeModified},
			{Commit: a, Path: "x.go", Kind: graph.KindFunction, Name: "F", Qual: "F", Key: "F", Change: graph.ChangeAdded},
		},
	}
	history.Link(g, h)
	count := map[graph.EdgeType]int{}
	for _, e := range g.Edges() {
		count[e.Type]++
	}
	want := map[graph.EdgeType]int{graph.EdgeParentOf: 1, graph.EdgeReverts: 1, graph.EdgeModifies: 2, graph.EdgeChanges: 2}
	for typ, n := range want {
		if count[typ] != n {
			t.Errorf("%s: %d edges, want %d", typ, count[typ], n)
		}
	}
	if len(count) != len(want) {
		t.Errorf("edges by type %v, want %v", count, want)
	}
}

// TestLinkNewer links commits on top of a linked history, whose oldest
// commits a bound on the history may drop, and compares with linking
// everything: where LinkNewer accepts, g with the older part (less what
// Dropped names) and the records must be what Link gives; where the newer
// commits would change an older link, a short hash or a revert target, it
// must refuse and leave g alone.
func TestLinkNewer(t *testing.T) {
	hash := func(prefix string) string { return prefix + strings.Repeat("0", 40-len(prefix)) }
	old1, old2, old3 := hash("1111111a"), hash("2222222a"), hash("3333333a")
	code := func() *graph.Graph {
		g := graph.New()
		for _, p := range []string{"x.go", "y.go"} {
			g.AddNode(graph.Node{ID: graph.FileID(p), Kind: graph.KindFile, Name: p, FilePath: p})
		}
		g.AddNode(graph.Node{ID: graph.SymbolID(graph.KindFunction, "x.go", "F"), Kind: graph.KindFunction, Name: "F", FilePath: "x.go"})
		return g
	}
	sym := func(c, name string, ch graph.ChangeType) graph.SymbolChange {
		return graph.SymbolChange{Commit: c, Path: "x.go", Kind: graph.KindFunction, Name: name, Qual: name, Key: name, Change: ch}
	}
	older := graph.History{
		Commits: []graph.Commit{
			{Hash: old3, Parents: []string{old2}, Message: "undo\n\nThis reverts commit 1111111.\nThis reverts commit 7777777."},
			{Hash: old2, Parents: []string{old1}, Message: "gone"},
			{Hash: old1, Message: "add"},
		},
		Files: []graph.FileChange{
			{Commit: old3, Status: 'M', Path: "x.go"},
			{Commit: old2, Status: 'D', Path: "z.go"},
			{Commit: old1, Status: 'A', Path: "x.go"}, {Commit: old1, Status: 'A', Path: "z.go"},
		},
		Symbols: []graph.SymbolChange{
			sym(old3, "G", graph.ChangeDeleted),
			sym(old1, "F", graph.ChangeAdded), sym(old1, "G", graph.ChangeAdded), sym(old1, "H", graph.ChangeAdded),
		},
	}
	cases := []struct {
		name    string
		commits []graph.Commit
		files   []graph.FileChange
		symbols []graph.SymbolChange
		ok      bool
		kept    int            // the older commits kept (0: all)
		older   *graph.History // instead of older
	}{
		{"a change", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "edit"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'M', Path: "x.go"}},
			[]graph.SymbolChange{sym(hash("4444444a"), "F", graph.ChangeModified)}, true, 0, nil},
		{"two commits, one reverting an older one", []graph.Commit{
			{Hash: hash("5555555a"), Parents: []string{hash("4444444a")}, Message: "Revert\n\nThis reverts commit " + old2 + "."},
			{Hash: hash("4444444a"), Parents: []string{old3}, Message: "empty"}},
			[]graph.FileChange{{Commit: hash("5555555a"), Status: 'M', Path: "y.go"}}, nil, true, 0, nil},
		{"a deletion", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "rm"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'D', Path: "y.go"}}, nil, true, 0, nil},
		{"an added file", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "add z"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'A', Path: "z.go"}}, nil, false, 0, nil},
		{"a rename", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "mv"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'R', Path: "y.go", OldPath: "z.go"}}, nil, false, 0, nil},
		{"a symbol not in the graph", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "rm G"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'M', Path: "x.go"}},
			[]graph.SymbolChange{sym(hash("4444444a"), "G", graph.ChangeDeleted)}, false, 0, nil},
		{"a hash that lengthens an older short hash", []graph.Commit{{Hash: hash("2222222b"), Parents: []string{old3}, Message: "edit"}},
			nil, nil, false, 0, nil},
		// (A hash that made an older revert's prefix ambiguous would
		// lengthen the reverted commit's short hash too.)
		{"a hash an older revert names, of a commit it did not have", []graph.Commit{{Hash: hash("7777777a"), Parents: []string{old3}, Message: "edit"}},
			nil, nil, false, 0, nil},
		// The oldest commit dropped (--max-commits): its edges go, the
		// REVERTS edge to it too, and H, which only it changed.
		{"the oldest dropped", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "edit"}},
			[]graph.FileChange{{Commit: hash("4444444a"), Status: 'M', Path: "x.go"}},
			[]graph.SymbolChange{sym(hash("4444444a"), "F", graph.ChangeModified)}, true, 2, nil},
		{"the two oldest dropped", []graph.Commit{
			{Hash: hash("5555555a"), Parents: []string{hash("4444444a")}, Message: "b"},
			{Hash: hash("4444444a"), Parents: []string{old3}, Message: "a"}},
			nil, nil, true, 1, nil},
		{"the oldest dropped, which shortens a short hash", []graph.Commit{{Hash: hash("4444444a"), Parents: []string{old3}, Message: "edit"}},
			nil, nil, false, 2, renamed(&older, old1, hash("3333333b"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			older := &older
			if c.older != nil {
				older = c.older
			}
			prev := cloneHistory(older)
			history.Link(code(), prev)
			records := func() *graph.History {
				h := cloneHistory(older)
				if c.kept > 0 {
					h.Commits = h.Commits[:c.kept]
					keep := func(commit string) bool {
						return slices.ContainsFunc(h.Commits, func(k graph.Commit) bool { return k.Hash == commit })
					}
					h.Files = slices.DeleteFunc(h.Files, func(f graph.FileChange) bool { return !keep(f.Commit) })
					h.Symbols = slices.DeleteFunc(h.Symbols, func(s graph.SymbolChange) bool { return !keep(s.Commit) })
				}
				h.Commits = append(slices.Clone(c.commits), h.Commits...)
				h.Files = append(slices.Clone(c.files), h.Files...)
				h.Symbols = append(slices.Clone(c.symbols), h.Symbols...)
				return h
			}
			h := records()
			nw, ok := h.NewerUnlinked(prev)
			if !ok || nw.Commits != len(c.commits) || nw.Files != len(c.files) || nw.Symbols != len(c.symbols) ||
				nw.Kept != len(h.Commits)-len(c.commits) {
				t.Fatalf("NewerUnlinked: %+v %v", nw, ok)
			}
			g := code()
			n := len(g.Nodes())
			reached, ok := history.LinkNewer(g, h, prev, nw)
			if ok != c.ok {
				t.Fatalf("LinkNewer: %v, want %v", ok, c.ok)
			}
			if !ok {
				if len(g.Nodes()) != n || len(g.Edges()) != 0 || g.History() != nil {
					t.Error("the graph changed")
				}
				return
			}
			full, fh := code(), records()
			history.Link(full, fh)
			if !h.SameRecords(fh) {
				t.Errorf("records\n%+v\nLink's\n%+v", h, fh)
			}
			// g holds the new commits' part: with the older one, it is Link's.
			all := map[string]bool{}
			for _, e := range g.Edges() {
				all[e.Src+" "+e.Type.String()+" "+e.Dst] = true
			}
			prevGraph := code()
			history.Link(prevGraph, cloneHistory(older))
			drop := history.Dropped(prev, nw)
			if c.kept == 2 && !drop["HistoricalSymbol:Function:x.go:H"] || c.kept == 0 && len(drop) > 0 {
				t.Errorf("dropped %v", drop)
			}
			for _, e := range prevGraph.Edges() {
				if !drop[e.Src] && !drop[e.Dst] {
					all[e.Src+" "+e.Type.String()+" "+e.Dst] = true
				}
			}
			want := map[string]bool{}
			for _, e := range full.Edges() {
				want[e.Src+" "+e.Type.String()+" "+e.Dst] = true
			}
			if !maps.Equal(all, want) {
				t.Errorf("edges\n%v\nLink's\n%v", all, want)
			}
			newer := 0
			for _, nd := range g.Nodes() {
				if nd.Kind == graph.KindCommit {
					newer++
					if w, _ := full.Node(nd.ID); w != nd {
						t.Errorf("node %+v, Link's %+v", nd, w)
					}
				}
			}
			if newer != nw.Commits+reached {
				t.Errorf("%d Commit nodes, want %d new and %d reached", newer, nw.Commits, reached)
			}
		})
	}
}

// renamed is a copy of h in which the commit from is named to.
func renamed(h *graph.History, from, to string) *graph.History {
	r := cloneHistory(h)
	for i := range r.Commits {
		c := &r.Commits[i]
		c.Parents = slices.Clone(c.Parents)
		if c.Hash == from {
			c.Hash = to
		}
		for k, p := range c.Parents {
			if p == from {
				c.Parents[k] = to
			}
		}
	}
	for i := range r.Files {
		if r.Files[i].Commit == from {
			r.Files[i].Commit = to
		}
	}
	for i := range r.Symbols {
		if r.Symbols[i].Commit == from {
			r.Symbols[i].Commit = to
		}
	}
	return r
}

func cloneHistory(h *graph.History) *graph.History {
	return &graph.History{Commits: slices.Clone(h.Commits), Files: slices.Clone(h.Files), Symbols: slices.Clone(h.Symbols)}
}
