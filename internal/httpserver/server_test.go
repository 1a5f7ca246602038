package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// start serves a backend over the shop fixture on 127.0.0.1 (a free port)
// until the test ends. It returns the base URL and the repository root.
func start(t testing.TB, opts Options, bopts backend.Options) (string, string) {
	t.Helper()
	testrepo.Home(t)
	root := testrepo.New(t, filepath.Join(t.TempDir(), "shop"), testrepo.Shop)
	testrepo.Index(t, root)
	return serve(t, root, opts, bopts), root
}

// serve serves the registered repositories on 127.0.0.1 until the test
// ends and returns the base URL.
func serve(t testing.TB, root string, opts Options, bopts backend.Options) string {
	t.Helper()
	if bopts.Cwd == "" {
		bopts.IgnoreCwd = true // as gitnexus serve does
	}
	b, err := backend.New(bopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	srv, err := New(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		// Connections the client dialed but never used count as busy for
		// five seconds during a shutdown: close them first.
		http.DefaultClient.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + l.Addr().String()
}

type response struct {
	status int
	body   string
	header http.Header
}

func do(t *testing.T, method, url, body string, header map[string]string) response {
	t.Helper()
	return doHost(t, method, url, body, "", header)
}

func TestREST(t *testing.T) {
	base, root := start(t, Options{Version: "test"}, backend.Options{Cwd: t.TempDir(), ReadOnly: true})
	cases := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		want                     string // exact body, or a substring when prefixed with ~
	}{
		{"health", "GET", "/api/v1/health", "", nil, 200, `{"repos":1,"status":"ok","version":"test"}` + "\n"},
		{"repos", "GET", "/api/v1/repos", "", nil, 200, `~"id":"shop","name":"shop","repoPath":"` + root + `"`},
		{"tool", "POST", "/api/v1/tools/impact", `{"target": "Store.Get", "maxDepth": 1}`, nil, 200, `~"byDepthCounts":{"1":1}`},
		{"tool markdown", "POST", "/api/v1/tools/context", `{"name": "Store.Get"}`, nil, 200, `~"markdown":"Repository: shop\n\nMethod ` + "`store.Store.Get`" + ` at store/store.go:26`},
		{"repo query parameter", "POST", "/api/v1/tools/overview?repo=shop", `{}`, nil, 200, `~"tool":"overview"`},
		{"empty body is no arguments", "POST", "/api/v1/tools/list_repos", ``, nil, 200, `~"repos"`},
		{"alias", "POST", "/api/v1/tools/search", `{"query": "cache"}`, nil, 200, `~"tool":"search"`},
		{"ambiguous symbol", "POST", "/api/v1/tools/context", `{"name": "Get"}`, nil, 409, `~"status":"ambiguous"`},
		{"unknown repo", "POST", "/api/v1/tools/overview?repo=nope", `{}`, nil, 404, `{"error":"Repository \"nope\" not found. Available: shop"}` + "\n"},
		{"unknown tool", "POST", "/api/v1/tools/nope", `{}`, nil, 404, `~unknown tool \"nope\"`},
		{"unknown symbol", "POST", "/api/v1/tools/context", `{"name": "Nowhere"}`, nil, 404, `~no symbol \"Nowhere\"`},
		{"bad argument", "POST", "/api/v1/tools/impact", `{"target": "Store.Get", "maxDepth": 99}`, nil, 400, `{"error":"argument \"maxDepth\": must be at most 5, got 99"}` + "\n"},
		{"not an object", "POST", "/api/v1/tools/query", `["x"]`, nil, 400, `~the body must be a JSON object`},
		{"broken JSON", "POST", "/api/v1/tools/query", `{"query": `, nil, 400, `~the body must be a JSON object`},
		{"two objects", "POST", "/api/v1/tools/query", `{} {}`, nil, 400, `~one JSON object`},
		{"form body", "POST", "/api/v1/tools/query", `query=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 400, `~Content-Type: application/json`},
		{"bad base_ref", "POST", "/api/v1/tools/detect_changes", `{"scope": "compare", "base_ref": "nope"}`, nil, 400, `~base_ref \"nope\" is not a commit`},
		{"bad cypher", "POST", "/api/v1/tools/cypher", `{"query": "MATCH (n RETURN n"}`, nil, 400, `~syntax error`},
		{"write refused", "POST", "/api/v1/tools/rename", `{"symbol_name": "Store.Get", "new_name": "Fetch", "dry_run": false}`, nil, 403, `~this server is read-only`},
		{"dry run allowed", "POST", "/api/v1/tools/rename", `{"symbol_name": "Store.Get", "new_name": "Fetch"}`, nil, 200, `~"status":"planned"`},
		{"wrong method", "GET", "/api/v1/tools/context", "", nil, 405, `{"error":"GET /api/v1/tools/context: use POST"}` + "\n"},
		{"no endpoint", "GET", "/api/v1/nothing", "", nil, 404, `{"error":"no endpoint GET /api/v1/nothing (see docs/http.md)"}` + "\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.method, base+c.path, c.body, c.header)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type %q", r.header.Get("Content-Type"))
			}
			switch {
			case c.want == "":
			case strings.HasPrefix(c.want, "~"):
				if !strings.Contains(r.body, c.want[1:]) {
					t.Errorf("body does not contain %s:\n%s", c.want[1:], r.body)
				}
			case r.body != c.want:
				t.Errorf("body:\n%s\nwant:\n%s", r.body, c.want)
			}
		})
	}
	// The read-only server left the files alone.
	if got := testrepo.Git(t, root, "status", "--porcelain"); got != "" {
		t.Errorf("the repository changed: %s", got)
	}
}

