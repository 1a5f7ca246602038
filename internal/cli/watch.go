package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gitnexus.dev/gitnexus/internal/debounce"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/watch"
)

// defaultDebounce is --debounce: an editor's "save all" or a formatter
// touching many files takes well under it, and a re-index of a small edit
// is about as long, so an agent sees its change within a second.
const defaultDebounce = 300 * time.Millisecond

// runWatch is analyze --watch: watch the repository, analyze once, then
// analyze again after every settled burst of changes until ctx ends.
func runWatch(ctx context.Context, o *analyzeOptions) error {
	if o.debounce <= 0 {
		return usageError{fmt.Errorf("--debounce must be positive")}
	}
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	// A watcher's runs follow one another in one heap, which grows past
	// what one run needs: it takes the whole reservation, once.
	index.ReserveHugeHeap("")
	// Watch before the first analysis, so that nothing changed during it
	// goes unseen.
	w, err := watch.New(ctx, root)
	if err != nil {
		return err
	}
	defer w.Close()
	run := *o
	run.path = root
	if run.wait == 0 {
		run.wait = runnerWait // a hook's runner or a manual analyze may hold the repository
	}
	d := debounce.New(o.debounce, func(ctx context.Context) {
		if err := runAnalyze(ctx, &run); err != nil && ctx.Err() == nil {
			fmt.Fprintf(o.io.ErrOut, "gitnexus: %v (still watching)\n", err)
		}
	})
	d.Ready = func() bool { return !w.GitLocked() }
	if err := runAnalyze(ctx, &run); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	run.force = false // --force applies to the first analysis only
	if !run.json {
		run.brief, run.quiet = true, true // one line per re-index
	}
	fmt.Fprintf(o.io.ErrOut, "Watching %s for changes (Ctrl-C to stop)\n", root)
	watchErr := make(chan error, 1)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		watchErr <- w.Run(wctx, func(string) { d.Trigger() })
		cancel()
	}()
	d.Run(wctx)
	cancel()
	if err := <-watchErr; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintln(o.io.ErrOut, "Stopped watching.")
	return nil
}
