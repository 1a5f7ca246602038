// Package httpserver serves the backend over HTTP: MCP over streamable HTTP
// at /api/mcp, a JSON REST API under /api/v1 for agents that cannot speak
// MCP, and the web view (package webui) at / with its endpoints under
// /api/v1/graph, /api/v1/cypher and /api/v1/history. It adds what a network listener needs and the stdio server does not:
// a bearer token, limits on bodies, headers, time and concurrency, CORS on
// request, an access log and a graceful shutdown.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/mcpserver"
	"gitnexus.dev/gitnexus/internal/webui"
)

// Options configure a Server.
type Options struct {
	// Addr is host:port to listen on.
	Addr string
	// Token, when set, is required as "Authorization: Bearer <token>" on
	// every request but the health check. Binding a non-loopback address
	// without one is refused.
	Token string
	// CORSOrigin allows browser requests from this origin ("*" for any);
	// empty: no CORS headers at all, and requests from other origins are
	// refused (guard.go).
	CORSOrigin string
	// AllowedHosts are host names the Host header may carry besides the
	// loopback names (a reverse proxy's public name); with any set, every
	// request is held to them (guard.go).
	AllowedHosts []string
	// RequestTimeout bounds one REST request, and the time any request
	// may take to send its body (DefaultRequestTimeout when 0).
	RequestTimeout time.Duration
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// MaxInFlight bounds concurrent requests; more get 429
	// (DefaultMaxInFlight when 0).
	MaxInFlight int
	// CacheTTL is how long a history answer is reused
	// (DefaultCacheTTL when 0; negative: no cache); CacheBytes bounds the
	// cache (DefaultCacheBytes when 0).
	CacheTTL   time.Duration
	CacheBytes int
	// AnswerCache, when set, is a cache shared with other servers of the
	// same repositories (Redis): the tools that read the index alone are
	// answered from it, over REST and MCP (answers.go). It may also
	// implement Stats() answercache.Stats, which the health check reports.
	AnswerCache answercache.Cache
	// Version is reported by the health check and the MCP server.
	Version string
	// Log receives one access-log record per request; nil logs nothing.
	Log *slog.Logger
	// Webhook, when set, receives push deliveries at POST
	// /api/v1/webhook, which they authenticate by signature instead of
	// the token.
	Webhook WebhookReceiver
}

// Defaults.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxBodyBytes   = 1 << 20
	DefaultMaxInFlight    = 64
	maxHeaderBytes        = 64 << 10
)

// Server is the HTTP front of a backend.
type Server struct {
	b        *backend.Backend
	opts     Options
	mux      *http.ServeMux
	inFlight chan struct{}
	http     *http.Server
	cache    *answerCache // nil: no cache
	// allowedHosts holds Options.AllowedHosts as hostName gives them.
	allowedHosts map[string]bool
}

// ErrNeedToken refuses a non-loopback listener without a token.
var ErrNeedToken = errors.New("refusing to listen on a non-loopback address without a token: set --auth-token or GITNEXUS_AUTH_TOKEN")

// New builds the server. It checks the options but does not listen.
func New(b *backend.Backend, opts Options) (*Server, error) {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", opts.Addr, err)
	}
	if !isLoopback(host) && opts.Token == "" {
		return nil, fmt.Errorf("%w (address %s)", ErrNeedToken, opts.Addr)
	}
	s := &Server{b: b, opts: opts, mux: http.NewServeMux(), inFlight: make(chan struct{}, opts.MaxInFlight),
		allowedHosts: map[string]bool{}}
	for _, h := range opts.AllowedHosts {
		if h = hostName(strings.TrimSpace(h)); h != "" {
			s.allowedHosts[h] = true
		}
	}
	if opts.CacheTTL >= 0 {
		ttl, size := opts.CacheTTL, opts.CacheBytes
		if ttl == 0 {
			ttl = DefaultCacheTTL
		}
		if size <= 0 {
			size = DefaultCacheBytes
		}
		s.cache = newAnswerCache(ttl, size)
	}
	s.routes()
	s.http = &http.Server{
		Handler:           s.middleware(s.mux),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	return s, nil
}

// isLoopback reports whether host (a name or an address) is loopback only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Handler is the server's HTTP handler (for tests that serve it
// themselves).
func (s *Server) Handler() http.Handler { return s.http.Handler }

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	err := s.http.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections and waits for the requests in
// flight to finish, or for ctx.
func (s *Server) Shutdown(ctx context.Context) error { return s.http.Shutdown(ctx) }

