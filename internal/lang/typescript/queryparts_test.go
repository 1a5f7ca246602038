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
	for _, c := range []struct {
		lang *ts.Language
		defs string
	}{
		{ts.NewLanguage(tsts.LanguageTypescript()), "ts_defs.scm"},
		{ts.NewLanguage(tsjs.Language()), "js_defs.scm"},
	} {
		parts := []string{mustRead(c.defs), mustRead("modules.scm"), mustRead("uses.scm")}
		q, bounds := lang.NewQueryParts(c.lang, c.defs, parts...)
		q.Close()
		want := 0
		for k, src := range parts[:len(parts)-1] {
			one := lang.MustQuery(c.lang, c.defs, src)
			want += one.PatternCount()
			one.Close()
			if bounds[k] != want {
				t.Errorf("%s: part %d ends at pattern %d, want %d", c.defs, k, bounds[k], want)
			}
		}
	}
}
