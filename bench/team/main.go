// Command team measures team mode on an indexed repository, against a
// running PostgreSQL and Redis (run.sh starts both and calls it):
//
//   - a full push of the index to the store, under a key of its own;
//
//   - an incremental push after a one-function edit of one file,
//     analyzed in place;
//
//   - a replica's cold load (its first call: the copy from the store and
//     the graph's load) beside the local index's cold load;
//
//   - warm tool latency, p50 and p99, local and from a replica;
//
//   - the shared cache's hit rate under a replayed query log, round-robin
//     over two replicas that share one Redis, over HTTP.
//
//     go run -tags sqlite_fts5 ./bench/team -repo <indexed repo> -store postgres://... -redis redis://... [-o RESULTS.md]
//
// The repository must be indexed and registered in $GITNEXUS_HOME; the
// edit is undone (and analyzed again) before the command ends.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/httpserver"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/teamstore"
)

func main() {
	repo := flag.String("repo", "", "an indexed repository (path, or its id in the registry)")
	uri := flag.String("store", "", "the PostgreSQL store")
	redisURL := flag.String("redis", "", "the Redis of the shared cache (empty: no cache measurement)")
	out := flag.String("o", "", "also write the results (markdown) to this file")
	warm := flag.Int("n", 200, "warm calls per tool and mode")
	logN := flag.Int("log", 3000, "calls in the replayed query log")
	flag.Parse()
	if *repo == "" || *uri == "" {
		fmt.Fprintln(os.Stderr, "usage: team -repo <indexed repo> -store postgres://... [-redis redis://...] [-o FILE]")
		os.Exit(2)
	}
	var buf bytes.Buffer
	w := io.MultiWriter(os.Stdout, &buf)
	if err := run(w, *repo, *uri, *redisURL, *warm, *logN); err != nil {
		fmt.Fprintln(os.Stderr, "team:", err)
		os.Exit(1)
	}
	if *out != "" {
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func entryOf(ref string) (registry.Entry, error) {
	entries, err := registry.List()
	if err != nil {
		return registry.Entry{}, err
	}
	abs, _ := filepath.Abs(ref)
	for _, e := range entries {
		if e.ID == ref || e.Path == abs {
			return e, nil
		}
	}
	return registry.Entry{}, fmt.Errorf("%s is not in the registry of %s: analyze it first", ref, os.Getenv("GITNEXUS_HOME"))
}

// analyze indexes root in process (force: from scratch) and returns its
// registry entry, the time taken and how the index was written.
func analyze(ctx context.Context, root string, force bool) (registry.Entry, time.Duration, string, error) {
	opts := index.Defaults()
	opts.Version = "bench"
	opts.Force = force
	start := time.Now()
	rep, err := index.Analyze(ctx, root, opts)
	if err != nil {
		return registry.Entry{}, 0, "", err
	}
	how := "unchanged"
	if s := rep.Summary; s != nil {
		how = "in place"
		if s.Rewritten != "" {
			how = "as a new file: " + s.Rewritten
		}
	}
	e, err := entryOf(root)
	return e, time.Since(start), how, err
}

func run(w io.Writer, ref, uri, redisURL string, warmN, logN int) error {
	ctx := context.Background()
	e, err := entryOf(ref)
	if err != nil {
		return err
	}
	st, err := teamstore.Open(ctx, uri)
	if err != nil {
		return err
	}
	defer st.Close()
	key := "bench-" + e.ID
	if _, err := st.Remove(ctx, key); err != nil {
		return err
	}
	fmt.Fprintf(w, "# Team mode on %s\n\n%s; %s.\n\n", e.ID, time.Now().UTC().Format("2006-01-02 15:04 UTC"), machine())

	// The index as this build writes it, from scratch: the edit below is
	// then analyzed in place, as after any commit.
	e, _, _, err = analyze(ctx, e.Path, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "| step | time | rows sent | of rows | bytes sent |\n|---|---|---|---|---|\n")
	full, err := st.Push(ctx, e, teamstore.PushOptions{Key: key})
	if err != nil {
		return err
	}
	row(w, "full push", full)
	same, err := st.Push(ctx, e, teamstore.PushOptions{Key: key})
	if err != nil {
		return err
	}
	row(w, "push of the same index", same)

	file, err := editTarget(e)
	if err != nil {
		return err
	}
	orig, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	restore := func() {
		_ = os.WriteFile(file, orig, 0o644)
		_, _, _, _ = analyze(ctx, e.Path, false)
	}
	defer restore()
	if err := os.WriteFile(file, append(append([]byte{}, orig...), editFor(file)...), 0o644); err != nil {
		return err
	}
	e, took, how, err := analyze(ctx, e.Path, false)
	if err != nil {
		return err
	}
	inc, err := st.Push(ctx, e, teamstore.PushOptions{Key: key})
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(e.Path, file)
	row(w, fmt.Sprintf("incremental push after a one-function edit of %s (analyze took %s, written %s)", rel, took.Round(time.Millisecond), how), inc)

	// Cold loads: the local index, and a replica with an empty directory.
	local, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		return err
	}
	defer local.Close()
	tmp, err := os.MkdirTemp("", "gitnexus-bench-replica-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rep, err := st.NewReplica(ctx, filepath.Join(tmp, "a"), time.Second, nil)
	if err != nil {
		return err
	}
	defer rep.Close()
	shared, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1, Source: rep, NoWorkTree: true})
	if err != nil {
		return err
	}
	defer shared.Close()
	calls, err := callSet(e)
	if err != nil {
		return err
	}
	first := calls[0]
	localCold := timeCall(ctx, local, first.tool, withRepo(first.args, e.ID))
	sharedCold := timeCall(ctx, shared, first.tool, withRepo(first.args, key))
	fmt.Fprintf(w, "\n| cold load (first call: %s) | time |\n|---|---|\n| local index | %s |\n| replica: copy from the store, then load | %s |\n",
		first.tool, localCold.Round(time.Millisecond), sharedCold.Round(time.Millisecond))

	fmt.Fprintf(w, "\n| warm call (%d each) | local p50 | local p99 | replica p50 | replica p99 |\n|---|---|---|---|---|\n", warmN)
	for _, c := range calls[:5] {
		l := sample(ctx, local, c.tool, withRepo(c.args, e.ID), warmN)
		s := sample(ctx, shared, c.tool, withRepo(c.args, key), warmN)
		fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s |\n", c.tool, argText(c.args), pct(l, 50), pct(l, 99), pct(s, 50), pct(s, 99))
	}

	if redisURL != "" {
		if err := cacheRun(ctx, w, st, key, calls, redisURL, tmp, logN); err != nil {
			return err
		}
	}
	return nil
}

