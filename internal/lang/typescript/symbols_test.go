package typescript_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/typescript"
)

// TestExtractSymbolsMatchesExtract reads the TypeScript and JavaScript
// files of the fixtures with ExtractSymbols and with the full extraction,
// and requires the same symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, typescript.TypeScript, 50)
	langtest.CheckSymbolsOnlyOnFixtures(t, typescript.JavaScript, 10)
}

// TestExtractSymbolsCorpus does the same on every TypeScript and
// JavaScript file under the directories GITNEXUS_SYMBOLS_CORPUS lists
// (separated as in PATH); it is skipped without the variable.
func TestExtractSymbolsCorpus(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv("GITNEXUS_SYMBOLS_CORPUS"))
	if len(dirs) == 0 {
		t.Skip("GITNEXUS_SYMBOLS_CORPUS is not set")
	}
	extractors := map[string]langtest.SymbolsExtractor{}
	for _, l := range []lang.Language{typescript.TypeScript, typescript.JavaScript} {
		extractors[l.Name()] = langtest.NewSymbolsExtractor(t, l)
	}
	files := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			l := lang.ForPath(path)
			if l == nil || extractors[l.Name()] == nil || !d.Type().IsRegular() {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if langtest.CheckSymbolsOnly(t, extractors[l.Name()], path, src, nil) {
				files++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files read", files)
}
