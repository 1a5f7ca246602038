package index

import (
	"fmt"
	"os"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// EmbeddingsAuto is Options.Embeddings for a bare --embeddings: the
// configured provider.
const EmbeddingsAuto = "auto"

// embedConfig is the embedding configuration of a run: the file and the
// GITNEXUS_EMBEDDING_* variables, the flag (provider) over them, and
// without either the provider the previous index was embedded with.
func embedConfig(provider string, previous *store.EmbeddingMeta) (embed.Config, error) {
	home, err := registry.Home()
	if err != nil {
		return embed.Config{}, err
	}
	cfg, err := embed.LoadConfig(home, os.Getenv)
	if err != nil {
		return embed.Config{}, err
	}
	switch {
	case provider == EmbeddingsAuto:
		if cfg.Provider == "" {
			return embed.Config{}, fmt.Errorf("--embeddings: no embedding provider is configured: set %s (openai or onnx, docs/embeddings.md), "+
				"or choose one with --embeddings=openai|onnx", embed.EnvProvider)
		}
	case provider != "":
		cfg.Provider = provider
	case cfg.Provider == "" && previous != nil && embed.Removed(previous.Provider) == "":
		// An index embedded by a removed provider is re-indexed without
		// embeddings (embedStale says why).
		cfg.Provider = previous.Provider
	}
	if err := cfg.Validate(); err != nil {
		return embed.Config{}, err
	}
	return cfg.WithDefaults(), nil
}

// openEmbedder opens the embedder of cfg; nil when embeddings are off.
func openEmbedder(cfg embed.Config) (embed.Embedder, error) {
	if !cfg.Enabled() {
		return nil, nil
	}
	return embed.New(cfg)
}

// embedStale says why an index's vectors do not match the embedder ("" when
// they do).
func embedStale(have *store.EmbeddingMeta, e embed.Embedder) string {
	switch {
	case e == nil && have != nil && embed.Removed(have.Provider) != "":
		return fmt.Sprintf("the index's vectors were made by %s and %s: re-indexing without embeddings", have.Identity, embed.Removed(have.Provider))
	case e == nil && have != nil:
		return "embeddings turned off"
	case e == nil:
		return ""
	case have == nil:
		return "embeddings asked for (" + e.Identity() + ")"
	case have.Identity != e.Identity():
		return fmt.Sprintf("the embedder changed (%s, the index has %s)", e.Identity(), have.Identity)
	}
	return ""
}
