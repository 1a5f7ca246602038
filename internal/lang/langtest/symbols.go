package langtest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// SymbolsExtractor is an extractor that also reads symbols alone, for the
// history (lang.SymbolReader), on trees it parses itself.
type SymbolsExtractor interface {
	lang.Extractor
	lang.SymbolReader
	Parse(path string, src []byte) (*ts.Tree, error)
}

// symbolRow is what the history reads of a symbol.
type symbolRow struct {
	Kind       string
	Name, Qual string
	Start, End int
	Parent     int
	Suffix     string
	Hidden     bool
}

func symbolRows(f *lang.FileFacts, skip func(*lang.Symbol) bool) []symbolRow {
	var out []symbolRow
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if skip != nil && skip(s) {
			continue
		}
		out = append(out, symbolRow{s.Kind.String(), s.Name, s.Qual, s.StartLine, s.EndLine, s.Parent, lang.OverloadSuffix(s), s.Hidden})
	}
	return out
}

// CheckSymbolsOnly requires ExtractSymbols to find in src the symbols the
// full extraction finds (but those skip leaves out), with what the history
// reads of them: kind, names, lines, parent, overload suffix. It reports
// whether both extractions ran.
func CheckSymbolsOnly(t *testing.T, e SymbolsExtractor, path string, src []byte, skip func(*lang.Symbol) bool) bool {
	t.Helper()
	full, err := e.Extract(path, src)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return false
	}
	tree, err := e.Parse(path, src)
	if err != nil {
		t.Errorf("%s: parse: %v", path, err)
		return false
	}
	defer tree.Close()
	only, err := e.ExtractSymbols(path, src, tree)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return false
	}
	if got, want := symbolRows(only, skip), symbolRows(full, skip); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: symbols differ:\n got %v\nwant %v", path, got, want)
	}
	return true
}

// CheckSymbolsOnlyOnFixtures runs CheckSymbolsOnly on every file of the
// fixtures (testdata/*.txt of the calling package) that l reads (by its
// extensions), and requires at least min of them.
func CheckSymbolsOnlyOnFixtures(t *testing.T, l lang.Language, min int) {
	t.Helper()
	ex, err := l.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	e, ok := ex.(SymbolsExtractor)
	if !ok {
		t.Fatalf("the %s extractor does not read symbols alone", l.Name())
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
		fx, err := Parse(p, string(b))
		if err != nil {
			t.Fatal(err)
		}
		for name, content := range fx.Files {
			if lf := lang.ForFile(name, []byte(content)); lf != nil && lf.Name() == l.Name() && CheckSymbolsOnly(t, e, p+":"+name, []byte(content), nil) {
				files++
			}
		}
	}
	if files < min {
		t.Errorf("only %d %s files of the fixtures read, want at least %d", files, l.Name(), min)
	}
}
