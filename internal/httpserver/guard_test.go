package httpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/backend"
)

// everyRoute lists a request for each route the server has, with a body
// where the route takes one.
var everyRoute = []struct{ method, path, body string }{
	{"GET", "/api/v1/health", ""},
	{"GET", "/api/v1/repos", ""},
	{"POST", "/api/v1/tools/context", `{"name": "Store.Get"}`},
	{"POST", "/api/v1/tools/cypher", `{"query": "MATCH (f:Function) RETURN f.name LIMIT 1"}`},
	{"POST", "/api/v1/semantic_search", `{"query": "cache"}`},
	{"GET", "/api/v1/commit/HEAD/files", ""},
	{"GET", "/api/v1/commit/HEAD/functions", ""},
	{"GET", "/api/v1/file/store%2Fstore.go/commits", ""},
	{"GET", "/api/v1/function/x/source", ""},
	{"POST", "/api/v1/commit/cluster", `{"commits": []}`},
	{"POST", "/api/v1/webhook", `{}`},
	{"GET", "/api/v1/nowhere", ""},
	{"POST", "/api/mcp", `{"jsonrpc": "2.0", "id": 1, "method": "ping"}`},
	{"GET", "/", ""},
	{"GET", "/assets/app.js", ""},
	{"GET", "/api/v1/graph/neighbourhood?uid=Method:store/store.go:Store.Get", ""},
	{"GET", "/api/v1/graph/communities", ""},
	{"GET", "/api/v1/graph/processes", ""},
	{"POST", "/api/v1/cypher", `{"query": "MATCH (f:Function) RETURN f LIMIT 1"}`},
	{"GET", "/api/v1/history/timeline", ""},
}

// TestHostAndOriginOnEveryRoute: a page that made its own name resolve to
// 127.0.0.1 (DNS rebinding), or that posts from another origin, is refused
// on every route; loopback names, the server's own origin, the CORS
// origin and the allowed hosts pass.
func TestHostAndOriginOnEveryRoute(t *testing.T) {
	base, _ := start(t, Options{}, backend.Options{})
	port := base[strings.LastIndex(base, ":")+1:]
	cases := []struct {
		name, host, origin string
		refused            bool
	}{
		{"rebound name", "attacker.example:" + port, "", true},
		{"rebound name without port", "attacker.example", "", true},
		{"rebound name, its own origin", "attacker.example:" + port, "http://attacker.example:" + port, true},
		{"empty host", noHost, "", true},
		{"127.0.0.1", "127.0.0.1:" + port, "", false},
		{"localhost", "localhost:" + port, "", false},
		{"LOCALHOST.", "LOCALHOST.:" + port, "", false},
		{"a .localhost name", "app.localhost:" + port, "", false},
		{"[::1]", "[::1]:" + port, "", false},
		{"another origin", "127.0.0.1:" + port, "http://attacker.example", true},
		{"an opaque origin", "127.0.0.1:" + port, "null", true},
		{"the server's own origin", "127.0.0.1:" + port, "http://127.0.0.1:" + port, false},
	}
	for _, c := range cases {
		for _, rt := range everyRoute {
			r := doHost(t, rt.method, base+rt.path, rt.body, c.host, map[string]string{"Origin": c.origin})
			if got := r.status == 403 && (strings.Contains(r.body, "Host header") || strings.Contains(r.body, "web origin")); got != c.refused {
				t.Errorf("%s: %s %s: %d %s, want refused %v", c.name, rt.method, rt.path, r.status, strings.TrimSpace(r.body), c.refused)
			}
		}
	}
	// A CORS origin and a proxy's host are let in; others still are not.
	base2, _ := start(t, Options{CORSOrigin: "http://app.example", AllowedHosts: []string{"Code.Example.COM"}}, backend.Options{})
	for _, c := range []struct {
		host, origin string
		refused      bool
	}{
		{"code.example.com", "", false},
		{"code.example.com:443", "http://app.example", false},
		{"code.example.com", "http://attacker.example", true},
		{"attacker.example", "", true},
		{"127.0.0.1", "", false},
	} {
		for _, rt := range everyRoute {
			r := doHost(t, rt.method, base2+rt.path, rt.body, c.host, map[string]string{"Origin": c.origin})
			if got := r.status == 403 && (strings.Contains(r.body, "Host header") || strings.Contains(r.body, "web origin")); got != c.refused {
				t.Errorf("host %q origin %q: %s %s: %d %s, want refused %v", c.host, c.origin, rt.method, rt.path, r.status, strings.TrimSpace(r.body), c.refused)
			}
		}
	}
}

