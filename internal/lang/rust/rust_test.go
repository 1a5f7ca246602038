package rust_test

import (
	"os"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.RunDir(t, "testdata") }

// TestMacrosAreCounted indexes the workspace fixture, whose binary invokes
// three macros (one named after a function of the repository), and
// requires them counted as macros, apart from the call sites.
func TestMacrosAreCounted(t *testing.T) {
	b, err := os.ReadFile("testdata/workspace.txt")
	if err != nil {
		t.Fatal(err)
	}
	fx, err := langtest.Parse("workspace", string(b))
	if err != nil {
		t.Fatal(err)
	}
	res := langtest.Index(t, fx)
	// println! in the store, log! and vec! in the binary.
	if got := res.Stats.Resolve.Macros; got != 3 {
		t.Errorf("%d macro invocations counted, want 3", got)
	}
	// store_core::open, db.save, find, r.save in main; log, Record::new,
	// r.save in find; Record::new in open; to_string in new; crate::log
	// in save.
	if got := res.Stats.Resolve.Calls; got != 10 {
		t.Errorf("%d call sites, want 10", got)
	}
}
