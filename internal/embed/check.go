package embed

import (
	"fmt"
	"os"
	"strings"
)

// Problem is something that keeps the configured embedder from working,
// with what to do about it.
type Problem struct {
	What string `json:"what"`
	Fix  string `json:"fix"`
}

// Check says what is missing for the embedder cfg configures, without
// embedding anything or calling an endpoint: the settings a provider
// needs, the files an ONNX model needs (model, tokenizer, runtime
// library, which it loads). No problems for no provider.
func Check(cfg Config) []Problem {
	var out []Problem
	if err := cfg.Validate(); err != nil {
		return []Problem{{What: err.Error(), Fix: "see docs/embeddings.md"}}
	}
	switch cfg.Provider {
	case ProviderOpenAI:
		base := cfg.WithDefaults().BaseURL
		if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
			out = append(out, Problem{What: fmt.Sprintf("the embedding endpoint %q is not an http(s) URL", base), Fix: "set " + EnvURL})
		}
		if cfg.APIKey == "" && strings.HasPrefix(base, DefaultBaseURL) {
			out = append(out, Problem{What: "no API key for " + base, Fix: "set " + EnvAPIKey})
		}
	case ProviderONNX:
		for _, f := range []struct{ path, env string }{{cfg.ONNXModel, EnvONNXModel}, {cfg.ONNXTokenizer, EnvONNXTok}} {
			if _, err := os.Stat(f.path); err != nil {
				out = append(out, Problem{What: err.Error(), Fix: "set " + f.env + " to an existing file"})
			}
		}
		if len(out) == 0 {
			if _, err := LoadWordPiece(cfg.ONNXTokenizer); err != nil {
				out = append(out, Problem{What: err.Error(), Fix: "use the tokenizer.json of a BERT-style (WordPiece) model"})
			}
		}
		if cfg.ONNXRuntime != "" {
			if _, err := os.Stat(cfg.ONNXRuntime); err != nil {
				out = append(out, Problem{What: "ONNX Runtime library: " + err.Error(),
					Fix: "install ONNX Runtime (libonnxruntime.so) and set " + EnvONNXRuntime + " to its path"})
				return out
			}
		}
		if err := initRuntime(cfg.ONNXRuntime); err != nil {
			out = append(out, Problem{What: err.Error(), Fix: "install ONNX Runtime (libonnxruntime.so) and set " + EnvONNXRuntime + " to its path"})
		}
	}
	return out
}
