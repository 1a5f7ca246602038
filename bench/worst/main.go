// Command worst times every tool of the backend on the worst inputs a
// repository offers: the most-called and the most-calling symbols, the
// most-shared name, the largest module, the commit touching most files,
// at the largest depth and page each tool allows. It calls the backend in
// process (what an MCP or REST request costs before its transport), warms
// each call once, then keeps the slowest of -n runs.
//
//	go run -tags sqlite_fts5 ./bench/worst -repo <indexed repo> [-n 5] [-budget 200ms] [-o RESULTS.md]
//
// A tool over the budget is marked and makes the command exit 1.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// onlyTool is -tool: measure this tool alone.
var onlyTool string

// call is one measured tool call.
type call struct {
	tool string
	why  string // which worst case it is
	args map[string]any
}

// outcome is a call's slowest run and the size of its answer.
type outcome struct {
	call
	first, slowest, median time.Duration
	bytes                  int
	err                    string
}

func main() {
	repo := flag.String("repo", "", "indexed repository (id, name or path)")
	n := flag.Int("n", 5, "runs of each call after a warm-up")
	budget := flag.Duration("budget", 200*time.Millisecond, "the slowest run each tool may take")
	out := flag.String("o", "", "also write the report (Markdown) to this file")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the measured runs to this file")
	only := flag.String("tool", "", "measure only this tool")
	flag.Parse()
	onlyTool = *only
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "worst:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *repo == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: worst -repo <indexed repository> [-n 5] [-budget 200ms] [-o report.md]")
		os.Exit(2)
	}
	if err := run(*repo, *n, *budget, *out); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "worst:", err)
		os.Exit(1)
	}
}

