package python

import (
	"strings"
	"testing"
)

func TestTokenizeNames(t *testing.T) {
	src := `x = 1  # y is a comment
s = f"{z} and 'w'" + r'\'' + """v
still v""" + b"u"
def f(a=LIMIT, *, k=2):
    return g(key=LIMIT, other=\
      q) == 3
t += 1; é = 2
`
	var names []string
	for _, tok := range tokenize([]byte(src)) {
		if tok.kind == tokName {
			names = append(names, tok.text)
		}
	}
	got := strings.Join(names, " ")
	want := "x s def f a LIMIT k return g key LIMIT other q t é"
	if got != want {
		t.Errorf("names:\n got %s\nwant %s", got, want)
	}
	toks := tokenize([]byte("a += 1\nb == c\n(d = e)\n"))
	var kinds []tokKind
	for _, tok := range toks {
		kinds = append(kinds, tok.kind)
	}
	if kinds[1] != tokAugAssign || kinds[5] != tokOp {
		t.Errorf("operators: %v", kinds)
	}
	for _, tok := range toks {
		if tok.kind == tokName && tok.text == "d" && tok.depth != 1 {
			t.Errorf("depth of d = %d", tok.depth)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	f.Add([]byte("x = f'{a!r:>{w}}' + '''\\'''\n"))
	f.Add([]byte("\xff\xfe(]]\\"))
	f.Fuzz(func(t *testing.T, src []byte) {
		last := -1
		for _, tok := range tokenize(src) {
			if tok.off <= last && tok.kind != tokNewline || tok.off >= len(src) {
				t.Fatalf("token at %d after %d (len %d)", tok.off, last, len(src))
			}
			last = tok.off
		}
	})
}
