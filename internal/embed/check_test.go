package embed

import (
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/embed/onnxtest"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	modelPath, tokPath, err := onnxtest.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  Config
		want []string // a substring of each problem, in order
	}{
		{"nothing configured", Config{}, nil},
		{"builtin, removed", Config{Provider: "builtin"}, []string{"use one of openai, onnx, none"}},
		{"openai without model", Config{Provider: ProviderOpenAI}, []string{EnvModel}},
		{"openai without key", Config{Provider: ProviderOpenAI, Model: "m"}, []string{"no API key"}},
		{"local endpoint", Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:11434"}, nil},
		{"onnx files missing", Config{Provider: ProviderONNX, ONNXModel: filepath.Join(dir, "none.onnx"), ONNXTokenizer: filepath.Join(dir, "none.json"),
			ONNXRuntime: filepath.Join(dir, "libnone.so")}, []string{"none.onnx", "none.json", "ONNX Runtime library"}},
		{"onnx runtime missing", Config{Provider: ProviderONNX, ONNXModel: modelPath, ONNXTokenizer: tokPath,
			ONNXRuntime: filepath.Join(dir, "libnone.so")}, []string{"ONNX Runtime library"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(tc.cfg)
			if len(got) != len(tc.want) {
				t.Fatalf("problems %+v, want %d", got, len(tc.want))
			}
			for i, p := range got {
				if !strings.Contains(p.What+" "+p.Fix, tc.want[i]) {
					t.Errorf("problem %d %+v lacks %q", i, p, tc.want[i])
				}
			}
		})
	}
	t.Run("onnx ready", func(t *testing.T) {
		lib := testRuntime(t)
		if got := Check(Config{Provider: ProviderONNX, ONNXModel: modelPath, ONNXTokenizer: tokPath, ONNXRuntime: lib}); len(got) != 0 {
			t.Errorf("problems %+v", got)
		}
	})
}
