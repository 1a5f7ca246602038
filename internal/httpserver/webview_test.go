package httpserver

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/webui"
)

// get sends a GET without following redirects.
func get(t *testing.T, u string, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, body: string(b), header: resp.Header}
}

// TestWebViewToken: the token flow of a browser, on a server with a token.
func TestWebViewToken(t *testing.T) {
	base, _ := start(t, Options{Token: "s3cret"}, backend.Options{})
	cookie := map[string]string{"Cookie": "gitnexus_token=s3cret"}
	port := base[strings.LastIndex(base, ":")+1:]
	cases := []struct {
		name, path string
		header     map[string]string
		status     int
		want       string // a part of the body
		check      func(t *testing.T, r response)
	}{
		{"page without token", "/", nil, 401, "Open <code>/?token=&lt;token&gt;</code>", htmlPage},
		{"asset without token", "/assets/app.js", nil, 401, "/?token=", htmlPage},
		{"other path without token", "/repo/shop", nil, 401, "/?token=", htmlPage},
		{"wrong token", "/?token=wrong", nil, 401, "/?token=", func(t *testing.T, r response) {
			htmlPage(t, r)
			if r.header.Get("Set-Cookie") != "" {
				t.Error("a cookie for a wrong token")
			}
		}},
		{"empty token", "/?token=", nil, 401, "/?token=", htmlPage},
		{"right token", "/?token=s3cret", nil, 303, "", func(t *testing.T, r response) {
			if r.header.Get("Location") != "/" {
				t.Errorf("Location %q", r.header.Get("Location"))
			}
			if c := r.header.Get("Set-Cookie"); c != "gitnexus_token=s3cret; Path=/; HttpOnly; SameSite=Strict" {
				t.Errorf("Set-Cookie %q", c)
			}
		}},
		{"right token behind TLS", "/?token=s3cret", map[string]string{"X-Forwarded-Proto": "https"}, 303, "", func(t *testing.T, r response) {
			if c := r.header.Get("Set-Cookie"); c != "gitnexus_token=s3cret; Path=/; HttpOnly; Secure; SameSite=Strict" {
				t.Errorf("Set-Cookie %q", c)
			}
		}},
		{"page with the cookie", "/", cookie, 200, "<html", func(t *testing.T, r response) {
			if r.header.Get("Content-Type") != "text/html; charset=utf-8" || r.header.Get("Cache-Control") != "no-cache" {
				t.Errorf("headers %v", r.header)
			}
			securityHeaders(t, r)
		}},
		{"asset with the cookie", "/assets/nope.js", cookie, 404, "not found", securityHeaders},
		{"api with the cookie", "/api/v1/repos", cookie, 200, `"id":"shop"`, nil},
		{"api with a wrong cookie", "/api/v1/repos", map[string]string{"Cookie": "gitnexus_token=nope"}, 403, `"error":"wrong token"`, nil},
		{"api without token", "/api/v1/repos", nil, 401, `missing bearer token`, nil},
		{"page with the bearer token", "/", map[string]string{"Authorization": "Bearer s3cret"}, 200, "<html", nil},
		{"api with the bearer token", "/api/v1/graph/communities", map[string]string{"Authorization": "bearer s3cret"}, 200, `"communities"`, nil},
		{"health needs none", "/api/v1/health", nil, 200, `"status":"ok"`, nil},
		{"cookie from a foreign origin", "/api/v1/repos", map[string]string{"Cookie": "gitnexus_token=s3cret", "Origin": "http://attacker.example"}, 403, "web origin", nil},
		{"cookie on a rebound name", "/", map[string]string{"Cookie": "gitnexus_token=s3cret", "Host": "attacker.example:" + port}, 403, "Host header", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{}
			for k, v := range c.header {
				h[k] = v
			}
			u := base + c.path
			r := getHost(t, u, h)
			if r.status != c.status || !strings.Contains(r.body, c.want) {
				t.Fatalf("%d %s, want %d with %q", r.status, r.body, c.status, c.want)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

// getHost is get with the Host header taken from header["Host"].
func getHost(t *testing.T, u string, header map[string]string) response {
	t.Helper()
	if host, ok := header["Host"]; ok {
		delete(header, "Host")
		return doHost(t, "GET", u, "", host, header)
	}
	return get(t, u, header)
}

func htmlPage(t *testing.T, r response) {
	t.Helper()
	if r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", r.header.Get("Content-Type"))
	}
	if strings.Contains(r.body, "<script") {
		t.Error("the page has a script")
	}
	securityHeaders(t, r)
}

func securityHeaders(t *testing.T, r response) {
	t.Helper()
	if r.header.Get("Content-Security-Policy") != webui.ContentSecurityPolicy || r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("security headers: %v", r.header)
	}
}

// TestWebViewWithoutToken: on a loopback server without a token the page
// is served as it is, and /?token= just leads to it.
func TestWebViewWithoutToken(t *testing.T) {
	base, _ := start(t, Options{}, backend.Options{})
	r := get(t, base+"/?token=anything", nil)
	if r.status != 303 || r.header.Get("Location") != "/" || r.header.Get("Set-Cookie") != "" {
		t.Errorf("/?token=: %d %v", r.status, r.header)
	}
	r = get(t, base+"/", nil)
	if r.status != 200 || !strings.Contains(r.body, "<html") {
		t.Errorf("/: %d %s", r.status, r.body)
	}
	securityHeaders(t, r)
	req, _ := http.NewRequest("HEAD", base+"/", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != webui.ContentSecurityPolicy {
		t.Errorf("HEAD /: %d %v", resp.StatusCode, resp.Header)
	}
}

// FuzzGraphParams: any query string decodes to options within their
// bounds or to an error answered 400, never a panic or a 500.
func FuzzGraphParams(f *testing.F) {
	for _, seed := range []string{"", "uid=x", "uid=x&depth=3&types=CALLS,imports&minConfidence=0.5&hideTests=true&limit=20000",
		"uid=x&depth=0", "uid=x&depth=-1", "uid=x&types=", "uid=x&minConfidence=NaN", "uid=x&minConfidence=-0", "uid=x&limit=99999999999999999999",
		"uid=%zz", "uid=x&uid=y", "since=2024-01-01&until=2023-01-01", "since=2024-01-01T00:00:00Z&limit=5", "until=2024-13-01", "a=b;c=d"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		ok400 := func(err error) {
			if status, msg := statusOf(err); status != 400 || msg == "" {
				t.Fatalf("%q: status %d for %v", raw, status, err)
			}
		}
		q, err := queryParams(raw, "repo", "uid", "depth", "types", "minConfidence", "hideTests", "limit", "since", "until")
		if err != nil {
			ok400(err)
			return
		}
		uid, opt, err := decodeNeighbourhood(q)
		if err != nil {
			ok400(err)
		} else if uid == "" || opt.Depth < 1 || opt.Depth > analysis.MaxNeighbourhood || opt.Limit < 1 || opt.Limit > analysis.MaxViewNodes ||
			!(opt.MinConfidence >= 0 && opt.MinConfidence <= 1) {
			t.Fatalf("%q: out of bounds: %q %+v", raw, uid, opt)
		}
		w, limit, err := decodeHotspots(q)
		if err != nil {
			ok400(err)
		} else if limit < 1 || limit > analysis.MaxHotspots || (!w.Since.IsZero() && !w.Until.IsZero() && !w.Since.Before(w.Until)) {
			t.Fatalf("%q: out of bounds: %+v %d", raw, w, limit)
		}
		if _, err := url.ParseQuery(raw); err != nil {
			t.Fatalf("%q decoded, but the query does not parse: %v", raw, err)
		}
	})
}
