package cli_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testservices"
)

// startServer starts the binary's serve with args in dir and returns the
// address it listens on; it is killed when the test ends.
func startServer(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--port", "0", "--json-log"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve exited:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			var rec struct{ Msg, URL string }
			if json.Unmarshal([]byte(l), &rec) == nil && rec.Msg == "listening" {
				go func() { // keep draining
					for range lines {
					}
				}()
				return rec.URL
			}
		case <-deadline:
			t.Fatalf("the server did not say where it listens:\n%s", strings.Join(seen, "\n"))
		}
	}
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestPushAndServeFromStore: analyze --push and push write a repository to
// a real PostgreSQL; serve --store, with a home of its own (no registry,
// no checkout), answers from it and picks up the next push.
func TestPushAndServeFromStore(t *testing.T) {
	pg := testservices.StartPostgres(t)
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	r := mustRun(t, home, root, "analyze", "-q", "--push="+pg.URI)
	if !strings.Contains(r.stdout+r.stderr, "Pushed shop to postgres://postgres@127.0.0.1") || !strings.Contains(r.stdout+r.stderr, "generation 1") {
		t.Errorf("analyze --push said:\n%s%s", r.stdout, r.stderr)
	}
	t.Setenv("GITNEXUS_DB_URI", pg.URI)
	r = mustRun(t, home, root, "push", "--json")
	var rep struct {
		Key        string
		Generation int64
		Unchanged  bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Key != "shop" || !rep.Unchanged || rep.Generation != 1 {
		t.Errorf("push of the same index: %v %s", err, r.stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"push", "--store", "bolt://neo4j:7687"}, "export --format neo4j"},
		{[]string{"push", "--store", "mysql://db/x"}, "not supported"},
		{[]string{"analyze", "--push=neo4j://x", "--watch"}, "--push runs once"},
		{[]string{"serve", "--store", "bolt://neo4j:7687"}, "export --format neo4j"},
	} {
		if r := run(t, home, root, c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, r.code, r.stderr)
		}
	}
	if r := run(t, home, t.TempDir(), "push"); r.code == 0 {
		t.Errorf("push outside a repository succeeded: %s", r.stdout)
	}

	replicaHome := t.TempDir()
	url := startServer(t, replicaHome, t.TempDir(), "--store", pg.URI, "--store-poll", "200ms")
	code, body := post(t, url+"/api/v1/tools/context", `{"name": "Client.Charge", "repo": "shop"}`)
	if code != 200 || !strings.Contains(body, "payment/payment.go:7") {
		t.Errorf("context from the store: %d %s", code, body)
	}
	code, body = post(t, url+"/api/v1/tools/detect_changes", `{"repo": "shop"}`)
	if code == 200 || !strings.Contains(body, "checkout") {
		t.Errorf("detect_changes from the store: %d %s", code, body)
	}
	if _, err := os.Stat(filepath.Join(replicaHome, "registry.json")); err == nil {
		t.Error("the replica registered something")
	}

	writeFiles(t, root, map[string]string{"payment/refund.go": "package payment\n\n// Refund gives money back.\nfunc Refund(amount int) error { return validate(amount) }\n"})
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "refunds")
	mustRun(t, home, root, "analyze", "-q", "--push")
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, body = post(t, url+"/api/v1/tools/impact", `{"target": "validate", "repo": "shop"}`)
		if code == 200 && strings.Contains(body, "Refund") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica does not serve the second push: %d %s", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
