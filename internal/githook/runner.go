package githook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"gitnexus.dev/gitnexus/internal/store"
)

// A hook only records a request and, when no runner is at work, starts
// one; the runner re-indexes until no request is left. A rebase that makes
// twenty commits thus costs one or two re-indexings, never twenty, and
// never two at once.

// Files of the runner, in the index directory (.gitnexus/, which keeps
// itself out of git).
const (
	LogName     = "hook.log"     // the runner's output
	lockName    = "hook.lock"    // held by the runner at work
	pendingName = "hook.pending" // a request not yet served
)

// DefaultSettle is how long the runner waits after the last request
// before it re-indexes, so that the hooks of one git command (a merge
// runs post-merge, a rebase post-checkout and post-commit many times)
// give one run.
const DefaultSettle = 300 * time.Millisecond

// Request records that the index of root should catch up with the work
// tree after event, and reports whether a runner must be started (none is
// at work; one that is will see the request).
func Request(root, event string) (start bool, err error) {
	dir := store.Dir(root)
	line := fmt.Sprintf("%s %s\n", time.Now().UTC().Format(time.RFC3339Nano), event)
	if err := os.WriteFile(filepath.Join(dir, pendingName), []byte(line), 0o644); err != nil {
		return false, fmt.Errorf("record the request: %w", err)
	}
	unlock, ok, err := tryLock(dir)
	if err != nil || !ok {
		return false, err
	}
	unlock()
	return true, nil
}

// Run serves requests for root until none is pending: it takes the runner
// lock (returning at once when another runner has it), waits until no
// request came for settle, clears the request and calls reindex, and
// goes on while requests arrived meanwhile. What it does goes to log.
func Run(ctx context.Context, root string, settle time.Duration, reindex func(context.Context) error, log io.Writer) error {
	dir := store.Dir(root)
	pending := filepath.Join(dir, pendingName)
	for {
		unlock, ok, err := tryLock(dir)
		if err != nil || !ok {
			return err
		}
		err = serve(ctx, pending, settle, reindex, log)
		unlock()
		if err != nil {
			return err
		}
		// A request written after the last look but before the unlock
		// found the lock held: serve it here.
		if _, err := os.Stat(pending); err != nil {
			return nil
		}
	}
}

// serve runs reindex once per settled request while requests are pending.
func serve(ctx context.Context, pending string, settle time.Duration, reindex func(context.Context) error, log io.Writer) error {
	for {
		fi, err := os.Stat(pending)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if age := time.Since(fi.ModTime()); age < settle {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(settle - age):
			}
			continue
		}
		why, _ := os.ReadFile(pending)
		if err := os.Remove(pending); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		start := time.Now()
		fmt.Fprintf(log, "%s re-indexing (last request: %s)\n", start.Format(time.DateTime), trimLine(why))
		if err := reindex(ctx); err != nil {
			fmt.Fprintf(log, "%s re-indexing failed: %v\n", time.Now().Format(time.DateTime), err)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue
		}
		fmt.Fprintf(log, "%s done in %.1fs\n", time.Now().Format(time.DateTime), time.Since(start).Seconds())
	}
}

func trimLine(b []byte) string {
	s := string(b)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// tryLock takes the runner lock without waiting; ok is false when another
// process holds it. The lock dies with its process.
func tryLock(dir string) (unlock func(), ok bool, err error) {
	path := filepath.Join(dir, lockName)
	lock := flock.New(path, flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
	locked, err := lock.TryLock()
	if err != nil {
		return nil, false, fmt.Errorf("lock %s: %w", path, err)
	}
	if !locked {
		return nil, false, nil
	}
	return func() {
		_ = lock.Unlock()
	}, true, nil
}
