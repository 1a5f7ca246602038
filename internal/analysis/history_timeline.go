package analysis

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The history over time for the web view: commits per week, and the files
// and symbols changed by the most commits in a window.

// MaxTimelineWeeks bounds a timeline: a hundred years of weeks. A history
// longer than that (a commit dated 1970 by a broken clock) keeps its most
// recent weeks.
const MaxTimelineWeeks = 5200

// Bounds of the hotspot lists.
const (
	DefaultHotspots = 50
	MaxHotspots     = 1000
)

// TimelineWeek counts the commits authored in one week (Monday to Sunday,
// UTC), the files they changed and the symbols they changed, each counted
// once per commit.
type TimelineWeek struct {
	Week           string `json:"week"` // its Monday, YYYY-MM-DD
	Commits        int    `json:"commits"`
	FilesChanged   int    `json:"filesChanged"`
	SymbolsChanged int    `json:"symbolsChanged"`
}

// TimelineView is the weeks from the first commit's to the last's, every
// week listed (weeks without commits too), oldest first.
type TimelineView struct {
	Weeks     []TimelineWeek `json:"weeks"`
	Truncated bool           `json:"truncated"`
}

// weekOf is the Monday (UTC) of the week t is in.
func weekOf(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	back := (int(day.Weekday()) + 6) % 7 // days since Monday
	return day.AddDate(0, 0, -back)
}

// Timeline counts the history's commits by the week they were authored.
func (x *HistoryIndex) Timeline() TimelineView {
	v := TimelineView{Weeks: []TimelineWeek{}}
	if x.Empty() {
		return v
	}
	type counts struct{ commits, files, symbols int }
	byWeek := map[time.Time]*counts{}
	var first, last time.Time
	for i := range x.H.Commits {
		w := weekOf(time.Unix(x.H.Commits[i].AuthoredAt, 0))
		c := byWeek[w]
		if c == nil {
			c = &counts{}
			byWeek[w] = c
		}
		c.commits++
		c.files += len(x.FilesOf(i))
		c.symbols += len(x.SymbolsOf(i))
		if first.IsZero() || w.Before(first) {
			first = w
		}
		if w.After(last) {
			last = w
		}
	}
	if weeks := int(last.Sub(first).Hours()/(24*7)) + 1; weeks > MaxTimelineWeeks {
		first, v.Truncated = last.AddDate(0, 0, -7*(MaxTimelineWeeks-1)), true
	}
	for w := first; !w.After(last); w = w.AddDate(0, 0, 7) {
		tw := TimelineWeek{Week: w.Format("2006-01-02")}
		if c := byWeek[w]; c != nil {
			tw.Commits, tw.FilesChanged, tw.SymbolsChanged = c.commits, c.files, c.symbols
		}
		v.Weeks = append(v.Weeks, tw)
	}
	return v
}

// HotFile is a file and the commits in a window that changed it.
type HotFile struct {
	Path      string `json:"path"`
	Commits   int    `json:"commits"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
}

// HotSymbol is a symbol and the commits in a window that changed it.
type HotSymbol struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	FilePath string `json:"filePath"`
	Commits  int    `json:"commits"`
}

// HotspotsView is the files and symbols changed by the most commits.
type HotspotsView struct {
	Files   []HotFile   `json:"files"`
	Symbols []HotSymbol `json:"symbols"`
	// Truncated: more files or symbols were changed than listed.
	Truncated bool `json:"truncated"`
}

// Hotspots lists the files and the symbols changed by the most commits
// authored in w, most first (then by path or id), at most limit of each
// (DefaultHotspots when 0). A file is counted under its path at HEAD when
// it still exists (renames followed), else under the path the commit
// gave it; a symbol under the node its changes are linked to (the symbol
// at HEAD or a HistoricalSymbol), described as it is at HEAD when it is
// in g. Lines not counted (binary files) add nothing.
func (x *HistoryIndex) Hotspots(g *memgraph.Graph, w DateWindow, limit int) HotspotsView {
	if limit <= 0 {
		limit = DefaultHotspots
	}
	limit = min(limit, MaxHotspots)
	files := map[string]*HotFile{}
	symbols := map[string]*HotSymbol{}
	for i := range x.H.Commits {
		if !w.keeps(&x.H.Commits[i]) {
			continue
		}
		seenFile := map[string]bool{}
		for _, f := range x.FilesOf(i) {
			p := f.Path
			if at, ok := strings.CutPrefix(f.FileID, graph.FileID("")); ok && at != "" {
				p = at
			}
			hf := files[p]
			if hf == nil {
				hf = &HotFile{Path: p}
				files[p] = hf
			}
			if !seenFile[p] {
				seenFile[p] = true
				hf.Commits++
			}
			hf.Additions += max(f.Additions, 0)
			hf.Deletions += max(f.Deletions, 0)
		}
		seenSym := map[string]bool{}
		for _, s := range x.SymbolsOf(i) {
			if s.NodeID == "" || seenSym[s.NodeID] {
				continue
			}
			seenSym[s.NodeID] = true
			hs := symbols[s.NodeID]
			if hs == nil {
				hs = &HotSymbol{ID: s.NodeID, Name: s.Name, Kind: s.Kind.String(), FilePath: s.Path}
				if n, ok := g.Lookup(s.NodeID); ok && !g.Nodes[n].Kind.IsHistory() {
					hs.Name, hs.Kind, hs.FilePath = g.Nodes[n].Name, g.Nodes[n].Kind.String(), g.Nodes[n].FilePath
				}
				symbols[s.NodeID] = hs
			}
			hs.Commits++
		}
	}
	v := HotspotsView{Files: []HotFile{}, Symbols: []HotSymbol{}}
	for _, f := range files {
		v.Files = append(v.Files, *f)
	}
	for _, s := range symbols {
		v.Symbols = append(v.Symbols, *s)
	}
	slices.SortFunc(v.Files, func(a, b HotFile) int { return cmp.Or(cmp.Compare(b.Commits, a.Commits), cmp.Compare(a.Path, b.Path)) })
	slices.SortFunc(v.Symbols, func(a, b HotSymbol) int { return cmp.Or(cmp.Compare(b.Commits, a.Commits), cmp.Compare(a.ID, b.ID)) })
	if len(v.Files) > limit {
		v.Files, v.Truncated = v.Files[:limit], true
	}
	if len(v.Symbols) > limit {
		v.Symbols, v.Truncated = v.Symbols[:limit], true
	}
	return v
}
