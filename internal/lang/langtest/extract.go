package langtest

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Extract reads the facts of one file of language l, failing the test on
// an error.
func Extract(t testing.TB, l lang.Language, path, src string) *lang.FileFacts {
	t.Helper()
	ex := NewExtractor(t, l)
	facts, err := ex.Extract(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return facts
}

// NewExtractor makes an extractor of language l, closed when the test
// ends.
func NewExtractor(t testing.TB, l lang.Language) lang.Extractor {
	t.Helper()
	ex, err := l.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ex.Close)
	return ex
}

// NewSymbolsExtractor makes an extractor of language l that reads
// symbols alone (SymbolsExtractor), closed when the test ends.
func NewSymbolsExtractor(t testing.TB, l lang.Language) SymbolsExtractor {
	t.Helper()
	e, ok := NewExtractor(t, l).(SymbolsExtractor)
	if !ok {
		t.Fatalf("the %s extractor does not read symbols alone", l.Name())
	}
	return e
}
