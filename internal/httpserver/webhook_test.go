package httpserver

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/webhook"
)

// TestWebhookRoute: the webhook authenticates by signature, not by the
// bearer token; it is off without a receiver; other methods still need
// the token. (What the receiver does with a push is tested in
// internal/webhook and, end to end, in internal/cli.)
func TestWebhookRoute(t *testing.T) {
	rcv, err := webhook.New(webhook.Options{Secret: "hook", Repos: func() []webhook.Repo { return nil },
		Reindex: func(context.Context, string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	base, _ := start(t, Options{Token: "s3cret", Webhook: rcv}, backend.Options{})
	ping := `{"zen":"hi"}`
	signed := map[string]string{"X-GitHub-Event": "ping", "X-Hub-Signature-256": "sha256=" + hex.EncodeToString(webhook.GitHubSignature([]byte(ping), "hook"))}
	if r := do(t, "POST", base+"/api/v1/webhook", ping, signed); r.status != 200 || !strings.Contains(r.body, "pong") {
		t.Errorf("signed ping without a bearer token: %d %s", r.status, r.body)
	}
	unsigned := map[string]string{"X-GitHub-Event": "ping"}
	if r := do(t, "POST", base+"/api/v1/webhook", ping, unsigned); r.status != 401 || !strings.Contains(r.body, "X-Hub-Signature-256") {
		t.Errorf("unsigned ping: %d %s", r.status, r.body)
	}
	if r := do(t, "GET", base+"/api/v1/webhook", "", nil); r.status != 401 || !strings.Contains(r.body, "bearer token") {
		t.Errorf("GET without a token: %d %s", r.status, r.body)
	}
	if r := do(t, "GET", base+"/api/v1/webhook", "", map[string]string{"Authorization": "Bearer s3cret"}); r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Errorf("GET with the token: %d %v", r.status, r.header)
	}
	if r := do(t, "POST", base+"/api/v1/webhook", strings.Repeat("x", maxWebhookBytes+1), signed); r.status != 413 {
		t.Errorf("oversized delivery: %d", r.status)
	}
	off, _ := start(t, Options{}, backend.Options{})
	if r := do(t, "POST", off+"/api/v1/webhook", ping, signed); r.status != 404 || !strings.Contains(r.body, "--webhook-secret") {
		t.Errorf("webhook off: %d %s", r.status, r.body)
	}
}
