package index

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// indexRows dumps what the index holds: nodes, edges and history records.
func indexRows(t *testing.T, root string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(store.Dir(root), store.DBName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string][]string{}
	for _, view := range []string{"nodes", "edges", "commits", "file_changes", "symbol_changes"} {
		out[view] = testrepo.Rows(t, db, "SELECT * FROM "+view)
	}
	return out
}

// twins makes two repositories with the same n commits (editHistory) and
// indexes the second with every commit mapped.
func twins(t *testing.T, n int) (inc, full string) {
	t.Helper()
	inc, full = filepath.Join(t.TempDir(), "r"), filepath.Join(t.TempDir(), "r")
	for _, root := range []string{inc, full} {
		testrepo.EditHistory(t, root, n)
	}
	if _, err := Analyze(context.Background(), full, analyzeOptions(0)); err != nil {
		t.Fatal(err)
	}
	if p := historyPending(t, full); p != 0 {
		t.Fatalf("a run without a window left %d commits pending", p)
	}
	return inc, full
}

// sameIndex requires the index of inc (written in steps) to hold what the
// index of full (written at once) holds.
func sameIndex(t *testing.T, inc, full string) {
	t.Helper()
	a, b := indexRows(t, inc), indexRows(t, full)
	for k := range b {
		if !reflect.DeepEqual(a[k], b[k]) {
			t.Errorf("%s differ:\n only in steps: %v\n  only at once: %v", k, onlyIn(a[k], b[k]), onlyIn(b[k], a[k]))
		}
	}
}

func analyzeOptions(window int) Options {
	opt := Defaults()
	opt.Version = testVersion
	opt.Workers, opt.MaxFileSize = 2, 512<<10
	opt.History.Window, opt.History.Budget = window, 0
	return opt
}

