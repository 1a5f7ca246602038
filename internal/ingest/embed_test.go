package ingest_test

import (
	"context"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/embed/embedtest"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// index runs the pipeline with the embedder and writes the index.
func index(t *testing.T, root string, e embed.Embedder, exactLimit int) *ingest.EmbedStats {
	t.Helper()
	res, err := ingest.Run(context.Background(), ingest.Options{Root: root,
		Embedding: ingest.Embedding{Embedder: e, Provider: "openai", ExactLimit: exactLimit},
		History:   &history.Options{}, Previous: ingest.Previous{History: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.WriteWithVectors(context.Background(), root, res.Graph, res.Vectors, store.Meta{RepoPath: root}); err != nil {
		t.Fatal(err)
	}
	return res.Stats.Embeddings
}

func openAI(t *testing.T, srv *embedtest.Server, dims int) embed.Embedder {
	t.Helper()
	e, err := embed.New(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "bag", Dimensions: dims})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEmbeddingStage indexes the shop with an embedder, then changes one
// function and indexes again: only the changed function and the new
// commit are embedded again; another identity embeds everything.
func TestEmbeddingStage(t *testing.T) {
	root := testrepo.New(t, t.TempDir(), testrepo.Shop)
	srv := embedtest.Start(t, 64)
	st := index(t, root, openAI(t, srv, 0), 0)
	// Struct Item, Store, Service, Cache; Function New, NewService, Warm,
	// main, TestPlace; Method Get, Put, Place, Cache.Get: 13 symbols, 1 commit.
	if st.Symbols != 13 || st.Commits != 1 || st.Embedded != 14 || st.Reused != 0 || st.Search != "exact" || st.Dimensions != 64 {
		t.Fatalf("first index: %+v", st)
	}
	texts := srv.Texts()
	if !hasText(texts, "Method store.Store.Get\nfunc (s *Store) Get(id int) (*Item, error)\nGet returns the item with id.\npackage example.com/shop/store\n") {
		t.Errorf("no text for Store.Get as documented; texts:\n%s", strings.Join(texts, "\n--\n"))
	}
	if !hasText(texts, "initial\nchanged: ") {
		t.Errorf("no text for the commit")
	}

	srv.Reset()
	testrepo.Write(t, root, map[string]string{"cache/cache.go": strings.Replace(testrepo.Shop["cache/cache.go"],
		`return c.Get("warm")`, `return c.Get("warm") + c.Get("cold")`, 1)})
	testrepo.Git(t, root, "commit", "-qam", "Warm the cache with cold keys too")
	st = index(t, root, openAI(t, srv, 0), 0)
	if st.Embedded != 2 || st.Reused != 13 {
		t.Errorf("after changing Warm: embedded %d, reused %d; want 2 (Warm, the commit) and 13", st.Embedded, st.Reused)
	}
	texts = srv.Texts()
	if len(texts) != 2 || !hasText(texts, "Function cache.Warm\n") || !hasText(texts, "Warm the cache with cold keys too\nchanged: Warm") {
		t.Errorf("embedded again: %q", texts)
	}

	srv.Reset()
	st = index(t, root, openAI(t, srv, 32), 0)
	if st.Embedded != 15 || st.Reused != 0 || st.Dimensions != 32 {
		t.Errorf("another identity: %+v, want all 15 embedded again", st)
	}
}

// TestVectorSearchBothWays checks that the stored HNSW and the exact scan
// find the symbol whose text a query repeats.
func TestVectorSearchBothWays(t *testing.T) {
	root := testrepo.New(t, t.TempDir(), testrepo.Shop)
	srv := embedtest.Start(t, 256)
	e := openAI(t, srv, 0)
	for _, tc := range []struct {
		name       string
		exactLimit int
		approx     bool
	}{{"exact", 0, false}, {"hnsw", 1, true}} {
		t.Run(tc.name, func(t *testing.T) {
			st := index(t, root, e, tc.exactLimit)
			if (st.Search == "hnsw") != tc.approx {
				t.Fatalf("search %q", st.Search)
			}
			r, g := testrepo.Load(t, root)
			vs, err := search.LoadVectors(context.Background(), r, g)
			if err != nil {
				t.Fatal(err)
			}
			if vs.Approximate() != tc.approx || vs.Symbols() != 13 {
				t.Fatalf("approximate %v, %d symbols", vs.Approximate(), vs.Symbols())
			}
			q, err := e.Embed(context.Background(), []string{"checks both items and returns the total price"})
			if err != nil {
				t.Fatal(err)
			}
			hits := vs.SearchSymbols(q[0], 3)
			exact := vs.SearchSymbolsExact(q[0], 3)
			if got, want := strings.Join(names(g, hits), " "), strings.Join(names(g, exact), " "); got != want {
				t.Errorf("search found %s, the exact scan %s", got, want)
			}
			if !strings.Contains(strings.Join(names(g, hits), " "), "Service.Place") {
				t.Errorf("hits %v, want Service.Place among them", names(g, hits))
			}
			commits := vs.SearchCommits(q[0], 5)
			if len(commits) != 1 || g.Nodes[commits[0].Node].Kind.String() != "Commit" {
				t.Errorf("commit hits %v", names(g, commits))
			}
		})
	}
}

func hasText(texts []string, prefix string) bool {
	for _, s := range texts {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func names(g *memgraph.Graph, hits []search.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, g.Nodes[h.Node].ID)
	}
	return out
}
