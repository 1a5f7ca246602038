//go:build sqlite_fts5

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/vector"
)

// latencyQueries is how many questions the latency run asks: the doc
// comments of every k-th documented function, so that they read like
// questions about the code.
const latencyQueries = 1000

// measureLatency times search on the index of repo: BM25 alone always;
// and when the index has embeddings and the configured embedder
// (GITNEXUS_EMBEDDING_*) made them, embedding a question, the HNSW
// search, an exact scan of the same vectors, the whole fused search query
// runs, and the HNSW's recall@10 against the exact scan. Otherwise it says
// why it measured BM25 alone.
func measureLatency(ctx context.Context, repo string) error {
	root, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	start := time.Now()
	r, err := store.OpenRepo(root)
	if err != nil {
		return err
	}
	defer r.Close()
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		return err
	}
	loadGraph := time.Since(start)
	start = time.Now()
	vs, err := search.LoadVectors(ctx, r, g)
	if err != nil {
		return err
	}
	loadVectors := time.Since(start)
	e, why, err := latencyEmbedder(vs)
	if err != nil {
		return err
	}
	if e != nil {
		defer e.Close()
	}
	var texts []string
	var documented []memgraph.NodeID
	for i := range g.Nodes {
		if g.Nodes[i].Kind.IsCallable() {
			documented = append(documented, memgraph.NodeID(i))
		}
	}
	for k := 0; k < len(documented) && len(texts) < latencyQueries; k += 7 {
		_, doc, err := r.NodeText(ctx, int64(documented[k])+1)
		if err == nil && countWords(doc) >= 3 {
			texts = append(texts, doc)
		}
	}
	var tEmbed, tANN, tExact, tFused, tBM25 []time.Duration
	agree, total := 0, 0
	for _, text := range texts {
		t0 := time.Now()
		if _, err := search.BM25(ctx, r, g, text, 200); err != nil {
			return err
		}
		tBM25 = append(tBM25, time.Since(t0))
		if e == nil {
			continue
		}
		t0 = time.Now()
		q, err := e.Embed(ctx, []string{text})
		if err != nil {
			return err
		}
		t1 := time.Now()
		ann := vs.SearchSymbols(q[0], 10)
		t2 := time.Now()
		exact := vs.SearchSymbolsExact(q[0], 10)
		t3 := time.Now()
		if _, err := search.Symbols(ctx, r, g, &search.Semantic{Vectors: vs, Embedder: e}, text, 200); err != nil {
			return err
		}
		t4 := time.Now()
		tEmbed, tANN, tExact, tFused = append(tEmbed, t1.Sub(t0)), append(tANN, t2.Sub(t1)), append(tExact, t3.Sub(t2)), append(tFused, t4.Sub(t3))
		want := map[memgraph.NodeID]bool{}
		for _, h := range exact {
			want[h.Node] = true
		}
		for _, h := range ann {
			if want[h.Node] {
				agree++
			}
		}
		total += len(exact)
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s has no documented functions to ask about", root)
	}
	type row struct {
		name string
		d    []time.Duration
	}
	rows := []row{{"BM25 top 200 alone", tBM25}}
	if e == nil {
		fmt.Printf("## search on %s (BM25 alone: %s)\n\ngraph loaded in %s; %d questions\n\n",
			filepath.Base(root), why, loadGraph.Round(time.Millisecond), len(texts))
	} else {
		fmt.Printf("## search on %s\n\n%d symbol vectors (%d dimensions, %s); graph loaded in %s, vectors and HNSW in %s; %d questions\n\n",
			filepath.Base(root), vs.Symbols(), vs.Meta.Dimensions, vs.Meta.Search, loadGraph.Round(time.Millisecond), loadVectors.Round(time.Millisecond), len(texts))
		rows = append([]row{{"embed the question (" + e.Identity() + ")", tEmbed}, {"HNSW top 10 (ef 96)", tANN}, {"exact scan top 10", tExact}},
			append(rows, row{"query ranking: BM25 and vector top 200 in parallel, fused", tFused})...)
	}
	fmt.Println("| step | p50 | p99 | max |")
	fmt.Println("|---|---|---|---|")
	for _, row := range rows {
		p50, p99, mx := percentiles(row.d)
		fmt.Printf("| %s | %s | %s | %s |\n", row.name, p50, p99, mx)
	}
	if e == nil {
		if buildEfs != "" {
			return fmt.Errorf("-build-ef needs an index embedded by the configured embedder (%s)", why)
		}
		return nil
	}
	fmt.Printf("\nHNSW recall@10 against the exact scan: %.3f\n", float64(agree)/float64(total))
	if buildEfs != "" {
		return compareBuilds(ctx, vs, e, texts)
	}
	return nil
}

// latencyEmbedder opens the configured embedder when it made the index's
// vectors; otherwise it returns nil and why search is timed with BM25
// alone.
func latencyEmbedder(vs *search.Vectors) (embed.Embedder, string, error) {
	if vs == nil {
		return nil, "the index has no embeddings", nil
	}
	cfg, err := embed.LoadConfig("", os.Getenv)
	if err != nil {
		return nil, "", err
	}
	if !cfg.Enabled() {
		return nil, fmt.Sprintf("the index was embedded by %s and no embedder is configured (%s)", vs.Meta.Identity, embed.EnvProvider), nil
	}
	e, err := embed.New(cfg)
	if err != nil {
		return nil, "", err
	}
	if e.Identity() != vs.Meta.Identity {
		id := e.Identity()
		e.Close()
		return nil, fmt.Sprintf("the index was embedded by %s, the configured embedder is %s", vs.Meta.Identity, id), nil
	}
	return e, "", nil
}

// buildEfs lists efConstruction values to rebuild the HNSW with (-build-ef).
var buildEfs string

// compareBuilds rebuilds the symbols' HNSW with each efConstruction of
// buildEfs and reports the build time, the search p99 and the recall@10
// against the exact scan.
func compareBuilds(ctx context.Context, vs *search.Vectors, e embed.Embedder, texts []string) error {
	set := vs.SymbolSet()
	qs, err := e.Embed(ctx, texts)
	if err != nil {
		return err
	}
	exact := make([]map[int]bool, len(qs))
	for i, q := range qs {
		exact[i] = map[int]bool{}
		for _, m := range set.Exact(q, 10, nil) {
			exact[i][m.Index] = true
		}
	}
	fmt.Println("\n| efConstruction | build | search p99 (ef 96) | recall@10 |")
	fmt.Println("|---|---|---|---|")
	for _, f := range strings.Split(buildEfs, ",") {
		ef, err := strconv.Atoi(f)
		if err != nil {
			return err
		}
		start := time.Now()
		h, err := vector.BuildHNSW(ctx, set, vector.DefaultM, ef)
		if err != nil {
			return err
		}
		build := time.Since(start)
		var ts []time.Duration
		agree := 0
		for i, q := range qs {
			t0 := time.Now()
			got := h.Search(set, q, 10, vector.DefaultEf)
			ts = append(ts, time.Since(t0))
			for _, m := range got {
				if exact[i][m.Index] {
					agree++
				}
			}
		}
		_, p99, _ := percentiles(ts)
		fmt.Printf("| %d | %.1f s | %s | %.3f |\n", ef, build.Seconds(), p99, float64(agree)/float64(10*len(qs)))
	}
	return nil
}

func percentiles(d []time.Duration) (p50, p99, mx string) {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(p float64) string {
		i := int(p * float64(len(s)-1))
		return fmt.Sprintf("%.2f ms", float64(s[i].Microseconds())/1000)
	}
	return at(0.5), at(0.99), at(1)
}
