package cpp_test

import (
	"os"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.RunDir(t, "testdata") }

// TestMacrosAreCounted indexes the mixed fixture and requires the
// invocations of CHECK (a macro the header defines) and ASSERT_TRUE (an
// upper-case name) counted as macros, apart from the call sites.
func TestMacrosAreCounted(t *testing.T) {
	b, err := os.ReadFile("testdata/mixed.txt")
	if err != nil {
		t.Fatal(err)
	}
	fx, err := langtest.Parse("mixed", string(b))
	if err != nil {
		t.Fatal(err)
	}
	res := langtest.Index(t, fx)
	if got := res.Stats.Resolve.Macros; got != 2 {
		t.Errorf("%d macro invocations counted, want 2", got)
	}
	if got := res.Stats.FilesByLanguage["cpp"]; got != 2 {
		t.Errorf("%d C++ files, want 2 (log.h by its content, log.cpp)", got)
	}
	if got := res.Stats.FilesByLanguage["c"]; got != 2 {
		t.Errorf("%d C files, want 2 (clib.h, clib.c)", got)
	}
}
