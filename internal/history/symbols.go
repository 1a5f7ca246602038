package history

import (
	"container/list"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// symbolTable is what the history needs of one version of a file: its
// symbols (kind, name, key, lines) and, for each line, the innermost
// symbol that holds it, as runs of lines; with the lines of its syntax
// units when the table can be the base of a derived one (derive.go).
type symbolTable struct {
	syms  []fileSymbol // document order, parents first; hidden ones too (ids count them)
	runs  []ownerRun   // ascending by start; a run lasts until the next one starts
	lines int32
	units []unit // the units a change widens to (derive.go), ascending; nil when unknown
}

// fileSymbol is one symbol of a version of a file.
type fileSymbol struct {
	kind       graph.NodeKind
	name, qual string
	suffix     string // the overload suffix its id takes when it shares its name
	key        string // qual, with the suffix (and counter) where the id needs them
	start, end int32
	hidden     bool // not a node of the graph: not attributed
}

// lineRange is a range of lines, inclusive.
type lineRange struct{ start, end int32 }

// newSymbolTable builds the table of a file's facts; units are its syntax
// units (nil when unknown).
func newSymbolTable(f *lang.FileFacts, units []unit) *symbolTable {
	syms := make([]fileSymbol, 0, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		syms = append(syms, fileSymbol{kind: s.Kind, name: s.Name, qual: s.Qual, suffix: lang.OverloadSuffix(s),
			start: int32(s.StartLine), end: int32(s.EndLine), hidden: s.Hidden || s.StartLine <= 0})
	}
	return finishTable(syms, int32(f.Lines), units)
}

// finishTable gives the symbols their keys, as the graph's ids have them,
// and paints the lines. Symbols come parents first, so painting each one's
// lines over its parent's leaves every line to the innermost symbol.
func finishTable(syms []fileSymbol, lines int32, units []unit) *symbolTable {
	t := &symbolTable{syms: syms, lines: lines, units: units}
	keys := lang.SymbolKeys(len(syms), func(i int) (graph.NodeKind, string) { return syms[i].kind, syms[i].qual },
		func(i int) string { return syms[i].suffix })
	for i := range syms {
		syms[i].key = keys[i]
		if !syms[i].hidden {
			lines = max(lines, syms[i].end)
		}
	}
	owner := make([]int32, lines+2)
	for i := range owner {
		owner[i] = -1
	}
	painted := false
	for i, s := range syms {
		if s.hidden {
			continue
		}
		for l := max(s.start, 1); l <= s.end && l <= lines; l++ {
			owner[l] = int32(i)
			painted = true
		}
	}
	if !painted {
		return t
	}
	prev := int32(-2)
	for l := int32(1); l < int32(len(owner)); l++ {
		if owner[l] != prev {
			t.runs = append(t.runs, ownerRun{start: l, owner: owner[l]})
			prev = owner[l]
		}
	}
	return t
}

// ownerRun says that lines from start on belong to symbol owner (-1: to
// no symbol).
type ownerRun struct {
	start int32
	owner int32
}

// countLines adds, for each symbol, how many of the lines from..from+n-1
// it owns.
func (t *symbolTable) countLines(from, n int32, counts map[int32]int) {
	if n <= 0 || len(t.runs) == 0 {
		return
	}
	to := from + n - 1
	// The run holding from: the last one starting at or before it.
	lo, hi := 0, len(t.runs)
	for lo < hi {
		m := (lo + hi) / 2
		if t.runs[m].start <= from {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := max(lo-1, 0)
	for ; i < len(t.runs) && t.runs[i].start <= to; i++ {
		r := t.runs[i]
		end := to
		if i+1 < len(t.runs) {
			end = min(end, t.runs[i+1].start-1)
		}
		start := max(from, r.start)
		if r.owner >= 0 && end >= start {
			counts[r.owner] += int(end - start + 1)
		}
	}
}

// parseEntry is the parse of one blob, shared by every file change that
// needs it: the first job that needs the blob parses it and closes done;
// the others wait on done.
type parseEntry struct {
	done   chan struct{}
	table  *symbolTable
	failed error // the blob could not be read or parsed
	key    string
	blob   string
	lang   string
	elem   *list.Element
}

// parseCache remembers the parses of recent blobs, keyed by blob and
// language: a file's version after one commit is its version before the
// next commit that changes it, so each version is parsed once while it
// is in the cache. Besides the most recent blobs, it keeps for each path
// the version before the newest commit read so far that changed it: the
// history is read newest first, so that is the version after the next
// commit that changes the path, however long ago (on prometheus, 10,000
// commits, this took the whole-file reads from 5,500 to about 2,500). It is
// used by one goroutine (the feeder); the entries it hands out are filled
// by the workers.
type parseCache struct {
	max     int
	entries map[string]*parseEntry
	order   *list.List // front: most recent
	byPath  map[string]*parseEntry
	hits    int
	misses  int
}

func newParseCache(max int) *parseCache {
	return &parseCache{max: max, entries: map[string]*parseEntry{}, order: list.New(), byPath: map[string]*parseEntry{}}
}

// get returns the entry for a blob of a path in a language and whether it
// is new (the caller must then have it parsed).
func (c *parseCache) get(blob, path string, l lang.Language) (*parseEntry, bool) {
	key := blob + ":" + l.Name()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e.elem)
		c.hits++
		return e, false
	}
	if e, ok := c.byPath[path]; ok && e.key == key {
		c.hits++
		e.elem = c.order.PushFront(e)
		c.entries[key] = e
		c.evict()
		return e, false
	}
	c.misses++
	e := &parseEntry{done: make(chan struct{}), key: key, blob: blob, lang: l.Name()}
	e.elem = c.order.PushFront(e)
	c.entries[key] = e
	c.evict()
	return e, true
}

// remember keeps e as the version of path before the newest commit read
// that changed it.
func (c *parseCache) remember(path string, e *parseEntry) { c.byPath[path] = e }

// latest is the version remember last kept for path, or nil.
func (c *parseCache) latest(path string) *parseEntry { return c.byPath[path] }

func (c *parseCache) evict() {
	for c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(*parseEntry)
		delete(c.entries, old.key)
	}
}
