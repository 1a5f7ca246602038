package httpserver

import (
	"container/list"
	"sync"
	"time"
)

// answerCache keeps encoded answers of the history endpoints: least
// recently used out first, bounded by total bytes, each entry valid for a
// time to live. Keys carry the repository's index generation, so a
// re-index makes older entries unreachable (they age out).
type answerCache struct {
	mu       sync.Mutex
	ttl      time.Duration
	maxBytes int
	bytes    int
	order    *list.List // of *cacheEntry, most recent first
	entries  map[string]*list.Element
	now      func() time.Time
}

type cacheEntry struct {
	key     string
	status  int
	body    []byte
	expires time.Time
}

// Cache defaults.
const (
	DefaultCacheTTL   = 5 * time.Minute
	DefaultCacheBytes = 64 << 20
)

func newAnswerCache(ttl time.Duration, maxBytes int) *answerCache {
	return &answerCache{ttl: ttl, maxBytes: maxBytes, order: list.New(), entries: map[string]*list.Element{}, now: time.Now}
}

// get returns a live entry.
func (c *answerCache) get(key string) (int, []byte, bool) {
	if c == nil {
		return 0, nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return 0, nil, false
	}
	e := el.Value.(*cacheEntry)
	if c.now().After(e.expires) {
		c.remove(el)
		return 0, nil, false
	}
	c.order.MoveToFront(el)
	return e.status, e.body, true
}

// put stores an answer; one larger than a quarter of the cache is not kept.
func (c *answerCache) put(key string, status int, body []byte) {
	if c == nil || len(body) > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	e := &cacheEntry{key: key, status: status, body: body, expires: c.now().Add(c.ttl)}
	c.entries[key] = c.order.PushFront(e)
	c.bytes += len(body) + len(key)
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

func (c *answerCache) remove(el *list.Element) {
	e := c.order.Remove(el).(*cacheEntry)
	delete(c.entries, e.key)
	c.bytes -= len(e.body) + len(e.key)
}
