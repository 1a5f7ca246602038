package analysis

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"gitnexus.dev/gitnexus/internal/gitcmd"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// ChangesOptions say which changes to look at.
type ChangesOptions struct {
	// Scope is unstaged (the working tree against the index), staged (the
	// index against HEAD), all (the working tree against HEAD, untracked
	// files included) or compare (the working tree against BaseRef,
	// untracked files included).
	Scope   string
	BaseRef string
	// Limit bounds the changed symbols and the affected symbols listed.
	Limit int
	// IndexedAt is when the index was built. A file modified after it is
	// located in the index by the diff's old side (the index saw the file
	// before the change); a file unchanged since, by the new side.
	IndexedAt time.Time
}

// Change scopes.
const (
	ScopeUnstaged = "unstaged"
	ScopeStaged   = "staged"
	ScopeAll      = "all"
	ScopeCompare  = "compare"
)

// ChangedFile is one file of a diff.
type ChangedFile struct {
	Path    string   `json:"path"`
	Status  string   `json:"status"` // added, modified, deleted, renamed
	OldPath string   `json:"oldPath,omitempty"`
	Ranges  [][2]int `json:"ranges"` // changed line ranges, 1-based, inclusive (new side; old side for deletions)
	Unknown bool     `json:"notIndexed,omitempty"`
	Lines   int      `json:"changedLines"`
	hunks   []hunk
}

// hunk is one "@@ -oldStart,oldCount +newStart,newCount @@" of a diff.
type hunk struct{ oldStart, oldCount, newStart, newCount int }

// ChangedSymbol is a symbol whose lines a diff touches.
type ChangedSymbol struct {
	SymbolInfo
	Change string `json:"change"` // modified, deleted (its file is gone)
	Lines  int    `json:"changedLines"`
}

// ChangesResult is what a diff touches and what depends on it.
type ChangesResult struct {
	Scope             string          `json:"scope"`
	BaseRef           string          `json:"base_ref,omitempty"`
	Files             []ChangedFile   `json:"files"`
	ChangedSymbols    []ChangedSymbol `json:"changed_symbols"`
	Affected          []ImpactItem    `json:"affected"`
	AffectedModules   []ModuleImpact  `json:"affected_modules"`
	AffectedProcesses []ProcessImpact `json:"affected_processes"`
	Risk              string          `json:"risk_level"`
	Summary           ChangesSummary  `json:"summary"`
	Truncated         bool            `json:"truncated"`
	// Unmapped lists changed lines that fall outside every indexed symbol
	// of their file (new code the index has not seen, or code between
	// declarations).
	Unmapped []string `json:"unmapped,omitempty"`
}

// ChangesSummary counts a change set.
type ChangesSummary struct {
	Files         int `json:"files"`
	ChangedCount  int `json:"changed_count"`
	AffectedCount int `json:"affected_count"`
	Direct        int `json:"direct_callers"`
}

