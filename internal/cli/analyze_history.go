package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// historyFlags are the options of analyze that choose what of the git
// history is read.
type historyFlags struct {
	off            bool
	allBranches    bool
	since          string
	maxCommits     int
	maxCommitFiles int
}

func (h *historyFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&h.off, "no-history", false, "do not read the git history")
	f.BoolVar(&h.allBranches, "all-branches", false, "read the history of every branch, remote branch and tag, not only the first-parent history of HEAD")
	f.StringVar(&h.since, "since", "", "read only commits more recent than this date (as git understands it: 2024-01-01, \"6 months ago\")")
	f.IntVar(&h.maxCommits, "max-commits", history.DefaultMaxCommits, "read at most this many commits, the newest (0: all)")
	f.IntVar(&h.maxCommitFiles, "max-commit-files", history.DefaultMaxCommitFiles,
		"commits changing more files keep their file links but are not mapped onto symbols")
}

func (h *historyFlags) check() error {
	switch {
	case h.maxCommits < 0:
		return fmt.Errorf("--max-commits must be 0 (all) or more")
	case h.maxCommitFiles < 1:
		return fmt.Errorf("--max-commit-files must be at least 1")
	case strings.HasPrefix(h.since, "-"):
		return fmt.Errorf("--since takes a date, not %q", h.since)
	}
	return nil
}

// options are the history options of the pipeline; nil when the history
// is not read (--no-history, or not a git repository).
func (h *historyFlags) options(git bool) *history.Options {
	if h.off || !git {
		return nil
	}
	return &history.Options{AllBranches: h.allBranches, Since: h.since, MaxCommits: h.maxCommits,
		MaxCommitFiles: h.maxCommitFiles}
}

// stale says why an index's history does not match these flags ("" when
// it does): an index is not fresh when it lacks the history asked for, has
// one that was not, or read it with other limits.
func (h *historyFlags) stale(have *graph.HistorySettings, git bool) string {
	want := h.options(git)
	switch {
	case want == nil && have != nil:
		return "it holds the git history, and --no-history was given"
	case want == nil:
		return ""
	case have == nil:
		return "it has no git history"
	case have.Format != history.FormatVersion:
		return "its history records are of another version"
	case have.AllBranches != want.AllBranches || have.Since != want.Since || have.MaxCommits != want.MaxCommits ||
		have.MaxCommitFiles != want.MaxCommitFiles:
		return "its history was read with other --all-branches, --since, --max-commits or --max-commit-files"
	}
	return ""
}

// printHistorySummary adds the history lines to analyze's summary.
func printHistorySummary(w io.Writer, h *ingest.HistoryStats) {
	reuse := "read from git"
	switch {
	case h.Reused > 0:
		reuse = fmt.Sprintf("%d new, %d kept from the previous index", h.Read, h.Reused)
	case h.Reason != "":
		reuse = "all read again: " + h.Reason
	}
	switch {
	case h.Rewritten:
		reuse += fmt.Sprintf("; the history was rewritten (%d commit(s) of the previous index are gone)", h.Dropped)
	case h.Dropped > 0:
		reuse += fmt.Sprintf("; %d commit(s) of the previous index are outside the limits now", h.Dropped)
	}
	fmt.Fprintf(w, "  history   %d commits (%s), %d file changes, %d symbol changes, %d removed symbols\n",
		h.Commits, reuse, h.FileChanges, h.SymbolChanges, h.HistoricalSymbols)
	if h.Guarded > 0 || h.MissingObjects > 0 {
		fmt.Fprintf(w, "            not mapped onto symbols: %d commit(s) over --max-commit-files, %d with missing objects\n",
			h.Guarded, h.MissingObjects)
	}
}