// TestCatchUpInterrupted maps a history in steps, the catch-up cancelled at
// random points again and again, and requires the index it ends with to be
// the one a run without a window writes.
func TestCatchUpInterrupted(t *testing.T) {
	testrepo.Home(t)
	defer func(n int) { catchUpStep = n }(catchUpStep)
	catchUpStep = 3
	inc, full := twins(t, 30)
	ctx := context.Background()
	rep, err := Analyze(ctx, inc, analyzeOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	if rep.HistoryPending != 28 || rep.CatchUp != "" {
		t.Fatalf("the first run: %d commits pending (want the 28 of 30 outside the window), catch-up %q (want none: no StartCatchUp)",
			rep.HistoryPending, rep.CatchUp)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	interrupted, runs := 0, 0
	for historyPending(t, inc) > 0 {
		if runs++; runs > 200 {
			t.Fatalf("the catch-up makes no progress: %d commits still pending", historyPending(t, inc))
		}
		cctx, cancel := context.WithTimeout(ctx, time.Duration(1+rng.IntN(100))*time.Millisecond)
		err := CatchUp(cctx, inc, analyzeOptions(0), nil)
		cancel()
		if err != nil {
			interrupted++
		}
	}
	if interrupted == 0 {
		t.Errorf("no catch-up was interrupted: the test checks nothing of resuming")
	}
	t.Logf("%d catch-ups, %d interrupted", runs, interrupted)
	if _, err := os.Stat(filepath.Join(store.Dir(inc), CatchUpYieldName)); err == nil {
		t.Errorf("a yield file was left behind")
	}
	sameIndex(t, inc, full)
}

// onlyIn lists the first rows of a that b lacks.
func onlyIn(a, b []string) []string {
	in := map[string]bool{}
	for _, r := range b {
		in[r] = true
	}
	var out []string
	for _, r := range a {
		if !in[r] && len(out) < 5 {
			out = append(out, r)
		}
	}
	return out
}

// TestCatchUpYields runs analyze while a catch-up maps the history: the
// catch-up makes way (analyze does not fail on the lock though it does not
// wait for it), goes on after it, and ends with the index a run without a
// window writes.
func TestCatchUpYields(t *testing.T) {
	testrepo.Home(t)
	defer func(n int) { catchUpStep = n }(catchUpStep)
	catchUpStep = 2
	inc, full := twins(t, 30)
	ctx := context.Background()
	if _, err := Analyze(ctx, inc, analyzeOptions(2)); err != nil {
		t.Fatal(err)
	}
	var logged []string
	done := make(chan error, 1)
	go func() {
		done <- CatchUp(ctx, inc, analyzeOptions(0), func(format string, args ...any) {
			logged = append(logged, fmt.Sprintf(format, args...))
		})
	}()
	for !catchUpRunning(inc) {
		time.Sleep(5 * time.Millisecond)
	}
	opt := analyzeOptions(2)
	opt.Force = true // a run that writes the index, not one that finds it fresh
	rep, err := Analyze(ctx, inc, opt)
	if err != nil {
		t.Fatalf("analyze while a catch-up runs: %v", err)
	}
	if rep.CatchUp != "" {
		t.Errorf("analyze started a catch-up without StartCatchUp: %q", rep.CatchUp)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if p := historyPending(t, inc); p != 0 {
		t.Fatalf("the catch-up ended with %d commits pending; its log: %q", p, logged)
	}
	sameIndex(t, inc, full)
	t.Logf("catch-up log: %q", logged)
}

// TestBudgetLeavesRestPending: a run whose time budget is spent before the
// symbol pass starts leaves every commit pending (with its files), and a
// catch-up then writes the index a run without a budget writes.
func TestBudgetLeavesRestPending(t *testing.T) {
	testrepo.Home(t)
	inc, full := twins(t, 12)
	ctx := context.Background()
	opt := analyzeOptions(0)
	opt.History.Budget = time.Nanosecond
	rep, err := Analyze(ctx, inc, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HistoryPending != 12 || rep.Summary.History.SymbolChanges != 0 || rep.Summary.History.Commits != 12 {
		t.Fatalf("a spent budget: %d pending, %d symbol changes, %d commits; want 12, 0, 12",
			rep.HistoryPending, rep.Summary.History.SymbolChanges, rep.Summary.History.Commits)
	}
	if err := CatchUp(ctx, inc, analyzeOptions(0), nil); err != nil {
		t.Fatal(err)
	}
	sameIndex(t, inc, full)
}

// historyPending is how many commits of the index's history are still to
// be mapped onto symbols.
func historyPending(t *testing.T, root string) int {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Meta().History; h != nil {
		return h.Pending
	}
	return 0
}

// TestCatchUpLeavesAnotherBuildsIndex: a catch-up started by one build
// stops, writing nothing, once another build (an upgrade) has written the
// index: its steps would write a graph resolved by older rules over the
// newer one.
func TestCatchUpLeavesAnotherBuildsIndex(t *testing.T) {
	testrepo.Home(t)
	root := filepath.Join(t.TempDir(), "r")
	testrepo.EditHistory(t, root, 12)
	ctx := context.Background()
	if _, err := Analyze(ctx, root, analyzeOptions(2)); err != nil {
		t.Fatal(err)
	}
	newer := analyzeOptions(2)
	newer.Version = testVersion + "-newer"
	if _, err := Analyze(ctx, root, newer); err != nil {
		t.Fatal(err)
	}
	before := historyPending(t, root)
	if before == 0 {
		t.Fatal("nothing pending: the test checks nothing")
	}
	var log []string
	if err := CatchUp(ctx, root, analyzeOptions(0), func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	meta := r.Meta()
	r.Close()
	if meta.Writer != extractorKey(newer.Version) || historyPending(t, root) != before {
		t.Errorf("the older build's catch-up wrote the index: writer %q, %d pending (was %d); log %q", meta.Writer, historyPending(t, root), before, log)
	}
	if len(log) == 0 || !strings.Contains(log[len(log)-1], "written by another build") {
		t.Errorf("the catch-up does not say why it stopped: %q", log)
	}
	// The newer build's own catch-up completes the history.
	if err := CatchUp(ctx, root, newer, nil); err != nil {
		t.Fatal(err)
	}
	if p := historyPending(t, root); p != 0 {
		t.Errorf("the newer build's catch-up left %d commits pending", p)
	}
}
