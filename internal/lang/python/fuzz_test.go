package python_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/python"
)

// FuzzExtract feeds arbitrary source to the extractor: it must not fail or
// panic, and the facts must keep their invariants (symbols in document
// order, parents first, every scope index in range).
func FuzzExtract(f *testing.F) {
	f.Add([]byte("class A(:\n  def f(self, x=\n"))
	f.Add([]byte("def f():\n\tglobal x\n\tx, *y = z = w()\n\treturn (lambda q: q.r())(1)\n"))
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		fx, err := langtest.Parse(p, string(b))
		if err != nil {
			f.Fatal(err)
		}
		for name, content := range fx.Files {
			if strings.HasSuffix(name, ".py") {
				f.Add([]byte(content))
			}
		}
	}
	ex, err := python.Language.NewExtractor()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ff, err := ex.Extract("f.py", src)
		if err != nil {
			t.Fatal(err)
		}
		n := len(ff.Symbols)
		for i, s := range ff.Symbols {
			if s.Parent >= i || s.Parent < -1 {
				t.Fatalf("symbol %d (%s) has parent %d", i, s.Qual, s.Parent)
			}
			if i > 0 && s.StartByte < ff.Symbols[i-1].StartByte {
				t.Fatalf("symbol %d (%s) out of order", i, s.Qual)
			}
		}
		for _, c := range ff.Calls {
			if c.Scope >= n || c.Scope < -1 || c.Callee == nil {
				t.Fatalf("call with scope %d of %d symbols", c.Scope, n)
			}
		}
		for _, b := range ff.Bindings {
			if b.Scope >= n || b.Scope < -1 {
				t.Fatalf("binding %s with scope %d", b.Name, b.Scope)
			}
		}
		for _, imp := range ff.Imports {
			if imp.Scope >= n || imp.Scope < -1 {
				t.Fatalf("import %s with scope %d", imp.Path, imp.Scope)
			}
		}
	})
}