func run(ref string, n int, budget time.Duration, out string) error {
	ctx := context.Background()
	entries, err := registry.List()
	if err != nil {
		return err
	}
	entry, err := registry.Resolve(entries, ref, "", "repo")
	if err != nil {
		return err
	}
	calls, facts, err := worstCalls(ctx, entry.Path)
	if err != nil {
		return err
	}
	b, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		return err
	}
	defer b.Close()
	// The graph is loaded before anything is timed: a server loads it once.
	if _, err := b.CallTool(ctx, "list_repos", map[string]any{}); err != nil {
		return err
	}
	if _, err := b.CallTool(ctx, "context", map[string]any{"repo": entry.Path, "name": "main"}); err != nil && !strings.Contains(err.Error(), "no symbol") {
		fmt.Fprintln(os.Stderr, "preload:", err)
	}
	var res []outcome
	over := 0
	for _, c := range calls {
		if onlyTool != "" && c.tool != onlyTool {
			continue
		}
		if c.tool != "list_repos" {
			c.args["repo"] = entry.Path
		}
		o := outcome{call: c}
		var runs []time.Duration
		for i := 0; i <= n; i++ {
			start := time.Now()
			r, err := b.CallTool(ctx, c.tool, c.args)
			d := time.Since(start)
			if err != nil {
				o.err = err.Error()
			} else {
				o.bytes = len(r.Text)
			}
			if i == 0 { // the first run fills what the tool keeps per graph
				o.first = d
			} else {
				runs = append(runs, d)
			}
		}
		slices.Sort(runs)
		o.slowest, o.median = runs[len(runs)-1], runs[len(runs)/2]
		if max(o.first, o.slowest) > budget && c.tool != "cypher" {
			over++
		}
		res = append(res, o)
		fmt.Fprintf(os.Stderr, "%-24s %-40s %8.1f ms first, %8.1f ms slowest after\n", c.tool, c.why, ms(o.first), ms(o.slowest))
	}
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = io.MultiWriter(os.Stdout, f)
	}
	report(w, entry, facts, res, n, budget)
	if over > 0 {
		return fmt.Errorf("%d calls over %v", over, budget)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// worstCalls reads the index's graph for the worst inputs of each tool.
func worstCalls(ctx context.Context, root string) ([]call, []string, error) {
	r, err := store.OpenRepo(root)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	inDeg, outDeg := map[memgraph.NodeID]int{}, map[memgraph.NodeID]int{}
	names := map[string]int{}
	files := map[string]int{} // module -> files
	bigCommit, commitFiles := -1, 0
	for i := range g.Nodes {
		id := memgraph.NodeID(i)
		nd := &g.Nodes[i]
		switch {
		case nd.Kind == graph.KindFile:
			files[path.Dir(nd.FilePath)]++
		case nd.Kind == graph.KindCommit:
			k := 0
			for _, e := range g.Out(id) {
				if e.Type == graph.EdgeModifies {
					k++
				}
			}
			if k > commitFiles {
				bigCommit, commitFiles = i, k
			}
		case nd.Kind.IsCallable():
			names[nd.Name]++
			for _, e := range g.Out(id) {
				if e.Type == graph.EdgeCalls {
					outDeg[id]++
					inDeg[e.To]++
				}
			}
		}
	}
	if len(inDeg) == 0 {
		return nil, nil, fmt.Errorf("%s has no calls", root)
	}
	best := func(m map[memgraph.NodeID]int) memgraph.NodeID {
		var b memgraph.NodeID
		first := true
		for id, k := range m {
			if first || k > m[b] || k == m[b] && g.Nodes[id].ID < g.Nodes[b].ID {
				b, first = id, false
			}
		}
		return b
	}
	hubIn, hubOut := best(inDeg), best(outDeg)
	common := ""
	for name, k := range names {
		if common == "" || k > names[common] || k == names[common] && name < common {
			common = name
		}
	}
	module := ""
	for m, k := range files {
		if module == "" || k > files[module] || k == files[module] && m < module {
			module = m
		}
	}
	in, outN := g.Nodes[hubIn], g.Nodes[hubOut]
	facts := []string{
		fmt.Sprintf("most called: `%s` (%d callers)", in.QualifiedName, inDeg[hubIn]),
		fmt.Sprintf("most calling: `%s` (%d calls)", outN.QualifiedName, outDeg[hubOut]),
		fmt.Sprintf("most shared name: `%s` (%d callables)", common, names[common]),
		fmt.Sprintf("largest folder: `%s` (%d files)", module, files[module]),
	}
	calls := []call{
		{"list_repos", "all", map[string]any{"limit": 100}},
		{"overview", "whole repository", map[string]any{}},
		{"query", "a long question, 100 results", map[string]any{"query": "read the next token from the buffer and return an error when the input ends", "limit": 100}},
		{"query", "one common word, 100 results", map[string]any{"query": "error", "limit": 100}},
		{"context", "most called", map[string]any{"uid": in.ID}},
		{"context", "most calling", map[string]any{"uid": outN.ID}},
		{"impact", "most called, upstream, depth 5", map[string]any{"target_uid": in.ID, "direction": "upstream", "maxDepth": 5, "limit": 100}},
		{"impact", "most calling, downstream, depth 5", map[string]any{"target_uid": outN.ID, "direction": "downstream", "maxDepth": 5, "limit": 100}},
		{"get_callers_of", "most called, depth 5", map[string]any{"uid": in.ID, "depth": 5}},
		{"get_callees_of", "most calling, depth 5", map[string]any{"uid": outN.ID, "depth": 5}},
		{"trace", "most calling to most called", map[string]any{"from_uid": outN.ID, "to_uid": in.ID, "max_depth": 5, "limit": 50}},
		{"find_symbol", "most shared name", map[string]any{"name": common}},
		{"rename", "most called, plan only", map[string]any{"symbol_uid": in.ID, "new_name": in.Name + "Renamed", "dry_run": true}},
		{"get_module_dependencies", "largest folder", map[string]any{"module": module}},
		{"detect_changes", "the work tree against HEAD", map[string]any{"scope": "all"}},
		{"cypher", "callers per callee, whole graph", map[string]any{"query": "MATCH (a)-[:CALLS]->(b) RETURN b.name AS name, count(a) AS callers ORDER BY callers DESC LIMIT 10"}},
		{"get_file_history", "the most called symbol's file", map[string]any{"path": in.FilePath, "limit": 100}},
		{"get_symbol_history", "most called", map[string]any{"uid": in.ID, "limit": 100}},
		{"get_recent_changes", "every commit", map[string]any{"since": "1970-01-01", "limit": 100}},
	}
	if bigCommit >= 0 {
		facts = append(facts, fmt.Sprintf("largest commit: %s (%d files)", g.Nodes[bigCommit].Name, commitFiles))
		calls = append(calls, call{"get_commit_impact", "largest commit", map[string]any{"hash": g.Nodes[bigCommit].Name, "limit": 100}})
	}
	return calls, facts, nil
}

func report(w io.Writer, e registry.Entry, facts []string, res []outcome, n int, budget time.Duration) {
	fmt.Fprintf(w, "# Worst-case tool latency\n\n")
	fmt.Fprintf(w, "Measured %s by `bench/worst` on `%s` (commit %s), in process, the graph loaded first; each call's first run (which fills what a tool keeps per graph, such as the overview or the node facts) apart, then %d runs; %s, %d CPUs.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), e.Path, short(e.LastCommit), n, runtime.Version(), runtime.NumCPU())
	for _, f := range facts {
		fmt.Fprintf(w, "- %s\n", f)
	}
	fmt.Fprintf(w, "\n| tool | worst case | first call ms | median ms | slowest ms | answer bytes | over %v |\n|---|---|---:|---:|---:|---:|---|\n", budget)
	sort.SliceStable(res, func(i, j int) bool { return res[i].slowest > res[j].slowest })
	for _, o := range res {
		mark := ""
		if max(o.first, o.slowest) > budget {
			mark = "**yes**"
			if o.tool == "cypher" {
				mark = "(query's own time limit)"
			}
		}
		size := fmt.Sprint(o.bytes)
		if o.err != "" {
			size = "error: " + strings.ReplaceAll(o.err, "|", "/")
		}
		fmt.Fprintf(w, "| %s | %s | %.1f | %.1f | %.1f | %s | %s |\n", o.tool, o.why, ms(o.first), ms(o.median), ms(o.slowest), size, mark)
	}
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
