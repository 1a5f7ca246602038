package php_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/php"
)

// TestExtractSymbolsMatchesExtract reads the PHP files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, php.Language, 10)
}
