package backend

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/embed/embedtest"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// shopEmbedded indexes the shop with its history and embeddings from an
// OpenAI-compatible endpoint on 127.0.0.1; the backend embeds questions
// with cfg (the same endpoint unless the test changes it).
func shopEmbedded(t *testing.T, serverCfg func(embed.Config) embed.Config) (*Backend, string, *embedtest.Server) {
	t.Helper()
	return shopEmbeddedBy(t, nil, serverCfg)
}

// madeBy names the provider and identity an index's vectors are recorded
// with, standing in for an embedder this gitnexus no longer has.
type madeBy struct{ provider, identity string }

// relabelled is an embedder whose vectors say they were made by another.
type relabelled struct {
	embed.Embedder
	identity string
}

func (r relabelled) Identity() string { return r.identity }

// shopEmbeddedBy is shopEmbedded with the index's vectors recorded as made
// by the provider and identity of by (nil: the endpoint's own).
func shopEmbeddedBy(t *testing.T, by *madeBy, serverCfg func(embed.Config) embed.Config) (*Backend, string, *embedtest.Server) {
	t.Helper()
	newHome(t)
	srv := embedtest.Start(t, 128)
	root := writeRepo(t, filepath.Join(t.TempDir(), "shop"), shopFiles)
	git(t, root, "commit", "-q", "--allow-empty", "-m", "Total price of an order: add both item prices")
	cfg := embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "bag-of-words"}
	e, err := embed.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	provider := cfg.Provider
	if by != nil {
		e, provider = relabelled{e, by.identity}, by.provider
	}
	testrepo.IndexWith(t, ingest.Options{Root: root, MaxFileSize: 512 << 10, History: &history.Options{},
		Embedding: ingest.Embedding{Embedder: e, Provider: provider}})
	if serverCfg != nil {
		cfg = serverCfg(cfg)
	}
	return newBackend(t, Options{Cwd: t.TempDir(), Embedding: &cfg}), root, srv
}

func TestQueryFusedGolden(t *testing.T) {
	b, root, _ := shopEmbedded(t, nil)
	res, err := b.CallTool(context.Background(), "query", map[string]any{"query": "total price of both items"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "query-fused", root, res)
	if res.volatile {
		t.Error("a fused answer is not for reuse")
	}
}

func TestQueryDegrades(t *testing.T) {
	// The vectors of an index made by the built-in embedder, since
	// removed: a server with any embedder configured ranks by BM25 and
	// says why.
	builtin := &madeBy{"builtin", "builtin:subword-v1/128"}
	cases := []struct {
		name     string
		by       *madeBy
		cfg      func(embed.Config) embed.Config
		wantNote string
	}{
		{"other model", nil, func(c embed.Config) embed.Config { c.Model = "another"; return c },
			"the index's vectors were made by openai:bag-of-words, the server's embedder is openai:another"},
		{"endpoint down", nil, func(c embed.Config) embed.Config { c.BaseURL = "http://127.0.0.1:1"; c.Retries = 1; return c },
			"embedding the query failed: embedding endpoint http://127.0.0.1:1/v1/embeddings is unreachable"},
		{"no model configured", nil, func(c embed.Config) embed.Config { c.Model = ""; return c },
			"the server cannot embed questions with it: the openai embedding provider needs a model"},
		{name: "index by the removed builtin, server with openai", by: builtin,
			wantNote: "the index's vectors were made by builtin:subword-v1/128, and the server cannot embed questions with it: the builtin embedding provider was removed"},
		{name: "index by the removed builtin, server without an embedder", by: builtin, cfg: func(embed.Config) embed.Config { return embed.Config{} },
			wantNote: "use one of openai, onnx, none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, _, _ := shopEmbeddedBy(t, tc.by, tc.cfg)
			res, err := b.CallTool(context.Background(), "query", map[string]any{"query": "total price"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Text, "(bm25") || !strings.Contains(res.Text, tc.wantNote) {
				t.Errorf("answer does not say it fell back to BM25 because %q:\n%s", tc.wantNote, res.Text)
			}
			if !res.volatile {
				t.Error("a degraded answer is for reuse: it would outlive the failure that made it")
			}
		})
	}
}

func TestSearchCommitsFused(t *testing.T) {
	b, _, _ := shopEmbedded(t, nil)
	for _, tc := range []struct {
		query, wantFirst string
	}{
		{"how is the order total computed from item prices", "Total price of an order"},
		{"initial", "initial"},
	} {
		out, err := b.HistoryCall(context.Background(), "", func(h *HistoryView) (any, error) {
			return h.SearchCommits(context.Background(), tc.query, 5)
		})
		if err != nil {
			t.Fatal(err)
		}
		found := out.(CommitSearch)
		if found.Ranking != "bm25+vector" || len(found.Hits) != 2 || !strings.HasPrefix(found.Hits[0].Summary, tc.wantFirst) {
			t.Errorf("%q: %+v", tc.query, found)
		}
	}
}

// TestQueryPausesAFailingEndpoint: a question's embedding is one request,
// never retried; after it fails, the endpoint is left alone (questions
// rank by BM25 at once, saying why) until the pause is over, when one
// question probes it again, and a success brings vector search back.
func TestQueryPausesAFailingEndpoint(t *testing.T) {
	b, _, srv := shopEmbedded(t, func(c embed.Config) embed.Config { c.Retries = 5; return c })
	var mu sync.Mutex
	failing := true
	srv.Fail = func(int) int {
		mu.Lock()
		defer mu.Unlock()
		if failing {
			return 503
		}
		return 0
	}
	ask := func() *Result {
		t.Helper()
		res, err := b.CallTool(context.Background(), "query", map[string]any{"query": "total price"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	srv.Reset()
	start := time.Now()
	if res := ask(); !strings.Contains(res.Text, "(bm25") || !strings.Contains(res.Text, "embedding the query failed") {
		t.Fatalf("first question:\n%s", res.Text)
	}
	if n := srv.Requests(); n != 1 || time.Since(start) > 2*time.Second {
		t.Errorf("first question: %d requests in %v, want 1 and no retry waits", n, time.Since(start))
	}
	res := ask()
	if n := srv.Requests(); n != 1 || !strings.Contains(res.Text, "it is tried again in") {
		t.Errorf("second question, endpoint paused: %d requests (want 1)\n%s", n, res.Text)
	}
	// The pause is over: one question probes, still failing.
	br := b.embed.byName[embed.ProviderOpenAI].(*breaker)
	clock := time.Now().Add(2 * questionPause)
	br.mu.Lock()
	br.now = func() time.Time { return clock }
	br.mu.Unlock()
	if ask(); srv.Requests() != 2 {
		t.Errorf("after the pause: %d requests, want 2 (one probe)", srv.Requests())
	}
	// Back up: the next probe succeeds and vector search returns.
	mu.Lock()
	failing = false
	mu.Unlock()
	clock = clock.Add(2 * questionPause)
	// (+history: the fixture's commits re-rank the answer as well.)
	if res := ask(); !strings.HasPrefix(res.Data.(*analysis.QueryResult).Ranking, "bm25+vector") || srv.Requests() != 3 {
		t.Errorf("endpoint back: ranking %q after %d requests\n%s", res.Data.(*analysis.QueryResult).Ranking, srv.Requests(), res.Text)
	}
	if ask(); srv.Requests() != 4 {
		t.Errorf("endpoint working: %d requests, want 4", srv.Requests())
	}
}
