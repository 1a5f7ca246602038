package cli_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/embed/embedtest"
	"gitnexus.dev/gitnexus/internal/embed/onnxtest"
)

// TestAnalyzeEmbeddings drives --embeddings through the binary with an
// OpenAI-protocol endpoint on 127.0.0.1: turning embeddings on re-indexes
// and says why, a later analyze keeps the provider, query fuses, none
// turns them off, and a misconfigured, unreachable or removed provider
// fails with what to set while the index stays.
func TestAnalyzeEmbeddings(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	srv := embedtest.Start(t, 64)
	// The endpoint and model stay set for every step (a step may override
	// them); the provider is chosen by a step.
	base := map[string]string{embed.EnvProvider: "", embed.EnvURL: srv.URL, embed.EnvModel: "bag-of-words", embed.EnvConfig: "", embed.EnvRetries: ""}
	for k, v := range base {
		t.Setenv(k, v)
	}
	steps := []struct {
		args       []string
		env        map[string]string
		wantCode   int
		wantOut    []string // in stdout
		wantErr    []string // in stderr
		notWantOut []string
	}{
		{args: []string{"analyze"}, wantOut: []string{"Indexed"}, notWantOut: []string{"vectors"}},
		{args: []string{"query", "charge the payment"}, wantOut: []string{"(bm25", "the index has no embeddings"}},
		{args: []string{"analyze", "--embeddings"}, wantCode: 2, wantErr: []string{"no embedding provider is configured: set GITNEXUS_EMBEDDING_PROVIDER"}},
		{args: []string{"analyze", "--embeddings=builtin"}, wantCode: 2,
			wantErr: []string{"the builtin embedding provider was removed", "use one of openai, onnx, none"}},
		{args: []string{"analyze", "--embeddings"}, env: map[string]string{embed.EnvProvider: "builtin"}, wantCode: 2,
			wantErr: []string{"the builtin embedding provider was removed", "use one of openai, onnx, none"}},
		{args: []string{"analyze", "--embeddings"}, env: map[string]string{embed.EnvProvider: "openai"}, wantErr: []string{"embeddings asked for (openai:bag-of-words)"},
			wantOut: []string{"vectors   7 symbols, 1 commits by openai:bag-of-words (64 dimensions): 8 embedded"}},
		{args: []string{"analyze"}, wantOut: []string{"up to date"}},
		{args: []string{"query", "charge the payment"}, wantOut: []string{"(bm25+vector", "fused by reciprocal rank (k=60)", "payment.Client.Charge"}},
		{args: []string{"analyze", "--embeddings=openai"}, env: map[string]string{embed.EnvModel: ""}, wantCode: 2, wantErr: []string{"GITNEXUS_EMBEDDING_MODEL"}},
		{args: []string{"analyze", "--embeddings=openai"}, env: map[string]string{embed.EnvURL: "http://127.0.0.1:1", embed.EnvModel: "m", embed.EnvRetries: "1"},
			wantCode: 1, wantErr: []string{"embedding endpoint http://127.0.0.1:1/v1/embeddings is unreachable"}},
		{args: []string{"query", "charge the payment"}, wantOut: []string{"(bm25+vector"}},
		{args: []string{"analyze", "--embeddings=none"}, wantErr: []string{"embeddings turned off"}, notWantOut: []string{"vectors"}},
		{args: []string{"analyze", "--embeddings=word2vec"}, wantCode: 2, wantErr: []string{`unknown embedding provider "word2vec"`}},
	}
	for _, s := range steps {
		for k, v := range s.env {
			t.Setenv(k, v)
		}
		r := run(t, home, repo, s.args...)
		for k := range s.env {
			t.Setenv(k, base[k])
		}
		if r.code != s.wantCode {
			t.Fatalf("gitnexus %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(s.args, " "), r.code, s.wantCode, r.stdout, r.stderr)
		}
		for _, w := range s.wantOut {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("gitnexus %s: stdout lacks %q:\n%s", strings.Join(s.args, " "), w, r.stdout)
			}
		}
		for _, w := range s.notWantOut {
			if strings.Contains(r.stdout, w) {
				t.Errorf("gitnexus %s: stdout has %q:\n%s", strings.Join(s.args, " "), w, r.stdout)
			}
		}
		for _, w := range s.wantErr {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("gitnexus %s: stderr lacks %q:\n%s", strings.Join(s.args, " "), w, r.stderr)
			}
		}
	}
}

