package c_test

import (
	"os"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.RunDir(t, "testdata") }

// TestMacrosAreCounted indexes the macros fixture and requires the
// invocations of macros the file defines or writes in capitals counted as
// macros, apart from the call sites.
func TestMacrosAreCounted(t *testing.T) {
	b, err := os.ReadFile("testdata/macros.txt")
	if err != nil {
		t.Fatal(err)
	}
	fx, err := langtest.Parse("macros", string(b))
	if err != nil {
		t.Fatal(err)
	}
	res := langtest.Index(t, fx)
	// twice, LOG and CHECKED in run.
	if got := res.Stats.Resolve.Macros; got != 3 {
		t.Errorf("%d macro invocations counted, want 3", got)
	}
	// min (a macro of the header, known at resolution only) and compute
	// three times in run.
	if got := res.Stats.Resolve.Calls; got != 4 {
		t.Errorf("%d call sites, want 4", got)
	}
}
