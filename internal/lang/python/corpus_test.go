package python_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// TestCorpus indexes a real Python tree (PYTHON_CORPUS=/path/to/tree, for
// instance a copy of the standard library) and reports what it found: time,
// parse errors, node and edge counts, call resolution, and a random sample
// of CALLS edges (PYTHON_CORPUS_SAMPLE edges, seed PYTHON_CORPUS_SEED) with
// the source line of each call site, for checking by hand; with
// PYTHON_CORPUS_EDGES=file it also writes every CALLS and REFERENCES edge
// there (type, source, target, reason, line, target location), one per
// line. It fails only when
// indexing fails.
func TestCorpus(t *testing.T) {
	root := os.Getenv("PYTHON_CORPUS")
	if root == "" {
		t.Skip("set PYTHON_CORPUS to a directory of Python code")
	}
	start := time.Now()
	res, err := ingest.Run(context.Background(), ingest.Options{Root: root, Workers: 2})
	if err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	elapsed := time.Since(start)
	st := res.Stats
	t.Logf("files %d, python files %d, parse errors %d %v, extract failures %d, phases %v, total %s",
		st.Files, st.FilesByLanguage["python"], st.ParseErrors, st.ParseErrorFiles, st.ExtractFailures, st.PhaseMillis, elapsed.Round(time.Millisecond))
	rs := st.Resolve
	t.Logf("call sites %d: resolved %d (name-only %d), unresolved %d", rs.Calls, rs.CallsResolved, rs.CallsNameOnly, rs.CallsUnresolved)

	g := res.Graph
	kinds := map[string]int{}
	nodes := map[string]graph.Node{}
	for _, n := range g.Nodes() {
		kinds[n.Kind.String()]++
		nodes[n.ID] = n
	}
	edges := map[string]int{}
	reasons := map[string]int{}
	var calls []graph.Edge
	for _, e := range g.Edges() {
		edges[e.Type.String()]++
		if e.Type == graph.EdgeCalls {
			reasons[string(e.Reason)]++
			calls = append(calls, e)
		}
	}
	t.Logf("nodes %s", counts(kinds))
	t.Logf("edges %s", counts(edges))
	t.Logf("CALLS by reason %s", counts(reasons))

	if out := os.Getenv("PYTHON_CORPUS_EDGES"); out != "" {
		var b strings.Builder
		for _, e := range g.Edges() {
			if e.Type == graph.EdgeCalls || e.Type == graph.EdgeReferences {
				fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s:%d\n", e.Type, e.Src, e.Dst, e.Reason, e.Line, nodes[e.Dst].FilePath, nodes[e.Dst].StartLine)
			}
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	n, _ := strconv.Atoi(os.Getenv("PYTHON_CORPUS_SAMPLE"))
	seed, _ := strconv.ParseUint(os.Getenv("PYTHON_CORPUS_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 1))
	lines := map[string][]string{}
	for i := 0; i < n && len(calls) > 0; i++ {
		e := calls[rng.IntN(len(calls))]
		src := nodes[e.Src]
		if _, ok := lines[src.FilePath]; !ok {
			b, _ := os.ReadFile(filepath.Join(root, src.FilePath))
			lines[src.FilePath] = strings.Split(string(b), "\n")
		}
		text := ""
		if l := lines[src.FilePath]; e.Line > 0 && e.Line <= len(l) {
			text = strings.TrimSpace(l[e.Line-1])
		}
		dst := nodes[e.Dst]
		t.Logf("sample %d: %s:%d [%s] %s -> %s (%s:%d)\n    %s", i+1, src.FilePath, e.Line, e.Reason, e.Src, e.Dst, dst.FilePath, dst.StartLine, text)
	}
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}