// TestBuiltinEmbeddedIndex: an index whose vectors the removed built-in
// embedder made keeps answering: query ranks by BM25 and says why, and
// analyze re-indexes it without embeddings and says why. The index is made
// with the local endpoint and its vectors relabelled in the stored meta.
func TestBuiltinEmbeddedIndex(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	srv := embedtest.Start(t, 128)
	for k, v := range map[string]string{embed.EnvProvider: "", embed.EnvURL: srv.URL, embed.EnvModel: "bag-of-words", embed.EnvConfig: ""} {
		t.Setenv(k, v)
	}
	mustRun(t, home, repo, "analyze", "--embeddings=openai")
	db, err := sql.Open("sqlite3", filepath.Join(repo, ".gitnexus", "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE meta SET value = replace(replace(value, '"provider":"openai"', '"provider":"builtin"'), '"identity":"openai:bag-of-words"', '"identity":"builtin:subword-v1/128"') WHERE key = 'meta'`)
	if err != nil {
		t.Fatalf("relabelling the vectors: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("relabelling the vectors: %d meta rows", n)
	}
	db.Close()
	r := mustRun(t, home, repo, "query", "charge the payment")
	for _, w := range []string{"(bm25", "the index's vectors were made by builtin:subword-v1/128", "the builtin embedding provider was removed", "payment.Client.Charge"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("query on a builtin-embedded index: stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	r = mustRun(t, home, repo, "analyze")
	if !strings.Contains(r.stderr, "were made by builtin:subword-v1/128 and the builtin embedding provider was removed") ||
		!strings.Contains(r.stderr, "re-indexing without embeddings") || strings.Contains(r.stdout, "vectors") {
		t.Errorf("analyze of a builtin-embedded index:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	r = mustRun(t, home, repo, "query", "charge the payment")
	if !strings.Contains(r.stdout, "(bm25") || !strings.Contains(r.stdout, "the index has no embeddings") {
		t.Errorf("query after re-indexing:\n%s", r.stdout)
	}
}

// TestAnalyzeEmbeddingsONNX indexes with the onnx provider: a tiny
// BERT-shaped model made by onnxtest, run by the ONNX Runtime library of
// test/onnxruntime.
func TestAnalyzeEmbeddingsONNX(t *testing.T) {
	lib := os.Getenv("GITNEXUS_TEST_ONNXRUNTIME")
	if lib == "" {
		lib = filepath.Join("..", "..", "test", "onnxruntime", "node_modules", "onnxruntime-node", "bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")
	}
	lib, _ = filepath.Abs(lib)
	if _, err := os.Stat(lib); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("GITNEXUS_TEST_ONNXRUNTIME") != "" {
			t.Fatalf("no ONNX Runtime library at %s: run test/onnxruntime/install.sh", lib)
		}
		t.Skipf("no ONNX Runtime library at %s: run test/onnxruntime/install.sh", lib)
	}
	modelPath, tokPath, err := onnxtest.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	t.Setenv(embed.EnvONNXModel, modelPath)
	t.Setenv(embed.EnvONNXTok, tokPath)
	t.Setenv(embed.EnvONNXRuntime, lib)
	r := mustRun(t, home, repo, "analyze", "--embeddings=onnx")
	if !strings.Contains(r.stdout, "vectors   7 symbols, 1 commits by onnx:") || !strings.Contains(r.stdout, "(8 dimensions): 8 embedded") {
		t.Errorf("analyze --embeddings=onnx:\n%s", r.stdout)
	}
	r = mustRun(t, home, repo, "query", "parse config file")
	if !strings.Contains(r.stdout, "(bm25+vector") {
		t.Errorf("query after onnx embeddings:\n%s", r.stdout)
	}
}
