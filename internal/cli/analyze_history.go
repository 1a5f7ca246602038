package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// registerHistoryFlags registers the options of analyze that choose what
// of the git history is read.
func registerHistoryFlags(f *pflag.FlagSet, h *index.History) {
	f.BoolVar(&h.Off, "no-history", false, "do not read the git history")
	f.BoolVar(&h.AllBranches, "all-branches", false, "read the history of every branch, remote branch and tag, not only the first-parent history of HEAD")
	f.StringVar(&h.Since, "since", "", "read only commits more recent than this date (as git understands it: 2024-01-01, \"6 months ago\")")
	f.IntVar(&h.MaxCommits, "max-commits", history.DefaultMaxCommits, "read at most this many commits, the newest (0: all)")
	f.IntVar(&h.MaxCommitFiles, "max-commit-files", history.DefaultMaxCommitFiles,
		"commits changing more files keep their file links but are not mapped onto symbols")
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
