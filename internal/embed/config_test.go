package embed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadConfig(t *testing.T) {
	cases := []struct {
		name    string
		file    string // embeddings.json in home; "" for none
		env     map[string]string
		want    Config
		wantErr string
	}{
		{name: "nothing configured", want: Config{}},
		{name: "file only", file: `{"provider": "openai", "baseURL": "http://127.0.0.1:11434", "model": "nomic-embed-text", "batchSize": 16, "timeout": "2m"}`,
			want: Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434", Model: "nomic-embed-text", BatchSize: 16, Timeout: Duration(2 * time.Minute)}},
		{name: "variables override the file", file: `{"provider": "openai", "model": "a", "concurrency": 4}`,
			env:  map[string]string{EnvModel: "b", EnvConcurrency: "1", EnvTimeout: "5s", EnvProvider: "openai"},
			want: Config{Provider: "openai", Model: "b", Concurrency: 1, Timeout: Duration(5 * time.Second)}},
		{name: "onnx from variables", env: map[string]string{EnvProvider: "onnx", EnvONNXModel: "/m/model.onnx",
			EnvONNXTok: "/m/tokenizer.json", EnvONNXRuntime: "/lib/libonnxruntime.so", EnvMaxTokens: "128"},
			want: Config{Provider: "onnx", ONNXModel: "/m/model.onnx", ONNXTokenizer: "/m/tokenizer.json",
				ONNXRuntime: "/lib/libonnxruntime.so", MaxTokens: 128}},
		{name: "unknown field", file: `{"provider": "openai", "modle": "x"}`, wantErr: `unknown field "modle"`},
		{name: "bad number", env: map[string]string{EnvBatchSize: "many"}, wantErr: "GITNEXUS_EMBEDDING_BATCH_SIZE"},
		{name: "bad duration", env: map[string]string{EnvTimeout: "soon"}, wantErr: "GITNEXUS_EMBEDDING_TIMEOUT"},
		{name: "named file missing", env: map[string]string{EnvConfig: "/nonexistent/embeddings.json"}, wantErr: "no such file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(home, ConfigFileName), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := LoadConfig(home, func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		cfg     Config
		wantErr string
	}{
		{Config{}, ""},
		{Config{Provider: "openai"}, EnvModel},
		{Config{Provider: "openai", Model: "m"}, ""},
		{Config{Provider: "onnx", ONNXModel: "m.onnx"}, EnvONNXTok},
		{Config{Provider: "word2vec"}, "unknown embedding provider"},
	}
	for _, tc := range cases {
		err := tc.cfg.Validate()
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.wantErr)
		}
	}
}

// TestRemovedBuiltin: a configuration that still names the built-in
// embedder, removed because fused with BM25 it ranked below BM25 alone,
// fails and lists the providers that exist, from the file and from the
// variable alike.
func TestRemovedBuiltin(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		env        map[string]string
	}{
		{name: "file", file: `{"provider": "builtin"}`},
		{name: "variable", env: map[string]string{EnvProvider: "builtin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(home, ConfigFileName), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig(home, func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			for _, want := range []string{"builtin embedding provider was removed", "use one of openai, onnx, none"} {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("Validate: %v, want an error containing %q", err, want)
				}
			}
			if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "removed") {
				t.Errorf("New: %v, want the removed provider's error", err)
			}
		})
	}
}
