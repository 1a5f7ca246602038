package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// embedFlags are the options of analyze that choose the embedder.
type embedFlags struct {
	provider string // "" when the flag is not given; "auto" for a bare --embeddings
}

// autoProvider is the value of a bare --embeddings.
const autoProvider = "auto"

func (e *embedFlags) register(f *pflag.FlagSet) {
	f.StringVar(&e.provider, "embeddings", "", "embed symbols and commits for semantic search: openai, onnx, or none "+
		"(bare --embeddings: the provider GITNEXUS_EMBEDDING_PROVIDER or embeddings.json configures; docs/embeddings.md)")
	f.Lookup("embeddings").NoOptDefVal = autoProvider
}

// config is the embedding configuration of this run: the file and the
// GITNEXUS_EMBEDDING_* variables, the flag over them, and without either
// the provider the previous index was embedded with.
func (e *embedFlags) config(previous *store.EmbeddingMeta) (embed.Config, error) {
	home, err := registry.Home()
	if err != nil {
		return embed.Config{}, err
	}
	cfg, err := embed.LoadConfig(home, os.Getenv)
	if err != nil {
		return embed.Config{}, err
	}
	switch {
	case e.provider == autoProvider:
		if cfg.Provider == "" {
			return embed.Config{}, fmt.Errorf("--embeddings: no embedding provider is configured: set %s (openai or onnx, docs/embeddings.md), "+
				"or choose one with --embeddings=openai|onnx", embed.EnvProvider)
		}
	case e.provider != "":
		cfg.Provider = e.provider
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

// embedder opens the embedder of cfg; nil when embeddings are off.
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

func printEmbedSummary(w io.Writer, s *ingest.EmbedStats) {
	rate := ""
	if s.Embedded > 0 {
		rate = fmt.Sprintf(", %.0f/s", s.PerSecond)
	}
	fmt.Fprintf(w, "  vectors   %d symbols, %d commits by %s (%d dimensions): %d embedded%s, %d reused; %s search\n",
		s.Symbols, s.Commits, s.Identity, s.Dimensions, s.Embedded, rate, s.Reused, s.Search)
}
