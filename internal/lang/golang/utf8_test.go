package golang_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"gitnexus.dev/gitnexus/internal/lang/golang"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestLongSignaturesStayUTF8: a signature cut to its cap ends on a
// character, not in the middle of one (seen in the Go standard library's
// tests: a var of Arabic text, a table of strings).
func TestLongSignaturesStayUTF8(t *testing.T) {
	ex := langtest.NewExtractor(t, golang.Language)
	for shift := 0; shift < 4; shift++ {
		src := "package p\n\nvar V = `" + strings.Repeat("x", shift) + strings.Repeat("ب", 400) + "`\n\n" +
			"func F(s string) string { return \"" + strings.Repeat("x", shift) + strings.Repeat("日本", 200) + "\" }\n"
		facts, err := ex.Extract("p.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(facts.Symbols) < 2 {
			t.Fatalf("%d symbols", len(facts.Symbols))
		}
		for _, s := range facts.Symbols {
			for what, v := range map[string]string{"signature": s.Signature, "content": s.Content, "doc": s.Doc} {
				if !utf8.ValidString(v) {
					t.Errorf("shift %d: %s's %s is not UTF-8: %q", shift, s.Name, what, v[max(0, len(v)-12):])
				}
			}
		}
	}
}
