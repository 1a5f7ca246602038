package answercache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Namespace prefixes every key the cache writes in Redis; the version
// changes when the encoding of the answers does.
const Namespace = "gitnexus:answer:v1:"

// Defaults of Options.
const (
	DefaultTTL = 5 * time.Minute
	// DefaultTimeout bounds one operation: Redis on the same network
	// answers in well under a millisecond, and a miss after 50 ms costs a
	// client less than a cache that waits.
	DefaultTimeout       = 50 * time.Millisecond
	DefaultMaxValueBytes = 1 << 20
	DefaultBackoff       = time.Second
	DefaultMaxBackoff    = 30 * time.Second
)

// Options configure a Redis cache; zero values take the defaults.
type Options struct {
	// TTL is how long an answer is kept.
	TTL time.Duration
	// Timeout bounds each operation, connecting included.
	Timeout time.Duration
	// MaxValueBytes: larger values are not stored.
	MaxValueBytes int
	// Backoff is how long Redis is left alone after a failure; it doubles
	// with each failed attempt after that, up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// Log receives one record when an outage begins and one when it ends;
	// nil: slog.Default().
	Log *slog.Logger
}

// Redis is a Cache in a Redis server.
type Redis struct {
	client *redis.Client
	opts   Options
	addr   string // for the log: host:port/db, no password

	hits, misses, sets, errs, skipped, oversize atomic.Uint64

	mu      sync.Mutex
	down    bool      // an outage is going on
	since   time.Time // when it began
	retryAt time.Time // Redis is not asked before this
	backoff time.Duration
}

// NewRedis makes a cache in the Redis server at rawURL (redis:// or
// rediss://, with the database number as the path, e.g.
// redis://cache:6379/0). It does not connect: see Ping.
func NewRedis(rawURL string, opts Options) (*Redis, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("answer cache %q: want a redis:// or rediss:// URL, e.g. redis://localhost:6379/0", redact(rawURL))
	}
	ro, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("answer cache %s: %w", redact(rawURL), err)
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxValueBytes <= 0 {
		opts.MaxValueBytes = DefaultMaxValueBytes
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.MaxBackoff < opts.Backoff {
		opts.MaxBackoff = max(DefaultMaxBackoff, opts.Backoff)
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	quietLibrary.Do(func() { redis.SetLogger(libraryLog{}) })
	// One attempt per operation, bounded by the timeout: retries and
	// redials would multiply what a client waits for a cache.
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout, ro.PoolTimeout = opts.Timeout, opts.Timeout, opts.Timeout, opts.Timeout
	ro.ContextTimeoutEnabled = true
	ro.MaxRetries = -1
	ro.DialerRetries = 1
	ro.DialerRetryTimeout = opts.Timeout
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return &Redis{client: redis.NewClient(ro), opts: opts, addr: fmt.Sprintf("%s/%d", ro.Addr, ro.DB)}, nil
}

// quietLibrary sends the client library's own messages (one per failed
// dial, many during an outage) to slog's debug level, once per process:
// the cache logs an outage itself, once.
var quietLibrary sync.Once

type libraryLog struct{}

func (libraryLog) Printf(ctx context.Context, format string, v ...any) {
	slog.Default().DebugContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
}

// redact drops the password from a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}

// Ping asks the server once, with the operation timeout; serve calls it
// at start-up to warn early. A failure starts an outage (logged) like any
// other.
func (r *Redis) Ping(ctx context.Context) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	err := r.client.Ping(ctx).Err()
	r.observe(ctx, start, err)
	return err
}

// Close closes the connections.
func (r *Redis) Close() error { return r.client.Close() }

// Stats returns the counts so far.
func (r *Redis) Stats() Stats {
	return Stats{Hits: r.hits.Load(), Misses: r.misses.Load(), Sets: r.sets.Load(), Errors: r.errs.Load(),
		Skipped: r.skipped.Load(), Oversize: r.oversize.Load()}
}

// Get returns the value stored under key; a miss when there is none, when
// Redis fails or is slow, and during an outage's back-off.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, bool) {
	if !r.allowed() {
		r.skipped.Add(1)
		return nil, false
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	val, err := r.client.Get(ctx, Namespace+key).Bytes()
	if errors.Is(err, redis.Nil) {
		r.observe(ctx, start, nil)
		r.misses.Add(1)
		return nil, false
	}
	if r.observe(ctx, start, err) {
		r.errs.Add(1)
		return nil, false
	}
	r.hits.Add(1)
	return val, true
}

// Set stores val under key for the TTL, unless it is larger than the
// limit; a failure is counted and otherwise ignored.
func (r *Redis) Set(ctx context.Context, key string, val []byte) {
	if len(val) > r.opts.MaxValueBytes {
		r.oversize.Add(1)
		return
	}
	if !r.allowed() {
		r.skipped.Add(1)
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	if r.observe(ctx, start, r.client.Set(ctx, Namespace+key, val, r.opts.TTL).Err()) {
		r.errs.Add(1)
		return
	}
	r.sets.Add(1)
}

// allowed reports whether Redis may be asked now: no outage, or its
// back-off ended. Once a back-off ends one operation goes through as the
// probe, and the next back-off starts at once, so that a crowd of
// requests does not all wait on a server that is still down.
func (r *Redis) allowed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.down {
		return true
	}
	now := time.Now()
	if now.Before(r.retryAt) {
		return false
	}
	r.backoff = min(2*r.backoff, r.opts.MaxBackoff)
	r.retryAt = now.Add(r.backoff)
	return true
}

// observe records how an operation that started at start ended, and
// reports whether it failed. The first failure begins an outage and the
// first success of an operation started after that (the probe) ends it,
// each logged once: an operation already under way when the outage began
// does not end it, so that a burst of timeouts among successes is one
// outage, not a flurry of them. An operation its caller gave up on (the
// caller's context ended) says nothing about Redis.
func (r *Redis) observe(ctx context.Context, start time.Time, err error) (failed bool) {
	if err != nil && context.Cause(ctx) != nil && !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return true // canceled by the caller
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	switch {
	case err == nil && r.down && start.After(r.since):
		r.down = false
		r.opts.Log.Info("answer cache: Redis answers again; caching resumes",
			"addr", r.addr, "outage", now.Sub(r.since).Round(time.Millisecond).String(), "skipped", r.skipped.Load())
	case err != nil && !r.down:
		r.down, r.since = true, now
		r.backoff = r.opts.Backoff
		r.retryAt = now.Add(r.backoff)
		r.opts.Log.Warn("answer cache: Redis does not answer; serving uncached answers until it does",
			"addr", r.addr, "err", err.Error(), "retry", r.backoff.String())
	}
	return err != nil
}
