package cli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testservices"
)

// serveLog is a server's stderr, read while it is written.
type serveLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *serveLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *serveLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A cache URL that is not Redis's is refused at start-up, from the flag
// and from either environment variable.
func TestServeCacheURLRefused(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		env  string
		args []string
	}{
		{"", []string{"serve", "--port", "0", "--cache", "http://cache:6379"}},
		{"GITNEXUS_REDIS_URL=memcache://cache", []string{"serve", "--port", "0"}},
		{"GITNEXUS_CACHE_REDIS=cache:6379", []string{"serve", "--port", "0"}},
	} {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home, "GITNEXUS_REDIS_URL=", "GITNEXUS_CACHE_REDIS=")
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 || !strings.Contains(errb.String(), "redis://") {
			t.Errorf("%s gitnexus %v: %v, want exit 2 naming redis://:\n%s", c.env, c.args, err, errb.String())
		}
	}
}

// startServe runs `gitnexus serve --port 0` with more arguments and
// returns its base URL and stderr; it is stopped with SIGTERM when the
// test ends.
func startServe(t *testing.T, home string, env []string, args ...string) (string, *serveLog) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--port", "0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "GITNEXUS_HOME="+home, "GITNEXUS_REDIS_URL=", "GITNEXUS_CACHE_REDIS="), env...)
	stderr := &serveLog{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	addr := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)`)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stderr
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("serve did not start:\n%s", stderr.String())
	return "", nil
}

func postTool(t *testing.T, base, tool, body string) string {
	t.Helper()
	resp, err := http.Post(base+"/api/v1/tools/"+tool, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", tool, resp.StatusCode, b)
	}
	return string(b)
}

func cacheHits(t *testing.T, base string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		AnswerCache *struct{ Hits float64 } `json:"answerCache"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || h.AnswerCache == nil {
		t.Fatalf("health without answerCache: %v", err)
	}
	return h.AnswerCache.Hits
}

// Two replicas of one index share answers through Redis (named by the
// deployment's variable); a Redis that does not answer at start-up is a
// warning, and serve answers uncached.
func TestServeSharedCache(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	redis := testservices.StartRedis(t)

	a, _ := startServe(t, home, []string{"GITNEXUS_CACHE_REDIS=" + redis.URL})
	b, _ := startServe(t, home, nil, "--cache", redis.URL)
	first := postTool(t, a, "context", `{"name": "validate"}`)
	second := postTool(t, b, "context", `{"name": "validate"}`)
	if first != second {
		t.Errorf("the replicas' answers differ:\n%s\n%s", first, second)
	}
	if cacheHits(t, a) != 0 || cacheHits(t, b) != 1 {
		t.Errorf("hits: %v and %v, want 0 and 1 (the second replica reuses the first's answer)", cacheHits(t, a), cacheHits(t, b))
	}

	redis.Stop()
	c, stderr := startServe(t, home, nil, "--cache", redis.URL)
	postTool(t, c, "context", `{"name": "validate"}`)
	if !strings.Contains(stderr.String(), "Redis does not answer") {
		t.Errorf("no warning about the Redis that does not answer:\n%s", stderr.String())
	}
}
