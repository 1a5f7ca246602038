package embed

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// embeddingServer implements POST /v1/embeddings on 127.0.0.1: each text
// becomes a bag of its words hashed into dims buckets. fail decides, per
// request number (from 1), whether to answer with an error status instead.
type embeddingServer struct {
	dims int
	key  string
	fail func(n int) int

	mu       sync.Mutex
	requests int
	sizes    []int
}

func (s *embeddingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.NotFound(w, r)
		return
	}
	if s.key != "" && r.Header.Get("Authorization") != "Bearer "+s.key {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error": {"message": "Incorrect API key provided"}}`))
		return
	}
	if s.fail != nil {
		if status := s.fail(n); status != 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(status)
			w.Write([]byte(`{"error": {"message": "try later"}}`))
			return
		}
	}
	var req openAIRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error": {"message": "bad request"}}`))
		return
	}
	s.mu.Lock()
	s.sizes = append(s.sizes, len(req.Input))
	s.mu.Unlock()
	dims := s.dims
	if req.Dimensions > 0 {
		dims = req.Dimensions
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	// Answer in reverse order: clients must place vectors by index.
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, item{"embedding", i, bagOfWords(req.Input[i], dims)})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func bagOfWords(text string, dims int) []float32 {
	v := make([]float32, dims)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%uint32(dims)] += 3 // not unit length: the client normalises
	}
	return v
}

func newTestOpenAI(t *testing.T, srv *embeddingServer, cfg Config) *OpenAI {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg.Provider = ProviderOpenAI
	if cfg.BaseURL == "" {
		cfg.BaseURL = ts.URL
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
		dims      int
		wantSizes []int // batch sizes the server saw, sorted
	}{
		{"one batch", Config{}, 16, []int{5}},
		{"batches of two", Config{BatchSize: 2, Concurrency: 1}, 16, []int{1, 2, 2}},
		{"batches in parallel", Config{BatchSize: 1, Concurrency: 3}, 16, []int{1, 1, 1, 1, 1}},
		{"dimensions asked", Config{Dimensions: 8}, 16, []int{5}},
		{"with an API key", Config{APIKey: "k3y"}, 16, []int{5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &embeddingServer{dims: tc.dims, key: tc.cfg.APIKey}
			o := newTestOpenAI(t, srv, tc.cfg)
			vecs, err := o.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.dims
			if tc.cfg.Dimensions > 0 {
				want = tc.cfg.Dimensions
			}
			if o.Dimensions() != want {
				t.Errorf("Dimensions() = %d, want %d", o.Dimensions(), want)
			}
			for i, v := range vecs {
				exp := Normalize(bagOfWords(texts[i], want))
				if len(v) != want {
					t.Fatalf("vector %d has %d dimensions, want %d", i, len(v), want)
				}
				for j := range v {
					if math.Abs(float64(v[j]-exp[j])) > 1e-6 {
						t.Fatalf("vector %d (%q) is not the server's for that text: %v vs %v", i, texts[i], v, exp)
					}
				}
			}
			srv.mu.Lock()
			sizes := append([]int(nil), srv.sizes...)
			srv.mu.Unlock()
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
			srv := &embeddingServer{dims: 4, fail: tc.fail, key: tc.key}
			o := newTestOpenAI(t, srv, Config{Retries: tc.retries, APIKey: "not-" + tc.key})
			if tc.key == "" {
				o.cfg.APIKey = ""
			}
			_, err := o.Embed(context.Background(), []string{"a b", "c"})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), o.Endpoint()):
				t.Errorf("error %q does not name the endpoint", err)
			}
			if srv.requests != tc.wantRequests {
				t.Errorf("%d requests, want %d", srv.requests, tc.wantRequests)
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
