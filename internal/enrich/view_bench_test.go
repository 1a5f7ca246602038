package enrich

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// BenchmarkNewView builds the view of a graph the size of a large
// repository's: 100,000 functions in 5,000 files, each calling five others.
func BenchmarkNewView(b *testing.B) {
	g := graph.New()
	const n = 100_000
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		g.AddNode(graph.Node{ID: fmt.Sprintf("Function:f%d.go:F%d", i%5000, i), Kind: graph.KindFunction,
			Name: fmt.Sprintf("F%d", i), FilePath: fmt.Sprintf("f%d.go", i%5000)})
	}
	for i := range n {
		for k := range 5 {
			j := rng.IntN(n)
			g.AddEdge(graph.Edge{Src: fmt.Sprintf("Function:f%d.go:F%d", i%5000, i), Dst: fmt.Sprintf("Function:f%d.go:F%d", j%5000, j),
				Type: graph.EdgeCalls, Confidence: 0.9, Reason: graph.ReasonSameFile, Line: 10 + k})
		}
	}
	g.Edges() // sorted once, as enrich finds it after the first view
	b.ReportAllocs()
	for b.Loop() {
		newView(g)
	}
}
