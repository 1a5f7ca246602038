package langtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// FuzzExtract feeds arbitrary source to a language's extractor: it must not
// fail or panic, and the facts must keep their invariants (parents before
// children, every scope index in range, every call with a callee). The
// corpus is seeded with seeds and with the files of the language's fixtures
// (testdata/*.txt) whose names end with ext.
func FuzzExtract(f *testing.F, l lang.Language, ext string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		fx, err := Parse(p, string(b))
		if err != nil {
			f.Fatal(err)
		}
		for name, content := range fx.Files {
			if strings.HasSuffix(name, ext) {
				f.Add([]byte(content))
			}
		}
	}
	ex, err := l.NewExtractor()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ff, err := ex.Extract("fuzz"+ext, src)
		if err != nil {
			t.Fatal(err)
		}
		n := len(ff.Symbols)
		inRange := func(i int) bool { return i >= -1 && i < n }
		for i, s := range ff.Symbols {
			if s.Parent >= i || s.Parent < -1 {
				t.Fatalf("symbol %d (%s) has parent %d", i, s.Qual, s.Parent)
			}
			if s.StartLine < 1 || s.EndLine < s.StartLine || s.EndByte < s.StartByte {
				t.Fatalf("symbol %d (%s) has span %+v", i, s.Qual, s.Span)
			}
		}
		for _, c := range ff.Calls {
			if !inRange(c.Scope) || c.Callee == nil {
				t.Fatalf("call with scope %d of %d symbols", c.Scope, n)
			}
		}
		for _, b := range ff.Bindings {
			if !inRange(b.Scope) {
				t.Fatalf("binding %s with scope %d", b.Name, b.Scope)
			}
		}
		for _, r := range ff.Refs {
			if !inRange(r.Scope) || r.Expr == nil {
				t.Fatalf("reference with scope %d", r.Scope)
			}
		}
		for _, imp := range ff.Imports {
			if !inRange(imp.Scope) {
				t.Fatalf("import %s with scope %d", imp.Path, imp.Scope)
			}
		}
	})
}
