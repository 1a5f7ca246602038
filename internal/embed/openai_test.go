package embed

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/embed/embedtest"
)

func newTestOpenAI(t *testing.T, srv *embedtest.Server, cfg Config) *OpenAI {
	t.Helper()
	cfg.Provider = ProviderOpenAI
	if cfg.BaseURL == "" {
		cfg.BaseURL = srv.URL
	}
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	o, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	o.backoff = time.Millisecond
	return o
}

func TestOpenAIEmbeds(t *testing.T) {
	texts := []string{"parse config file", "open the database", "parse config", "retry with backoff", "close"}
	cases := []struct {
		name      string
		cfg       Config
		wantSizes []int // batch sizes the server saw, sorted
	}{
		{"one batch", Config{}, []int{5}},
		{"batches of two", Config{BatchSize: 2, Concurrency: 1}, []int{1, 2, 2}},
		{"batches in parallel", Config{BatchSize: 1, Concurrency: 3}, []int{1, 1, 1, 1, 1}},
		{"dimensions asked", Config{Dimensions: 8}, []int{5}},
		{"with an API key", Config{APIKey: "k3y"}, []int{5}},
		{"base URL ending in /v1", Config{BaseURL: "/v1/"}, []int{5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := embedtest.Start(t, 16)
			srv.Key = tc.cfg.APIKey
			if tc.cfg.BaseURL != "" {
				tc.cfg.BaseURL = srv.URL + tc.cfg.BaseURL
			}
			o := newTestOpenAI(t, srv, tc.cfg)
			vecs, err := o.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			want := 16
			if tc.cfg.Dimensions > 0 {
				want = tc.cfg.Dimensions
			}
			if o.Dimensions() != want {
				t.Errorf("Dimensions() = %d, want %d", o.Dimensions(), want)
			}
			for i, v := range vecs {
				exp := Normalize(embedtest.BagOfWords(texts[i], want))
				if len(v) != want {
					t.Fatalf("vector %d has %d dimensions, want %d", i, len(v), want)
				}
				for j := range v {
					if math.Abs(float64(v[j]-exp[j])) > 1e-6 {
						t.Fatalf("vector %d (%q) is not the server's for that text: %v vs %v", i, texts[i], v, exp)
					}
				}
			}
			sizes := srv.Sizes()
			slices.Sort(sizes)
			if !slices.Equal(sizes, tc.wantSizes) {
				t.Errorf("batch sizes %v, want %v", sizes, tc.wantSizes)
			}
		})
	}
}

func TestOpenAIFailures(t *testing.T) {
	cases := []struct {
		name         string
		fail         func(n int) int
		key          string
		retries      int
		wantErr      string // "" for success
		wantRequests int
	}{
		{"429 then success", func(n int) int {
			if n <= 2 {
				return http.StatusTooManyRequests
			}
			return 0
		}, "", 4, "", 3},
		{"503 then success", func(n int) int {
			if n == 1 {
				return http.StatusServiceUnavailable
			}
			return 0
		}, "", 4, "", 2},
		{"500 every time", func(int) int { return http.StatusInternalServerError }, "", 2, "gave up after 3 attempts", 3},
		{"400 is not retried", func(int) int { return http.StatusBadRequest }, "", 4, "400 Bad Request: try later", 1},
		{"wrong key", nil, "secret", 4, "Incorrect API key provided (check GITNEXUS_EMBEDDING_API_KEY)", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := embedtest.Start(t, 4)
			srv.Fail, srv.Key = tc.fail, tc.key
			cfg := Config{Retries: tc.retries}
			if tc.key != "" {
				cfg.APIKey = "not-" + tc.key
			}
			o := newTestOpenAI(t, srv, cfg)
			_, err := o.Embed(context.Background(), []string{"a b", "c"})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), o.Endpoint()):
				t.Errorf("error %q does not name the endpoint", err)
			}
			if srv.Requests() != tc.wantRequests {
				t.Errorf("%d requests, want %d", srv.Requests(), tc.wantRequests)
			}
		})
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close() // nothing listens there now
	o, err := NewOpenAI(Config{Provider: ProviderOpenAI, BaseURL: url + "/v1/", Model: "m", Retries: 1})
	if err != nil {
		t.Fatal(err)
	}
	o.backoff = time.Millisecond
	_, err = o.Embed(context.Background(), []string{"x"})
	if err == nil {
		t.Fatal("no error from an endpoint nobody listens on")
	}
	for _, want := range []string{url + "/v1/embeddings", "unreachable", EnvURL, "gave up after 2 attempts"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestOpenAIIdentity(t *testing.T) {
	a, _ := NewOpenAI(Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:1"})
	b, _ := NewOpenAI(Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:2/v1"})
	c, _ := NewOpenAI(Config{Provider: ProviderOpenAI, Model: "m", Dimensions: 64})
	if a.Identity() != b.Identity() {
		t.Errorf("the same model on two servers has two identities: %q, %q", a.Identity(), b.Identity())
	}
	if a.Identity() == c.Identity() {
		t.Errorf("other dimensions, same identity %q", a.Identity())
	}
	if b.Endpoint() != "http://127.0.0.1:2/v1/embeddings" {
		t.Errorf("endpoint %q", b.Endpoint())
	}
}

// BenchmarkOpenAIThroughput embeds 1 KB texts (the 256-token budget)
// through the OpenAI protocol against a local endpoint answering 384
// dimensions, with the default batch size and concurrency: what the
// client and the JSON of the protocol cost, an upper bound for a real
// endpoint, whose model costs far more. The server shares the cores.
func BenchmarkOpenAIThroughput(b *testing.B) {
	srv := embedtest.Start(b, 384)
	o, err := NewOpenAI(Config{Provider: ProviderOpenAI, BaseURL: srv.URL, Model: "m"}.WithDefaults())
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 512)
	for i := range texts {
		texts[i] = strings.Repeat("func parseConfigFile(path string) (*Config, error) reads the file ", 16)[:1000] + string(rune('a'+i%26))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := o.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
		srv.Reset()
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
}
