package embed

import "fmt"

// New returns the embedder cfg configures; cfg.Provider must be set and
// not none.
func New(cfg Config) (Embedder, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch cfg.Provider {
	case ProviderOpenAI:
		return NewOpenAI(cfg)
	case ProviderONNX:
		return NewONNX(cfg)
	}
	return nil, fmt.Errorf("no embedder for provider %q: use one of %s, %s", cfg.Provider, ProviderOpenAI, ProviderONNX)
}
