package httpserver

import (
	"path"
	"strings"
	"testing"
)

// FuzzCheckRelPath: whatever is accepted is a clean relative path with no
// way up.
func FuzzCheckRelPath(f *testing.F) {
	for _, s := range []string{"a/b.go", "../x", "a/../../b", "/etc/passwd", "a//b", "%2e%2e/x", `a\..\b`, "C:/x", "./a", "a/."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if checkRelPath(p) != nil {
			return
		}
		if path.Clean(p) != p || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.ContainsAny(p, "\\\x00") {
			t.Errorf("accepted %q", p)
		}
	})
}
