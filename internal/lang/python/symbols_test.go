package python_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/python"
)

// TestExtractSymbolsMatchesExtract reads the Python files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, python.Language, 40)
}

// TestExtractSymbolsOnCorpus does the same on every .py file of real
// trees: PYTHON_SYMBOLS_CORPUS is a list of directories (separated as in
// PATH), for instance a checkout and the standard library.
func TestExtractSymbolsOnCorpus(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv("PYTHON_SYMBOLS_CORPUS"))
	if len(dirs) == 0 {
		t.Skip("set PYTHON_SYMBOLS_CORPUS to directories of Python code")
	}
	e := langtest.NewSymbolsExtractor(t, python.Language)
	for _, dir := range dirs {
		files := 0
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if langtest.CheckSymbolsOnly(t, e, p, src, nil) {
				files++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d files", dir, files)
	}
}
