package graph

import (
	"reflect"
	"testing"
)

// TestAddEdgeMerges checks how repeated (src, dst, type) edges merge: the
// best confidence and its reason win, and every site line is kept.
func TestAddEdgeMerges(t *testing.T) {
	type add struct {
		conf   float64
		reason Reason
		line   int
	}
	cases := []struct {
		name       string
		adds       []add
		wantConf   float64
		wantReason Reason
		wantLine   int
		wantMore   []int
	}{
		{"one site", []add{{0.95, ReasonSameFile, 12}}, 0.95, ReasonSameFile, 12, nil},
		{"sites in order", []add{{0.95, ReasonSameFile, 3}, {0.95, ReasonSameFile, 5}, {0.95, ReasonSameFile, 9}}, 0.95, ReasonSameFile, 3, []int{5, 9}},
		{"sites out of order, repeated", []add{{0.9, ReasonSameFile, 9}, {0.9, ReasonSameFile, 3}, {0.9, ReasonSameFile, 9}, {0.9, ReasonSameFile, 5}}, 0.9, ReasonSameFile, 3, []int{5, 9}},
		{"better confidence later keeps earlier sites", []add{{0.3, ReasonNameOnly, 4}, {0.95, ReasonImportResolved, 8}}, 0.95, ReasonImportResolved, 4, []int{8}},
		{"worse confidence later adds its site only", []add{{0.95, ReasonImportResolved, 8}, {0.3, ReasonNameOnly, 2}}, 0.95, ReasonImportResolved, 2, []int{8}},
		{"no site then a site", []add{{1, ReasonSyntax, 0}, {1, ReasonSyntax, 7}}, 1, ReasonSyntax, 7, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := New()
			g.AddNode(Node{ID: "Function:a.go:f", Kind: KindFunction, Name: "f"})
			g.AddNode(Node{ID: "Function:a.go:g", Kind: KindFunction, Name: "g"})
			for _, a := range c.adds {
				g.AddEdge(Edge{Src: "Function:a.go:f", Dst: "Function:a.go:g", Type: EdgeCalls, Confidence: a.conf, Reason: a.reason, Line: a.line})
			}
			es := g.Edges()
			if len(es) != 1 {
				t.Fatalf("%d edges, want 1", len(es))
			}
			e := es[0]
			if e.Confidence != c.wantConf || e.Reason != c.wantReason || e.Line != c.wantLine || !reflect.DeepEqual(e.More, c.wantMore) {
				t.Errorf("edge = %v %s line %d more %v, want %v %s line %d more %v",
					e.Confidence, e.Reason, e.Line, e.More, c.wantConf, c.wantReason, c.wantLine, c.wantMore)
			}
		})
	}
}
