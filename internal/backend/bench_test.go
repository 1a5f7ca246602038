package backend

import (
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Benchmarks on a real index: GITNEXUS_BENCH_REPO names an indexed
// repository (registered in $GITNEXUS_HOME), e.g. the Go standard library:
//
//	GITNEXUS_HOME=/tmp/h gitnexus analyze $(go env GOROOT)/src
//	GITNEXUS_HOME=/tmp/h GITNEXUS_BENCH_REPO=src go test -tags sqlite_fts5 -run '^$' -bench . ./internal/backend/
//
// Each iteration is one tool call through CallTool on a fixed sample of
// functions and methods, half of them the most called ones, with the answer
// rendered as the MCP server sends it (markdown and JSON).

func benchBackend(b *testing.B) (*Backend, []string) {
	repo := os.Getenv("GITNEXUS_BENCH_REPO")
	if repo == "" {
		b.Skip("GITNEXUS_BENCH_REPO is not set")
	}
	be, err := New(Options{IdleTimeout: -1, IgnoreCwd: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(be.Close)
	r, err := be.Resolve(repo)
	if err != nil {
		b.Fatal(err)
	}
	s, release, err := be.repo(context.Background(), r)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	g := s.Graph
	var callables []int
	for i := range g.Nodes {
		if k := g.Nodes[i].Kind; k == graph.KindFunction || k == graph.KindMethod {
			callables = append(callables, i)
		}
	}
	sort.Slice(callables, func(a, c int) bool {
		return len(g.In(memgraph.NodeID(callables[a]))) > len(g.In(memgraph.NodeID(callables[c])))
	})
	rng := rand.New(rand.NewSource(1))
	var uids []string
	for i := 0; i < 50 && i < len(callables); i++ {
		uids = append(uids, g.Nodes[callables[i]].ID)
	}
	for i := 0; i < 50; i++ {
		uids = append(uids, g.Nodes[callables[rng.Intn(len(callables))]].ID)
	}
	return be, uids
}

func benchTool(b *testing.B, tool string, args func(uid string) map[string]any) {
	be, uids := benchBackend(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := be.CallTool(ctx, tool, args(uids[i%len(uids)]))
		if err != nil {
			b.Fatal(err)
		}
		_ = res.Markdown()
		if _, err := json.Marshal(res.Structured()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkContext(b *testing.B) {
	benchTool(b, "context", func(uid string) map[string]any { return map[string]any{"uid": uid} })
}

func BenchmarkImpactDepth3(b *testing.B) {
	benchTool(b, "impact", func(uid string) map[string]any { return map[string]any{"target_uid": uid} })
}

func BenchmarkQuery(b *testing.B) {
	words := []string{"parse config", "read file", "http server handler", "encode json", "lock mutex", "error wrap"}
	n := 0
	benchTool(b, "query", func(string) map[string]any { n++; return map[string]any{"query": words[n%len(words)]} })
}

func BenchmarkCallersDepth3(b *testing.B) {
	benchTool(b, "get_callers_of", func(uid string) map[string]any { return map[string]any{"uid": uid, "depth": 3} })
}

func BenchmarkCalleesDepth1(b *testing.B) {
	benchTool(b, "get_callees_of", func(uid string) map[string]any { return map[string]any{"uid": uid} })
}

// BenchmarkModuleDependencies asks for the folder of each sampled symbol.
func BenchmarkModuleDependencies(b *testing.B) {
	benchTool(b, "get_module_dependencies", func(uid string) map[string]any {
		_, rest, _ := strings.Cut(uid, ":")
		file := rest[:strings.LastIndexByte(rest, ':')]
		return map[string]any{"module": path.Dir(file)}
	})
}

func BenchmarkFindSymbol(b *testing.B) {
	benchTool(b, "find_symbol", func(uid string) map[string]any {
		return map[string]any{"name": uid[strings.LastIndexAny(uid, ":.")+1:]}
	})
}
