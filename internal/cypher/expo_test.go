package cypher_test

import (
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
)

// TestParserStaysLinearOnNestedAlternatives feeds inputs where every
// level of nesting could be read two ways and fails late: tentative
// parses are remembered, so these take milliseconds, not 2^depth steps.
func TestParserStaysLinearOnNestedAlternatives(t *testing.T) {
	nest := func(open, mid, close string, n int) string {
		return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
	}
	for _, q := range []string{
		"RETURN " + nest("[x IN ", "1", ",]", 150),
		"RETURN " + nest("({k: ", "1", "})<-1", 150),
		"RETURN " + nest("[(a {k: ", "1", "})-->(b) | ]", 150),
		"MATCH " + nest("(a {k: [(b {k: ", "1", "})-->() | 1]})-[", 60),
		"RETURN " + nest("[p = (a {k: ", "1", "})--() WHERE ]", 150),
		"RETURN " + nest("(", "1", ")", 150),
		"RETURN " + nest("(", "1", ")", 5000),
	} {
		start := time.Now()
		_, err := cypher.Parse(q)
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("parsing %.40s... took %s (%v)", q, d, err != nil)
		}
	}
}
