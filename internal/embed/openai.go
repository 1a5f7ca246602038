package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// OpenAI is the provider for OpenAI-compatible endpoints (OpenAI, Ollama,
// vLLM, text-embeddings-inference, LM Studio…): POST {base}/v1/embeddings
// with {"model", "input": [texts], "dimensions"}, answered with
// {"data": [{"index", "embedding"}]}.
type OpenAI struct {
	endpoint string
	cfg      Config
	client   *http.Client
	// backoff is the wait before the first retry; it doubles with each.
	backoff time.Duration

	mu   sync.Mutex
	dims int // configured, or learnt from the first answer
}

// NewOpenAI returns the provider for cfg (Provider openai).
func NewOpenAI(cfg Config) (*OpenAI, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	base = strings.TrimSuffix(base, "/v1")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("embedding endpoint %q: the base URL must start with http:// or https:// (%s)", cfg.BaseURL, EnvURL)
	}
	return &OpenAI{endpoint: base + "/v1/embeddings", cfg: cfg, dims: cfg.Dimensions,
		client: &http.Client{Timeout: time.Duration(cfg.Timeout)}, backoff: 500 * time.Millisecond}, nil
}

// Endpoint is the URL the provider posts to.
func (o *OpenAI) Endpoint() string { return o.endpoint }

// Identity is "openai:<model>", with "/<dimensions>" when dimensions are
// asked for: the same model gives the same vectors from any server.
func (o *OpenAI) Identity() string {
	id := "openai:" + o.cfg.Model
	if o.cfg.Dimensions > 0 {
		id += "/" + strconv.Itoa(o.cfg.Dimensions)
	}
	return id
}

// Dimensions is the configured size, or the size of the vectors answered
// so far (0 before the first answer when none is configured).
func (o *OpenAI) Dimensions() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dims
}

// Close releases idle connections.
func (o *OpenAI) Close() error {
	o.client.CloseIdleConnections()
	return nil
}

// Embed sends the texts in batches of BatchSize, Concurrency requests at a
// time; the first failure stops the rest.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type batch struct{ from, to int }
	batches := make(chan batch)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for w := 0; w < o.cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				vecs, err := o.request(ctx, texts[b.from:b.to])
				if err != nil {
					fail(err)
					continue
				}
				copy(out[b.from:b.to], vecs)
			}
		}()
	}
feed:
	for from := 0; from < len(texts); from += o.cfg.BatchSize {
		select {
		case batches <- batch{from, min(from+o.cfg.BatchSize, len(texts))}:
		case <-ctx.Done():
			break feed
		}
	}
	close(batches)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format"`
}

type openAIResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// request embeds one batch, retrying what may pass on a second try.
func (o *OpenAI) request(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(openAIRequest{Model: o.cfg.Model, Input: texts, Dimensions: o.cfg.Dimensions, EncodingFormat: "float"})
	if err != nil {
		return nil, err
	}
	wait := o.backoff
	for attempt := 0; ; attempt++ {
		vecs, retryAfter, err := o.post(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		var perm *permanentError
		if errors.As(err, &perm) || attempt >= o.cfg.Retries || o.cfg.NoRetries || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !errors.As(err, &perm) && attempt > 0 {
				err = fmt.Errorf("%w (gave up after %d attempts)", err, attempt+1)
			}
			return nil, err
		}
		d := wait
		if retryAfter > d {
			d = min(retryAfter, 30*time.Second)
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		wait *= 2
	}
}

// permanentError is an answer that another attempt would not change.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// post sends one request. A 429, a 5xx or a failed connection is returned
// as a plain error (worth retrying, after retryAfter when the server said
// so); anything else that fails is a permanentError.
func (o *OpenAI) post(ctx context.Context, body []byte, n int) ([][]float32, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, 0, &permanentError{fmt.Errorf("embedding endpoint %s: %w", o.endpoint, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	if o.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.cfg.APIKey)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("embedding endpoint %s is unreachable (%w): check that the server runs and %s", o.endpoint, err, EnvURL)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, 0, fmt.Errorf("embedding endpoint %s: reading the answer: %w", o.endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("embedding endpoint %s answered %s: %s", o.endpoint, resp.Status, errorMessage(raw))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			return nil, time.Duration(secs) * time.Second, err
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			err = fmt.Errorf("%w (check %s)", err, EnvAPIKey)
		}
		return nil, 0, &permanentError{err}
	}
	var ans openAIResponse
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, 0, &permanentError{fmt.Errorf("embedding endpoint %s: the answer is not an embeddings list: %w", o.endpoint, err)}
	}
	if len(ans.Data) != n {
		return nil, 0, &permanentError{fmt.Errorf("embedding endpoint %s: %d vectors for %d texts", o.endpoint, len(ans.Data), n)}
	}
	out := make([][]float32, n)
	for _, d := range ans.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, 0, &permanentError{fmt.Errorf("embedding endpoint %s: bad or repeated index %d", o.endpoint, d.Index)}
		}
		if err := o.checkDims(len(d.Embedding)); err != nil {
			return nil, 0, &permanentError{err}
		}
		out[d.Index] = Normalize(d.Embedding)
	}
	return out, 0, nil
}

// checkDims learns the vector size from the first answer and holds every
// later one to it.
func (o *OpenAI) checkDims(d int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if d == 0 {
		return fmt.Errorf("embedding endpoint %s answered an empty vector", o.endpoint)
	}
	if o.dims == 0 {
		o.dims = d
	}
	if d != o.dims {
		return fmt.Errorf("embedding endpoint %s answered vectors of %d dimensions, expected %d", o.endpoint, d, o.dims)
	}
	return nil
}

// errorMessage is the "error.message" of an OpenAI-style error body, else
// the start of the body.
func errorMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return s
}
