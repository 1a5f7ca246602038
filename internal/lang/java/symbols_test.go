package java

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
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
			out = append(out, sym{s.Kind.String(), s.Name, s.Qual, s.StartLine, s.EndLine, s.Parent, lang.OverloadSuffix(s), s.Hidden})
		}
		return out
	}
	sources := javaSources(t)
	if len(sources) < 40 {
		t.Fatalf("only %d Java sources", len(sources))
	}
	for path, src := range sources {
		full, err := e.Extract(path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		tree, err := e.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		only, err := e.ExtractSymbols(path, src, tree)
		tree.Close()
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got, want := view(only), view(full); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: symbols differ:\n got %v\nwant %v", path, got, want)
		}
	}
}
