package httpserver

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// What every request passes before a handler sees it, in order:
//
//  1. The Host policy, against DNS rebinding: a request that arrived on
//     a loopback address must name a loopback host (localhost,
//     *.localhost, 127.0.0.1, [::1]) or one of Options.AllowedHosts, so
//     that a web page whose name was made to resolve to 127.0.0.1 cannot
//     read the served code. With AllowedHosts set, every request is held
//     to it, whatever address it arrived on.
//  2. The Origin policy: a browser request from another origin (its
//     Origin header neither the server itself nor Options.CORSOrigin) is
//     refused, whatever its method.
//  3. The token, before any of the body is read: a bearer token, or the
//     cookie a browser got from /?token= (webview.go).
//  4. The body, read whole (up to the size limit) within the request
//     timeout (at least minBodyTime: the bound is on the network's pace,
//     not the work), before the request takes one of the concurrency slots: a
//     client that sends headers and then dribbles or stalls its body holds
//     a connection and at most the bytes it sent, never a slot, and is
//     answered 408 when the time is up.
//
// The MCP handler's own Host check is off: this one covers it, with the
// same rule and the allowed hosts.

// hostAllowed applies the Host policy.
func (s *Server) hostAllowed(r *http.Request) bool {
	host := hostName(r.Host)
	if isLoopbackHost(host) || s.allowedHosts[host] {
		return true
	}
	if len(s.allowedHosts) > 0 {
		return false
	}
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || la == nil {
		return true
	}
	local, _, err := net.SplitHostPort(la.String())
	if err != nil {
		local = la.String()
	}
	return !isLoopback(local)
}

// hostName is the lower-cased name of a Host header, without its port
// and brackets.
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
}

// isLoopbackHost reports whether a host name always means this machine.
func isLoopbackHost(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || isLoopback(h)
}

// originAllowed applies the Origin policy.
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a browser's cross-origin request
	}
	if s.opts.CORSOrigin == "*" || origin == s.opts.CORSOrigin {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" and other opaque origins
	}
	return strings.EqualFold(u.Host, r.Host) // the server's own pages
}

// authorized checks "Authorization: Bearer <token>" (the scheme is
// case-insensitive, RFC 9110 §11.1) or, from a browser, the token cookie
// (webview.go).
func (s *Server) authorized(r *http.Request) bool {
	if c, err := r.Cookie(tokenCookie); err == nil && s.tokenMatches(c.Value) {
		return true
	}
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return s.tokenMatches(strings.TrimSpace(tok))
}

// tokenMatches compares a token with the server's in constant time.
func (s *Server) tokenMatches(tok string) bool {
	return s.opts.Token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.opts.Token)) == 1
}

// minBodyTime is the least time a body is given to arrive, whatever the
// request timeout.
const minBodyTime = time.Second

// readBody reads a request's body whole within the request timeout and
// puts it back as a buffer. It answers the request itself and returns
// false when the body is too large (413), too slow (408) or broken (400).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return true
	}
	limit := s.opts.MaxBodyBytes
	if r.URL.Path == webhookPath && s.opts.Webhook != nil {
		limit = max(limit, maxWebhookBytes)
	}
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", limit))
		return false
	}
	rc := http.NewResponseController(w)
	bodyTime := max(s.opts.RequestTimeout, minBodyTime)
	deadline := time.Now().Add(bodyTime)
	canDeadline := rc.SetReadDeadline(deadline) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err == nil {
		if canDeadline {
			rc.SetReadDeadline(time.Time{}) // what follows (an MCP stream) may be long
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		return true
	}
	w.Header().Set("Connection", "close")
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", tooBig.Limit))
	case errors.As(err, &ne) && ne.Timeout(), !canDeadline && time.Now().After(deadline):
		writeError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s (--request-timeout)", bodyTime))
	default:
		writeError(w, http.StatusBadRequest, "read the request body: "+err.Error())
	}
	return false
}

// needsSlot reports whether a request takes one of the concurrency
// slots: all do but an MCP client's standing event stream (GET
// /api/mcp), which waits for server messages and does no work of its own;
// a connected client keeps one open for as long as it is connected.
func needsSlot(r *http.Request) bool {
	return !(r.Method == http.MethodGet && r.URL.Path == "/api/mcp")
}
