package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is a `gitnexus serve --port 0` on 127.0.0.1, run under timeout(1)
// so that it stops by itself even if this program dies.
type server struct {
	cmd     *exec.Cmd
	logPath string
	url     string
	version string
	done    chan error
	stopped bool
}

var listening = regexp.MustCompile(`msg=listening url=(\S+)`)

func startServer(bin, home string, life time.Duration) (*server, error) {
	logFile, err := os.CreateTemp("", "gitnexus-serve-*.log")
	if err != nil {
		return nil, err
	}
	s := &server{logPath: logFile.Name(), done: make(chan error, 1)}
	s.cmd = exec.Command("timeout", strconv.Itoa(int(life.Seconds())), bin, "serve", "--host", "127.0.0.1", "--port", "0")
	s.cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home, "GITNEXUS_AUTH_TOKEN=")
	s.cmd.Stderr = logFile
	if err := s.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s serve: %w", bin, err)
	}
	logFile.Close()
	go func() { s.done <- s.cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for s.url == "" {
		b, _ := os.ReadFile(s.logPath)
		if m := listening.FindSubmatch(b); m != nil {
			s.url = string(m[1])
			break
		}
		select {
		case err := <-s.done:
			s.stopped = true
			return nil, fmt.Errorf("gitnexus serve exited (%v): %s", err, b)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("gitnexus serve did not say where it listens within 20s: %s", b)
		}
	}
	resp, err := http.Get(s.url + "/api/v1/health")
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	var health struct {
		Version string `json:"version"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil {
		s.stop()
		return nil, fmt.Errorf("health check: %w", err)
	}
	s.version = health.Version
	return s, nil
}

// stop sends SIGTERM to the server (through timeout, which passes it on),
// waits for it to drain and exit, and counts the access log's answers to
// the load's endpoints: "200" and "other".
func (s *server) stop() (map[string]int, error) {
	if !s.stopped {
		s.stopped = true
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return nil, fmt.Errorf("stop the server (pid %d): %w", s.cmd.Process.Pid, err)
		}
		select {
		case err := <-s.done:
			if err != nil {
				return nil, fmt.Errorf("the server exited with %w", err)
			}
		case <-time.After(40 * time.Second):
			s.cmd.Process.Kill()
			return nil, fmt.Errorf("the server (pid %d) did not stop within 40s; killed", s.cmd.Process.Pid)
		}
	}
	defer os.Remove(s.logPath)
	f, err := os.Open(s.logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "msg=request ") ||
			!(strings.Contains(line, " path=/api/v1/file/") || strings.Contains(line, " path=/api/v1/tools/impact ")) {
			continue
		}
		if strings.Contains(line, " status=200 ") {
			counts["200"]++
		} else {
			counts["other"]++
		}
	}
	return counts, sc.Err()
}

// loopback reports whether host is a loopback name or address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
