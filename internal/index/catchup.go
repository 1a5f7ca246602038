package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"gitnexus.dev/gitnexus/internal/store"
)

// History in two steps. Mapping every commit onto symbols takes a
// repository of thousands of commits tens of seconds; the code graph and
// the commits with the files they changed take seconds. So a run with a
// window (History.Window) or a time budget (History.Budget, ForegroundBudget
// by default) maps the newest commits only, writes the index and returns; the older commits are in
// the index with their files, marked graph.SkipPending and counted in the
// history settings (graph.HistorySettings.Pending), and a catch-up
// (CatchUp, run in the background by StartCatchUp) maps them in steps,
// each an ordinary analyze with a larger window that writes the index
// again. A step reuses the records of the commits the index mapped and
// reads the others only, so the history it ends with is the one a run
// without a window writes.
//
// One catch-up at a time holds the catch-up lock. A run that is not a
// catch-up asks a running one to make way (the yield file): the catch-up's
// step is cancelled, which leaves the index as the last step wrote it, and
// the run takes the index lock, waiting up to yieldWait for it, then
// removes the file; the catch-up waits for that, and goes on with its next
// step once the run is done. An interrupted catch-up (the machine went
// down) is started again by the next analyze, which sees the pending
// commits.

// ForegroundBudget is how long analyze maps commits onto symbols before it
// returns, by default, newest first; the older ones are mapped in the
// background (or before it returns with --wait-history, and in CI). The
// first analyze of a repository is what a user waits for: with 300 ms the
// history adds about half a second to it on two cores (listing the
// commits, the budget, writing them), which keeps the default analyze ten
// times faster than gitnexus 1.6.12 on small repositories as on large ones
// (bench/history/README.md).
const ForegroundBudget = 300 * time.Millisecond

// catchUpStep is the least number of commits a catch-up step maps; a step
// at least doubles the commits the index mapped. A variable for the tests.
var catchUpStep = 1000

// yieldWait bounds how long a run waits for a catch-up it asked to stop.
const yieldWait = time.Minute

// Files of the catch-up in the index directory.
const (
	CatchUpLockName  = "history-catch-up.lock"
	CatchUpYieldName = "history-catch-up.yield"
	CatchUpLogName   = "history-catch-up.log"
)

