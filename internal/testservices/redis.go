package testservices

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Redis is a redis-server started for a test.
type Redis struct {
	// URL is the server's redis:// address.
	URL  string
	Port int

	t   testing.TB
	dir string
	c   *child
}

// StartRedis starts redis-server on 127.0.0.1 with nothing persisted; it
// is stopped when the test ends.
func StartRedis(t testing.TB) *Redis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		missing(t, "redis-server")
	}
	r := &Redis{t: t, dir: t.TempDir(), Port: freePort(t)}
	r.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port)
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// Start starts the server again after Stop or Kill (same port).
func (r *Redis) Start() {
	r.t.Helper()
	r.c = startChild(r.t, filepath.Join(r.dir, "redis.log"), -1, -1, "redis-server",
		"--bind", "127.0.0.1", "--port", fmt.Sprint(r.Port), "--save", "", "--appendonly", "no",
		"--dir", r.dir, "--protected-mode", "yes")
	if err := waitPort(r.Port, r.c.exited, 20*time.Second); err != nil {
		r.t.Fatalf("redis-server: %v\n%s", err, logTail(r.c.log))
	}
}

// Stop shuts the server down and waits for it to exit.
func (r *Redis) Stop() { r.c.stop(sigTerm, 10*time.Second) }

// Kill kills the server at once.
func (r *Redis) Kill() { r.c.stop(os.Kill, 10*time.Second) }
