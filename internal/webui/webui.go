// Package webui serves the web view's files, built into the binary from
// dist/: the page (index.html) at / and everything else under /assets/.
//
// The page is never cached (a new binary brings a new page at once); an
// asset is cached for a year when it is asked for with its content hash
// (?v=<hash>), which the page's references to /assets/ files get when
// the page is served, and otherwise revalidated by its ETag. Every
// answer carries a strict Content-Security-Policy: the page may load
// scripts, styles and data from this server only, and no inline script
// runs.
package webui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"
)

//go:embed dist
var dist embed.FS

// ContentSecurityPolicy is sent with every answer of the web view.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"

// AssetsPrefix is where the files beside index.html are served.
const AssetsPrefix = "/assets/"

// file is one file of the bundle, read once.
type file struct {
	body        []byte
	contentType string
	hash        string // first 16 hex digits of the SHA-256 of body
}

// site is the bundle: the page and its assets.
type site struct {
	page   file
	assets map[string]file // by name under dist/, "/"-separated
}

// Handler serves GET and HEAD of / and /assets/<file>; any other path is
// 404 and any other method 405.
func Handler() http.Handler {
	s, err := load(dist)
	if err != nil {
		// The bundle is compiled in: a broken one is a build error.
		panic("webui: " + err.Error())
	}
	return s
}

func load(fsys fs.FS) (*site, error) {
	sub, err := fs.Sub(fsys, "dist")
	if err != nil {
		return nil, err
	}
	s := &site{assets: map[string]file{}}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		s.assets[p] = newFile(p, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	page, ok := s.assets["index.html"]
	if !ok {
		return nil, fs.ErrNotExist
	}
	delete(s.assets, "index.html")
	// A bundler that puts the assets in dist/assets/ gets them served at
	// /assets/<file> too.
	for name, f := range s.assets {
		if short, ok := strings.CutPrefix(name, "assets/"); ok {
			if _, taken := s.assets[short]; !taken {
				s.assets[short] = f
			}
		}
	}
	s.page = newFile("index.html", s.versionAssets(page.body))
	return s, nil
}

func newFile(name string, b []byte) file {
	sum := sha256.Sum256(b)
	return file{body: b, contentType: contentType(name), hash: hex.EncodeToString(sum[:8])}
}

// assetRef finds the page's references to its assets: src="/assets/x"
// or href="assets/x" (either quote).
var assetRef = regexp.MustCompile(`((?:src|href)=["'])/?assets/([^"'?#]+)(["'])`)

// versionAssets points the page's references to /assets/ files at their
// current content (?v=<hash>), so that they can be cached for long.
func (s *site) versionAssets(page []byte) []byte {
	return assetRef.ReplaceAllFunc(page, func(m []byte) []byte {
		sub := assetRef.FindSubmatch(m)
		name := string(sub[2])
		f, ok := s.assets[name]
		if !ok {
			return m
		}
		return []byte(string(sub[1]) + AssetsPrefix + name + "?v=" + f.hash + string(sub[3]))
	})
}

// contentType is the type of a bundle file by its extension (not the
// system's MIME table, which differs between machines).
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json", ".map":
		return "application/json; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

// SecurityHeaders sets the headers every answer of the web view carries.
func SecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	SecurityHeaders(w.Header())
	var f file
	switch {
	case r.URL.Path == "/":
		f = s.page
		w.Header().Set("Cache-Control", "no-cache")
	case strings.HasPrefix(r.URL.Path, AssetsPrefix):
		var ok bool
		if f, ok = s.assets[strings.TrimPrefix(r.URL.Path, AssetsPrefix)]; !ok {
			notFound(w)
			return
		}
		if r.URL.Query().Get("v") == f.hash {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
	default:
		notFound(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusMethodNotAllowed)
		w.Write([]byte("use GET\n"))
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("ETag", `"`+f.hash+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte("not found: the web view is at / (its pages are addressed after #)\n"))
}
