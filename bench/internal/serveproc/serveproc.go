// Package serveproc runs `gitnexus serve` for the benchmarks: on
// 127.0.0.1 at a free port, under timeout(1) so that it stops by itself
// even if the benchmark dies, with its access log in a file of its own.
package serveproc

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Server is a running `gitnexus serve`.
type Server struct {
	URL     string // http://127.0.0.1:<port>
	Version string // as the health check reports it
	LogPath string // stderr: the access log, one record a request

	cmd     *exec.Cmd
	done    chan error
	stopped bool
}

var listening = regexp.MustCompile(`msg=listening url=(\S+)`)

// Start starts bin serve with GITNEXUS_HOME=home (and no token from the
// environment), the extra arguments after it, for at most life. It
// returns once the health check answers.
func Start(bin, home string, life time.Duration, args ...string) (*Server, error) {
	logFile, err := os.CreateTemp("", "gitnexus-serve-*.log")
	if err != nil {
		return nil, err
	}
	s := &Server{LogPath: logFile.Name(), done: make(chan error, 1)}
	argv := append([]string{strconv.Itoa(int(life.Seconds())), bin, "serve", "--host", "127.0.0.1", "--port", "0"}, args...)
	s.cmd = exec.Command("timeout", argv...)
	s.cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home, "GITNEXUS_AUTH_TOKEN=")
	s.cmd.Stderr = logFile
	if err := s.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s serve: %w", bin, err)
	}
	logFile.Close()
	go func() { s.done <- s.cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for s.URL == "" {
		b, _ := os.ReadFile(s.LogPath)
		if m := listening.FindSubmatch(b); m != nil {
			s.URL = string(m[1])
			break
		}
		select {
		case err := <-s.done:
			s.stopped = true
			return nil, fmt.Errorf("gitnexus serve exited (%v): %s", err, b)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("gitnexus serve did not say where it listens within 20s: %s", b)
		}
	}
	if u, err := url.Parse(s.URL); err != nil || !Loopback(u.Hostname()) {
		s.Stop()
		return nil, fmt.Errorf("the server listens on %q, not on a loopback address", s.URL)
	}
	resp, err := http.Get(s.URL + "/api/v1/health")
	if err != nil {
		s.Stop()
		return nil, fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	var health struct {
		Version string `json:"version"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil {
		s.Stop()
		return nil, fmt.Errorf("health check: %w", err)
	}
	s.Version = health.Version
	return s, nil
}

// Stop sends SIGTERM to the server (through timeout, which passes it on)
// and waits for it to drain and exit; it kills it after 40 s. The log is
// left for the caller to read and remove.
func (s *Server) Stop() error {
	if s.stopped {
		return nil
	}
	s.stopped = true
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop the server (pid %d): %w", s.cmd.Process.Pid, err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("the server exited with %w", err)
		}
	case <-time.After(40 * time.Second):
		s.cmd.Process.Kill()
		return fmt.Errorf("the server (pid %d) did not stop within 40s; killed", s.cmd.Process.Pid)
	}
	return nil
}

// RSS is the resident memory of the gitnexus process (timeout's child),
// in bytes, read from /proc; 0 when it cannot be read.
func (s *Server) RSS() int64 {
	pid := s.cmd.Process.Pid
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if child, err := strconv.Atoi(f[0]); err == nil {
				pid = child
			}
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Loopback reports whether host is a loopback name or address.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
