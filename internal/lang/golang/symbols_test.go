package golang

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestExtractSymbolsMatchesExtract reads every Go file of this module with
// ExtractSymbols and with the full extraction, and requires the same
// symbols (those of the graph: the hidden anonymous struct types only uses
// find are left out by design) with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	ex, err := Language.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	e := ex.(*extractor)
	type sym struct {
		Kind       string
		Name, Qual string
		Start, End int
		Parent     int
		Suffix     string
		Hidden     bool
	}
	view := func(f *lang.FileFacts) []sym {
		var out []sym
		for i := range f.Symbols {
			s := &f.Symbols[i]
			if s.Hidden && strings.Contains(s.Qual, "anonStruct_") {
				continue
			}
			out = append(out, sym{s.Kind.String(), s.Name, s.Qual, s.StartLine, s.EndLine, s.Parent, lang.OverloadSuffix(s), s.Hidden})
		}
		return out
	}
	files := 0
	err = filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
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
		full, err := e.Extract(path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		tree, err := e.Parse(path, src)
		if err != nil {
			return err
		}
		defer tree.Close()
		only, err := e.ExtractSymbols(path, src, tree)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if got, want := view(only), view(full); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: symbols differ:\n got %v\nwant %v", path, got, want)
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("only %d Go files read", files)
	}
}