// noHost asks doHost for a request without a Host header.
const noHost = "\x00"

// doHost sends a request with the given Host header ("": the URL's) and
// headers (empty values left out), and reads the answer.
func doHost(t *testing.T, method, url, body, host string, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" && host != noHost {
		req.Host = host
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if strings.HasSuffix(url, "/api/mcp") {
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range header {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	if host == noHost {
		// net/http fills in the URL's host for an empty Host; write the
		// request by hand to send none.
		return rawRequest(t, url, fmt.Sprintf("%s %s HTTP/1.0\r\n\r\n", method, req.URL.RequestURI()))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, string(b), resp.Header}
}

// rawRequest writes text to the server at url's address and reads one
// response.
func rawRequest(t *testing.T, url, text string) response {
	t.Helper()
	addr := strings.TrimPrefix(url, "http://")
	addr = addr[:strings.Index(addr, "/")]
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, text); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, string(b), resp.Header}
}

// TestTokenScheme: the scheme of the Authorization header is
// case-insensitive.
func TestTokenScheme(t *testing.T) {
	base, _ := start(t, Options{Token: "s3cret"}, backend.Options{})
	for auth, status := range map[string]int{
		"bearer s3cret":   200,
		"BEARER s3cret":   200,
		"Bearer  s3cret ": 200,
		"Bearers3cret":    403,
		"bearer wrong":    403,
		"Basic s3cret":    403,
	} {
		if r := do(t, "GET", base+"/api/v1/repos", "", map[string]string{"Authorization": auth}); r.status != status {
			t.Errorf("Authorization %q: %d, want %d", auth, r.status, status)
		}
	}
}

// TestStalledBodiesDoNotStarveTheServer: a hundred connections that send
// their headers and then stall their bodies (more than the concurrency
// slots) hold no slot: a normal client gets its 200s meanwhile, and each
// stalled request is answered 408 once the request timeout is up.
func TestStalledBodiesDoNotStarveTheServer(t *testing.T) {
	const timeout = 2 * time.Second
	base, _ := start(t, Options{RequestTimeout: timeout}, backend.Options{})
	addr := strings.TrimPrefix(base, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	stalledAt := time.Now()
	for i := 0; i < 100; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		path := []string{"/api/v1/tools/context", "/api/mcp", "/api/v1/semantic_search", "/api/v1/webhook"}[i%4]
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"name\": ", path, addr)
	}
	time.Sleep(200 * time.Millisecond) // the server has them all
	for i := 0; i < 20; i++ {
		r := do(t, "POST", base+"/api/v1/tools/context", `{"name": "Store.Get"}`, nil)
		if r.status != 200 {
			t.Fatalf("request %d beside 100 stalled bodies: %d %s", i, r.status, r.body)
		}
	}
	if d := time.Since(stalledAt); d >= timeout {
		t.Fatalf("the normal requests took until %s, past the stalled ones' timeout: the test shows nothing", d)
	}
	// The stalled requests are answered 408 and closed.
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(timeout + 5*time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Errorf("stalled connection %d: %v", i, err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout {
				t.Errorf("stalled connection %d: %d, want 408", i, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	if d := time.Since(stalledAt); d > timeout+3*time.Second {
		t.Errorf("the stalled requests were answered after %s, want about %s", d, timeout)
	}
}

// TestMCPStreamsTakeNoSlot: a connected MCP client keeps a standing
// event stream open; more clients than there are slots leave the slots
// to requests that work.
func TestMCPStreamsTakeNoSlot(t *testing.T) {
	base, _ := start(t, Options{MaxInFlight: 2}, backend.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := 0; i < 4; i++ {
		client := mcp.NewClient(&mcp.Implementation{Name: "stream-test", Version: "1"}, nil)
		session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/api/mcp"}, nil)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		defer session.Close()
	}
	time.Sleep(300 * time.Millisecond) // the clients' streams are open
	for i := 0; i < 3; i++ {
		if r := do(t, "POST", base+"/api/v1/tools/context", `{"name": "Store.Get"}`, nil); r.status != 200 {
			t.Errorf("beside four connected MCP clients: %d %s", r.status, r.body)
		}
	}
}
