package ingest

import "testing"

func TestConfigNames(t *testing.T) {
	var c configNames
	for _, n := range []string{"go.mod", "package.json", "tsconfig*.json"} {
		c.add(n)
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"go.mod", true},
		{"a/b/go.mod", true},
		{"go.sum", false},
		{"packages/x/package.json", true},
		{"package-lock.json", false},
		{"tsconfig.json", true},
		{"configs/tsconfig.base.json", true},
		{"tsconfig.json.bak", false},
		{"jsconfig.json", false},
	} {
		if got := c.match(tc.path); got != tc.want {
			t.Errorf("match(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
