//go:build sqlite_fts5

package main

import (
	"fmt"
	"math"
	"testing"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// testNode: nodes 0-99 are callables in file f<n/10>.go; 100-199 are
// types (not ranked); from 200 on, callables in a test file.
func testNode(n memgraph.NodeID) rankedNode {
	switch {
	case n < 100:
		return rankedNode{callable: true, file: fmt.Sprintf("f%d.go", n/10)}
	case n < 200:
		return rankedNode{callable: false, file: "types.go"}
	}
	return rankedNode{callable: true, file: "x_test.go", test: true}
}

func set[T comparable](xs ...T) map[T]bool {
	m := map[T]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func TestMeasure(t *testing.T) {
	long := make([]memgraph.NodeID, 0, 300)
	for i := range 99 {
		long = append(long, memgraph.NodeID(i))
	}
	for i := 200; i < 300; i++ {
		long = append(long, memgraph.NodeID(i))
	}
	long = append(long, 99) // the 200th callable
	cases := []struct {
		name    string
		ranked  []memgraph.NodeID
		answers map[memgraph.NodeID]bool
		files   map[string]bool
		want    metrics
	}{
		{"first answer first", []memgraph.NodeID{1, 2, 3}, set[memgraph.NodeID](1), set("f0.go"),
			metrics{r1: 1, r5: 1, r10: 1, mrr: 1, fileR10: 1}},
		{"types take no rank", []memgraph.NodeID{100, 101, 5}, set[memgraph.NodeID](5), set("f0.go"),
			metrics{r1: 1, r5: 1, r10: 1, mrr: 1, fileR10: 1}},
		{"two answers, ranks 3 and 7", []memgraph.NodeID{20, 21, 1, 22, 23, 24, 2, 25}, set[memgraph.NodeID](1, 2), set("f0.go"),
			metrics{r1: 0, r5: 0.5, r10: 1, mrr: 1.0 / 3, fileR10: 1}},
		{"a repeated node counts once", []memgraph.NodeID{20, 20, 20, 1}, set[memgraph.NodeID](1), set("f0.go"),
			metrics{r1: 0, r5: 1, r10: 1, mrr: 0.5, fileR10: 1}},
		{"answer at rank 11: MRR only", []memgraph.NodeID{20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 1}, set[memgraph.NodeID](1), set("f0.go"),
			metrics{mrr: 1.0 / 11}},
		{"answer's file in the top 10 without it", []memgraph.NodeID{2, 30, 40}, set[memgraph.NodeID](1, 55), set("f0.go", "f5.go"),
			metrics{fileR10: 0.5}},
		{"answer at rank 200 counts", long, set[memgraph.NodeID](99), set("f9.go"),
			metrics{mrr: 1.0 / 200}},
		{"answer at rank 201 is 0", append(append([]memgraph.NodeID{}, long[:len(long)-1]...), 300, 99), set[memgraph.NodeID](99), set("f9.go"),
			metrics{}},
		{"nothing ranked", nil, set[memgraph.NodeID](1), set("f0.go"), metrics{}},
	}
	for _, tc := range cases {
		got := measure(tc.ranked, testNode, tc.answers, tc.files)
		if !near(got, tc.want) {
			t.Errorf("%s: measure = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestDropTests(t *testing.T) {
	ranked := []memgraph.NodeID{200, 1, 201, 100, 2}
	got := dropTests(ranked, testNode)
	want := []memgraph.NodeID{1, 100, 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("dropTests = %v, want %v", got, want)
	}
	// The test answer 200 ranks first as ranked; dropped, answer 1 does.
	answers := set[memgraph.NodeID](200, 1)
	if m := measure(ranked, testNode, answers, nil); m.r1 != 0.5 || m.mrr != 1 {
		t.Errorf("as ranked: %+v, want r1 0.5 and MRR 1", m)
	}
	if m := measure(got, testNode, answers, nil); m.r1 != 0.5 || m.r10 != 0.5 || m.mrr != 1 {
		t.Errorf("tests dropped: %+v, want r1 0.5, r10 0.5 and MRR 1", m)
	}
}

func TestMeansAdd(t *testing.T) {
	var sum metrics
	sum.add(metrics{r1: 1, r5: 1, r10: 1, mrr: 1, fileR10: 1})
	sum.add(metrics{r10: 0.5, mrr: 0.25})
	if got, want := sum.scale(0.5), (metrics{r1: 0.5, r5: 0.5, r10: 0.75, mrr: 0.625, fileR10: 0.5}); !near(got, want) {
		t.Errorf("mean = %+v, want %+v", got, want)
	}
}

func near(a, b metrics) bool {
	eq := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	return eq(a.r1, b.r1) && eq(a.r5, b.r5) && eq(a.r10, b.r10) && eq(a.mrr, b.mrr) && eq(a.fileR10, b.fileR10)
}
