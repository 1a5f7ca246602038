package httpserver

import (
	"net/http"
	"strings"

	"gitnexus.dev/gitnexus/internal/webui"
)

// The web view's token. A browser cannot send a bearer header when it
// opens a page, so on a server with a token the page is opened once as
// /?token=<token>: the right token is traded for a cookie (HttpOnly, so
// the page's scripts never see it; SameSite=Strict, so no other site's
// page makes the browser send it) and the browser is sent on to /, which
// takes the token out of the address bar and its history. The cookie
// then stands for the token on every path, the API included. A wrong or
// missing token on a page gets a small page saying how to open it.

// tokenCookie is the cookie that carries the token.
const tokenCookie = "gitnexus_token"

// tokenLogin answers /?token=: with the server's token, a cookie and
// 303 to /; with another, the 401 page. A server without a token just
// sends the browser on to /.
func (s *Server) tokenLogin(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "open /?token=<token> with GET")
		return
	}
	if s.opts.Token != "" {
		if !s.tokenMatches(r.URL.Query().Get("token")) {
			needTokenPage(w)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opts.Token, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: overTLS(r)})
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// overTLS reports whether the browser reached the server over TLS, here
// or at a proxy in front of it.
func overTLS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}

// hasTokenCookie reports whether the request carries a token cookie (of
// any value).
func hasTokenCookie(r *http.Request) bool {
	_, err := r.Cookie(tokenCookie)
	return err == nil
}

// needTokenPageHTML is the page for a browser without the token.
const needTokenPageHTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>GitNexus: token needed</title></head>
<body>
<h1>This GitNexus server needs its token</h1>
<p>Open <code>/?token=&lt;token&gt;</code> on this server once, with the token it was started with
(<code>--auth-token</code> or <code>GITNEXUS_AUTH_TOKEN</code>). This browser then keeps it in a cookie.</p>
</body>
</html>
`

func needTokenPage(w http.ResponseWriter) {
	webui.SecurityHeaders(w.Header())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(needTokenPageHTML))
}
