package cli

import (
	"bytes"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/ingest"
)

func TestRateAndLeft(t *testing.T) {
	cases := []struct {
		e    ingest.Event
		took time.Duration
		want string
	}{
		{ingest.Event{Phase: "parse", Done: 100, Total: 1000}, 500 * time.Millisecond, ""},
		{ingest.Event{Phase: "parse", Done: 0, Total: 1000}, 2 * time.Second, ""},
		{ingest.Event{Phase: "parse", Done: 250, Total: 1000}, 2 * time.Second, "  125 files/s, 6s left"},
		{ingest.Event{Phase: "history", Done: 100, Total: 5000}, 2 * time.Second, "  50 commits/s, 1m38s left"},
		{ingest.Event{Phase: "parse", Done: 1000, Total: 1000}, 4 * time.Second, "  250 files/s, took 4s"},
	}
	for _, c := range cases {
		if got := rateAndLeft(c.e, c.took); got != c.want {
			t.Errorf("%+v after %v: %q, want %q", c.e, c.took, got, c.want)
		}
	}
}

// TestProgressLinesAreWhole: without a terminal, one line per phase, each
// named (no bare "..."), counted phases with their count.
func TestProgressLinesAreWhole(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, false)
	for _, e := range []ingest.Event{{Phase: "walk"}, {Phase: "parse", Done: 1, Total: 3}, {Phase: "parse", Done: 3, Total: 3},
		{Phase: "resolve"}, {Phase: "enrich"}, {Phase: "history", Done: 0, Total: 7}, {Phase: "history-symbols", Done: 7, Total: 7}, {Phase: "store"}} {
		p.event(e)
	}
	p.done()
	want := "Listing files...\nParsing 3 files...\nResolving imports, calls and types...\nFinding communities and execution flows...\n" +
		"Reading the git history 7 commits...\nMapping commits onto symbols 7 commits...\nWriting the index...\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
