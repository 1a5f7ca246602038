//go:build sqlite_fts5

// Command retrieval measures how well rankings find the functions a
// commit changed from the commit's message. For each repository of
// repos.tsv, indexed with its whole first-parent history, the commits
// whose message describes a behaviour are the questions, and the
// functions, methods and constructors they changed that still exist at
// HEAD the answers. Every ranking of rankings.go (the product's query,
// the index's BM25, a plain BM25 baseline over the functions' source,
// and vector rankings when an embedder is configured) is asked each
// question twice, with the whole message and with the answers' names cut
// out, and scored by recall@1/5/10, MRR and file recall@10, as ranked and
// with test code dropped from the ranking. With -latency it measures
// search on a large index instead.
//
//	bench/retrieval/fetch.sh /work/scratch/retrieval   # clones at the pinned commits
//	go run -tags sqlite_fts5 ./bench/retrieval          # every repository of repos.tsv
//	go run -tags sqlite_fts5 ./bench/retrieval /work/scratch/retrieval/raft …
//	go run -tags sqlite_fts5 ./bench/retrieval -latency /work/scratch/retrieval/gosrc
//
// Repositories are indexed in place (their .gitnexus directory): use
// clones made for the purpose. An index already there is reused when it
// was built at HEAD with the whole history by the same build of this
// bench (-reuse). -embedders lists the runs: "none" for no vectors,
// "configured" for the embedder GITNEXUS_EMBEDDING_* describes (openai or
// onnx: docs/embeddings.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
)

func main() {
	embedders := flag.String("embedders", "none", "comma-separated: none (no vectors), configured (the GITNEXUS_EMBEDDING_* embedder, alone and fused)")
	latency := flag.Bool("latency", false, "measure search latency on the index of the one repository given")
	maxQueries := flag.Int("max-queries", 300, "questions per repository at most (the newest)")
	tokens := flag.Int("tokens", 0, "token budget of an embedded text (0: the default)")
	reposPath := flag.String("repos", "bench/retrieval/repos.tsv", "the list of repositories, their pinned commits, languages and sets")
	dir := flag.String("dir", "/work/scratch/retrieval", "where the checkouts of the listed repositories are (fetch.sh)")
	reuse := flag.String("reuse", reuseBuild, "take an index already in a checkout when built at HEAD with the whole history: build (by this very executable), any (by any build of this bench), never")
	only := flag.String("rankings", "", "comma-separated names of the rankings to run besides the baseline (empty: all)")
	commits := flag.Bool("commits", false, "measure commit search (commits.go) instead: a fix's message as the question, the commits that wrote the lines it changed as the answers")
	list := flag.Bool("questions", false, "index and list each repository's questions (both variants, the answers) instead of ranking")
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
	if *reuse != reuseBuild && *reuse != reuseAny && *reuse != reuseNever {
		log.Fatalf("-reuse %q: use build, any or never", *reuse)
	}
	listed, err := readRepos(*reposPath)
	if err != nil {
		log.Fatal(err)
	}
	repos, err := selectRepos(listed, *dir, flag.Args())
	if err != nil {
		log.Fatal(err)
	}
	chosen, err := chooseRankings(*only)
	if err != nil {
		log.Fatal(err)
	}
	if *commits {
		cfg := runConfig{maxQuestions: *maxQueries, reuse: *reuse}
		var results []*commitResult
		start := time.Now()
		for _, rp := range repos {
			if err := checkCheckout(rp); err != nil {
				log.Fatal(err)
			}
			res, err := evaluateCommits(ctx, rp, cfg)
			if err != nil {
				log.Fatalf("%s: %v", rp.name, err)
			}
			printCommitRepo(os.Stdout, res)
			results = append(results, res)
		}
		printCommitSummary(os.Stdout, results)
		fmt.Printf("Whole run (commit search): %s.\n\n", time.Since(start).Round(time.Second))
		return
	}
	for _, name := range strings.Split(*embedders, ",") {
		start := time.Now()
		e, provider, err := openEmbedder(name)
		if err != nil {
			log.Fatal(err)
		}
		cfg := runConfig{embedder: e, provider: provider, tokens: *tokens, maxQuestions: *maxQueries, reuse: *reuse, rankings: chosen}
		if *list {
			cfg.rankings = nil
		}
		var results []*repoResult
		for _, rp := range repos {
			if err := checkCheckout(rp); err != nil {
				log.Fatal(err)
			}
			res, err := evaluate(ctx, rp, cfg)
			if err != nil {
				log.Fatalf("%s with %s: %v", rp.name, name, err)
			}
			if *list {
				printQuestions(os.Stdout, res)
				continue
			}
			printRepo(os.Stdout, res)
			results = append(results, res)
		}
		if *list {
			continue
		}
		printSummary(os.Stdout, results)
		fmt.Printf("Whole run (%s): %s.\n\n", name, time.Since(start).Round(time.Second))
		if e != nil {
			e.Close()
		}
	}
}

// chooseRankings returns the rankings to run: the baseline and those
// named (all when names is empty).
func chooseRankings(names string) ([]ranking, error) {
	if names == "" {
		return rankings, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		want[strings.TrimSpace(n)] = true
	}
	var out []ranking
	for _, rk := range rankings {
		if rk.baseline || want[rk.name] {
			out = append(out, rk)
			delete(want, rk.name)
		}
	}
	for n := range want {
		return nil, fmt.Errorf("-rankings: no ranking is named %q (see rankings.go)", n)
	}
	return out, nil
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
