package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// registerHistoryFlags registers the options of analyze that choose what
// of the git history is read.
func registerHistoryFlags(f *pflag.FlagSet, h *index.History, wait, catchUp *bool) {
	h.Budget = index.ForegroundBudget
	f.BoolVar(&h.Off, "no-history", false, "do not read the git history")
	f.BoolVar(&h.AllBranches, "all-branches", false, "read the history of every branch, remote branch and tag, not only the first-parent history of HEAD")
	f.StringVar(&h.Since, "since", "", "read only commits more recent than this date (as git understands it: 2024-01-01, \"6 months ago\")")
	f.IntVar(&h.MaxCommits, "max-commits", history.DefaultMaxCommits, "read at most this many commits, the newest (0: all)")
	f.IntVar(&h.MaxCommitFiles, "max-commit-files", history.DefaultMaxCommitFiles,
		"commits changing more files keep their file links but are not mapped onto symbols")
	f.BoolVar(wait, "wait-history", false, fmt.Sprintf("map every commit onto symbols before returning (by default the newest are for %v, the older ones in the background; also when $GITNEXUS_WAIT_HISTORY or $CI is set)", index.ForegroundBudget))
	f.IntVar(&h.Window, "history-window", 0, "map the newest N commits onto symbols before returning, not as many as the time allows; the rest in the background")
	_ = f.MarkHidden("history-window")
	f.BoolVar(catchUp, "history-catch-up", false, "read the older commits of the index's history in steps (what analyze starts in the background)")
	_ = f.MarkHidden("history-catch-up")
}

// waitHistoryEnv reports whether the environment asks analyze to map the
// whole history before returning: GITNEXUS_WAIT_HISTORY set, or CI set (a
// CI job leaves nothing to the background). Set, here, is neither empty,
// 0 nor false.
func waitHistoryEnv() bool {
	for _, k := range []string{"GITNEXUS_WAIT_HISTORY", "CI"} {
		if v := strings.ToLower(os.Getenv(k)); v != "" && v != "0" && v != "false" {
			return true
		}
	}
	return false
}

// printHistorySummary adds the history lines to analyze's summary.
func printHistorySummary(w io.Writer, h *ingest.HistoryStats, pending int, catchUp string) {
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
	if pending > 0 {
		fmt.Fprintf(w, "            the symbols of the %d older commits %s\n", pending, catchUpLine(catchUp))
	}
	if h.Guarded > 0 || h.MissingObjects > 0 {
		fmt.Fprintf(w, "            not mapped onto symbols: %d commit(s) over --max-commit-files, %d with missing objects\n",
			h.Guarded, h.MissingObjects)
	}
}

// catchUpHistory is analyze --history-catch-up: the older commits of the
// index's history read in steps (index.CatchUp), a line per step on
// stderr (the catch-up's log when analyze started it).
func catchUpHistory(ctx context.Context, o *analyzeOptions, opt index.Options) error {
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(o.io.ErrOut, "%s %s\n", time.Now().Format("2006-01-02 15:04:05"), fmt.Sprintf(format, args...))
	}
	return index.CatchUp(ctx, root, opt, logf)
}

// catchUpLine says where the symbols of the older commits are being
// mapped, by index.Report.CatchUp.
func catchUpLine(catchUp string) string {
	switch catchUp {
	case "started", "running":
		return "are being mapped in the background (" + filepath.Join(".gitnexus", index.CatchUpLogName) + "); --wait-history maps them before returning"
	case "":
		return "are mapped by the next analyze"
	}
	return "are not mapped: the background catch-up could not start (" + catchUp + "); run `gitnexus analyze --wait-history`"
}