// cacheRun replays a query log over HTTP, round-robin over two replicas
// sharing one Redis, and reports the hit rate.
func cacheRun(ctx context.Context, w io.Writer, st *teamstore.Store, key string, calls []call, redisURL, tmp string, n int) error {
	cache, err := answercache.NewRedis(redisURL, answercache.Options{TTL: 5 * time.Minute})
	if err != nil {
		return err
	}
	defer cache.Close()
	var urls []string
	for i := 0; i < 2; i++ {
		rep, err := st.NewReplica(ctx, filepath.Join(tmp, fmt.Sprintf("r%d", i)), time.Second, nil)
		if err != nil {
			return err
		}
		defer rep.Close()
		b, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1, Source: rep, NoWorkTree: true})
		if err != nil {
			return err
		}
		defer b.Close()
		srv, err := httpserver.New(b, httpserver.Options{Addr: "127.0.0.1:0", AnswerCache: cache, Version: "bench"})
		if err != nil {
			return err
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		go srv.Serve(l) //nolint:errcheck // ends with the process
		urls = append(urls, "http://"+l.Addr().String())
	}
	// The log: calls drawn with Zipf's law over the call set and its
	// variants (a page size), as agents repeat the hot questions.
	var pool []call
	for _, c := range calls {
		for _, limit := range []int{5, 10} {
			args := map[string]any{}
			for k, v := range c.args {
				args[k] = v
			}
			if c.tool == "query" || c.tool == "impact" {
				args["limit"] = limit
			} else if limit != 10 {
				continue
			}
			pool = append(pool, call{c.tool, args})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(rng, 1.1, 1, uint64(len(pool)-1))
	var hitT, missT []time.Duration
	before := cache.Stats()
	for i := 0; i < n; i++ {
		c := pool[z.Uint64()]
		body, _ := json.Marshal(withRepo(c.args, key))
		h0 := cache.Stats().Hits
		start := time.Now()
		resp, err := http.Post(urls[i%2]+"/api/v1/tools/"+c.tool, "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s %s: HTTP %d", c.tool, body, resp.StatusCode)
		}
		if cache.Stats().Hits > h0 {
			hitT = append(hitT, d)
		} else {
			missT = append(missT, d)
		}
	}
	after := cache.Stats()
	hits, misses := after.Hits-before.Hits, after.Misses-before.Misses
	fmt.Fprintf(w, "\n| replayed query log | value |\n|---|---|\n| calls (Zipf s=1.1 over %d distinct calls), round-robin over 2 replicas | %d |\n", len(pool), n)
	fmt.Fprintf(w, "| hit rate | %.1f%% (%d hits, %d misses) |\n", 100*float64(hits)/float64(max(1, hits+misses)), hits, misses)
	fmt.Fprintf(w, "| HTTP call answered from Redis, p50 / p99 | %s / %s |\n", pct(hitT, 50), pct(hitT, 99))
	fmt.Fprintf(w, "| HTTP call computed, p50 / p99 | %s / %s |\n", pct(missT, 50), pct(missT, 99))
	return nil
}

