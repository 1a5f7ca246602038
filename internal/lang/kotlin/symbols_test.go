package kotlin_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/kotlin"
	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

// TestExtractSymbolsMatchesExtract reads the Kotlin files of the fixtures
// with ExtractSymbols and with the full extraction, and requires the same
// symbols with what the history reads of them.
func TestExtractSymbolsMatchesExtract(t *testing.T) {
	langtest.CheckSymbolsOnlyOnFixtures(t, kotlin.Language, 8)
}