// catchUpRunning reports whether a catch-up holds the repository's
// catch-up lock.
func catchUpRunning(root string) bool {
	path := filepath.Join(store.Dir(root), CatchUpLockName)
	if _, err := os.Stat(path); err != nil {
		return false
	}
	l := flock.New(path, flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
	ok, err := l.TryLock()
	if err != nil {
		return false
	}
	if ok {
		_ = l.Unlock()
		return false
	}
	return true
}

// askCatchUpToYield asks a running catch-up to stop; it reports whether
// one runs.
func askCatchUpToYield(root string) bool {
	if !catchUpRunning(root) {
		return false
	}
	_ = os.WriteFile(filepath.Join(store.Dir(root), CatchUpYieldName), []byte(fmt.Sprintln(os.Getpid())), 0o644)
	return true
}

// CatchUp maps the older commits of the repository's history onto symbols
// in steps until none is pending or the context ends. Another run that asks for the
// index (the yield file) stops the step under way, which is done again
// once that run has the index. opt are the options of each step but the
// history's, which are the index's. It returns at once, with nil, when
// another catch-up runs. logf, when set, receives a line per step.
func CatchUp(ctx context.Context, root string, opt Options, logf func(format string, args ...any)) error {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dir := store.Dir(root)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("no index in %s: run `gitnexus analyze` first", root)
	}
	lock := flock.New(filepath.Join(dir, CatchUpLockName), flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
	ok, err := lock.TryLock()
	if err != nil {
		return fmt.Errorf("catch-up lock: %w", err)
	}
	if !ok {
		logf("another catch-up of %s is running", root)
		return nil
	}
	defer lock.Unlock()
	yieldPath := filepath.Join(dir, CatchUpYieldName)
	stalled := 0 // steps in a row that mapped nothing
	for {
		if err := pauseWhileAsked(ctx, yieldPath, logf); err != nil {
			return err
		}
		r, err := store.OpenRepo(root)
		if err != nil {
			return err
		}
		meta := r.Meta()
		r.Close()
		if meta.History == nil || meta.History.Pending == 0 {
			logf("the history is complete")
			return nil
		}
		if key := extractorKey(opt.Version); meta.Writer != "" && meta.Writer != key {
			// Another build (an upgrade) wrote the index since: a step of
			// ours would write its graph, resolved by older rules, over
			// the newer one. The next analyze of that build starts its
			// own catch-up.
			logf("the index was written by another build of gitnexus (%s): this catch-up stops", meta.Writer)
			return nil
		}
		total := meta.History.Commits
		mapped := max(0, total-meta.History.Pending)
		step := opt
		step.Force = false
		step.History = HistoryOf(meta.History)
		step.History.CatchUp = true
		step.History.Window, step.History.Budget = mapped+max(mapped, catchUpStep), 0
		step.StartCatchUp = nil
		step.Wait = max(step.Wait, stepLockWait)
		logf("mapping the symbols of commits %d to %d of %d", mapped+1, min(step.History.Window, total), total)
		sctx, stop := context.WithCancel(ctx)
		var yielded atomic.Bool
		go func() {
			t := time.NewTicker(yieldPoll)
			defer t.Stop()
			for {
				select {
				case <-sctx.Done():
					return
				case <-t.C:
					if _, err := os.Stat(yieldPath); err == nil {
						yielded.Store(true)
						stop()
						return
					}
				}
			}
		}()
		rep, err := Analyze(sctx, root, step)
		stop()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case yielded.Load():
			logf("step stopped: another analyze asked for the index")
			continue
		case err != nil:
			return err
		}
		if rep.HistoryPending >= meta.History.Pending {
			// Nothing mapped: a step that cannot (the guard, objects
			// missing) must not run again and again in the background.
			if stalled++; stalled == 2 {
				return fmt.Errorf("two steps mapped no commit: %d still pending", rep.HistoryPending)
			}
		} else {
			stalled = 0
		}
		if rep.Summary != nil && rep.Summary.History != nil {
			h := rep.Summary.History
			logf("%d commits read (%d kept), %d still to map", h.Read, h.Reused, rep.HistoryPending)
		}
	}
}

// Timings of the catch-up: how often it looks for the yield file, how long
// a step waits for the index lock, and how long the catch-up pauses for a
// run that asked it to stop and did not take its file away (it died).
const (
	yieldPoll    = 200 * time.Millisecond
	stepLockWait = 30 * time.Minute
	maxPause     = 2 * time.Minute
)

// pauseWhileAsked waits while the yield file is there: until the run that
// asked holds the index lock (it then removes the file), at most maxPause.
func pauseWhileAsked(ctx context.Context, yieldPath string, logf func(string, ...any)) error {
	fi, err := os.Stat(yieldPath)
	if err != nil {
		return nil
	}
	logf("paused: another analyze asked for the index")
	for time.Since(fi.ModTime()) < maxPause {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(yieldPoll):
		}
		if _, err := os.Stat(yieldPath); err != nil {
			return nil
		}
	}
	_ = os.Remove(yieldPath)
	return nil
}

// StartCatchUp starts `gitnexus analyze --history-catch-up` on root in the
// background, with this executable at the lowest CPU priority (nice 19,
// where nice(1) exists), its output in the index directory's
// history-catch-up.log. Analyze calls it when no catch-up runs; one started
// while another runs ends at once (CatchUp).
// The process outlives this one.
func StartCatchUp(root string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("start the history catch-up: %w", err)
	}
	logPath := filepath.Join(store.Dir(root), CatchUpLogName)
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("start the history catch-up: %w", err)
	}
	defer log.Close()
	argv := []string{exe, "analyze", "--history-catch-up", "--quiet", root}
	if nice, err := exec.LookPath("nice"); err == nil {
		// At the lowest CPU priority: the user's first questions, and the
		// analyze runs of their edits, go first.
		argv = append([]string{nice, "-n", "19"}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the history catch-up: %w", err)
	}
	go func() { _ = cmd.Wait() }() // reaped when this process lives on (a server, a watcher)
	return nil
}