func TestBodyLimitAndConcurrency(t *testing.T) {
	base, _ := start(t, Options{MaxBodyBytes: 1024, MaxInFlight: 2}, backend.Options{})
	big := `{"query": "` + strings.Repeat("x", 2048) + `"}`
	if r := do(t, "POST", base+"/api/v1/tools/query", big, nil); r.status != 413 || !strings.Contains(r.body, "larger than 1024 bytes") {
		t.Errorf("oversize body: %d %s", r.status, r.body)
	}
	// Many clients at once: every answer is a 200 or a 429 with
	// Retry-After, never anything else; some get through.
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := do(t, "POST", base+"/api/v1/tools/impact", `{"target": "Store.Get"}`, nil)
			mu.Lock()
			counts[r.status]++
			mu.Unlock()
			if r.status == 429 && r.header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		}()
	}
	wg.Wait()
	if counts[200] == 0 || counts[200]+counts[429] != 24 {
		t.Errorf("statuses: %v", counts)
	}
}

func TestToken(t *testing.T) {
	base, _ := start(t, Options{Token: "s3cret"}, backend.Options{})
	cases := []struct {
		auth   string
		status int
	}{
		{"", 401},
		{"Bearer wrong", 403},
		{"Basic s3cret", 403},
		{"Bearer s3cret", 200},
	}
	for _, c := range cases {
		h := map[string]string{}
		if c.auth != "" {
			h["Authorization"] = c.auth
		}
		if r := do(t, "GET", base+"/api/v1/repos", "", h); r.status != c.status {
			t.Errorf("Authorization %q: %d, want %d (%s)", c.auth, r.status, c.status, r.body)
		}
	}
	if r := do(t, "GET", base+"/api/v1/health", "", nil); r.status != 200 {
		t.Errorf("health without a token: %d", r.status)
	}
	if r := do(t, "POST", base+"/api/mcp", `{}`, nil); r.status != 401 {
		t.Errorf("MCP without a token: %d", r.status)
	}
}

