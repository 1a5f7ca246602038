package testservices

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// missing skips or fails a test whose server is not installed.
func missing(t testing.TB, what string) {
	t.Helper()
	msg := what + " is not installed: run `make test-services` (Debian's postgresql and redis-server)"
	if testing.Short() {
		t.Skip(msg)
	}
	t.Fatal(msg)
}

// freePort asks the kernel for a free TCP port on 127.0.0.1.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitPort waits until something accepts connections on the port, or the
// process exits, or the deadline passes.
func waitPort(port int, exited <-chan struct{}, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("the server exited while starting")
		default:
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("nothing listens on %s after %s", addr, timeout)
}

// child is a server process started by a test.
type child struct {
	cmd    *exec.Cmd
	exited chan struct{}
	log    string
}

// startChild starts a server, as uid/gid when asked (>= 0), dying with
// the test process.
func startChild(t testing.TB, logPath string, uid, gid int, name string, args ...string) *child {
	t.Helper()
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	childAttrs(cmd, uid, gid)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	c := &child{cmd: cmd, exited: make(chan struct{}), log: logPath}
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	return c
}

// stop sends sig and waits for the process to exit (killing it after the
// grace period).
func (c *child) stop(sig os.Signal, grace time.Duration) {
	if c == nil {
		return
	}
	select {
	case <-c.exited:
		return
	default:
	}
	_ = c.cmd.Process.Signal(sig)
	select {
	case <-c.exited:
	case <-time.After(grace):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// logTail is the end of the server's log, for a failure message.
func logTail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// newestGlob is the last match of a glob in version order (for
// /usr/lib/postgresql/*/bin), or "".
func newestGlob(pattern string) string {
	m, _ := filepath.Glob(pattern)
	sort.Slice(m, func(i, j int) bool {
		if len(m[i]) != len(m[j]) {
			return len(m[i]) < len(m[j])
		}
		return m[i] < m[j]
	})
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}
