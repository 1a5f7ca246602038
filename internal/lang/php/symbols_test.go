package php_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/php"
)

// TestExtractSymbolsMatchesExtract reads the PHP files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	ex, err := php.Language.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	e, ok := ex.(langtest.SymbolsExtractor)
	if !ok {
		t.Fatalf("the php extractor does not read symbols alone")
	}
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx, err := langtest.Parse(p, string(b))
		if err != nil {
			t.Fatal(err)
		}
		for name, content := range fx.Files {
			if (strings.HasSuffix(name, ".php") || strings.HasSuffix(name, ".phtml")) && langtest.CheckSymbolsOnly(t, e, p+":"+name, []byte(content), nil) {
				files++
			}
		}
	}
	if files < 10 {
		t.Errorf("only %d PHP files read", files)
	}
}
