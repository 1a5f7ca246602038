package golang

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

func TestDefaultBuild(t *testing.T) {
	cases := []struct {
		path, constraint string
		want             bool
	}{
		{"a.go", "", true},
		{"a_linux.go", "", true},
		{"a_windows.go", "", false},
		{"a_amd64.go", "", true},
		{"a_arm64.go", "", false},
		{"a_linux_amd64.go", "", true},
		{"a_darwin_amd64.go", "", false},
		{"a_linux_test.go", "", true},
		{"a_plan9_test.go", "", false},
		{"gen.go", "ignore", false},
		{"a.go", "linux && amd64", true},
		{"a.go", "!windows && (cgo || purego)", true},
		{"a.go", "goexperiment.jsonv2", false},
		{"a.go", "!goexperiment.jsonv2", true},
		{"a.go", "go1.21 && unix", true},
		{"a.go", "linux &&", false}, // malformed: not built
	}
	for _, c := range cases {
		if got := defaultBuild(&lang.FileFacts{Path: "pkg/" + c.path, Constraint: c.constraint}); got != c.want {
			t.Errorf("defaultBuild(%s, %q) = %v, want %v", c.path, c.constraint, got, c.want)
		}
	}
	if got := buildConstraint([]byte("// Copyright\n\n//go:build linux && !cgo\n\npackage x\n")); got != "linux && !cgo" {
		t.Errorf("buildConstraint = %q", got)
	}
	if got := buildConstraint([]byte("package x\n//go:build linux\n")); got != "" {
		t.Errorf("a //go:build after the package clause counts: %q", got)
	}
}

func TestParseType(t *testing.T) {
	cases := []struct {
		in   string
		path []string
		elem uint8
	}{
		{"*pkg.T", []string{"pkg", "T"}, 0},
		{"[]*T", []string{"T"}, 1},
		{"[][]T", []string{"T"}, 2},
		{"map[string][]*T", []string{"T"}, 2},
		{"<-chan RPC", []string{"RPC"}, 1},
		{"...string", []string{"string"}, 1},
		{"Stack[int]", []string{"Stack"}, 0},
		{"func() error", nil, 0},
		{"struct{ x int }", nil, 0},
		{"interface{ M() }", nil, 0},
	}
	for _, c := range cases {
		got := rules{}.ParseType(c.in)
		if len(got.Path) != len(c.path) || got.Elem != c.elem {
			t.Errorf("ParseType(%q) = %+v", c.in, got)
			continue
		}
		for i := range c.path {
			if got.Path[i] != c.path[i] {
				t.Errorf("ParseType(%q) = %+v", c.in, got)
			}
		}
	}
}
