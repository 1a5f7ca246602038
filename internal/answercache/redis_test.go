package answercache_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/testservices"
)

// logBuffer collects slog records from several goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

func newCache(t *testing.T, url string, opts answercache.Options) (*answercache.Redis, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	opts.Log = slog.New(slog.NewTextHandler(logs, nil))
	if opts.Timeout == 0 {
		opts.Timeout = time.Second // a loaded test machine is not an outage
	}
	c, err := answercache.NewRedis(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, logs
}

func TestRoundTripAndNamespace(t *testing.T) {
	srv := testservices.StartRedis(t)
	c, _ := newCache(t, srv.URL, answercache.Options{})
	ctx := context.Background()
	key := answercache.Key("rest", "shop", "context")
	if _, ok := c.Get(ctx, key); ok {
		t.Fatal("a hit in an empty cache")
	}
	c.Set(ctx, key, []byte(`{"answer":1}`))
	got, ok := c.Get(ctx, key)
	if !ok || string(got) != `{"answer":1}` {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	if st := c.Stats(); st != (answercache.Stats{Hits: 1, Misses: 1, Sets: 1}) {
		t.Errorf("stats %+v", st)
	}
	// The value lives under the namespace, with the TTL.
	opt, _ := redis.ParseURL(srv.URL)
	raw := redis.NewClient(opt)
	defer raw.Close()
	keys, err := raw.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0] != answercache.Namespace+key {
		t.Errorf("keys in Redis: %q, want [%q]", keys, answercache.Namespace+key)
	}
	if ttl := raw.TTL(ctx, keys[0]).Val(); ttl <= 0 || ttl > answercache.DefaultTTL {
		t.Errorf("TTL %v, want (0, %v]", ttl, answercache.DefaultTTL)
	}
}

func TestKeySeparatesParts(t *testing.T) {
	if answercache.Key("ab", "c") == answercache.Key("a", "bc") {
		t.Error("parts that concatenate alike share a key")
	}
	if answercache.Key("mcp", "x") == answercache.Key("rest", "x") {
		t.Error("transports share a key")
	}
}

func TestTTL(t *testing.T) {
	srv := testservices.StartRedis(t)
	c, _ := newCache(t, srv.URL, answercache.Options{TTL: time.Second})
	ctx := context.Background()
	c.Set(ctx, "k", []byte("v"))
	if _, ok := c.Get(ctx, "k"); !ok {
		t.Fatal("miss right after Set")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := c.Get(ctx, "k"); !ok {
			return // expired
		}
		if time.Now().After(deadline) {
			t.Fatal("the value outlived its TTL of 1s by 4s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestOversizeNotStored(t *testing.T) {
	srv := testservices.StartRedis(t)
	c, _ := newCache(t, srv.URL, answercache.Options{MaxValueBytes: 1000})
	ctx := context.Background()
	c.Set(ctx, "big", bytes.Repeat([]byte("x"), 1001))
	c.Set(ctx, "small", bytes.Repeat([]byte("x"), 1000))
	if _, ok := c.Get(ctx, "big"); ok {
		t.Error("a value over the limit was stored")
	}
	if _, ok := c.Get(ctx, "small"); !ok {
		t.Error("a value at the limit was not stored")
	}
	if st := c.Stats(); st.Oversize != 1 || st.Sets != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestBadURL(t *testing.T) {
	for _, u := range []string{"http://localhost:6379", "localhost:6379", "", "redis://"} {
		if _, err := answercache.NewRedis(u, answercache.Options{}); err == nil || !strings.Contains(err.Error(), "redis://") {
			t.Errorf("NewRedis(%q) = %v, want an error naming redis://", u, err)
		}
	}
	_, err := answercache.NewRedis("http://user:secret@localhost", answercache.Options{})
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("the error shows the password: %v", err)
	}
}

// An outage: operations return at once as misses, Redis is left alone
// during the back-off, the outage is logged once when it begins and once
// when Redis answers again.
func TestOutage(t *testing.T) {
	srv := testservices.StartRedis(t)
	c, logs := newCache(t, srv.URL, answercache.Options{Timeout: 30 * time.Millisecond,
		Backoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	ctx := context.Background()
	c.Set(ctx, "k", []byte("v"))
	srv.Stop()

	// Generous bound: what matters is that the calls return, not how fast.
	bound, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if _, ok := c.Get(bound, "k"); ok {
			t.Fatal("a hit from a stopped server")
		}
		c.Set(bound, "k", []byte("v"))
		if bound.Err() != nil {
			t.Fatal("Get and Set did not return within 10s of a stopped server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	st := c.Stats()
	if st.Errors == 0 || st.Skipped == 0 {
		t.Errorf("stats %+v: want errors and skipped operations", st)
	}
	// A second left Redis alone for most calls: one probe per back-off.
	if st.Errors > 20 {
		t.Errorf("%d failed attempts in 1s with a back-off of 50-200ms", st.Errors)
	}
	if n := logs.count("does not answer"); n != 1 {
		t.Errorf("the outage was logged %d times, want once:\n%s", n, logs.b.String())
	}

	srv.Start()
	deadline = time.Now().Add(10 * time.Second)
	for {
		c.Set(ctx, "k2", []byte("v2"))
		if v, ok := c.Get(ctx, "k2"); ok && string(v) == "v2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no hit 10s after Redis came back; stats %+v\n%s", c.Stats(), logs.b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := logs.count("answers again"); n != 1 {
		t.Errorf("the recovery was logged %d times, want once:\n%s", n, logs.b.String())
	}
	if n := logs.count("does not answer"); n != 1 {
		t.Errorf("the outage was logged %d times, want once:\n%s", n, logs.b.String())
	}
}

// A killed server (no orderly close of its connections) is an outage too.
func TestKilledServer(t *testing.T) {
	srv := testservices.StartRedis(t)
	c, logs := newCache(t, srv.URL, answercache.Options{Timeout: 30 * time.Millisecond, Backoff: 50 * time.Millisecond})
	ctx := context.Background()
	c.Set(ctx, "k", []byte("v"))
	srv.Kill()
	for i := 0; i < 50; i++ {
		if _, ok := c.Get(ctx, "k"); ok {
			t.Fatal("a hit from a killed server")
		}
	}
	if n := logs.count("does not answer"); n != 1 {
		t.Errorf("the outage was logged %d times, want once", n)
	}
}
