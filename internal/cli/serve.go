package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/httpserver"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/teamstore"
	"gitnexus.dev/gitnexus/internal/webhook"
)

type serveOptions struct {
	io             *IO
	host           string
	port           int
	token          string
	corsOrigin     string
	allowedHosts   []string
	allowWrite     bool
	idleTimeout    time.Duration
	requestTimeout time.Duration
	drainTimeout   time.Duration
	jsonLog        bool
	cacheTTL       time.Duration
	cacheURL       string
	webhookSecret  string
	webhookWait    time.Duration
	store          string
	storeDir       string
	storePoll      time.Duration
}

func newServeCmd(stdio *IO) *cobra.Command {
	o := &serveOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the indexed repositories over HTTP: MCP at /api/mcp and a REST API",
		Long: `Serve every indexed repository over HTTP to many clients at once:

  /api/mcp                    MCP over streamable HTTP (the tools of gitnexus mcp)
  GET  /api/v1/health         liveness, version, repository count (no token needed)
  GET  /api/v1/repos          the indexed repositories
  POST /api/v1/tools/{name}   a tool with its arguments as a JSON object (?repo= selects)
  GET  /                      the web view in a browser (with a token: open /?token=<token> once)

  and the history's endpoints under /api/v1/commit, /file, /function and semantic_search (docs/http.md)

With --webhook-secret (or GITNEXUS_WEBHOOK_SECRET), a signed GitHub or GitLab push to a registered
repository's origin fast-forwards its checkout when safe and re-indexes it (docs/keeping-fresh.md).
Answers are JSON; errors {"error": "..."} with a fitting status. It binds 127.0.0.1; a non-loopback
--host needs a token (--auth-token or GITNEXUS_AUTH_TOKEN), sent as "Authorization: Bearer <token>".
Nothing writes to a repository unless --allow-write; SIGINT/SIGTERM drains requests for up to
--drain-timeout; a foreign Host header or web origin is refused (--allowed-host, --cors-origin). With
--cache (or GITNEXUS_REDIS_URL) replicas share tool answers in Redis (docs/http.md). --store (or
$GITNEXUS_DB_URI) serves the repositories pushed to the team's PostgreSQL store (docs/team.md).`,
		Example: `  gitnexus serve --port 0                       # any free port; the address is printed
  gitnexus serve --cache redis://cache:6379/0   # share tool answers with other replicas
  gitnexus serve --store postgres://gitnexus:secret@db:5432/gitnexus --cache redis://cache:6379/0
  GITNEXUS_AUTH_TOKEN=s3cret gitnexus serve --host 0.0.0.0
  curl -s localhost:8910/api/v1/tools/impact -H 'Content-Type: application/json' \
       -d '{"target": "ParseConfig", "repo": "app"}'`,
		Args: argsRange(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("auth-token") {
				o.token = os.Getenv("GITNEXUS_AUTH_TOKEN")
			}
			if !cmd.Flags().Changed("webhook-secret") {
				o.webhookSecret = os.Getenv("GITNEXUS_WEBHOOK_SECRET")
			}
			if !cmd.Flags().Changed("store") {
				o.store = teamstore.URIFromEnv()
			}
			if !cmd.Flags().Changed("cache") {
				o.cacheURL = cacheURLFromEnv()
			}
			return runServe(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.host, "host", "127.0.0.1", "address to listen on")
	f.IntVar(&o.port, "port", 8910, "port to listen on (0: any free port)")
	f.StringVar(&o.token, "auth-token", "", "require this bearer token (default $GITNEXUS_AUTH_TOKEN)")
	f.StringVar(&o.corsOrigin, "cors-origin", "", "allow browser requests from this origin (* for any); off by default")
	f.StringArrayVar(&o.allowedHosts, "allowed-host", nil, "accept this name in the Host header besides the loopback names, e.g. a reverse proxy's (repeatable)")
	f.BoolVar(&o.allowWrite, "allow-write", false, "let rename apply edits (dry_run false); refused by default")
	f.DurationVar(&o.idleTimeout, "idle-timeout", backend.DefaultIdleTimeout, "release a repository's graph after this long without calls (0 keeps graphs loaded)")
	f.DurationVar(&o.requestTimeout, "request-timeout", httpserver.DefaultRequestTimeout, "stop a REST request after this long, and any request whose body takes longer to arrive")
	f.DurationVar(&o.drainTimeout, "drain-timeout", 30*time.Second, "on shutdown, wait this long for requests in flight")
	f.BoolVar(&o.jsonLog, "json-log", false, "write the access log as JSON lines")
	f.DurationVar(&o.cacheTTL, "cache-ttl", httpserver.DefaultCacheTTL, "reuse answers of the history endpoints, and the tool answers shared with --cache, for this long (0: no cache)")
	f.StringVar(&o.cacheURL, "cache", "", "share tool answers with other replicas in this Redis, a redis:// or rediss:// URL (default $GITNEXUS_REDIS_URL)")
	f.StringVar(&o.webhookSecret, "webhook-secret", "", "accept push webhooks signed with this secret at POST /api/v1/webhook (default $GITNEXUS_WEBHOOK_SECRET)")
	f.DurationVar(&o.webhookWait, "webhook-debounce", webhook.DefaultDebounce, "after a push, wait this long for more before fetching and re-indexing")
	f.StringVar(&o.store, "store", "", "serve the repositories of this shared store, postgres://... (default $GITNEXUS_DB_URI), not the registry's")
	f.StringVar(&o.storeDir, "store-dir", "", "with --store, where this replica keeps its copies of the indexes (default $GITNEXUS_HOME/replica/<store>)")
	f.DurationVar(&o.storePoll, "store-poll", teamstore.DefaultPoll, "with --store, look for new generations this often when no push notification arrives")
	return cmd
}

func runServe(ctx context.Context, o *serveOptions) error {
	if o.port < 0 || o.port > 65535 {
		return usageError{fmt.Errorf("--port must be between 0 and 65535")}
	}
	if o.store != "" {
		if err := teamstore.CheckURI(o.store); err != nil {
			return usageError{err}
		}
		if o.webhookSecret != "" {
			return usageError{fmt.Errorf("--webhook-secret re-indexes local checkouts; a server of the shared store (--store) has none: push from the indexer instead (docs/team.md)")}
		}
	}
	if o.storePoll <= 0 {
		return usageError{fmt.Errorf("--store-poll must be positive")}
	}
	if o.webhookWait <= 0 {
		return usageError{fmt.Errorf("--webhook-debounce must be positive")}
	}
	if o.idleTimeout < 0 || o.requestTimeout <= 0 || o.drainTimeout < 0 || o.cacheTTL < 0 {
		return usageError{fmt.Errorf("--idle-timeout, --drain-timeout and --cache-ttl must not be negative, --request-timeout must be positive")}
	}
	cacheTTL := o.cacheTTL
	if cacheTTL == 0 {
		cacheTTL = -1 // no cache
	}
	idle := o.idleTimeout
	if idle == 0 {
		idle = -1
	}
	var handler slog.Handler = slog.NewTextHandler(o.io.ErrOut, nil)
	if o.jsonLog {
		handler = slog.NewJSONHandler(o.io.ErrOut, nil)
	}
	logger := slog.New(handler)
	bopts := backend.Options{IdleTimeout: idle, IgnoreCwd: true, ReadOnly: !o.allowWrite, ToolVersion: Version()}
	if o.store != "" {
		rep, closeStore, err := openReplica(ctx, o, logger)
		if err != nil {
			return err
		}
		defer closeStore()
		bopts.Source, bopts.NoWorkTree = rep, true
	}
	b, err := backend.New(bopts)
	if err != nil {
		return err
	}
	defer b.Close()
	addr := net.JoinHostPort(o.host, strconv.Itoa(o.port))
	opts := httpserver.Options{Addr: addr, Token: o.token, CORSOrigin: o.corsOrigin, AllowedHosts: o.allowedHosts,
		RequestTimeout: o.requestTimeout, CacheTTL: cacheTTL, Version: Version(), Log: logger}
	if o.cacheURL != "" {
		shared, err := openAnswerCache(ctx, o.cacheURL, o.cacheTTL, logger)
		if err != nil {
			return err
		}
		defer shared.Close()
		opts.AnswerCache = shared
	}
	if o.webhookSecret != "" {
		rcv, err := newWebhookReceiver(o.webhookSecret, o.webhookWait, b, logger)
		if err != nil {
			return err
		}
		defer rcv.Close()
		opts.Webhook = rcv
	}
	srv, err := httpserver.New(b, opts)
	if err != nil {
		return usageError{err}
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	logger.Info("listening", "url", "http://"+l.Addr().String(), "mcp", "http://"+l.Addr().String()+"/api/mcp",
		"repos", len(b.Repos()), "auth", o.token != "", "write", o.allowWrite, "webhook", o.webhookSecret != "",
		"store", teamstore.Redacted(o.store), "shared_cache", o.cacheURL != "")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "drain", o.drainTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), o.drainTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-done; err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// openReplica connects to the shared store and starts a replica of it.
func openReplica(ctx context.Context, o *serveOptions, logger *slog.Logger) (*teamstore.Replica, func(), error) {
	st, err := teamstore.Open(ctx, o.store)
	if err != nil {
		return nil, nil, err
	}
	dir := o.storeDir
	if dir == "" {
		home, err := registry.Home()
		if err != nil {
			st.Close()
			return nil, nil, err
		}
		sum := sha256.Sum256([]byte(teamstore.Redacted(o.store)))
		dir = filepath.Join(home, "replica", hex.EncodeToString(sum[:6]))
	}
	rep, err := st.NewReplica(ctx, dir, o.storePoll, logger)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	logger.Info("serving the shared store", "store", st.Where(), "copies", dir)
	return rep, func() { rep.Close(); st.Close() }, nil
}

// cacheURLFromEnv is the shared cache's URL from the environment:
// GITNEXUS_REDIS_URL, or GITNEXUS_CACHE_REDIS (the name deployment
// documents use).
func cacheURLFromEnv() string {
	if u := os.Getenv("GITNEXUS_REDIS_URL"); u != "" {
		return u
	}
	return os.Getenv("GITNEXUS_CACHE_REDIS")
}

// openAnswerCache connects the cache of tool answers shared with other
// replicas. A URL that is not redis:// or rediss:// is an error; a Redis
// that does not answer yet is not: the cache logs it and serve answers
// uncached until Redis does.
func openAnswerCache(ctx context.Context, rawURL string, ttl time.Duration, logger *slog.Logger) (*answercache.Redis, error) {
	if ttl == 0 {
		return nil, usageError{fmt.Errorf("--cache needs a positive --cache-ttl (0 turns caching off)")}
	}
	c, err := answercache.NewRedis(rawURL, answercache.Options{TTL: ttl, Log: logger})
	if err != nil {
		return nil, usageError{fmt.Errorf("--cache (or GITNEXUS_REDIS_URL): %w", err)}
	}
	if err := c.Ping(ctx); err == nil {
		logger.Info("answer cache: sharing tool answers in Redis", "ttl", ttl.String())
	}
	return c, nil
}
