package cli

import (
	"os"
	"strings"
	"testing"
)

// TestGoBuildID reads the build id of the test binary itself: go test
// builds an ELF file with one on Linux.
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	id := goBuildID(exe)
	if id == "" || strings.ContainsAny(id, "\x00\n") || len(id) < 20 {
		t.Fatalf("goBuildID(%s) = %q", exe, id)
	}
	if goBuildID("/nonexistent") != "" {
		t.Error("a missing file has a build id")
	}
}