// DetectChanges runs git diff in the repository, maps the changed lines onto
// the indexed symbols by line range, and walks their callers two levels up.
func DetectChanges(ctx context.Context, g *memgraph.Graph, repo string, opt ChangesOptions) (*ChangesResult, error) {
	if opt.Scope == "" {
		opt.Scope = ScopeUnstaged
	}
	if opt.Limit <= 0 {
		opt.Limit = DefaultImpactLimit
	}
	if _, err := gitcmd.Output(ctx, repo, "rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, inputErrorf("%s is not a git work tree, so there are no changes to detect", repo)
	}
	args := []string{"diff", "-U0", "--no-color", "--no-ext-diff", "--find-renames"}
	switch opt.Scope {
	case ScopeUnstaged:
	case ScopeStaged:
		args = append(args, "--cached")
	case ScopeAll:
		if _, err := gitcmd.Output(ctx, repo, "rev-parse", "--verify", "-q", "HEAD"); err != nil {
			args = append(args, emptyTree) // no commit yet: everything is new
		} else {
			args = append(args, "HEAD")
		}
	case ScopeCompare:
		if opt.BaseRef == "" {
			return nil, inputErrorf(`scope "compare" needs base_ref (a branch, tag or commit, e.g. "main")`)
		}
		if strings.HasPrefix(opt.BaseRef, "-") {
			return nil, inputErrorf("base_ref %q is not a ref", opt.BaseRef)
		}
		if _, err := gitcmd.Output(ctx, repo, "rev-parse", "--verify", "-q", opt.BaseRef+"^{commit}"); err != nil {
			return nil, inputErrorf("base_ref %q is not a commit, branch or tag of %s", opt.BaseRef, repo)
		}
		args = append(args, opt.BaseRef)
	default:
		return nil, inputErrorf("scope %q: use unstaged, staged, all or compare", opt.Scope)
	}
	args = append(args, "--")
	// The untracked files (the working tree holds them) are listed while
	// the diff runs: on a large tree each takes most of the answer's time.
	type listing struct {
		out []byte
		err error
	}
	others := make(chan listing, 1)
	if opt.Scope != ScopeStaged {
		go func() {
			out, err := gitcmd.Output(ctx, repo, "ls-files", "-o", "--exclude-standard", "-z")
			others <- listing{out, err}
		}()
	}
	out, err := gitcmd.Output(ctx, repo, args...)
	if err != nil {
		if opt.Scope != ScopeStaged {
			<-others
		}
		return nil, err
	}
	files := parseDiff(out)
	if opt.Scope != ScopeStaged {
		l := <-others
		untracked, err := l.out, l.err
		if err == nil {
			for _, p := range bytes.Split(untracked, []byte{0}) {
				if len(p) > 0 {
					files = append(files, ChangedFile{Path: string(p), Status: "added", Ranges: [][2]int{{1, 1 << 30}},
						hunks: []hunk{{0, 0, 1, 1 << 30}}})
				}
			}
		}
	}
	res := &ChangesResult{Scope: opt.Scope, BaseRef: opt.BaseRef, Files: []ChangedFile{}, ChangedSymbols: []ChangedSymbol{},
		Affected: []ImpactItem{}, AffectedModules: []ModuleImpact{}, AffectedProcesses: []ProcessImpact{}}
	var start []memgraph.NodeID
	seen := map[memgraph.NodeID]bool{}
	for _, f := range files {
		if strings.HasPrefix(f.Path, ".gitnexus/") {
			continue
		}
		// A new file has no old side; a deleted one no new side.
		oldSide := f.Status == "deleted" || (f.Status != "added" && modifiedSince(repo, f.Path, opt.IndexedAt))
		indexedPath := f.Path
		if oldSide && f.OldPath != "" {
			indexedPath = f.OldPath
		}
		if _, ok := g.Lookup(graph.FileID(indexedPath)); !ok {
			f.Unknown = true
		}
		syms, lines, outside := mapHunks(g, indexedPath, f.hunks, oldSide)
		f.Lines = 0
		for _, r := range f.Ranges {
			if r[1] < 1<<29 {
				f.Lines += r[1] - r[0] + 1
			}
		}
		for _, s := range syms {
			if seen[s] {
				continue
			}
			seen[s] = true
			change := "modified"
			switch f.Status {
			case "deleted", "added":
				change = f.Status
			}
			res.ChangedSymbols = append(res.ChangedSymbols, ChangedSymbol{SymbolInfo: Info(g, s), Change: change, Lines: lines[s]})
			start = append(start, s)
		}
		if f.Unknown {
			if f.Status != "deleted" {
				res.Unmapped = append(res.Unmapped, f.Path+" (not in the index: run `gitnexus analyze`)")
			}
		} else {
			for _, r := range outside {
				res.Unmapped = append(res.Unmapped, fmt.Sprintf("%s:%s", f.Path, rangeText(r)))
			}
		}
		res.Files = append(res.Files, f)
	}
	sort.SliceStable(res.ChangedSymbols, func(i, j int) bool {
		a, b := res.ChangedSymbols[i], res.ChangedSymbols[j]
		if a.FilePath != b.FilePath {
			return a.FilePath < b.FilePath
		}
		return a.StartLine < b.StartLine
	})
	res.Summary.Files = len(res.Files)
	res.Summary.ChangedCount = len(res.ChangedSymbols)
	if len(res.ChangedSymbols) > opt.Limit {
		res.ChangedSymbols, res.Truncated = res.ChangedSymbols[:opt.Limit], true
	}
	imp := Impact(g, start, ImpactOptions{Upstream: true, MaxDepth: 2, Types: []graph.EdgeType{graph.EdgeCalls, graph.EdgeReferences},
		Limit: opt.Limit})
	for _, d := range []string{"1", "2"} {
		res.Affected = append(res.Affected, imp.ByDepth[d]...)
	}
	res.AffectedModules = imp.AffectedModules
	res.AffectedProcesses = imp.AffectedProcesses
	res.Summary.AffectedCount = imp.Summary.Total
	res.Summary.Direct = imp.Summary.Direct
	res.Truncated = res.Truncated || imp.Truncated
	sum := imp.Summary
	sum.Direct += len(start) // a changed symbol counts as directly affected
	sum.Total += len(start)
	res.Risk = RiskLevel(sum)
	if len(start) == 0 {
		res.Risk = RiskLow
	}
	return res, nil
}

