package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/httpserver"
	"gitnexus.dev/gitnexus/internal/testrepo"
	"gitnexus.dev/gitnexus/internal/webhook"
)

// TestWebhookServesNewGraph: serve's webhook, end to end over HTTP on
// 127.0.0.1: a signed push to a registered repository's origin (a bare
// repository reached by file:// URL) is fetched, fast-forwarded and
// re-indexed by analyze, and the next tool call answers from the new graph;
// a bad signature gets 401 even with the bearer token, and a push to an
// unknown repository 404, both logged.
func TestWebhookServesNewGraph(t *testing.T) {
	testrepo.Home(t)
	base := t.TempDir()
	seed := testrepo.New(t, filepath.Join(base, "seed"), map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n", "pay.go": "package shop\n\n// Charge charges.\nfunc Charge() int { return 1 }\n"})
	bare := filepath.Join(base, "shop.git")
	testrepo.Git(t, base, "clone", "-q", "--bare", seed, bare)
	work, dev := filepath.Join(base, "shop"), filepath.Join(base, "dev")
	testrepo.Git(t, base, "clone", "-q", "file://"+bare, work)
	testrepo.Git(t, base, "clone", "-q", "file://"+bare, dev)
	quiet := &IO{Out: io.Discard, ErrOut: io.Discard, Getwd: os.Getwd}
	if err := reanalyze(context.Background(), quiet, work, 0); err != nil {
		t.Fatal(err)
	}

	const secret, token = "hook-secret", "bearer-token"
	b, err := backend.New(backend.Options{Cwd: work, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var log lockedBuffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	rcv, err := newWebhookReceiver(secret, 50*time.Millisecond, b, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	srv, err := httpserver.New(b, httpserver.Options{Addr: "127.0.0.1:0", Token: token, Webhook: rcv, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	findRefund := func() (bool, map[string]any) {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/tools/find_symbol", strings.NewReader(`{"name": "Refund"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var ans struct {
			Result map[string]any `json:"result"`
		}
		json.NewDecoder(resp.Body).Decode(&ans)
		idx, _ := ans.Result["index"].(map[string]any)
		return resp.StatusCode == 200 && strings.Contains(fmt.Sprint(ans.Result), "refund.go"), idx
	}
	if found, _ := findRefund(); found {
		t.Fatal("Refund before the push")
	}

	testrepo.Write(t, dev, map[string]string{"refund.go": "package shop\n\n// Refund pays back.\nfunc Refund() int { return -Charge() }\n"})
	testrepo.Git(t, dev, "add", "-A")
	testrepo.Git(t, dev, "commit", "-q", "-m", "refund")
	testrepo.Git(t, dev, "push", "-q", "origin", "HEAD:main")
	pushed := testrepo.Git(t, dev, "rev-parse", "HEAD")
	event := func(url string) []byte {
		return []byte(fmt.Sprintf(`{"ref":"refs/heads/main","after":%q,"repository":{"full_name":"acme/shop","clone_url":%q}}`, pushed, url))
	}
	deliver := func(body []byte, sign string, bearer bool) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/webhook", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "push")
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(webhook.GitHubSignature(body, sign)))
		if bearer {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	if code, body := deliver(event("file://"+bare), "wrong-secret", true); code != http.StatusUnauthorized {
		t.Errorf("bad signature: %d %s", code, body)
	}
	if code, body := deliver(event("https://github.com/acme/elsewhere.git"), secret, false); code != http.StatusNotFound {
		t.Errorf("unknown repository: %d %s", code, body)
	}
	if head := testrepo.Git(t, work, "rev-parse", "HEAD"); head == pushed {
		t.Fatal("the checkout moved on a rejected delivery")
	}
	start := time.Now()
	if code, body := deliver(event("file://"+bare), secret, false); code != http.StatusAccepted || !strings.Contains(body, `"shop"`) {
		t.Fatalf("signed push: %d %s", code, body)
	}
	var idx map[string]any
	for found := false; !found; {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the new graph was not served within 30 s; log:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
		found, idx = findRefund()
	}
	t.Logf("served the pushed commit %.1f s after the delivery", time.Since(start).Seconds())
	if idx["commit"] != pushed || idx["stale"] != false {
		t.Errorf("index object of the new answer: %v", idx)
	}
	if head := testrepo.Git(t, work, "rev-parse", "HEAD"); head != pushed {
		t.Errorf("checkout at %s, pushed %s", head, pushed)
	}
	logged := log.String()
	for _, want := range []string{"webhook: rejected delivery", "webhook: no registered repository matches the push", "action=fast-forwarded"} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q:\n%s", want, logged)
		}
	}
	if strings.Contains(logged, secret) {
		t.Error("the secret was logged")
	}
}
