// Package embedtest serves the OpenAI embeddings protocol on 127.0.0.1 for
// tests: POST /v1/embeddings embeds each text as the bag of its lowercased
// words hashed into a fixed number of buckets, so that texts sharing words
// are similar. Only tests import it.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Server is a running embeddings endpoint.
type Server struct {
	URL  string
	Dims int    // vector size when the request asks for none
	Key  string // the API key to require; "" for none
	// Fail, when set, decides per request (numbered from 1) whether to
	// answer with that error status instead (0: answer normally).
	Fail func(n int) int

	mu       sync.Mutex
	requests int
	texts    []string
	sizes    []int
}

// Start starts a server that t stops.
func Start(t testing.TB, dims int) *Server {
	s := &Server{Dims: dims}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Requests is the number of requests received; Texts the texts embedded,
// in the order received; Sizes the number of texts of each request.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Texts returns the texts embedded so far.
func (s *Server) Texts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.texts...)
}

// Sizes returns the number of texts of each answered request.
func (s *Server) Sizes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.sizes...)
}

// Reset forgets the requests seen so far.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests, s.texts, s.sizes = 0, nil, nil
}

type request struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions"`
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.NotFound(w, r)
		return
	}
	if s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error": {"message": "Incorrect API key provided"}}`))
		return
	}
	if s.Fail != nil {
		if status := s.Fail(n); status != 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(status)
			w.Write([]byte(`{"error": {"message": "try later"}}`))
			return
		}
	}
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error": {"message": "bad request"}}`))
		return
	}
	s.mu.Lock()
	s.texts = append(s.texts, req.Input...)
	s.sizes = append(s.sizes, len(req.Input))
	s.mu.Unlock()
	dims := s.Dims
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
		data = append(data, item{"embedding", i, BagOfWords(req.Input[i], dims)})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

// BagOfWords is the vector the server answers for text: each lowercased
// run of letters and digits adds 3 to its hashed bucket (not unit length:
// clients normalise).
func BagOfWords(text string, dims int) []float32 {
	v := make([]float32, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for _, w := range words {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%uint32(dims)] += 3
	}
	return v
}
