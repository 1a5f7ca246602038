package analysis

import (
	"reflect"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
)

// TestTimelineWeeks: weeks run Monday to Sunday in UTC, every week from
// the first to the last is listed, and files and symbols count per commit.
func TestTimelineWeeks(t *testing.T) {
	at := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.Unix()
	}
	h := &graph.History{
		Commits: []graph.Commit{ // newest first
			{Hash: "c4", AuthoredAt: at("2024-01-22T00:30:00+01:00")}, // Sunday 23:30 UTC: the week of the 15th
			{Hash: "c3", AuthoredAt: at("2024-01-15T00:00:00Z")},      // Monday
			{Hash: "c2", AuthoredAt: at("2024-01-07T23:59:59Z")},      // Sunday: the week of the 1st
			{Hash: "c1", AuthoredAt: at("2024-01-03T12:00:00Z")},
		},
		Files: []graph.FileChange{
			{Commit: "c4", Path: "a.go"}, {Commit: "c4", Path: "b.go"},
			{Commit: "c2", Path: "a.go"},
			{Commit: "c1", Path: "a.go"},
		},
		Symbols: []graph.SymbolChange{
			{Commit: "c3", Path: "a.go", NodeID: "Function:a.go:F"},
			{Commit: "c1", Path: "a.go", NodeID: "Function:a.go:F"}, {Commit: "c1", Path: "a.go", NodeID: "Function:a.go:G"},
		},
	}
	got := NewHistoryIndex(h, nil).Timeline()
	want := TimelineView{Weeks: []TimelineWeek{
		{Week: "2024-01-01", Commits: 2, FilesChanged: 2, SymbolsChanged: 2},
		{Week: "2024-01-08"},
		{Week: "2024-01-15", Commits: 2, FilesChanged: 2, SymbolsChanged: 1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got := NewHistoryIndex(nil, nil).Timeline(); len(got.Weeks) != 0 || got.Weeks == nil {
		t.Errorf("empty history: %+v", got)
	}
}
