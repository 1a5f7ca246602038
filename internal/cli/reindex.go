package cli

import (
	"context"
	"runtime"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
)

// reanalyze brings the index of root up to date the way it was built (the
// same history settings; default workers and file size limit) by running
// analyze, which leaves a fresh index alone. The git hook's runner, the
// watcher and the webhook call it. wait is how long to wait for another
// analyze of the repository to finish.
func reanalyze(ctx context.Context, stdio *IO, root string, wait time.Duration) error {
	o := &analyzeOptions{io: stdio, path: root, workers: runtime.GOMAXPROCS(0),
		maxFileSize: ingest.DefaultMaxFileSize / 1024, wait: wait, quiet: true,
		history: historyFlags{maxCommits: history.DefaultMaxCommits, maxCommitFiles: history.DefaultMaxCommitFiles}}
	if r, err := store.OpenRepo(root); err == nil {
		o.history = historyFlagsOf(r.Meta().History)
		r.Close()
	}
	return runAnalyze(ctx, o)
}

// historyFlagsOf are the flags that read the history as an index has it
// (nil: --no-history).
func historyFlagsOf(h *graph.HistorySettings) historyFlags {
	if h == nil {
		return historyFlags{off: true, maxCommits: history.DefaultMaxCommits, maxCommitFiles: history.DefaultMaxCommitFiles}
	}
	return historyFlags{allBranches: h.AllBranches, since: h.Since, maxCommits: h.MaxCommits, maxCommitFiles: h.MaxCommitFiles}
}
