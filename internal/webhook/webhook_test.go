package webhook

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

func TestRemoteKey(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://github.com/Acme/Shop.git", "github.com/acme/shop"},
		{"https://user:pw@GitHub.com:443/acme/shop/", "github.com/acme/shop"},
		{"git@github.com:acme/shop.git", "github.com/acme/shop"},
		{"ssh://git@github.com:22/acme/shop.git", "github.com/acme/shop"},
		{"ssh://git@gitlab.example.com:2222/group/sub/shop.git", "gitlab.example.com:2222/group/sub/shop"},
		{"git://github.com/acme/shop.git", "github.com/acme/shop"},
		{"http://github.com/acme/shop", "github.com/acme/shop"},
		{"file:///srv/git/Shop.git", "file:/srv/git/Shop"},
		{"/srv/git/Shop.git/", "file:/srv/git/Shop"},
		{"", ""},
		{"not a url", ""},
	}
	for _, c := range cases {
		if got := remoteKey(c.in); got != c.want {
			t.Errorf("remoteKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if !matchesName("github-work/acme/shop", "Acme/Shop") || matchesName("github.com/acme/shopping", "acme/shop") || matchesName("file:/x/acme/shop", "acme/shop") {
		t.Error("matchesName")
	}
}

func TestSignatures(t *testing.T) {
	body := []byte(`{"ref":"refs/heads/main"}`)
	good := "sha256=" + hex.EncodeToString(GitHubSignature(body, "s3cret"))
	cases := []struct {
		header, secret string
		want           bool
	}{
		{good, "s3cret", true},
		{good, "other", false},
		{"", "s3cret", false},
		{"sha1=" + good[7:], "s3cret", false},
		{"sha256=zz", "s3cret", false},
		{good[:len(good)-2], "s3cret", false},
		{good, "", false},
	}
	for _, c := range cases {
		if got := validGitHubSignature(body, c.header, c.secret); got != c.want {
			t.Errorf("github %q with %q: %v", c.header, c.secret, got)
		}
	}
	if !validGitLabToken("s3cret", "s3cret") || validGitLabToken("s3cre", "s3cret") || validGitLabToken("", "") {
		t.Error("gitlab token")
	}
}

// remoteSetup is a bare repository (the remote), a registered checkout
// cloned from it by file:// URL, and a developer's clone that pushes.
type remoteSetup struct {
	bare, work, dev string
	url             string
}

func newRemote(t *testing.T) remoteSetup {
	t.Helper()
	base := t.TempDir()
	seed := testrepo.New(t, filepath.Join(base, "seed"), map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	s := remoteSetup{bare: filepath.Join(base, "shop.git")}
	testrepo.Git(t, base, "clone", "-q", "--bare", seed, s.bare)
	s.url = "file://" + s.bare
	s.work, s.dev = filepath.Join(base, "work"), filepath.Join(base, "dev")
	testrepo.Git(t, base, "clone", "-q", s.url, s.work)
	testrepo.Git(t, base, "clone", "-q", s.url, s.dev)
	return s
}

// push commits a file in dev and pushes it to ref; it returns the commit.
func (s remoteSetup) push(t *testing.T, file, body, ref string) string {
	t.Helper()
	testrepo.Write(t, s.dev, map[string]string{file: body})
	testrepo.Git(t, s.dev, "add", "-A")
	testrepo.Git(t, s.dev, "commit", "-q", "-m", "add "+file)
	testrepo.Git(t, s.dev, "push", "-q", "origin", "HEAD:"+ref)
	return testrepo.Git(t, s.dev, "rev-parse", "HEAD")
}

func githubPush(ref, after, url, name string) []byte {
	return []byte(fmt.Sprintf(`{"ref":%q,"before":"","after":%q,"deleted":false,"repository":{"full_name":%q,"clone_url":%q,"html_url":"https://example.com/x"}}`,
		ref, after, name, url))
}

func gitlabPush(ref, after, url string) []byte {
	return []byte(fmt.Sprintf(`{"object_kind":"push","ref":%q,"after":%q,"project":{"path_with_namespace":"g/shop","git_http_url":%q}}`, ref, after, url))
}

func githubHeaders(event string, body []byte, secret string) http.Header {
	h := http.Header{}
	h.Set("X-GitHub-Event", event)
	h.Set("X-GitHub-Delivery", "d-1")
	if secret != "" {
		h.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(GitHubSignature(body, secret)))
	}
	return h
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const secret = "it's a s3cret"

// TestHandle answers deliveries of both providers, good and bad; nothing
// is touched for the rejected ones, and the secret is never logged.
func TestHandle(t *testing.T) {
	s := newRemote(t)
	var reindexed atomic.Int32
	var log syncBuffer
	r, err := New(Options{Secret: secret, Debounce: 20 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&log, nil)),
		Repos:   func() []Repo { return []Repo{{ID: "work", Path: s.work}} },
		Reindex: func(ctx context.Context, root string) error { reindexed.Add(1); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head := testrepo.Git(t, s.work, "rev-parse", "HEAD")
	push := githubPush("refs/heads/main", head, s.url, "acme/shop")
	gl := gitlabPush("refs/heads/main", head, s.url)
	glHeaders := func(token string) http.Header {
		h := http.Header{}
		h.Set("X-Gitlab-Event", "Push Hook")
		h.Set("X-Gitlab-Token", token)
		return h
	}
	cases := []struct {
		name   string
		h      http.Header
		body   []byte
		status int
		want   string
	}{
		{"github push", githubHeaders("push", push, secret), push, 202, `"repos":["work"]`},
		{"bad signature", githubHeaders("push", push, "wrong"), push, 401, "X-Hub-Signature-256"},
		{"no signature", githubHeaders("push", push, ""), push, 401, "X-Hub-Signature-256"},
		{"body changed after signing", githubHeaders("push", push, secret), append([]byte(" "), push...), 401, "does not match"},
		{"ping", githubHeaders("ping", []byte(`{}`), secret), []byte(`{}`), 200, "pong"},
		{"issue event", githubHeaders("issues", []byte(`{}`), secret), []byte(`{}`), 200, "is not a push"},
		{"tag", githubHeaders("push", githubPush("refs/tags/v1", head, s.url, "acme/shop"), secret), githubPush("refs/tags/v1", head, s.url, "acme/shop"), 200, "not a branch update"},
		{"unknown repository", githubHeaders("push", githubPush("refs/heads/main", head, "https://github.com/acme/other.git", "acme/other"), secret),
			githubPush("refs/heads/main", head, "https://github.com/acme/other.git", "acme/other"), 404, "no registered repository"},
		{"not json", githubHeaders("push", []byte("{"), secret), []byte("{"), 400, "not JSON"},
		{"no provider", http.Header{}, push, 400, "not a GitHub or GitLab delivery"},
		{"gitlab push", glHeaders(secret), gl, 202, `"repos":["work"]`},
		{"gitlab bad token", glHeaders("nope"), gl, 401, "X-Gitlab-Token"},
	}
	for _, c := range cases {
		status, answer := r.Handle(c.h, c.body)
		got := fmt.Sprint(answer)
		if b, err := jsonText(answer); err == nil {
			got = b
		}
		if status != c.status || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %s; want %d with %q", c.name, status, got, c.status, c.want)
		}
	}
	waitUntil(t, func() bool { return len(r.Recent()) >= 1 })
	time.Sleep(100 * time.Millisecond)
	if n := reindexed.Load(); n < 1 || n > 2 {
		t.Errorf("%d re-indexes for two pushes of one repository", n)
	}
	logged := log.String()
	if strings.Count(logged, "webhook: rejected delivery") != 4 || strings.Contains(logged, secret) || strings.Contains(logged, "s3cret") {
		t.Errorf("log:\n%s", logged)
	}
}

// TestPushOutcomes updates a real checkout from a real remote: a
// fast-forward is applied and re-indexed; a push to another branch, a work
// tree with changes and a non-fast-forward leave the checkout alone.
func TestPushOutcomes(t *testing.T) {
	cases := []struct {
		name      string
		prepare   func(t *testing.T, s remoteSetup)
		ref       string
		action    string
		reason    string
		moved     bool
		reindexed bool
	}{
		{name: "fast-forward", ref: "refs/heads/main", action: "fast-forwarded", moved: true, reindexed: true},
		{name: "other branch", ref: "refs/heads/feature", action: "skipped", reason: "the checkout is on main, the push is to feature"},
		{name: "uncommitted changes", ref: "refs/heads/main", action: "rejected", reason: "uncommitted changes",
			prepare: func(t *testing.T, s remoteSetup) {
				testrepo.Write(t, s.work, map[string]string{"a.go": "package a\n// local\n"})
			}},
		{name: "not a fast-forward", ref: "refs/heads/main", action: "rejected", reason: "not a fast-forward",
			prepare: func(t *testing.T, s remoteSetup) {
				testrepo.Write(t, s.work, map[string]string{"local.go": "package a\n"})
				testrepo.Git(t, s.work, "add", "-A")
				testrepo.Git(t, s.work, "commit", "-q", "-m", "local")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newRemote(t)
			if c.prepare != nil {
				c.prepare(t, s)
			}
			before := testrepo.Git(t, s.work, "rev-parse", "HEAD")
			var reindexed atomic.Int32
			var log syncBuffer
			r, err := New(Options{Secret: secret, Debounce: 10 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&log, nil)),
				Repos:   func() []Repo { return []Repo{{ID: "work", Path: s.work}} },
				Reindex: func(ctx context.Context, root string) error { reindexed.Add(1); return nil }})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			after := s.push(t, "b.go", "package a\n\nfunc B() {}\n", c.ref)
			body := githubPush(c.ref, after, s.url, "acme/shop")
			if status, answer := r.Handle(githubHeaders("push", body, secret), body); status != 202 {
				t.Fatalf("%d %v", status, answer)
			}
			waitUntil(t, func() bool { return len(r.Recent()) == 1 })
			o := r.Recent()[0]
			if o.Action != c.action || !strings.Contains(o.Reason, c.reason) || o.Reindexed != c.reindexed {
				t.Errorf("outcome %+v", o)
			}
			head := testrepo.Git(t, s.work, "rev-parse", "HEAD")
			if moved := head != before; moved != c.moved || (c.moved && head != after) {
				t.Errorf("HEAD %s, before %s, pushed %s", head, before, after)
			}
			if got := reindexed.Load() == 1; got != c.reindexed {
				t.Errorf("re-indexed: %v", got)
			}
			if c.action == "rejected" && !strings.Contains(log.String(), "webhook: push not applied") {
				t.Errorf("a rejected push is not logged:\n%s", log.String())
			}
			if _, err := os.Stat(filepath.Join(s.work, "b.go")); (err == nil) != c.moved {
				t.Errorf("b.go in the checkout: %v", err)
			}
		})
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
