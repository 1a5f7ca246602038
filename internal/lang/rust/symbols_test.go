package rust_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/rust"
)

// TestExtractSymbolsMatchesExtract reads the Rust files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, rust.Language, 10)
}
