//go:build sqlite_fts5

// Command retrieval measures how well search finds the functions a commit
// changed from the commit's message: for each repository, commits whose
// message describes a behaviour are the queries, and the functions,
// methods and constructors they changed (CHANGES edges to symbols that
// still exist) the answers. It reports recall@10 and MRR for BM25 alone,
// and with an embedder for vector search alone and BM25 fused with it, and
// how fast the embedder embeds. With -latency it measures search on a
// large index instead.
//
//	go run -tags sqlite_fts5 ./bench/retrieval /work/scratch/retrieval/raft …
//	go run -tags sqlite_fts5 ./bench/retrieval -latency /work/scratch/retrieval/gosrc
//
// Repositories are indexed in place (their .gitnexus directory): use
// clones made for the purpose. -embedders lists the runs: "none" for BM25
// alone, "configured" for the embedder GITNEXUS_EMBEDDING_* describes
// (openai or onnx: docs/embeddings.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

func main() {
	embedders := flag.String("embedders", "none", "comma-separated: none (BM25 alone), configured (the GITNEXUS_EMBEDDING_* embedder, alone and fused)")
	latency := flag.Bool("latency", false, "measure search latency on the index of the one repository given")
	maxQueries := flag.Int("max-queries", 300, "queries per repository at most (the newest)")
	tokens := flag.Int("tokens", 0, "token budget of an embedded text (0: the default)")
	flag.StringVar(&buildEfs, "build-ef", "", "with -latency: rebuild the HNSW with these efConstruction values (comma-separated) and compare")
	flag.Parse()
	ctx := context.Background()
	if *latency {
		if flag.NArg() != 1 {
			log.Fatal("-latency takes one indexed repository")
		}
		if err := measureLatency(ctx, flag.Arg(0)); err != nil {
			log.Fatal(err)
		}
		return
	}
	for _, repo := range flag.Args() {
		for _, name := range strings.Split(*embedders, ",") {
			if err := evaluate(ctx, repo, name, *maxQueries, *tokens); err != nil {
				log.Fatalf("%s with %s: %v", repo, name, err)
			}
		}
	}
}

// openEmbedder returns the named embedder and its provider; none is no
// embedder (nil).
func openEmbedder(name string) (embed.Embedder, string, error) {
	switch name {
	case embed.ProviderNone:
		return nil, embed.ProviderNone, nil
	case "configured":
		cfg, err := embed.LoadConfig("", os.Getenv)
		if err != nil {
			return nil, "", err
		}
		e, err := embed.New(cfg)
		return e, cfg.Provider, err
	}
	return nil, "", fmt.Errorf("unknown embedder %q: use none or configured", name)
}

// evaluate indexes repo with the embedder (none: without embeddings) and
// scores every ranking.
func evaluate(ctx context.Context, repo, name string, maxQueries, tokens int) error {
	e, provider, err := openEmbedder(name)
	if err != nil {
		return err
	}
	opts := ingest.Options{History: &history.Options{MaxCommits: 0}, ReuseHistory: true}
	if e != nil {
		defer e.Close()
		opts.Embedder, opts.EmbedProvider, opts.EmbedTokens = e, provider, tokens
	}
	root, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	opts.Root = root
	res, err := ingest.Run(ctx, opts)
	if err != nil {
		return err
	}
	if _, err := store.WriteWithVectors(ctx, root, res.Graph, res.Vectors, store.Meta{RepoPath: root}); err != nil {
		return err
	}
	r, err := store.OpenRepo(root)
	if err != nil {
		return err
	}
	defer r.Close()
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		return err
	}
	vs, err := search.LoadVectors(ctx, r, g)
	if err != nil {
		return err
	}
	qs := commitQueries(res.Graph, g, maxQueries)
	if e == nil {
		fmt.Printf("## %s (BM25 alone)\n\n%d queries; no embedder\n\n", filepath.Base(root), len(qs))
	} else {
		st := res.Stats.Embeddings
		fmt.Printf("## %s (%s)\n\n%d queries; %d symbols and %d commits embedded by %s in %.1f s (%.0f texts/s on %d texts), %s search\n\n",
			filepath.Base(root), name, len(qs), st.Symbols, st.Commits, st.Identity, float64(st.EmbedMillis)/1000, st.PerSecond, st.Embedded, st.Search)
	}
	scores := score(ctx, r, g, vs, e, qs)
	fmt.Println("| ranking | recall@10 | MRR | queries with a hit in the top 10 |")
	fmt.Println("|---|---|---|---|")
	for _, s := range scores {
		fmt.Printf("| %s | %.3f | %.3f | %d of %d |\n", s.name, s.recall, s.mrr, s.hitAt10, len(qs))
	}
	fmt.Println()
	return nil
}
