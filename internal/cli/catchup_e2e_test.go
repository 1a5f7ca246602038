package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// catchUpState reads the index's pending commits and whether a catch-up
// holds its lock.
func catchUpState(t *testing.T, root string) (pending int, running bool) {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Meta().History; h != nil {
		pending = h.Pending
	}
	r.Close()
	l := flock.New(filepath.Join(store.Dir(root), index.CatchUpLockName))
	ok, err := l.TryLock()
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		_ = l.Unlock()
	}
	return pending, !ok
}

// TestHistoryCatchUpEqualsBlockingRun: analyze with a small window maps the
// newest commits, returns with the others pending and starts the catch-up
// in the background; once it is done, the index equals the one a run that
// read the whole history before returning wrote.
func TestHistoryCatchUpEqualsBlockingRun(t *testing.T) {
	home := t.TempDir()
	inc, full := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	for _, root := range []string{inc, full} {
		testrepo.EditHistory(t, root, 24)
	}
	var rep struct {
		HistoryPending int    `json:"historyPending"`
		CatchUp        string `json:"historyCatchUp"`
	}
	out := mustRun(t, home, inc, "analyze", "--json", "-q", "--history-window", "4")
	if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.HistoryPending == 0 || rep.CatchUp != "started" {
		t.Fatalf("analyze --history-window 4 left %d commits pending, catch-up %q: want some, started", rep.HistoryPending, rep.CatchUp)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		pending, running := catchUpState(t, inc)
		if pending == 0 && !running {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(store.Dir(inc), index.CatchUpLogName))
			t.Fatalf("the catch-up did not finish: %d pending, running %v; its log:\n%s", pending, running, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(store.Dir(inc), index.CatchUpLogName))
	if !strings.Contains(string(log), "the history is complete") {
		t.Errorf("the catch-up's log does not say it completed:\n%s", log)
	}
	mustRun(t, home, full, "analyze", "--force", "-q", "--wait-history")
	if msg := sameAsRebuild(t, inc, full, nil); msg != "" {
		t.Fatalf("after the catch-up: %s\nits log:\n%s", msg, log)
	}
	// A fresh index with nothing pending starts nothing.
	out = mustRun(t, home, inc, "analyze", "--json", "-q", "--history-window", "4")
	rep.HistoryPending, rep.CatchUp = 0, ""
	if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.HistoryPending != 0 || rep.CatchUp != "" {
		t.Errorf("a complete index: %d pending, catch-up %q", rep.HistoryPending, rep.CatchUp)
	}
}
