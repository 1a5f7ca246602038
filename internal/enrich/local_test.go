package enrich_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/enrich"
	"gitnexus.dev/gitnexus/internal/graph"
)

// TestLocalUpdate runs the local update of communities on a graph where
// every rule of it applies once: members kept, new symbols placed by
// weight and by the first community id on a tie, a new community from
// linked new symbols, a lone new symbol left out, communities dissolved
// when their members are gone, and the switch to a detection once the
// drift passes the limit.
func TestLocalUpdate(t *testing.T) {
	funcs := map[string][]string{ // file -> functions
		"auth/x.go": {"A1", "A2", "A3"}, "billing/y.go": {"B1", "B2"}, "cache/z.go": {"C1", "C2"},
		"db/w.go": {"D1"}, "auth/n.go": {"N1", "N2"}, "events/e.go": {"E1"}, "hooks/h.go": {"H1"}, "tools/t.go": {"T"},
	}
	id := func(name string) string {
		for f, ns := range funcs {
			if slices.Contains(ns, name) {
				return "Function:" + f + ":" + name
			}
		}
		t.Fatalf("no function %s", name)
		return ""
	}
	calls := [][2]string{
		{"A1", "A2"}, {"A2", "A3"}, {"B1", "B2"},
		{"C1", "C2"}, {"N1", "N2"}, // new, linked only to each other
		{"D1", "A1"}, {"D1", "B1"}, // D1: more weight towards billing
		{"D1", "B2"},
		{"T", "A2"}, {"T", "B2"}, // a tie: auth comes first
	}
	build := func() *graph.Graph {
		g := graph.New()
		for f, ns := range funcs {
			for _, n := range ns {
				g.AddNode(graph.Node{ID: id(n), Kind: graph.KindFunction, Name: n, FilePath: f, Language: "go"})
			}
		}
		for _, c := range calls {
			g.AddEdge(graph.Edge{Src: id(c[0]), Dst: id(c[1]), Type: graph.EdgeCalls, Confidence: 0.9,
				Reason: graph.ReasonImportResolved, Line: 1})
		}
		return g
	}
	prev := func(drift int) *graph.Partition {
		return &graph.Partition{
			Detection: graph.CommunityDetection{Symbols: 20, Drift: drift},
			Communities: []graph.CommunityFacts{
				{ID: "Community:auth", Label: "auth", Keywords: []string{"alpha"}},
				{ID: "Community:billing", Label: "billing"},
				{ID: "Community:gone", Label: "gone"}, // both members removed
				{ID: "Community:half", Label: "half"}, // one of two removed
			},
			Languages: []string{"go", "go", "go", "go"},
			Of: map[string]int32{id("A1"): 0, id("A2"): 0, id("A3"): 0, id("B1"): 1, id("B2"): 1,
				"Function:gone/g.go:G1": 2, "Function:gone/g.go:G2": 2, id("H1"): 3, "Function:hooks/h.go:H2": 3},
		}
	}
	changed := func(p string) bool {
		return strings.HasPrefix(p, "cache/") || p == "auth/n.go" || strings.HasPrefix(p, "db/") ||
			strings.HasPrefix(p, "events/") || strings.HasPrefix(p, "tools/")
	}
	type community struct {
		label    string
		members  []string
		keywords []string
	}
	for _, c := range []struct {
		name      string
		drift     int
		update    string
		want      []community // for a local update
		detection graph.CommunityDetection
	}{
		// Changed: C1 C2 D1 E1 N1 N2 T (7) and gone G1 G2 H2 (3): 10 on
		// top of the drift before; the limit is 10 (LocalFloor).
		{name: "local", drift: 0, update: "local", want: []community{
			{"auth", []string{"A1", "A2", "A3", "T"}, []string{"alpha"}},
			{"billing", []string{"B1", "B2", "D1"}, nil},
			{"auth 2", []string{"N1", "N2"}, nil}, // told apart from the kept "auth"
			{"cache", []string{"C1", "C2"}, nil},
		}, detection: graph.CommunityDetection{Symbols: 20, Drift: 10}},
		{name: "over the limit", drift: 1, update: "detected",
			detection: graph.CommunityDetection{Symbols: 13}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := build()
			st, err := enrich.Run(context.Background(), g, enrich.Options{Previous: prev(c.drift), Changed: changed})
			if err != nil {
				t.Fatal(err)
			}
			if st.CommunityUpdate != c.update {
				t.Fatalf("communities %s (%s), want %s", st.CommunityUpdate, st.CommunityWhy, c.update)
			}
			if d := g.Flows().Detection; d != c.detection {
				t.Errorf("detection %+v, want %+v", d, c.detection)
			}
			if c.update != "local" {
				if !strings.Contains(st.CommunityWhy, "11 symbols changed") {
					t.Errorf("why: %q", st.CommunityWhy)
				}
				return
			}
			if st.CommunityPlaced != 2 || st.CommunitiesAdded != 2 || st.CommunitiesDissolved != 2 ||
				st.CommunityDrift != 10 || st.CommunityDriftLimit != 10 {
				t.Errorf("stats %+v", st)
			}
			members := map[string][]string{}
			for _, e := range g.Edges() {
				if e.Type == graph.EdgeMemberOf {
					members[e.Dst] = append(members[e.Dst], e.Src)
				}
			}
			var got []community
			for _, f := range g.Flows().Communities {
				var ms []string
				for _, m := range members[f.ID] {
					ms = append(ms, m[strings.LastIndexByte(m, ':')+1:])
				}
				slices.Sort(ms)
				if f.ID != "Community:"+f.Label || f.SymbolCount != len(ms) {
					t.Errorf("community %+v has %d members", f, len(ms))
				}
				got = append(got, community{f.Label, ms, f.Keywords})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("communities\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
