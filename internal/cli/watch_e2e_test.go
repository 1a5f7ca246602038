package cli_test

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestWatchStopsOnSignals: analyze --watch ends with status 0 on SIGTERM
// and on SIGINT.
func TestWatchStopsOnSignals(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "watched", shop)
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		cmd, done := startUntil(t, home, repo, "Watching ", "analyze", "--watch", "-q")
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("%v: exit %d, want 0", sig, code)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running after 10 s", sig)
		}
	}
}
