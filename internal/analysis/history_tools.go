package analysis

import (
	"slices"
	"sort"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// History tool bounds.
const (
	DefaultHistoryLimit = 20
	MaxHistoryLimit     = 100
)

// CommitInfo describes a commit in history answers. Dates are author
// dates in the author's zone, RFC 3339.
type CommitInfo struct {
	Hash      string `json:"hash"`
	ShortHash string `json:"shortHash"`
	Date      string `json:"date"`
	Author    string `json:"author"`
	Email     string `json:"email,omitempty"`
	Subject   string `json:"subject"`
}

// commitInfo describes commit c.
func commitInfo(c *graph.Commit) CommitInfo {
	return CommitInfo{Hash: c.Hash, ShortHash: c.ShortHash(), Date: authorDate(c), Author: c.AuthorName,
		Email: c.AuthorEmail, Subject: c.Subject}
}

func authorDate(c *graph.Commit) string {
	return time.Unix(c.AuthoredAt, 0).In(time.FixedZone("", c.AuthorZone*60)).Format(time.RFC3339)
}

// DateWindow keeps commits authored in [Since, Until); zero bounds are open.
type DateWindow struct{ Since, Until time.Time }

func (w DateWindow) keeps(c *graph.Commit) bool {
	t := time.Unix(c.AuthoredAt, 0)
	return (w.Since.IsZero() || !t.Before(w.Since)) && (w.Until.IsZero() || t.Before(w.Until))
}

// ParseDate reads a date bound: YYYY-MM-DD (midnight UTC) or RFC 3339.
// An until given as a day includes that day.
func ParseDate(param, s string, until bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, inputErrorf("%s: %q is not a date (YYYY-MM-DD or RFC 3339)", param, s)
	}
	if until {
		t = t.AddDate(0, 0, 1)
	}
	return t, nil
}

// Page is the paging of a list: Total items matched, the Offset and Limit
// asked, and NextOffset when more remain.
type Page struct {
	Total      int  `json:"total"`
	Offset     int  `json:"offset"`
	Limit      int  `json:"limit"`
	Truncated  bool `json:"truncated"`
	NextOffset int  `json:"nextOffset,omitempty"`
}

func pageOf(total, offset, limit int) (Page, int, int) {
	p := Page{Total: total, Offset: offset, Limit: limit}
	lo := min(offset, total)
	hi := min(lo+limit, total)
	if hi < total {
		p.Truncated, p.NextOffset = true, hi
	}
	return p, lo, hi
}

// FileCommit is one commit in a file's history.
type FileCommit struct {
	CommitInfo
	ChangeType string `json:"changeType"` // A, M, D, R, T
	Path       string `json:"path"`       // the file's path after the commit
	OldPath    string `json:"oldPath,omitempty"`
	// Additions and Deletions are -1 when not counted: a binary file, or a
	// commit that was not diffed (over --max-commit-files, or pending).
	Additions int  `json:"additions"`
	Deletions int  `json:"deletions"`
	Binary    bool `json:"binary,omitempty"`
	// RenamedAway: the change renamed a file away from one of the file's
	// names (to Path), at a time the name was not the file's.
	RenamedAway bool `json:"renamedAway,omitempty"`
}

// FileHistoryResult answers get_file_history.
type FileHistoryResult struct {
	Status string `json:"status"`
	Path   string `json:"path"`
	// Names are every path the file had in the commits listed, newest
	// first.
	Names   []string     `json:"names"`
	Commits []FileCommit `json:"commits"`
	Page
}

