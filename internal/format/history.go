package format

import (
	"fmt"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/graph"
)

// day is the date part of an RFC 3339 time.
func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return t
}

// lineCounts renders +a −d, or "binary" when git did not count lines.
func lineCounts(add, del int) string {
	if add < 0 || del < 0 {
		return "not counted"
	}
	return fmt.Sprintf("+%d −%d", add, del)
}

// fileLines is a file change's line counts: "binary" for a binary file,
// "not counted" when the commit was not diffed (over --max-commit-files,
// or pending in the background).
func fileLines(add, del int, binary bool) string {
	if binary {
		return "binary"
	}
	return lineCounts(add, del)
}

var changeNames = map[string]string{"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "T": "type changed"}

func fileChange(t, oldPath string) string {
	name := changeNames[t]
	if name == "" {
		name = t
	}
	if oldPath != "" {
		name += " from " + oldPath
	}
	return name
}

func pageNote(b *strings.Builder, p analysis.Page, what string) {
	if p.Truncated {
		fmt.Fprintf(b, "\nShowing %d–%d of %d %s; more with offset %d.\n", p.Offset+1, p.NextOffset, p.Total, what, p.NextOffset)
	}
}

// FileHistory renders the commits of a file.
func FileHistory(r *analysis.FileHistoryResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s`: %d %s changed it", r.Path, r.Total, noun(r.Total, "commit", "commits"))
	if len(r.Names) > 1 {
		fmt.Fprintf(&b, " (also named %s)", strings.Join(quoteAll(r.Names[1:]), ", "))
	}
	b.WriteString(", newest first.\n\n")
	rows := make([][]string, 0, len(r.Commits))
	for _, c := range r.Commits {
		change := fileChange(c.ChangeType, c.OldPath)
		if c.RenamedAway {
			change = "renamed away to " + c.Path
		}
		rows = append(rows, []string{c.ShortHash, day(c.Date), c.Author, c.Subject, change, fileLines(c.Additions, c.Deletions, c.Binary)})
	}
	if len(rows) > 0 {
		b.WriteString(Table([]string{"commit", "date", "author", "subject", "change", "lines"}, rows))
	}
	pageNote(&b, r.Page, "commits")
	return b.String()
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}

// noun is one or many by n.
func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// SymbolHistory renders the commits of a symbol.
func SymbolHistory(r *analysis.SymbolHistoryResult) string {
	var b strings.Builder
	s := &r.Symbol
	fmt.Fprintf(&b, "%s `%s` (%s): %d %s changed it, newest first.", s.Kind, s.QualifiedName, Loc(s.FilePath, s.StartLine),
		r.Total, noun(r.Total, "commit", "commits"))
	if !r.AtHead {
		if r.DeletedIn != "" {
			fmt.Fprintf(&b, " It no longer exists: deleted in %s.", short(r.DeletedIn))
		} else {
			b.WriteString(" It no longer exists.")
		}
	}
	b.WriteString("\n\n")
	rows := make([][]string, 0, len(r.Commits))
	for _, c := range r.Commits {
		rows = append(rows, []string{c.ShortHash, day(c.Date), c.Author, c.Subject, c.Change, lineCounts(c.Additions, c.Deletions), Loc(c.Path, c.StartLine)})
	}
	if len(rows) > 0 {
		b.WriteString(Table([]string{"commit", "date", "author", "subject", "change", "lines", "where"}, rows))
	}
	for _, c := range r.Commits {
		if len(c.MergedFrom) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nMerge %s brought in the change from:\n", c.ShortHash)
		for _, m := range c.MergedFrom {
			fmt.Fprintf(&b, "- %s %s %s: %s\n", m.ShortHash, day(m.Date), m.Author, m.Subject)
		}
	}
	for _, c := range r.Commits {
		switch {
		case c.Source != "":
			fmt.Fprintf(&b, "\n#### %s (%s) %s\n\n```\n%s```\n", c.ShortHash, c.Change, Loc(c.Path, c.StartLine), c.Source)
		case c.SourceMissing:
			fmt.Fprintf(&b, "\n#### %s (%s) %s\n\nThe source is not available: git has no %s at that revision.\n", c.ShortHash, c.Change, Loc(c.Path, c.StartLine), c.Path)
		}
	}
	pageNote(&b, r.Page, "commits")
	return b.String()
}

func short(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}

// RecentChanges renders the symbols a window of commits changed.
func RecentChanges(r *analysis.RecentChangesResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s changed %d %s in %d %s.\n", r.Window, len(r.Commits), noun(len(r.Commits), "commit", "commits"),
		r.TotalSymbols, noun(r.TotalSymbols, "symbol", "symbols"), r.TotalFiles, noun(r.TotalFiles, "file", "files"))
	if len(r.Files) < r.TotalFiles {
		fmt.Fprintf(&b, "Only the %d files with the most changed symbols are listed; a narrower window or fewer commits lists the others.\n", len(r.Files))
	}
	if r.MoreCommits > 0 {
		fmt.Fprintf(&b, "%d older commits in the window are not included (limit).\n", r.MoreCommits)
	}
	if r.NotIndexed > 0 {
		fmt.Fprintf(&b, "%d commits of the range are not in the index (only the indexed history is covered; `gitnexus analyze --all-branches` reads every branch).\n", r.NotIndexed)
	}
	if len(r.SymbolsSkipped) > 0 {
		fmt.Fprintf(&b, "Symbols were not mapped for %s (too many files, objects missing, or not read yet): their files are listed.\n", strings.Join(r.SymbolsSkipped, ", "))
	}
	for _, f := range r.Files {
		fmt.Fprintf(&b, "\n### %s (%s)\n", f.Path, strings.Join(f.Commits, ", "))
		if len(f.Symbols) == 0 {
			continue
		}
		rows := make([][]string, 0, len(f.Symbols))
		for _, s := range f.Symbols {
			name := s.Name
			if !s.AtHead {
				name += " (gone)"
			}
			rows = append(rows, []string{name, s.Kind, strings.Join(s.Changes, ", "), lineCounts(s.Additions, s.Deletions), strings.Join(s.Commits, ", ")})
		}
		b.WriteString("\n" + Table([]string{"symbol", "kind", "change", "lines", "commits"}, rows))
		if f.SymbolsTruncated {
			fmt.Fprintf(&b, "\nOnly the first %d symbols of this file are listed.\n", analysis.MaxSymbolsPerFile)
		}
	}
	if len(r.Commits) > 0 {
		b.WriteString("\n### Commits\n\n")
		rows := make([][]string, 0, len(r.Commits))
		for _, c := range r.Commits {
			rows = append(rows, []string{c.ShortHash, day(c.Date), c.Author, c.Subject})
		}
		b.WriteString(Table([]string{"commit", "date", "author", "subject"}, rows))
	}
	return b.String()
}

// CommitImpact renders what a commit changed and who depends on it.
func CommitImpact(r *analysis.CommitImpactResult) string {
	var b strings.Builder
	c := &r.Commit
	fmt.Fprintf(&b, "Commit %s by %s on %s: %s\n", c.ShortHash, c.Author, day(c.Date), c.Subject)
	if body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.Message), c.Subject)); body != "" {
		b.WriteString("\n> " + strings.ReplaceAll(body, "\n", "\n> ") + "\n")
	}
	if r.IsMerge {
		fmt.Fprintf(&b, "\nA merge of %s (changes shown against the first parent).\n", strings.Join(shortAll(r.Parents), ", "))
	}
	for _, h := range r.Reverts {
		fmt.Fprintf(&b, "\nIt reverts %s.\n", short(h))
	}
	if len(r.RevertedBy) > 0 {
		fmt.Fprintf(&b, "\nIt was reverted by %s.\n", strings.Join(shortAll(r.RevertedBy), ", "))
	}
	fmt.Fprintf(&b, "\n### Files (%d)\n\n", r.TotalFiles)
	if len(r.Files) < r.TotalFiles {
		fmt.Fprintf(&b, "The first %d, in git's order (get_file_history follows one file):\n\n", len(r.Files))
	}
	rows := make([][]string, 0, len(r.Files))
	for _, f := range r.Files {
		now := f.AtHead
		if now == "" {
			now = "(gone)"
		}
		rows = append(rows, []string{f.Path, fileChange(f.ChangeType, f.OldPath), fileLines(f.Additions, f.Deletions, f.Binary), now})
	}
	if len(rows) > 0 {
		b.WriteString(Table([]string{"file", "change", "lines", "now at"}, rows))
	}
	if r.SymbolsSkipped == graph.SkipPending {
		b.WriteString("\nThe symbols of this commit are not mapped yet: the older commits of the history are being read in the background.\n")
	} else if r.SymbolsSkipped != "" {
		fmt.Fprintf(&b, "\nSymbols were not mapped for this commit (%s).\n", r.SymbolsSkipped)
	} else {
		fmt.Fprintf(&b, "\n### Symbols (%d)\n\n", r.TotalSymbols)
		if len(r.Symbols) < r.TotalSymbols {
			fmt.Fprintf(&b, "The first %d; who depends on them counts all of them:\n\n", len(r.Symbols))
		}
		rows = rows[:0]
		for _, s := range r.Symbols {
			name := s.Name
			if !s.AtHead {
				name += " (gone)"
			}
			rows = append(rows, []string{name, s.Kind, s.Change, lineCounts(s.Additions, s.Deletions), Loc(s.Path, s.StartLine)})
		}
		if len(rows) > 0 {
			b.WriteString(Table([]string{"symbol", "kind", "change", "lines", "where (in the commit)"}, rows))
		}
	}
	cl := &r.Callers
	b.WriteString(affectedProcesses(cl.AffectedProcesses))
	fmt.Fprintf(&b, "\n### Depends on it now (upstream, depth 2): %d direct, %d in all", cl.Summary.Direct, cl.Summary.Total)
	if !cl.Exhaustive {
		b.WriteString(" (at least)")
	}
	b.WriteString("\n")
	for _, d := range []string{"1", "2"} {
		items := cl.ByDepth[d]
		if len(items) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nDepth %s:\n\n", d)
		rows = rows[:0]
		for _, it := range items {
			rows = append(rows, []string{it.Name, it.Kind, Loc(it.FilePath, it.SiteLine), it.Via})
		}
		b.WriteString(Table([]string{"name", "kind", "where", "via"}, rows))
		if n := cl.ByDepthCounts[d]; n > len(items) {
			fmt.Fprintf(&b, "\n%d more at depth %s.\n", n-len(items), d)
		}
	}
	return b.String()
}

func shortAll(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = short(h)
	}
	return out
}

// CommitSearch renders a search_commits answer: the commits best first.
func CommitSearch(r *analysis.CommitSearchResult) string {
	var b strings.Builder
	if len(r.Results) == 0 {
		fmt.Fprintf(&b, "No commit matches %q.\n", r.Query)
	} else {
		fmt.Fprintf(&b, "%d %s for %q, best first.\n\n", len(r.Results), noun(len(r.Results), "commit", "commits"), r.Query)
		rows := make([][]string, 0, len(r.Results))
		for _, h := range r.Results {
			changed := fmt.Sprintf("%d %s", h.Files, noun(h.Files, "file", "files"))
			if h.SymbolCount > 0 {
				changed += ": " + strings.Join(h.Symbols, ", ")
				if more := h.SymbolCount - len(h.Symbols); more > 0 {
					changed += fmt.Sprintf(" and %d more", more)
				}
			}
			rows = append(rows, []string{strconv.Itoa(h.Rank), h.ShortHash, day(h.Date), h.Author, h.Subject,
				strconv.FormatFloat(h.Score, 'f', 3, 64), changed})
		}
		b.WriteString(Table([]string{"#", "commit", "date", "author", "subject", "score", "changed"}, rows))
	}
	if note := strings.TrimSuffix(r.Note, "."); note != "" {
		fmt.Fprintf(&b, "\n%s%s.\n", strings.ToUpper(note[:1]), note[1:])
	}
	return b.String()
}
