package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Providers.
const (
	ProviderNone   = "none"
	ProviderOpenAI = "openai"
	ProviderONNX   = "onnx"
)

// Providers lists the provider names Config accepts.
var Providers = []string{ProviderOpenAI, ProviderONNX, ProviderNone}

// removedBuiltin is the provider name of the static subword embedder that
// was built in until it was measured: fused with BM25 it ranked below
// BM25 alone (bench/retrieval/RESULTS.md). A configuration that still
// names it gets an error that says so; an index it embedded is searched
// by BM25 alone, as for any embedder identity that is not configured.
const removedBuiltin = "builtin"

// Removed says why provider is no longer there ("" when it is not a
// removed provider's name), so that an index it embedded can be
// re-indexed without embeddings instead of failing.
func Removed(provider string) string {
	if provider == removedBuiltin {
		return "the builtin embedding provider was removed (fused with BM25 it ranked below BM25 alone)"
	}
	return ""
}

// Config chooses and configures an embedder. It is read from the
// embeddings.json file in the gitnexus home, then GITNEXUS_EMBEDDING_*
// variables, then the command line, each overriding the one before
// (docs/embeddings.md).
type Config struct {
	// Provider is openai, onnx, or none (no embeddings); empty
	// means not configured.
	Provider string `json:"provider,omitempty"`

	// The OpenAI-compatible endpoint: POST {BaseURL}/v1/embeddings.
	BaseURL     string `json:"baseURL,omitempty"`
	Model       string `json:"model,omitempty"`
	APIKey      string `json:"apiKey,omitempty"`
	Dimensions  int    `json:"dimensions,omitempty"`  // asked of the endpoint when set
	BatchSize   int    `json:"batchSize,omitempty"`   // texts per request
	Concurrency int    `json:"concurrency,omitempty"` // requests in flight
	Retries     int    `json:"retries,omitempty"`     // after a 429, a 5xx or a dropped connection
	// NoRetries: one attempt per request, whatever Retries says (a
	// server embedding questions, which must not wait).
	NoRetries bool     `json:"-"`
	Timeout   Duration `json:"timeout,omitempty"` // of one request

	// The local ONNX model: a BERT-style sentence encoder and its
	// tokenizer, run with the ONNX Runtime shared library.
	ONNXModel     string `json:"onnxModel,omitempty"`
	ONNXTokenizer string `json:"onnxTokenizer,omitempty"`
	ONNXRuntime   string `json:"onnxRuntime,omitempty"`

	// MaxTokens bounds each embedded text (the ONNX model's sequence
	// length; for the others the text is cut to about this many tokens).
	MaxTokens int `json:"maxTokens,omitempty"`
}

// Defaults.
const (
	DefaultBaseURL     = "https://api.openai.com"
	DefaultBatchSize   = 64
	DefaultConcurrency = 2
	DefaultRetries     = 4
	DefaultTimeout     = 60 * time.Second
	DefaultMaxTokens   = 256
	// ConfigFileName is the configuration file in the gitnexus home.
	ConfigFileName = "embeddings.json"
)

// Duration is a time.Duration written as "30s" in JSON.
type Duration time.Duration

// UnmarshalJSON reads "30s" or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("timeout %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("timeout: want \"30s\" or seconds, got %s", b)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// MarshalJSON writes the duration as "30s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// Environment variables.
const (
	EnvConfig      = "GITNEXUS_EMBEDDING_CONFIG"
	EnvProvider    = "GITNEXUS_EMBEDDING_PROVIDER"
	EnvURL         = "GITNEXUS_EMBEDDING_URL"
	EnvModel       = "GITNEXUS_EMBEDDING_MODEL"
	EnvAPIKey      = "GITNEXUS_EMBEDDING_API_KEY"
	EnvDimensions  = "GITNEXUS_EMBEDDING_DIMENSIONS"
	EnvBatchSize   = "GITNEXUS_EMBEDDING_BATCH_SIZE"
	EnvConcurrency = "GITNEXUS_EMBEDDING_CONCURRENCY"
	EnvRetries     = "GITNEXUS_EMBEDDING_RETRIES"
	EnvTimeout     = "GITNEXUS_EMBEDDING_TIMEOUT"
	EnvMaxTokens   = "GITNEXUS_EMBEDDING_MAX_TOKENS"
	EnvONNXModel   = "GITNEXUS_EMBEDDING_ONNX_MODEL"
	EnvONNXTok     = "GITNEXUS_EMBEDDING_ONNX_TOKENIZER"
	EnvONNXRuntime = "GITNEXUS_EMBEDDING_ONNX_RUNTIME"
)