// FileHistory lists the commits that changed path (following its renames
// when it is a file at HEAD), newest first, in the window, paged.
func FileHistory(x *HistoryIndex, path string, w DateWindow, offset, limit int) FileHistoryResult {
	res := FileHistoryResult{Status: "found", Path: path, Names: []string{}, Commits: []FileCommit{}}
	var kept []int32
	changes, names := x.FileChangesNamed(path)
	for _, i := range changes {
		if w.keeps(&x.H.Commits[x.commit[x.H.Files[i].Commit]]) {
			kept = append(kept, i)
		}
	}
	if len(kept) > 0 {
		res.Names = names
	}
	page, lo, hi := pageOf(len(kept), offset, limit)
	res.Page = page
	for _, i := range kept[lo:hi] {
		f := &x.H.Files[i]
		fc := FileCommit{CommitInfo: commitInfo(&x.H.Commits[x.commit[f.Commit]]),
			ChangeType: string(f.Status), Path: f.Path, OldPath: f.OldPath, Additions: f.Additions, Deletions: f.Deletions,
			Binary: f.Binary}
		// A change that renamed another file away from one of the file's
		// names (before the file had it, or after).
		fc.RenamedAway = f.OldPath != "" && f.OldPath != f.Path && !slices.Contains(names, f.Path)
		res.Commits = append(res.Commits, fc)
	}
	return res
}

// SymbolCommit is one commit in a symbol's history.
type SymbolCommit struct {
	CommitInfo
	Change    string `json:"change"` // added, modified, deleted
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	// Path and lines of the symbol in that commit (before it, for a
	// deletion).
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Source    string `json:"source,omitempty"`
	// SourceRev is the revision the source was read at (the commit, or
	// its first parent for a deletion).
	SourceRev string `json:"sourceRev,omitempty"`
	// SourceMissing: the source was asked for but git has no such file at
	// that revision (a shallow or partial clone, or a root commit's
	// deletion).
	SourceMissing bool `json:"sourceMissing,omitempty"`
	// MergedFrom, for a merge (which a first-parent history diffs against
	// its first parent), lists the commits of the merged side that made
	// the change, newest first (AttributeMerges).
	MergedFrom []CommitInfo `json:"mergedFrom,omitempty"`
}

// SymbolHistoryResult answers get_symbol_history.
type SymbolHistoryResult struct {
	Status string     `json:"status"`
	Symbol SymbolInfo `json:"symbol"`
	// AtHead is false for a symbol that no longer exists; DeletedIn is
	// then the commit that deleted it, when an indexed commit did.
	AtHead    bool           `json:"atHead"`
	DeletedIn string         `json:"deletedIn,omitempty"`
	Commits   []SymbolCommit `json:"commits"`
	Page
}

// SymbolHistory lists the commits that changed node n, newest first,
// paged.
func SymbolHistory(g *memgraph.Graph, x *HistoryIndex, n memgraph.NodeID, offset, limit int) SymbolHistoryResult {
	nd := &g.Nodes[n]
	res := SymbolHistoryResult{Status: "found", Symbol: Info(g, n), AtHead: nd.Kind != graph.KindHistoricalSymbol, Commits: []SymbolCommit{}}
	if r, ok := x.Removed(nd.ID); ok {
		res.Symbol.Kind = r.Kind.String()
		res.DeletedIn = r.DeletedIn
	}
	all := x.SymbolChanges(nd.ID)
	page, lo, hi := pageOf(len(all), offset, limit)
	res.Page = page
	for _, i := range all[lo:hi] {
		s := &x.H.Symbols[i]
		c := &x.H.Commits[x.commit[s.Commit]]
		sc := SymbolCommit{CommitInfo: commitInfo(c), Change: string(s.Change), Additions: s.Additions,
			Deletions: s.Deletions, Path: s.Path, StartLine: s.StartLine, EndLine: s.EndLine}
		res.Commits = append(res.Commits, sc)
	}
	return res
}

// SourceRev is the revision whose tree holds the symbol as a change saw it:
// the commit itself, or for a deletion the commit's first parent ("" for a
// root commit).
func (x *HistoryIndex) SourceRev(hash, change string) string {
	if change != string(graph.ChangeDeleted) {
		return hash
	}
	i, ok := x.commit[hash]
	if !ok || len(x.H.Commits[i].Parents) == 0 {
		return ""
	}
	return x.H.Commits[i].Parents[0]
}

