package golang_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/golang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestExtractSymbolsMatchesExtract reads every Go file of this module with
// ExtractSymbols and with the full extraction, and requires the same
// symbols (those of the graph: the hidden anonymous struct types only uses
// find are left out by design) with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	e := langtest.NewSymbolsExtractor(t, golang.Language)
	// The hidden anonymous struct types only uses find are left out by
	// design.
	anon := func(s *lang.Symbol) bool { return s.Hidden && strings.Contains(s.Qual, "anonStruct_") }
	files := 0
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".gitnexus" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if langtest.CheckSymbolsOnly(t, e, path, src, anon) {
			files++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("only %d Go files read", files)
	}
}