func TestRefusesNonLoopbackWithoutToken(t *testing.T) {
	testrepo.Home(t)
	b, err := backend.New(backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, addr := range []string{"0.0.0.0:8910", "[::]:8910", "192.168.1.10:80", "example.com:80"} {
		if _, err := New(b, Options{Addr: addr}); !errors.Is(err, ErrNeedToken) {
			t.Errorf("%s without a token: %v", addr, err)
		}
		if _, err := New(b, Options{Addr: addr, Token: "t"}); err != nil {
			t.Errorf("%s with a token: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:8910", "[::1]:1"} {
		if _, err := New(b, Options{Addr: addr}); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

func TestCORS(t *testing.T) {
	base, _ := start(t, Options{}, backend.Options{})
	if r := do(t, "GET", base+"/api/v1/health", "", map[string]string{"Origin": "http://evil.example"}); r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("CORS headers without --cors-origin")
	}
	base2, _ := start(t, Options{CORSOrigin: "http://app.example"}, backend.Options{})
	r := do(t, "OPTIONS", base2+"/api/v1/tools/query", "", map[string]string{"Origin": "http://app.example", "Access-Control-Request-Method": "POST"})
	if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != "http://app.example" {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
}

// TestMCPOverHTTP drives /api/mcp with the Go SDK's streamable HTTP client.
func TestMCPOverHTTP(t *testing.T) {
	base, _ := start(t, Options{Token: "tok"}, backend.Options{})
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seen := &asciiSeen{}
	transport := &mcp.StreamableClientTransport{Endpoint: base + "/api/mcp", HTTPClient: &http.Client{Transport: seen.wrap(bearer{"tok"})}}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	tools, err := session.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 8 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "impact", Arguments: map[string]any{"target": "Store.Get"}})
	if err != nil || res.IsError {
		t.Fatalf("impact: %v %+v", err, res)
	}
	var text bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), "Service.Place") {
		t.Errorf("impact over HTTP:\n%s", text.String())
	}
	data, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(data), `"risk"`) {
		t.Errorf("structured content: %s", data)
	}

	// Non-ASCII text (the flow "main → Store.Get") travels escaped, as
	// over stdio.
	if !strings.Contains(text.String(), "main → Store.Get") {
		t.Errorf("impact over HTTP lacks its flow main → Store.Get:\n%s", text.String())
	}
	if n := seen.nonASCII.Load(); n > 0 {
		t.Errorf("the responses held %d non-ASCII bytes", n)
	}
}

// asciiSeen counts the non-ASCII bytes of the response bodies it sees.
type asciiSeen struct{ nonASCII atomic.Int64 }

func (a *asciiSeen) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err == nil {
			resp.Body = &asciiCountingBody{ReadCloser: resp.Body, seen: a}
		}
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type asciiCountingBody struct {
	io.ReadCloser
	seen *asciiSeen
}

func (b *asciiCountingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c >= 0x80 {
			b.seen.nonASCII.Add(1)
		}
	}
	return n, err
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestGracefulShutdown: a request in flight when shutdown starts still gets
// its answer.
func TestGracefulShutdown(t *testing.T) {
	testrepo.Home(t)
	root := testrepo.New(t, filepath.Join(t.TempDir(), "shop"), testrepo.Shop)
	testrepo.Index(t, root)
	b, err := backend.New(backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv, err := New(b, Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	// A slow endpoint stands in for a long request.
	release := make(chan struct{})
	srv.mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		<-release
		writeJSON(w, 200, map[string]string{"ok": "yes"})
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	got := make(chan response, 1)
	go func() { got <- do(t, "GET", "http://"+l.Addr().String()+"/slow", "", nil) }()
	time.Sleep(100 * time.Millisecond)
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(context.Background()) }()
	time.Sleep(100 * time.Millisecond)
	close(release)
	if r := <-got; r.status != 200 {
		t.Errorf("request in flight: %d %s", r.status, r.body)
	}
	if err := <-shut; err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// TestMCPPlainJSON: a client that posts JSON-RPC without accepting an
// event stream (curl with Content-Type alone) gets plain JSON answers, in
// one session.
func TestMCPPlainJSON(t *testing.T) {
	base, _ := start(t, Options{}, backend.Options{})
	post := func(body, session string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+"/api/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, data
	}
	resp, data := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`, "")
	var init struct {
		ID     int `json:"id"`
		Result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		} `json:"result"`
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(data, &init) != nil || init.ID != 1 || init.Result.ServerInfo.Name == "" {
		t.Fatalf("initialize: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	session := resp.Header.Get("Mcp-Session-Id")
	if resp, data := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", resp.StatusCode, data)
	}
	resp, data = post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, session)
	var list struct {
		ID     int                                     `json:"id"`
		Result struct{ Tools []struct{ Name string } } `json:"result"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(data, &list) != nil || list.ID != 2 || len(list.Result.Tools) < 8 {
		t.Fatalf("tools/list: %d\n%s", resp.StatusCode, data)
	}
}
