package enrich

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// TestTracesMatchReference: on random call graphs (cycles, self calls,
// guesses, low confidences, test code, non-callables), the traces and the
// nodes a trace can go on from are those of the plain statement of the
// rule: at each step, the callees not on the path that pass the filter,
// sorted (onward first, then fewest callers, in call site order) after
// the path's are left out, the first traceBranching of them.
func TestTracesMatchReference(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		g := graph.New()
		n := 20 + r.IntN(60)
		for i := range n {
			kind, file := graph.KindFunction, fmt.Sprintf("f%d.go", i%7)
			switch r.IntN(10) {
			case 0:
				kind = graph.KindClass
			case 1:
				file = "x_test.go"
			case 2:
				kind = graph.KindMethod
			}
			g.AddNode(graph.Node{ID: fmt.Sprintf("%s:%s:n%02d", kind, file, i), Kind: kind, Name: fmt.Sprintf("n%02d", i),
				FilePath: file, Language: "go", Exported: r.IntN(2) == 0})
		}
		ids := make([]string, 0, n)
		for _, node := range g.Nodes() {
			ids = append(ids, node.ID)
		}
		for range n * (1 + r.IntN(4)) {
			reason, conf := graph.ReasonSameFile, 0.7+0.3*r.Float64()
			if r.IntN(8) == 0 {
				reason, conf = graph.ReasonNameOnly, 0.3
			}
			g.AddEdge(graph.Edge{Src: ids[r.IntN(n)], Dst: ids[r.IntN(n)], Type: graph.EdgeCalls, Confidence: conf,
				Reason: reason, Line: 1 + r.IntN(5)})
		}
		v := newView(g)
		var st Stats
		traceProcesses(context.Background(), v, Options{MaxProcesses: DefaultMaxProcesses}, &st)
		for i := range v.nodes {
			if want := len(referenceCallees(v, int32(i), nil)) > 0; v.onward[i] != want {
				t.Fatalf("seed %d: onward[%s] = %v, want %v", seed, v.nodes[i].ID, v.onward[i], want)
			}
			got, want := tracesFrom(v, int32(i)), referenceTracesFrom(v, int32(i))
			if !slices.EqualFunc(got, want, func(a, b trace) bool {
				return slices.Equal(a.steps, b.steps) && slices.Equal(a.conf, b.conf)
			}) {
				t.Fatalf("seed %d: traces from %s:\n got %v\nwant %v", seed, v.nodes[i].ID, got, want)
			}
		}
	}
}

// referenceCallees filters n's calls by the rule (off the path given),
// then sorts them.
func referenceCallees(v *view, n int32, onPath map[int32]bool) []call {
	var out []call
	for _, c := range v.calls[n] {
		if c.confidence < minTraceConfidence || c.to == n || onPath[c.to] ||
			!v.nodes[c.to].Kind.IsCallable() || v.test[c.to] {
			continue
		}
		out = append(out, c)
	}
	if v.onward != nil {
		slices.SortStableFunc(out, func(a, b call) int {
			return cmp.Or(compareBool(v.onward[b.to], v.onward[a.to]), cmp.Compare(v.fanIn[a.to], v.fanIn[b.to]))
		})
	}
	return out
}

// referenceTracesFrom is tracesFrom with referenceCallees: a set for the
// path, and each step's callees filtered then sorted.
func referenceTracesFrom(v *view, entry int32) []trace {
	var found []trace
	path := []int32{entry}
	confs := []float64{1}
	onPath := map[int32]bool{entry: true}
	leaves := 0
	var walk func(n int32)
	walk = func(n int32) {
		next := referenceCallees(v, n, onPath)
		if len(next) == 0 || len(path) > maxTraceDepth {
			leaves++
			if len(path) >= minTraceSteps {
				found = append(found, trace{steps: slices.Clone(path), conf: slices.Clone(confs)})
			}
			return
		}
		for _, c := range next[:min(len(next), traceBranching)] {
			if leaves >= leavesPerEntry {
				return
			}
			path = append(path, c.to)
			confs = append(confs, min(confs[len(confs)-1], c.confidence))
			onPath[c.to] = true
			walk(c.to)
			delete(onPath, c.to)
			path, confs = path[:len(path)-1], confs[:len(confs)-1]
		}
	}
	walk(entry)
	return pickTraces(found)
}
