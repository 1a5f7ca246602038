package githook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func indexDir(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".gitnexus"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestRunCoalesces: fifty requests in a burst, some while a run is at
// work, give few runs, never two at once, and the last request is served.
func TestRunCoalesces(t *testing.T) {
	root := indexDir(t)
	var runs, active, overlap atomic.Int32
	var served atomic.Int64 // the time of the last request a run started after
	reindex := func(ctx context.Context) error {
		if active.Add(1) > 1 {
			overlap.Add(1)
		}
		defer active.Add(-1)
		runs.Add(1)
		served.Store(time.Now().UnixNano())
		time.Sleep(30 * time.Millisecond)
		return nil
	}
	var log bytes.Buffer
	var logMu sync.Mutex
	var wg sync.WaitGroup
	var last atomic.Int64
	for i := 0; i < 50; i++ {
		start, err := Request(root, "post-commit")
		if err != nil {
			t.Fatal(err)
		}
		last.Store(time.Now().UnixNano())
		if start {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var b bytes.Buffer
				if err := Run(context.Background(), root, 50*time.Millisecond, reindex, &b); err != nil {
					t.Error(err)
				}
				logMu.Lock()
				log.Write(b.Bytes())
				logMu.Unlock()
			}()
		}
		time.Sleep(2 * time.Millisecond)
	}
	wg.Wait()
	if n := runs.Load(); n < 1 || n > 5 { // a loaded machine may sleep much longer than asked
		t.Errorf("%d runs for a burst of 50 requests\n%s", n, log.String())
	}
	if overlap.Load() > 0 {
		t.Error("two runs at once")
	}
	if served.Load() < last.Load() {
		t.Error("the last request was not served")
	}
	if _, err := os.Stat(filepath.Join(root, ".gitnexus", pendingName)); !os.IsNotExist(err) {
		t.Errorf("a request is left: %v", err)
	}
}

// TestRunBusy: a second runner returns at once while the first works, and
// the first serves the request made meanwhile.
func TestRunBusy(t *testing.T) {
	root := indexDir(t)
	started := make(chan struct{})
	release := make(chan struct{})
	var runs atomic.Int32
	reindex := func(ctx context.Context) error {
		if runs.Add(1) == 1 {
			close(started)
			<-release
		}
		return nil
	}
	if _, err := Request(root, "post-commit"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- Run(context.Background(), root, 0, reindex, &bytes.Buffer{}) }()
	<-started
	start, err := Request(root, "post-merge")
	if err != nil || start {
		t.Fatalf("request while a runner works: start %v, %v", start, err)
	}
	if err := Run(context.Background(), root, 0, reindex, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("%d runs, want 2 (the request made during the first)", n)
	}
}