// emptyTree is git's well-known empty tree object.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// parseDiff reads `git diff -U0` output: files and their changed line
// ranges on the new side (the old side for deleted files).
func parseDiff(out []byte) []ChangedFile {
	var files []ChangedFile
	var cur *ChangedFile
	var oldPath string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			files = append(files, ChangedFile{Status: "modified"})
			cur = &files[len(files)-1]
			oldPath = ""
		case cur == nil:
		case strings.HasPrefix(line, "new file mode"):
			cur.Status = "added"
		case strings.HasPrefix(line, "deleted file mode"):
			cur.Status = "deleted"
		case strings.HasPrefix(line, "rename from "):
			cur.Status, cur.OldPath = "renamed", strings.TrimPrefix(line, "rename from ")
		case strings.HasPrefix(line, "rename to "):
			cur.Path = strings.TrimPrefix(line, "rename to ")
		case strings.HasPrefix(line, "--- "):
			if p := strings.TrimPrefix(line, "--- "); p != "/dev/null" {
				oldPath = strings.TrimPrefix(p, "a/")
			}
		case strings.HasPrefix(line, "+++ "):
			p := strings.TrimPrefix(line, "+++ ")
			if p == "/dev/null" {
				cur.Path = oldPath
			} else {
				cur.Path = strings.TrimPrefix(p, "b/")
			}
		case strings.HasPrefix(line, "@@ "):
			oldStart, oldCount, newStart, newCount, ok := parseHunk(line)
			if !ok {
				continue
			}
			cur.hunks = append(cur.hunks, hunk{oldStart, oldCount, newStart, newCount})
			switch {
			case cur.Status == "deleted":
				if oldCount > 0 {
					cur.Ranges = append(cur.Ranges, [2]int{oldStart, oldStart + oldCount - 1})
				}
			case newCount > 0:
				cur.Ranges = append(cur.Ranges, [2]int{newStart, newStart + newCount - 1})
			default:
				// Lines removed after newStart: the line there and the
				// next one frame the removal.
				cur.Ranges = append(cur.Ranges, [2]int{max(newStart, 1), newStart + 1})
			}
		}
	}
	kept := files[:0]
	for _, f := range files {
		if f.Path != "" {
			kept = append(kept, f)
		}
	}
	return kept
}

// parseHunk reads "@@ -a,b +c,d @@" (counts default to 1).
func parseHunk(line string) (oldStart, oldCount, newStart, newCount int, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return 0, 0, 0, 0, false
	}
	parse := func(s string) (int, int, bool) {
		s = s[1:]
		start, count := s, "1"
		if i := strings.IndexByte(s, ','); i >= 0 {
			start, count = s[:i], s[i+1:]
		}
		a, err1 := strconv.Atoi(start)
		b, err2 := strconv.Atoi(count)
		// Lines are counted in int32 elsewhere: anything outside is not a
		// diff git wrote.
		return a, b, err1 == nil && err2 == nil && a >= 0 && b >= 0 && a < 1<<30 && b < 1<<30
	}
	oldStart, oldCount, ok1 := parse(fields[1])
	newStart, newCount, ok2 := parse(fields[2])
	return oldStart, oldCount, newStart, newCount, ok1 && ok2
}

