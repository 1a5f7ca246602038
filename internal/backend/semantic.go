package backend

import (
	"context"
	"fmt"
	"os"
	"sync"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// Vector search needs, per index, its vectors and an embedder of the same
// identity to embed the question. The embedder is built from the index's
// provider with the server's embedding configuration (file and
// GITNEXUS_EMBEDDING_* variables), once per provider; the vectors are
// loaded once per snapshot.

// embedders builds and keeps the server's embedders by provider.
type embedders struct {
	cfg    embed.Config
	cfgErr error

	mu     sync.Mutex
	byName map[string]embed.Embedder
	errs   map[string]error
}

func newEmbedders(cfg *embed.Config) *embedders {
	e := &embedders{byName: map[string]embed.Embedder{}, errs: map[string]error{}}
	if cfg != nil {
		e.cfg = *cfg
		return e
	}
	home, err := registry.Home()
	if err == nil {
		e.cfg, err = embed.LoadConfig(home, os.Getenv)
	}
	e.cfgErr = err
	return e
}

// forIndex returns an embedder for the index's vectors, or why there is
// none.
func (e *embedders) forIndex(em *store.EmbeddingMeta) (embed.Embedder, string) {
	if e.cfgErr != nil {
		return nil, "the embedding configuration is unusable: " + e.cfgErr.Error()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	emb, ok := e.byName[em.Provider]
	if !ok {
		if err := e.errs[em.Provider]; err != nil {
			return nil, err.Error()
		}
		cfg := e.cfg
		cfg.Provider = em.Provider
		cfg.NoRetries = true // a question is not retried: the breaker pauses a failing endpoint
		var err error
		if emb, err = embed.New(cfg); err != nil {
			err = fmt.Errorf("the index's vectors were made by %s, and the server cannot embed questions with it: %w", em.Identity, err)
			e.errs[em.Provider] = err
			return nil, err.Error()
		}
		emb = newBreaker(emb)
		e.byName[em.Provider] = emb
	}
	if emb.Identity() != em.Identity {
		return nil, fmt.Sprintf("the index's vectors were made by %s, the server's embedder is %s: configure the same model, or run `gitnexus analyze` with this one",
			em.Identity, emb.Identity())
	}
	return emb, ""
}

func (e *embedders) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, emb := range e.byName {
		emb.Close()
	}
	e.byName = map[string]embed.Embedder{}
}

// semantic returns what vector search over the snapshot's index needs,
// loading its vectors the first time.
func (b *Backend) semantic(ctx context.Context, s *Snapshot) *search.Semantic {
	s.semanticOnce.Do(func() {
		sem := &search.Semantic{}
		s.semantic = sem
		em := s.Meta.Embeddings
		if em == nil {
			sem.Unavailable = "the index has no embeddings (run `gitnexus analyze --embeddings` for semantic search)"
			return
		}
		vecs, err := search.LoadVectors(context.WithoutCancel(ctx), s.Reader, s.Graph)
		if err != nil {
			sem.Unavailable = "the index's vectors cannot be read: " + err.Error()
			return
		}
		emb, why := b.embed.forIndex(em)
		sem.Vectors, sem.Embedder, sem.Unavailable = vecs, emb, why
	})
	return s.semantic
}