// HistorySymbol is a symbol changed in a window of commits.
type HistorySymbol struct {
	UID       string   `json:"uid"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	AtHead    bool     `json:"atHead"`
	Changes   []string `json:"changes"` // the distinct change types, newest first
	Additions int      `json:"additions"`
	Deletions int      `json:"deletions"`
	Commits   []string `json:"commits"` // short hashes, newest first
}

// HistoryFile groups a window's changes by file.
type HistoryFile struct {
	Path    string          `json:"path"`
	Commits []string        `json:"commits"`
	Symbols []HistorySymbol `json:"symbols"`
	// SymbolsTruncated: more symbols changed than listed.
	SymbolsTruncated bool `json:"symbolsTruncated,omitempty"`
}

// RecentChangesResult answers get_recent_changes.
type RecentChangesResult struct {
	Status  string       `json:"status"`
	Window  string       `json:"window"`
	Commits []CommitInfo `json:"commits"`
	// MoreCommits counts commits in the window past the limit.
	MoreCommits int           `json:"moreCommits"`
	Files       []HistoryFile `json:"files"`
	// TotalFiles and TotalSymbols count what the commits changed; Files
	// lists at most MaxHistoryFiles of the files, those with the most
	// changed symbols (then commits) first, in path order.
	TotalFiles   int `json:"totalFiles"`
	TotalSymbols int `json:"totalSymbols"`
	// NotIndexed counts commits git lists for the range or branch that
	// the index does not hold; SymbolsSkipped lists commits whose symbols
	// were not mapped (too many files, missing objects).
	NotIndexed     int      `json:"notIndexed"`
	SymbolsSkipped []string `json:"symbolsSkipped"`
}

// MaxSymbolsPerFile bounds the symbols a file lists in recent changes.
const MaxSymbolsPerFile = 50

// MaxHistoryFiles bounds the files recent changes and a commit's impact
// list, and MaxCommitSymbols the symbols a commit's impact lists.
const (
	MaxHistoryFiles  = 100
	MaxCommitSymbols = 100
)

// RecentChanges groups by file the symbols changed by the commits chosen:
// the listed hashes when only is not nil (in history order), else every
// indexed commit, kept by the window, newest first, at most limit.
func RecentChanges(g *memgraph.Graph, x *HistoryIndex, only map[string]bool, w DateWindow, limit int, window string) RecentChangesResult {
	res := RecentChangesResult{Status: "found", Window: window, Commits: []CommitInfo{}, Files: []HistoryFile{}, SymbolsSkipped: []string{}}
	var chosen []int
	for i := range x.H.Commits {
		c := &x.H.Commits[i]
		if only != nil && !only[c.Hash] {
			continue
		}
		if !w.keeps(c) {
			continue
		}
		if len(chosen) == limit {
			res.MoreCommits++
			continue
		}
		chosen = append(chosen, i)
	}
	if only != nil {
		res.NotIndexed = len(only)
		for h := range only {
			if _, ok := x.commit[h]; ok {
				res.NotIndexed--
			}
		}
	}
	type fileAcc struct {
		commits []string
		symbols map[string]*HistorySymbol
		order   []string
	}
	files := map[string]*fileAcc{}
	var fileOrder []string
	file := func(p string) *fileAcc {
		f := files[p]
		if f == nil {
			f = &fileAcc{symbols: map[string]*HistorySymbol{}}
			files[p] = f
			fileOrder = append(fileOrder, p)
		}
		return f
	}
	headPath := func(fileID, p string) string {
		if strings.HasPrefix(fileID, "File:") {
			return strings.TrimPrefix(fileID, "File:")
		}
		return p
	}
	for _, i := range chosen {
		c := &x.H.Commits[i]
		res.Commits = append(res.Commits, commitInfo(c))
		if c.SymbolsSkip != "" {
			res.SymbolsSkipped = append(res.SymbolsSkipped, c.ShortHash())
		}
		short := c.ShortHash()
		for _, f := range x.FilesOf(i) {
			acc := file(headPath(f.FileID, f.Path))
			acc.commits = appendOnce(acc.commits, short)
		}
		for _, s := range x.SymbolsOf(i) {
			p := s.Path
			if n, ok := g.Lookup(s.NodeID); ok && g.Nodes[n].FilePath != "" {
				p = g.Nodes[n].FilePath
			}
			acc := file(p)
			acc.commits = appendOnce(acc.commits, short)
			cs := acc.symbols[s.NodeID]
			if cs == nil {
				cs = &HistorySymbol{UID: s.NodeID, Name: s.Name, Kind: s.Kind.String(), AtHead: graph.KindOfID(s.NodeID) != graph.KindHistoricalSymbol}
				acc.symbols[s.NodeID] = cs
				acc.order = append(acc.order, s.NodeID)
			}
			cs.Changes = appendOnce(cs.Changes, string(s.Change))
			cs.Additions += s.Additions
			cs.Deletions += s.Deletions
			cs.Commits = appendOnce(cs.Commits, short)
		}
	}
	res.TotalFiles = len(fileOrder)
	for _, acc := range files {
		res.TotalSymbols += len(acc.order)
	}
	if len(fileOrder) > MaxHistoryFiles {
		sort.SliceStable(fileOrder, func(a, b int) bool {
			fa, fb := files[fileOrder[a]], files[fileOrder[b]]
			if len(fa.order) != len(fb.order) {
				return len(fa.order) > len(fb.order)
			}
			return len(fa.commits) > len(fb.commits)
		})
		fileOrder = fileOrder[:MaxHistoryFiles]
	}
	sort.Strings(fileOrder)
	for _, p := range fileOrder {
		acc := files[p]
		cf := HistoryFile{Path: p, Commits: acc.commits, Symbols: []HistorySymbol{}}
		for k, id := range acc.order {
			if k == MaxSymbolsPerFile {
				cf.SymbolsTruncated = true
				break
			}
			cf.Symbols = append(cf.Symbols, *acc.symbols[id])
		}
		res.Files = append(res.Files, cf)
	}
	return res
}

func appendOnce(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

// CommitFile is a file a commit changed.
type CommitFile struct {
	Path       string `json:"path"`
	OldPath    string `json:"oldPath,omitempty"`
	ChangeType string `json:"changeType"`
	Additions  int    `json:"additions"`
	Deletions  int    `json:"deletions"`
	Binary     bool   `json:"binary,omitempty"`
	// AtHead is the file's path at HEAD ("" when it no longer exists).
	AtHead string `json:"atHead"`
}

// CommitSymbol is a symbol a commit changed.
type CommitSymbol struct {
	UID       string `json:"uid"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	Change    string `json:"change"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	AtHead    bool   `json:"atHead"`
}

// CommitImpactResult answers get_commit_impact.
type CommitImpactResult struct {
	Status  string     `json:"status"`
	Commit  CommitInfo `json:"commit"`
	Message string     `json:"message"`
	Parents []string   `json:"parents"`
	IsMerge bool       `json:"isMerge"`
	// SymbolsSkipped says why the commit's symbols were not mapped.
	SymbolsSkipped string         `json:"symbolsSkipped,omitempty"`
	Files          []CommitFile   `json:"files"`
	Symbols        []CommitSymbol `json:"symbols"`
	// TotalFiles and TotalSymbols count what the commit changed; Files
	// and Symbols list at most MaxHistoryFiles and MaxCommitSymbols of
	// them, in git's order. Callers start from every changed symbol.
	TotalFiles   int `json:"totalFiles"`
	TotalSymbols int `json:"totalSymbols"`
	// Callers are the upstream dependents (depth 2) of the changed
	// symbols that still exist.
	Callers    ImpactResult `json:"callers"`
	Reverts    []string     `json:"reverts"`
	RevertedBy []string     `json:"revertedBy"`
}

// CommitImpact describes commit i: what it changed, who depends on the
// changed symbols now, and whether it reverts or was reverted.
func CommitImpact(g *memgraph.Graph, x *HistoryIndex, i int, limit int) CommitImpactResult {
	c := &x.H.Commits[i]
	res := CommitImpactResult{Status: "found", Commit: commitInfo(c), Message: c.Message, Parents: c.Parents,
		IsMerge: c.IsMerge(), SymbolsSkipped: c.SymbolsSkip, Files: []CommitFile{}, Symbols: []CommitSymbol{},
		Reverts: []string{}, RevertedBy: x.RevertedBy(c.Hash)}
	if res.Parents == nil {
		res.Parents = []string{}
	}
	if res.RevertedBy == nil {
		res.RevertedBy = []string{}
	}
	if n, ok := g.Lookup(graph.CommitID(c.Hash)); ok {
		for _, e := range g.Out(n) {
			if e.Type == graph.EdgeReverts {
				res.Reverts = append(res.Reverts, graph.HashOfCommitID(g.Nodes[e.To].ID))
			}
		}
	}
	files := x.FilesOf(i)
	res.TotalFiles = len(files)
	for _, f := range files[:min(len(files), MaxHistoryFiles)] {
		cf := CommitFile{Path: f.Path, OldPath: f.OldPath, ChangeType: string(f.Status), Additions: f.Additions,
			Deletions: f.Deletions, Binary: f.Binary}
		switch {
		case strings.HasPrefix(f.FileID, "File:"):
			cf.AtHead = strings.TrimPrefix(f.FileID, "File:")
		default:
			// Not linked to a file at HEAD (deleted later, and maybe added
			// again): a file at the same path now is the one git follows.
			if _, ok := g.Lookup(graph.FileID(f.Path)); ok {
				cf.AtHead = f.Path
			}
		}
		res.Files = append(res.Files, cf)
	}
	var start []memgraph.NodeID
	for _, s := range x.SymbolsOf(i) {
		cs := CommitSymbol{UID: s.NodeID, Name: s.Name, Kind: s.Kind.String(), Path: s.Path, StartLine: s.StartLine,
			Change: string(s.Change), Additions: s.Additions, Deletions: s.Deletions}
		n, ok := g.Lookup(s.NodeID)
		if ok && g.Nodes[n].Kind == graph.KindHistoricalSymbol {
			// A symbol deleted later may exist again (its file added back):
			// the symbol of the same id at HEAD is the one it became.
			n, ok = g.Lookup(strings.TrimPrefix(s.NodeID, graph.HistoricalSymbolPrefix))
		}
		if ok && g.Nodes[n].Kind != graph.KindHistoricalSymbol {
			cs.AtHead = true
			start = append(start, n)
		}
		res.TotalSymbols++
		if len(res.Symbols) < MaxCommitSymbols {
			res.Symbols = append(res.Symbols, cs)
		}
	}
	res.Callers = Impact(g, start, ImpactOptions{Upstream: true, MaxDepth: 2, Limit: limit})
	return res
}

// CommitSearchHit is a commit a search found: what it is, its score and
// what it changed.
type CommitSearchHit struct {
	Rank int `json:"rank"`
	CommitInfo
	Score float64 `json:"score"`
	Files int     `json:"files"`
	// Symbols are the names of the first symbols it changed (of
	// SymbolCount), in the order the history lists them.
	Symbols     []string `json:"symbols"`
	SymbolCount int      `json:"symbolCount"`
}

// CommitSearchResult answers search_commits: the commits best first, and
// how they were ranked.
type CommitSearchResult struct {
	Query   string            `json:"query"`
	Ranking string            `json:"ranking"` // search.RankingBM25 or search.RankingFused
	Note    string            `json:"note"`
	Results []CommitSearchHit `json:"results"`
}

// CommitSearchSymbols is how many changed symbols a hit names.
const CommitSearchSymbols = 5

// NewCommitSearchHit describes commit i of x at rank (1-based) with its
// score.
func NewCommitSearchHit(x *HistoryIndex, i, rank int, score float64) CommitSearchHit {
	h := CommitSearchHit{Rank: rank, CommitInfo: commitInfo(x.Commit(i)), Score: score, Files: len(x.FilesOf(i)), Symbols: []string{}}
	syms := x.SymbolsOf(i)
	h.SymbolCount = len(syms)
	for _, s := range syms[:min(len(syms), CommitSearchSymbols)] {
		name := s.Qual
		if name == "" {
			name = s.Name
		}
		h.Symbols = append(h.Symbols, name)
	}
	return h
}
