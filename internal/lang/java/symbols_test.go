package java_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/java"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// javaSources returns the Java sources of this module: its .java files and
// the .java sections of the fixtures.
func javaSources(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".gitnexus" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".java") {
			src, err := os.ReadFile(path)
			out[path] = src
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fixtures, _ := filepath.Glob("testdata/*.txt")
	for _, fx := range fixtures {
		b, err := os.ReadFile(fx)
		if err != nil {
			t.Fatal(err)
		}
		name := ""
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
				name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
				if !strings.HasSuffix(name, ".java") {
					name = ""
				}
				continue
			}
			if name != "" {
				out[fx+":"+name] = append(out[fx+":"+name], line...)
			}
		}
	}
	return out
}

// TestExtractSymbolsMatchesExtract reads every Java source of this module
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	e := langtest.NewSymbolsExtractor(t, java.Language)
	sources := javaSources(t)
	if len(sources) < 40 {
		t.Fatalf("only %d Java sources", len(sources))
	}
	for path, src := range sources {
		langtest.CheckSymbolsOnly(t, e, path, src, nil)
	}
}