func (s *Server) routes() {
	var mcpOpts []mcpserver.Option
	if s.opts.AnswerCache != nil {
		mcpOpts = append(mcpOpts, mcpserver.WithCache(s.opts.AnswerCache))
	}
	mcpSrv := mcpserver.New(s.b, s.opts.Version, s.opts.Log, mcpOpts...)
	s.mux.Handle("/api/mcp", plainJSON(asciiResponses(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpSrv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: s.opts.MaxBodyBytes, SessionTimeout: 30 * time.Minute,
			DisableLocalhostProtection: true}))))
	s.mux.HandleFunc("GET /api/v1/health", s.health)
	s.mux.HandleFunc("GET /api/v1/repos", s.rest(s.repos))
	s.mux.HandleFunc("POST /api/v1/tools/{name}", s.rest(s.tool))
	s.mux.HandleFunc("POST "+webhookPath, s.webhook)
	s.routeHistory()
	s.routeGraph()
	s.mux.Handle("/", webui.Handler()) // the web view: / and /assets/
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s (see docs/http.md)", r.Method, r.URL.Path))
	})
	s.mux.HandleFunc("/api/v1/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowedMethods(r.URL.Path); allow != "" {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, allow))
			return
		}
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s (see docs/http.md)", r.Method, r.URL.Path))
	})
}

// allowedMethods names the methods of the endpoint at path ("" when there
// is none), for 405 answers.
func allowedMethods(path string) string {
	switch {
	case path == "/api/v1/health", path == "/api/v1/repos", graphGetPaths[path]:
		return "GET"
	case path == webhookPath, path == "/api/v1/cypher":
		return "POST"
	case strings.HasPrefix(path, "/api/v1/tools/") && !strings.Contains(strings.TrimPrefix(path, "/api/v1/tools/"), "/"),
		path == "/api/v1/semantic_search", path == "/api/v1/commit/cluster":
		return "POST"
	case strings.HasPrefix(path, "/api/v1/commit/") && (strings.HasSuffix(path, "/files") || strings.HasSuffix(path, "/functions")),
		strings.HasPrefix(path, "/api/v1/file/"), strings.HasPrefix(path, "/api/v1/function/"):
		return "GET"
	}
	return ""
}

// middleware wraps every request: access log, Host, CORS, Origin, token,
// body, concurrency (guard.go says why in this order).
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if s.opts.Log != nil {
				s.opts.Log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
					"bytes", rec.bytes, "ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr)
			}
		}()
		if !s.hostAllowed(r) {
			writeError(rec, http.StatusForbidden, fmt.Sprintf("the Host header %q is not this server's: use localhost or 127.0.0.1, "+
				"or start gitnexus serve with --allowed-host %s", r.Host, hostName(r.Host)))
			return
		}
		if s.opts.CORSOrigin != "" {
			h := rec.Header()
			h.Set("Access-Control-Allow-Origin", s.opts.CORSOrigin)
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version")
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
			h.Add("Vary", "Origin")
			if r.Method == http.MethodOptions {
				rec.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if !s.originAllowed(r) {
			writeError(rec, http.StatusForbidden, fmt.Sprintf("requests from the web origin %q are refused: "+
				"start gitnexus serve with --cors-origin %s to allow them", r.Header.Get("Origin"), r.Header.Get("Origin")))
			return
		}
		if r.URL.Path == "/" && r.URL.Query().Has("token") {
			s.tokenLogin(rec, r) // the web view's token, traded for a cookie
			return
		}
		signed := r.URL.Path == webhookPath && r.Method == http.MethodPost // checked by the receiver
		if s.opts.Token != "" && r.URL.Path != "/api/v1/health" && !signed && !s.authorized(r) {
			if !strings.HasPrefix(r.URL.Path, "/api/") {
				needTokenPage(rec)
				return
			}
			rec.Header().Set("WWW-Authenticate", `Bearer realm="gitnexus"`)
			if r.Header.Get("Authorization") == "" && !hasTokenCookie(r) {
				writeError(rec, http.StatusUnauthorized, "missing bearer token: send Authorization: Bearer <token>")
			} else {
				writeError(rec, http.StatusForbidden, "wrong token")
			}
			return
		}
		if seg := uncleanSegment(r.URL.EscapedPath()); seg != "" {
			// The mux would redirect to the cleaned path: a file path is
			// repository-relative, and a client sending these means another.
			writeError(rec, http.StatusBadRequest, fmt.Sprintf("the path %q has %s segment: paths are repository-relative "+
				"and clean, e.g. /api/v1/file/internal/store/lock.go/commits", r.URL.Path, seg))
			return
		}
		if !s.readBody(rec, r) {
			return
		}
		if needsSlot(r) {
			select {
			case s.inFlight <- struct{}{}:
				defer func() { <-s.inFlight }()
			default:
				rec.Header().Set("Retry-After", "1")
				writeError(rec, http.StatusTooManyRequests, fmt.Sprintf("more than %d requests at once; retry shortly", s.opts.MaxInFlight))
				return
			}
		}
		next.ServeHTTP(rec, r)
	})
}

// recorder remembers the status and size of a response for the log. It
// passes Flush through: MCP streams events.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// uncleanSegment names the first segment of an /api/ path, as sent (not
// decoded: an encoded "..%2F" is the handlers' to refuse, with its own
// message), that is empty (//), "." or "..", or returns "" when there is
// none (a trailing slash is allowed).
func uncleanSegment(p string) string {
	if !strings.HasPrefix(p, "/api/") {
		return ""
	}
	segs := strings.Split(strings.TrimSuffix(p[1:], "/"), "/")
	for _, seg := range segs {
		switch seg {
		case "":
			return "an empty"
		case ".", "..":
			return "a " + strconv.Quote(seg)
		}
	}
	return ""
}
