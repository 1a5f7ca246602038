package typescript

import (
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"gitnexus.dev/gitnexus/internal/lang"
)

// TestQueryPartsBounds: lang.NewQueryParts tells the parts of a joined
// query apart by where their patterns start; the bounds must be the
// pattern counts of the parts compiled one by one.
func TestQueryPartsBounds(t *testing.T) {
	for i, c := range []struct {
		lang *ts.Language
		defs string
	}{
		{ts.NewLanguage(tsts.LanguageTypescript()), childParams},
		{ts.NewLanguage(tsjs.Language()), "(class) @class\n(function_declaration) @function\n"},
	} {
		parts := []string{c.defs, childModules, childUses}
		q, bounds := lang.NewQueryParts(c.lang, "reference", parts...)
		q.Close()
		want := 0
		for k, src := range parts[:len(parts)-1] {
			one := lang.MustQuery(c.lang, "reference", src)
			want += one.PatternCount()
			one.Close()
			if bounds[k] != want {
				t.Errorf("grammar %d: part %d ends at pattern %d, want %d", i, k, bounds[k], want)
			}
		}
	}
}