// modifiedSince reports whether the working-tree file changed after t (a
// file that no longer exists did).
func modifiedSince(repo, rel string, t time.Time) bool {
	fi, err := os.Stat(filepath.Join(repo, filepath.FromSlash(rel)))
	if err != nil {
		return true
	}
	return t.IsZero() || fi.ModTime().After(t)
}

// mapHunks locates a file's hunks among its indexed symbols, in the
// coordinates of the side the index saw (old or new). A changed line
// belongs to the innermost symbol spanning it; lines inserted (or removed)
// between two lines of a symbol belong to it; lines inserted between
// symbols belong to none. It returns the symbols with their changed line
// counts, and the changed ranges (new side) outside every symbol.
func mapHunks(g *memgraph.Graph, path string, hunks []hunk, oldSide bool) ([]memgraph.NodeID, map[memgraph.NodeID]int, [][2]int) {
	lines := map[memgraph.NodeID]int{}
	var out []memgraph.NodeID
	var outside [][2]int
	nodes := g.InFile(path)
	touch := func(n memgraph.NodeID, count int) {
		if _, ok := lines[n]; !ok {
			out = append(out, n)
		}
		lines[n] += count
	}
	for _, h := range hunks {
		start, count, otherCount := h.newStart, h.newCount, h.oldCount
		if oldSide {
			start, count, otherCount = h.oldStart, h.oldCount, h.newCount
		}
		newRange := [2]int{h.newStart, h.newStart + max(h.newCount, 1) - 1}
		if count == 0 {
			// Nothing changed on this side: lines were inserted (or
			// removed) after line start. Inside a symbol when the symbol
			// goes on past start.
			if n, ok := innermostSpanning(g, nodes, start, start+1); ok {
				touch(n, otherCount)
			} else if h.newCount > 0 {
				outside = append(outside, newRange)
			}
			continue
		}
		r := [2]int{start, start + count - 1}
		hit := false
		for _, n := range nodes {
			nd := &g.Nodes[n]
			if !nd.Kind.IsSymbol() || int(nd.EndLine) < r[0] || int(nd.StartLine) > r[1] || hasInnerTouched(g, nodes, n, r) {
				continue
			}
			hit = true
			lo, hi := max(r[0], int(nd.StartLine)), min(r[1], int(nd.EndLine))
			touch(n, hi-lo+1)
		}
		if !hit && h.newCount > 0 {
			outside = append(outside, newRange)
		}
	}
	return out, lines, outside
}

// innermostSpanning is the smallest symbol holding both lines a and b.
func innermostSpanning(g *memgraph.Graph, nodes []memgraph.NodeID, a, b int) (memgraph.NodeID, bool) {
	best, found := memgraph.NodeID(0), false
	for _, n := range nodes {
		nd := &g.Nodes[n]
		if !nd.Kind.IsSymbol() || int(nd.StartLine) > a || int(nd.EndLine) < b {
			continue
		}
		if !found || nd.EndLine-nd.StartLine < g.Nodes[best].EndLine-g.Nodes[best].StartLine {
			best, found = n, true
		}
	}
	return best, found
}

// hasInnerTouched reports whether a symbol nested in n also overlaps r and
// covers all of r's overlap with n: then the inner symbol is the one
// changed (a method, not its whole class).
func hasInnerTouched(g *memgraph.Graph, nodes []memgraph.NodeID, n memgraph.NodeID, r [2]int) bool {
	outer := &g.Nodes[n]
	lo, hi := max(r[0], int(outer.StartLine)), min(r[1], int(outer.EndLine))
	for _, m := range nodes {
		if m == n {
			continue
		}
		in := &g.Nodes[m]
		if !in.Kind.IsSymbol() || in.StartLine < outer.StartLine || in.EndLine > outer.EndLine ||
			(in.StartLine == outer.StartLine && in.EndLine == outer.EndLine) {
			continue
		}
		if int(in.StartLine) <= lo && int(in.EndLine) >= hi {
			return true
		}
	}
	return false
}

func rangeText(r [2]int) string {
	if r[0] == r[1] {
		return strconv.Itoa(r[0])
	}
	return fmt.Sprintf("%d-%d", r[0], r[1])
}