// LoadConfig reads the configuration file (the one $GITNEXUS_EMBEDDING_CONFIG
// names, else embeddings.json in home; a missing default file is no error),
// then applies the GITNEXUS_EMBEDDING_* variables that getenv returns.
func LoadConfig(home string, getenv func(string) string) (Config, error) {
	var c Config
	path, explicit := getenv(EnvConfig), true
	if path == "" && home != "" {
		path, explicit = filepath.Join(home, ConfigFileName), false
	}
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c); err != nil {
				return Config{}, fmt.Errorf("embedding configuration %s: %w (docs/embeddings.md lists the fields)", path, err)
			}
		case errors.Is(err, os.ErrNotExist) && !explicit:
		default:
			return Config{}, fmt.Errorf("embedding configuration: %w", err)
		}
	}
	if err := c.applyEnv(getenv); err != nil {
		return Config{}, err
	}
	return c, nil
}

func (c *Config) applyEnv(getenv func(string) string) error {
	strs := []struct {
		name string
		to   *string
	}{{EnvProvider, &c.Provider}, {EnvURL, &c.BaseURL}, {EnvModel, &c.Model}, {EnvAPIKey, &c.APIKey},
		{EnvONNXModel, &c.ONNXModel}, {EnvONNXTok, &c.ONNXTokenizer}, {EnvONNXRuntime, &c.ONNXRuntime}}
	for _, s := range strs {
		if v := getenv(s.name); v != "" {
			*s.to = v
		}
	}
	ints := []struct {
		name string
		to   *int
	}{{EnvDimensions, &c.Dimensions}, {EnvBatchSize, &c.BatchSize}, {EnvConcurrency, &c.Concurrency},
		{EnvRetries, &c.Retries}, {EnvMaxTokens, &c.MaxTokens}}
	for _, s := range ints {
		if v := getenv(s.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("%s=%q: want a whole number of 0 or more", s.name, v)
			}
			*s.to = n
		}
	}
	if v := getenv(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s=%q: want a duration such as 30s: %w", EnvTimeout, v, err)
		}
		c.Timeout = Duration(d)
	}
	return nil
}

// WithDefaults fills the settings left at zero.
func (c Config) WithDefaults() Config {
	if c.Provider == ProviderOpenAI && c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Retries <= 0 {
		c.Retries = DefaultRetries
	}
	if c.Timeout <= 0 {
		c.Timeout = Duration(DefaultTimeout)
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}

// Validate reports the first setting that cannot work, with what to set.
func (c Config) Validate() error {
	switch c.Provider {
	case "", ProviderNone:
	case ProviderOpenAI:
		if c.Model == "" {
			return fmt.Errorf("the openai embedding provider needs a model: set %s (or \"model\" in %s)", EnvModel, ConfigFileName)
		}
	case ProviderONNX:
		if c.ONNXModel == "" || c.ONNXTokenizer == "" {
			return fmt.Errorf("the onnx embedding provider needs model.onnx and tokenizer.json: set %s and %s (or \"onnxModel\" and \"onnxTokenizer\" in %s)",
				EnvONNXModel, EnvONNXTok, ConfigFileName)
		}
	case removedBuiltin:
		return fmt.Errorf("%s: use one of %s (docs/embeddings.md)", Removed(c.Provider), strings.Join(Providers, ", "))
	default:
		return fmt.Errorf("unknown embedding provider %q: use one of %s", c.Provider, strings.Join(Providers, ", "))
	}
	return nil
}

// Enabled reports whether the configuration asks for embeddings.
func (c Config) Enabled() bool { return c.Provider != "" && c.Provider != ProviderNone }
