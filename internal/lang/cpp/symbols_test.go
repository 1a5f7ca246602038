package cpp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/cpp"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestExtractSymbolsMatchesExtract reads the C++ files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, cpp.Language, 8)
}
