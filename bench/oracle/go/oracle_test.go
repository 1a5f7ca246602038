package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/fixture.jsonl")

// TestFixture runs the oracle on a small module that covers each rule:
// package-level initializers and func literals owned by the File, user
// init functions, deferred and go calls, promoted methods, method
// expressions, generic functions and types, calls through interfaces and
// type parameters (static to the interface method, dispatch to every
// repository implementation, test files included), and a second package
// with an external test package. The expected edges were checked by hand.
func TestFixture(t *testing.T) {
	out := filepath.Join(t.TempDir(), "edges.jsonl")
	if err := run("testdata/fixture", out, "", false, true); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/fixture.jsonl", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/fixture.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("edges differ from testdata/fixture.jsonl:\n%s", got)
	}
}
