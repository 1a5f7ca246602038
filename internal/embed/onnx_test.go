package embed

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/embed/onnxtest"
)

// EnvTestRuntime names the ONNX Runtime library the tests load; without
// it they look where test/onnxruntime/install.sh puts it.
const EnvTestRuntime = "GITNEXUS_TEST_ONNXRUNTIME"

// testRuntime returns the ONNX Runtime library to test with. Under CI, or
// when EnvTestRuntime names it, a missing library fails the test; a
// developer who has not run the installer gets a skip that says how.
func testRuntime(t *testing.T) string {
	t.Helper()
	path := os.Getenv(EnvTestRuntime)
	named := path != ""
	if !named {
		path = filepath.Join("..", "..", "test", "onnxruntime", "node_modules", "onnxruntime-node", "bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")
	}
	abs, _ := filepath.Abs(path)
	if _, err := os.Stat(abs); err != nil {
		msg := "no ONNX Runtime library at " + abs + ": run test/onnxruntime/install.sh (make test does)"
		if named || os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return abs
}

func TestWordPiece(t *testing.T) {
	dir := t.TempDir()
	_, tokPath, err := onnxtest.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := LoadWordPiece(tokPath)
	if err != nil {
		t.Fatal(err)
	}
	id := func(tokens ...string) []int64 {
		var out []int64
		for _, tok := range tokens {
			out = append(out, int64(slices.Index(onnxtest.Vocab, tok)))
		}
		return out
	}
	cases := []struct {
		text   string
		maxLen int
		want   []int64
	}{
		{"parse config files", 32, id("[CLS]", "parse", "config", "file", "##s", "[SEP]")},
		{"Open the DATABASE!", 32, id("[CLS]", "open", "the", "data", "##base", "!", "[SEP]")},
		{"retry(backoff).", 32, id("[CLS]", "retry", "(", "back", "##off", ")", ".", "[SEP]")},
		{"authenticate user", 32, id("[CLS]", "auth", "##enti", "##cate", "user", "[SEP]")},
		{"Café\tx\x00", 32, id("[CLS]", "cafe", "x", "[SEP]")},
		{"unknownword x", 32, id("[CLS]", "[UNK]", "x", "[SEP]")},
		{"parse config files", 4, id("[CLS]", "parse", "config", "[SEP]")},
		{"", 32, id("[CLS]", "[SEP]")},
	}
	for _, tc := range cases {
		if got := w.Encode(tc.text, tc.maxLen); !slices.Equal(got, tc.want) {
			t.Errorf("Encode(%q, %d) = %v, want %v", tc.text, tc.maxLen, got, tc.want)
		}
	}
	bad := filepath.Join(dir, "bpe.json")
	os.WriteFile(bad, []byte(`{"model": {"type": "BPE", "vocab": {}}}`), 0o644)
	if _, err := LoadWordPiece(bad); err == nil || !strings.Contains(err.Error(), "only WordPiece") {
		t.Errorf("a BPE tokenizer: %v", err)
	}
}

// TestONNX runs the tiny model through ONNX Runtime and compares each
// vector with the same computation done in Go: token lookup, dense layer,
// tanh, mean pooling over the mask (texts of different lengths share a
// padded batch), L2 normalisation.
func TestONNX(t *testing.T) {
	lib := testRuntime(t)
	dir := t.TempDir()
	modelPath, tokPath, err := onnxtest.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A library that is not there fails, naming it (a process loads one
	// library: when another test loaded the real one first, that is said).
	_, err = NewONNX(Config{Provider: ProviderONNX, ONNXModel: modelPath, ONNXTokenizer: tokPath, ONNXRuntime: filepath.Join(dir, "missing.so")})
	if err == nil || !strings.Contains(err.Error(), "missing.so") && !strings.Contains(err.Error(), "already loaded") {
		t.Fatalf("a missing runtime library: %v", err)
	}
	e, err := New(Config{Provider: ProviderONNX, ONNXModel: modelPath, ONNXTokenizer: tokPath, ONNXRuntime: lib, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Dimensions() != onnxtest.Hidden || !strings.HasPrefix(e.Identity(), "onnx:") || !strings.HasSuffix(e.Identity(), "/8/256") {
		t.Errorf("dimensions %d, identity %q", e.Dimensions(), e.Identity())
	}
	texts := []string{"parse config files", "retry", "Open the database!", "authenticate user with a config file", "x"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := LoadWordPiece(tokPath)
	for i, text := range texts {
		var ids []int
		for _, id := range tok.Encode(text, 256) {
			ids = append(ids, int(id))
		}
		want := onnxtest.Embed(ids)
		for j := range want {
			if math.Abs(float64(vecs[i][j]-want[j])) > 1e-5 {
				t.Fatalf("%q: got %v, want %v", text, vecs[i], want)
			}
		}
	}
	// The same text alone or in a batch gives the same vector.
	again, err := e.Embed(context.Background(), texts[2:3])
	if err != nil {
		t.Fatal(err)
	}
	for j := range again[0] {
		if math.Abs(float64(again[0][j]-vecs[2][j])) > 1e-6 {
			t.Fatalf("batched %v, alone %v", vecs[2], again[0])
		}
	}
	// A model without the inputs of an encoder is refused.
	other := filepath.Join(dir, "other.onnx")
	os.WriteFile(other, onnxtest.ModelWithoutMask(), 0o644)
	if _, err := NewONNX(Config{Provider: ProviderONNX, ONNXModel: other, ONNXTokenizer: tokPath, ONNXRuntime: lib}); err == nil ||
		!strings.Contains(err.Error(), `no input "attention_mask"`) {
		t.Errorf("a model without attention_mask: %v", err)
	}
}
