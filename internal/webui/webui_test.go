package webui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testSite(t *testing.T) *site {
	t.Helper()
	s, err := load(fstest.MapFS{
		"dist/index.html":       {Data: []byte(`<link rel="stylesheet" href="/assets/app.css"><script src="assets/app.js"></script><img src="/assets/missing.png">`)},
		"dist/app.js":           {Data: []byte("console.log(1)\n")},
		"dist/app.css":          {Data: []byte("body{}\n")},
		"dist/assets/logo.svg":  {Data: []byte("<svg/>")},
		"dist/fonts/text.woff2": {Data: []byte("w")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestServe(t *testing.T) {
	s := testSite(t)
	js, css := s.assets["app.js"].hash, s.assets["app.css"].hash
	cases := []struct {
		name, method, path, ifNoneMatch string
		status                          int
		contentType, cacheControl       string
		body                            string // substring; "" for none
	}{
		{"page", "GET", "/", "", 200, "text/html; charset=utf-8", "no-cache",
			`href="/assets/app.css?v=` + css + `"><script src="/assets/app.js?v=` + js + `"></script><img src="/assets/missing.png">`},
		{"page head", "HEAD", "/", "", 200, "text/html; charset=utf-8", "no-cache", ""},
		{"script", "GET", "/assets/app.js", "", 200, "text/javascript; charset=utf-8", "no-cache", "console.log(1)"},
		{"script by hash", "GET", "/assets/app.js?v=" + js, "", 200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "console.log(1)"},
		{"script, old hash", "GET", "/assets/app.js?v=0000", "", 200, "text/javascript; charset=utf-8", "no-cache", "console.log(1)"},
		{"style", "GET", "/assets/app.css", "", 200, "text/css; charset=utf-8", "no-cache", "body{}"},
		{"in assets folder", "GET", "/assets/logo.svg", "", 200, "image/svg+xml", "no-cache", "<svg/>"},
		{"nested", "GET", "/assets/fonts/text.woff2", "", 200, "font/woff2", "no-cache", "w"},
		{"not modified", "GET", "/assets/app.js", `"` + js + `"`, 304, "", "no-cache", ""},
		{"unknown asset", "GET", "/assets/nope.js", "", 404, "text/plain; charset=utf-8", "", "not found"},
		{"page is not an asset", "GET", "/assets/index.html", "", 404, "text/plain; charset=utf-8", "", "not found"},
		{"other path", "GET", "/repo/shop", "", 404, "text/plain; charset=utf-8", "", "not found"},
		{"index by name", "GET", "/index.html", "", 404, "text/plain; charset=utf-8", "", "not found"},
		{"post", "POST", "/", "", 405, "text/plain; charset=utf-8", "no-cache", "use GET"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, c.path, nil)
			if c.ifNoneMatch != "" {
				req.Header.Set("If-None-Match", c.ifNoneMatch)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			h := rec.Header()
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if c.status != 304 && h.Get("Content-Type") != c.contentType {
				t.Errorf("Content-Type %q, want %q", h.Get("Content-Type"), c.contentType)
			}
			if h.Get("Cache-Control") != c.cacheControl {
				t.Errorf("Cache-Control %q, want %q", h.Get("Cache-Control"), c.cacheControl)
			}
			if h.Get("Content-Security-Policy") != ContentSecurityPolicy || h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("security headers missing: %v", h)
			}
			if c.body != "" && !strings.Contains(rec.Body.String(), c.body) {
				t.Errorf("body %q lacks %q", rec.Body, c.body)
			}
			if c.method == "HEAD" && rec.Body.Len() != 0 {
				t.Errorf("HEAD answered a body")
			}
			if c.status == 200 && !strings.HasPrefix(h.Get("ETag"), `"`) {
				t.Errorf("no ETag")
			}
		})
	}
}

// TestBuiltIn checks that the bundle compiled in has a page.
func TestBuiltIn(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<html") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "<script>") {
		t.Error("the page has an inline script, which the policy blocks")
	}
}
