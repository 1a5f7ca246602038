package index

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
)

// Options are what analyze's flags choose, and the callbacks through which
// a run reports while it goes. The messages name the flags: the command
// line, the git hook, the watcher and the webhook all index through
// analyze's options.
type Options struct {
	// Version is the version of gitnexus that writes the index (its meta's
	// tool version, and part of the extraction cache's key).
	Version string
	// Force rebuilds even a fresh index, extracting every file and reading
	// the whole history again (--force); it also replaces a .gitnexus/
	// written by another tool.
	Force bool
	// Workers is the number of parser workers (--workers, at least 1).
	Workers int
	// MaxFileSize skips larger files, in bytes (--max-file-size is in KiB:
	// at least 1024).
	MaxFileSize int64
	// Wait is how long to wait for another analyze of the repository to
	// finish; 0 fails at once (--wait).
	Wait time.Duration
	// History chooses what of the git history is read.
	History History
	// Embeddings is --embeddings: "" when not given (the configuration,
	// else the index's provider), EmbeddingsAuto for a bare --embeddings,
	// else a provider's name or "none".
	Embeddings string

	// Progress, when set, receives the pipeline's events, and the "store"
	// phase's while the index is written.
	Progress func(ingest.Event)
	// Indexing, when set, is called once the index is to be built, before
	// the pipeline runs, with why (Report.Reason).
	Indexing func(root, why string)
	// Warn, when set, receives what went wrong without failing the run
	// (the extraction cache could not be written).
	Warn func(msg string)
	// StartCatchUp, when set, is called after a run that leaves commits of
	// the history to read (History.Window), unless a catch-up runs already:
	// StartCatchUp starts one in the background.
	StartCatchUp func(root string) error
}

// Defaults are analyze's options when no flag is given, but Version and
// StartCatchUp.
func Defaults() Options {
	return Options{Workers: runtime.GOMAXPROCS(0), MaxFileSize: ingest.DefaultMaxFileSize, History: DefaultHistory()}
}

// AsBuilt are the options that bring root's index up to date the way it
// was built: Defaults with the history settings of its index (when it has
// one), the older commits read in the background (StartCatchUp), which the
// git hook's runner, the watcher and the webhook use.
func AsBuilt(root string) Options {
	o := Defaults()
	if r, err := store.OpenRepo(root); err == nil {
		o.History = HistoryOf(r.Meta().History)
		r.Close()
	}
	o.StartCatchUp = StartCatchUp
	return o
}

// OptionError is an error in the options (a flag's value, the embedding
// configuration): the command line's usage error.
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// Check says what is wrong with the options, as an *OptionError; nil when
// nothing is. Analyze checks them first.
func (o *Options) Check() error {
	var err error
	switch {
	case o.Workers < 1:
		err = fmt.Errorf("--workers must be at least 1")
	case o.MaxFileSize < 1024:
		err = fmt.Errorf("--max-file-size must be at least 1 (KiB)")
	default:
		err = o.History.check()
	}
	if err != nil {
		return &OptionError{err}
	}
	return nil
}

// History chooses what of the git history is read: the flags --no-history,
// --all-branches, --since, --max-commits and --max-commit-files.
type History struct {
	Off            bool
	AllBranches    bool
	Since          string
	MaxCommits     int // 0: all
	MaxCommitFiles int
	// Window, when above 0, maps the newest Window commits (and any the
	// index mapped) onto symbols in this run, and Budget, when above 0,
	// those the run reaches in that time (newest first); the older ones are
	// left to a catch-up (catchup.go). Both 0 map them all before the run
	// returns (--wait-history).
	Window int
	Budget time.Duration
	// CatchUp makes the run a catch-up's step: an index with commits still
	// to read is not fresh.
	CatchUp bool
}

// DefaultHistory reads the first-parent history with the default limits,
// mapping commits onto symbols for ForegroundBudget before the run returns.
func DefaultHistory() History {
	return History{MaxCommits: history.DefaultMaxCommits, MaxCommitFiles: history.DefaultMaxCommitFiles, Budget: ForegroundBudget}
}

// HistoryOf reads the history as an index has it (nil: --no-history),
// mapping commits onto symbols for ForegroundBudget before the run returns.
func HistoryOf(h *graph.HistorySettings) History {
	if h == nil {
		return History{Off: true, MaxCommits: history.DefaultMaxCommits, MaxCommitFiles: history.DefaultMaxCommitFiles, Budget: ForegroundBudget}
	}
	return History{AllBranches: h.AllBranches, Since: h.Since, MaxCommits: h.MaxCommits, MaxCommitFiles: h.MaxCommitFiles,
		Budget: ForegroundBudget}
}

func (h *History) check() error {
	switch {
	case h.MaxCommits < 0:
		return fmt.Errorf("--max-commits must be 0 (all) or more")
	case h.MaxCommitFiles < 1:
		return fmt.Errorf("--max-commit-files must be at least 1")
	case h.Window < 0:
		return fmt.Errorf("--history-window must be 0 (all before analyze returns) or more")
	case strings.HasPrefix(h.Since, "-"):
		return fmt.Errorf("--since takes a date, not %q", h.Since)
	}
	return nil
}

// options are the history options of the pipeline; nil when the history
// is not read (--no-history, or not a git repository).
func (h *History) options(git bool) *history.Options {
	if h.Off || !git {
		return nil
	}
	return &history.Options{AllBranches: h.AllBranches, Since: h.Since, MaxCommits: h.MaxCommits,
		MaxCommitFiles: h.MaxCommitFiles, Window: h.Window, Budget: h.Budget}
}

// stale says why an index's history does not match these settings (""
// when it does): an index is not fresh when it lacks the history asked
// for, has one that was not, or read it with other limits.
func (h *History) stale(have *graph.HistorySettings, git bool) string {
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
	case have.Pending > 0 && (h.CatchUp || h.Window == 0 && h.Budget == 0):
		return fmt.Sprintf("%d older commits of its history are still to be read", have.Pending)
	}
	return ""
}
