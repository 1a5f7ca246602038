package freshness

import (
	"context"
	"gitnexus.dev/gitnexus/internal/gitcmd"
	"sync"
	"time"
)

// A check runs `git status` and stats the files it reports: about 45 ms on
// the Go standard library (11,500 files, 2 cores), which is ten times the
// whole budget of a tool call. A Monitor therefore never runs it on a
// call's path once it has an answer: it hands out the last answer with its
// time, and starts a new check in the background when that answer is older
// than the TTL. An idle server runs no checks at all.

// DefaultTTL is how long an answer is handed out before a call starts a new
// check. The checks run git at the lowest CPU priority, so that they take
// what the tool calls leave; with a 2 s TTL, calls on the Go standard
// library still saw their p99 rise by a millisecond or two.
const DefaultTTL = 10 * time.Second

// checkTimeout bounds one background check.
const checkTimeout = time.Minute

// Answer is a Report with the time of the check it comes from.
type Answer struct {
	Report
	CheckedAt time.Time
	Took      time.Duration
}

// current reports whether the answer is recent enough to hand out without
// starting a check: younger than the TTL, or than ten times the check's
// own duration, so that a slow repository is checked at most a tenth of
// the time.
func (a *Answer) current(ttl time.Duration) bool {
	return time.Since(a.CheckedAt) < max(ttl, 10*a.Took)
}

// Monitor keeps the freshness of one repository's index. It is safe for
// concurrent use.
type Monitor struct {
	root string
	tool string
	ttl  time.Duration

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	key     indexKey // the index the answer and the running check are for
	last    *Answer  // nil until a check of this index finished
	running *check   // nil when no check runs
	checks  int      // checks finished, for tests
}

// check is one check running in the background.
type check struct {
	done   chan struct{} // closed when it ends
	cancel context.CancelFunc
}

// indexKey tells one build of an index from another.
type indexKey struct {
	generation int64
	indexedAt  time.Time
}

// NewMonitor watches the repository at root; tool is the running
// program's version (see Check); ttl <= 0 means DefaultTTL.
func NewMonitor(root, tool string, ttl time.Duration) *Monitor {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Monitor{root: root, tool: tool, ttl: ttl, ctx: ctx, cancel: cancel}
}

// Get returns the freshness of idx. An answer younger than the TTL is
// returned as is; an older one is returned too, while a new check starts
// in the background. Without any answer for idx (a new build) it starts a
// check and waits for it up to wait; ok is false when none came in time.
func (m *Monitor) Get(idx Index, wait time.Duration) (a Answer, ok bool) {
	m.mu.Lock()
	m.switchTo(idx)
	if m.last != nil && m.last.current(m.ttl) {
		a := *m.last
		m.mu.Unlock()
		return a, true
	}
	running := m.start(idx)
	if m.last != nil {
		a := *m.last
		m.mu.Unlock()
		return a, true
	}
	m.mu.Unlock()
	if wait <= 0 {
		return Answer{}, false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-running:
	case <-t.C:
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last != nil && m.key == keyOf(idx) {
		return *m.last, true
	}
	return Answer{}, false
}

// Refresh starts a check of idx in the background unless one runs or the
// last answer is younger than the TTL: a server calls it when it loads a
// new build, so that the first call finds an answer.
func (m *Monitor) Refresh(idx Index) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.switchTo(idx)
	if m.last == nil || !m.last.current(m.ttl) {
		m.start(idx)
	}
}

// Forget drops the last answer and stops a running check: the caller just
// changed the work tree, and the next Get checks it again.
func (m *Monitor) Forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last = nil
	if m.running != nil {
		m.running.cancel()
		m.running = nil
	}
}

// Close stops a running check and waits for it.
func (m *Monitor) Close() {
	m.cancel()
	m.wg.Wait()
}

func keyOf(idx Index) indexKey { return indexKey{idx.Generation, idx.IndexedAt} }

// switchTo forgets the answer about another build, and stops a check of
// it. Under mu.
func (m *Monitor) switchTo(idx Index) {
	if k := keyOf(idx); k != m.key {
		m.key, m.last = k, nil
		if m.running != nil {
			m.running.cancel()
			m.running = nil
		}
	}
}

// start starts a check unless one runs, and returns the channel closed
// when the running check ends. Under mu.
func (m *Monitor) start(idx Index) <-chan struct{} {
	if m.running != nil {
		return m.running.done
	}
	c := &check{done: make(chan struct{})}
	if m.ctx.Err() != nil {
		close(c.done)
		return c.done
	}
	ctx, cancel := context.WithTimeout(gitcmd.LowPriority(m.ctx), checkTimeout)
	c.cancel = cancel
	m.running = c
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer close(c.done)
		defer cancel()
		started := time.Now()
		rep := Check(ctx, m.root, idx, m.tool, ReadGitState(ctx, m.root))
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.running == c {
			m.running = nil
		}
		m.checks++
		if ctx.Err() == nil && m.key == keyOf(idx) {
			m.last = &Answer{Report: rep, CheckedAt: started, Took: time.Since(started)}
		}
	}()
	return c.done
}
