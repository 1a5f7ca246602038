package backend

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
)

// Embedding a question is interactive: it is one short request, never
// retried, and an endpoint that failed is left alone for a while, during
// which questions are ranked by BM25 alone at once. When the pause is
// over, one question probes the endpoint again (the others meanwhile do
// not wait for it); a success closes the breaker.
const (
	// questionTimeout bounds one question's embedding request.
	questionTimeout = 3 * time.Second
	// questionPause is how long an endpoint that failed is left alone.
	questionPause = time.Minute
)

// breaker wraps the embedder that embeds questions.
type breaker struct {
	embed.Embedder
	timeout, pause time.Duration
	now            func() time.Time

	mu        sync.Mutex
	downSince time.Time // zero: the endpoint is taken to work
	lastErr   error
	probing   bool
}

func newBreaker(e embed.Embedder) *breaker {
	return &breaker{Embedder: e, timeout: questionTimeout, pause: questionPause, now: time.Now}
}

// Embed embeds the question, or fails at once while the endpoint is
// paused after a failure.
func (b *breaker) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	b.mu.Lock()
	if !b.downSince.IsZero() {
		wait := b.downSince.Add(b.pause).Sub(b.now())
		if wait > 0 || b.probing {
			err := fmt.Errorf("%w (it failed %s ago; it is tried again in %s)", b.lastErr,
				b.now().Sub(b.downSince).Round(time.Second), max(wait, 0).Round(time.Second))
			b.mu.Unlock()
			return nil, err
		}
		b.probing = true // this question probes the endpoint
	}
	b.mu.Unlock()
	qctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	vecs, err := b.Embedder.Embed(qctx, texts)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	switch {
	case err == nil:
		b.downSince, b.lastErr = time.Time{}, nil
	case ctx.Err() != nil:
		// The caller gave up: that says nothing of the endpoint.
	default:
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("embedding the question took more than %s", b.timeout)
		}
		b.downSince, b.lastErr = b.now(), err
	}
	return vecs, err
}
