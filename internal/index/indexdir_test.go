package index

import (
	"os"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/store"
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

func TestIndexedSize(t *testing.T) {
	for _, c := range []struct {
		stats        string
		nodes, edges int
	}{
		{``, -1, -1},
		{`not json`, -1, -1},
		{`{"files": 3}`, -1, -1},
		{`{"nodes": 18578}`, 18578, -1},
		{`{"nodes": 18578, "edges": 66398}`, 18578, 66398},
	} {
		if n, e, _ := indexedSize(store.Meta{Stats: []byte(c.stats)}); n != c.nodes || e != c.edges {
			t.Errorf("stats %s: %d nodes, %d edges; want %d, %d", c.stats, n, e, c.nodes, c.edges)
		}
	}
	_, _, byType := indexedSize(store.Meta{Stats: []byte(`{"nodes": 3, "edges": 5, "edgesByType": {"CALLS": 4, "DEFINES": 1}}`)})
	if len(byType) != 2 || byType["CALLS"] != 4 || byType["DEFINES"] != 1 {
		t.Errorf("edges by type: %v, want CALLS 4 and DEFINES 1", byType)
	}
}

func TestParseMemTotal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"MemTotal:       24577000 kB\nMemFree:         1000 kB\n", 24577000 * 1024},
		{"MemFree: 1 kB\nMemTotal: 2048 kB", 2048 * 1024},
		{"MemTotal: 2048 MB\n", 0},
		{"MemTotal: lots kB\n", 0},
		{"", 0},
	} {
		if got := parseMemTotal(c.in); got != c.want {
			t.Errorf("%q: %d, want %d", c.in, got, c.want)
		}
	}
}

func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		stats     string
		reextract bool // --force, or no extraction cache of the index
		want      int
	}{
		{``, false, 50}, // no index
		{`{"nodes": 18578}`, false, 200},
		{`{"nodes": 18578}`, true, 50},
		{`{"nodes": 242757}`, false, 400},
		{`{"nodes": 242757}`, true, 50},
		{`{"files": 3}`, false, 50},
		{`not json`, false, 50},
	} {
		nodes, _, _ := indexedSize(store.Meta{Stats: []byte(c.stats)})
		if got := gcPercent(nodes, c.reextract); got != c.want {
			t.Errorf("stats %s, reextract %v: %d, want %d", c.stats, c.reextract, got, c.want)
		}
	}
}