func row(w io.Writer, step string, r *teamstore.PushReport) {
	fmt.Fprintf(w, "| %s | %s | %d | %d | %.1f MiB |\n", step, r.Elapsed.Round(time.Millisecond), r.Sent, r.Rows, float64(r.Bytes)/(1<<20))
}

// editTarget is the file of the first function, in the index's order,
// written in a language editFor knows.
func editTarget(e registry.Entry) (string, error) {
	r, err := store.OpenRepo(e.Path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var file string
	err = r.ScanNodes(context.Background(), func(n *store.NodeRow) error {
		if file == "" && n.Kind == graph.KindFunction.String() && editFor(n.FilePath) != "" {
			file = n.FilePath
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if file == "" {
		return "", fmt.Errorf("no function in a language this benchmark edits (Go, Python, JavaScript, TypeScript, Java)")
	}
	return filepath.Join(e.Path, filepath.FromSlash(file)), nil
}

// editFor is a function appended to a file of its language.
func editFor(path string) string {
	switch filepath.Ext(path) {
	case ".go":
		return "\nfunc teamBenchProbe() int { return 42 }\n"
	case ".py":
		return "\n\ndef team_bench_probe():\n    return 42\n"
	case ".js", ".ts", ".mjs", ".cjs":
		return "\nfunction teamBenchProbe() { return 42 }\n"
	}
	return ""
}

type call struct {
	tool string
	args map[string]any
}

// callSet is the measured calls: on the most-called function of the
// repository, and a search for its name's words.
func callSet(e registry.Entry) ([]call, error) {
	r, err := store.OpenRepo(e.Path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	g, err := memgraph.Load(context.Background(), r)
	if err != nil {
		return nil, err
	}
	in := map[memgraph.NodeID]int{}
	for i := range g.Nodes {
		if !g.Nodes[i].Kind.IsCallable() {
			continue
		}
		for _, ed := range g.Out(memgraph.NodeID(i)) {
			if ed.Type == graph.EdgeCalls {
				in[ed.To]++
			}
		}
	}
	var hot []memgraph.NodeID
	for id := range in {
		if g.Nodes[id].Kind == graph.KindFunction {
			hot = append(hot, id)
		}
	}
	if len(hot) == 0 {
		return nil, fmt.Errorf("no function is called in the index")
	}
	sort.Slice(hot, func(i, j int) bool {
		if in[hot[i]] != in[hot[j]] {
			return in[hot[i]] > in[hot[j]]
		}
		return hot[i] < hot[j]
	})
	var out []call
	for _, id := range hot[:min(len(hot), hotFunctions)] {
		nd := g.Nodes[id]
		uid := nd.ID
		words := strings.Join(splitWords(nd.Name), " ")
		out = append(out,
			call{"context", map[string]any{"uid": uid}},
			call{"impact", map[string]any{"target_uid": uid, "maxDepth": 2}},
			call{"get_callers_of", map[string]any{"uid": uid}},
			call{"query", map[string]any{"query": words + " " + filepath.Base(filepath.Dir(nd.FilePath))}},
			call{"cypher", map[string]any{"query": "MATCH (a)-[:CALLS]->(b {id: $id}) RETURN a.name AS caller ORDER BY caller LIMIT 20", "params": map[string]any{"id": uid}}},
		)
	}
	return out, nil
}

// hotFunctions is how many of the most-called functions the replayed log
// asks about (five tools each); the latency table uses the first.
const hotFunctions = 40

func splitWords(s string) []string {
	var out []string
	cur := ""
	for i, r := range s {
		if r == '_' || (i > 0 && r >= 'A' && r <= 'Z') {
			if cur != "" {
				out = append(out, strings.ToLower(cur))
			}
			cur = ""
			if r == '_' {
				continue
			}
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, strings.ToLower(cur))
	}
	return out
}

func withRepo(args map[string]any, repo string) map[string]any {
	out := map[string]any{"repo": repo}
	for k, v := range args {
		out[k] = v
	}
	return out
}

func argText(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		if k != "params" && k != "uid" && k != "target_uid" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		v := fmt.Sprint(args[k])
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

func timeCall(ctx context.Context, b *backend.Backend, tool string, args map[string]any) time.Duration {
	start := time.Now()
	if _, err := b.CallTool(ctx, tool, args); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", tool, err)
	}
	return time.Since(start)
}

func sample(ctx context.Context, b *backend.Backend, tool string, args map[string]any, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	timeCall(ctx, b, tool, args) // warm
	for i := 0; i < n; i++ {
		out = append(out, timeCall(ctx, b, tool, args))
	}
	return out
}

func pct(ds []time.Duration, p int) string {
	if len(ds) == 0 {
		return "–"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p+99)/100 - 1
	i = max(0, min(i, len(s)-1))
	d := s[i]
	if d < time.Millisecond {
		return fmt.Sprintf("%.0f µs", float64(d.Microseconds()))
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func machine() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s, PostgreSQL and Redis on the same machine (127.0.0.1)", host)
}
