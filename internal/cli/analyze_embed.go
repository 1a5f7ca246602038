package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// registerEmbedFlags registers --embeddings, which chooses the embedder
// (index.Options.Embeddings).
func registerEmbedFlags(f *pflag.FlagSet, provider *string) {
	f.StringVar(provider, "embeddings", "", "embed symbols and commits for semantic search: openai, onnx, or none "+
		"(bare --embeddings: the provider GITNEXUS_EMBEDDING_PROVIDER or embeddings.json configures; docs/embeddings.md)")
	f.Lookup("embeddings").NoOptDefVal = index.EmbeddingsAuto
}

// printEmbedSummary adds the vectors' line to analyze's summary.
func printEmbedSummary(w io.Writer, s *ingest.EmbedStats) {
	rate := ""
	if s.Embedded > 0 {
		rate = fmt.Sprintf(", %.0f/s", s.PerSecond)
	}
	fmt.Fprintf(w, "  vectors   %d symbols, %d commits by %s (%d dimensions): %d embedded%s, %d reused; %s search\n",
		s.Symbols, s.Commits, s.Identity, s.Dimensions, s.Embedded, rate, s.Reused, s.Search)
}
