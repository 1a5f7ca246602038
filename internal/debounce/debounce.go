// Package debounce turns bursts of events into single runs: an editor
// saving ten files, a branch switch rewriting a thousand, or pushes coming
// one after another each cause one re-index once things settle.
package debounce

import (
	"context"
	"sync"
	"time"
)

// Debouncer runs a function once triggers stop arriving for a quiet
// period, never two runs at once; triggers during a run give one more run
// after it. It is safe for concurrent use.
type Debouncer struct {
	quiet   time.Duration
	maxWait time.Duration
	fn      func(context.Context)
	// Ready, when set, is asked when the quiet period is over: false
	// waits another quiet period (e.g. while git holds its index lock).
	Ready func() bool

	kick chan struct{}
	mu   sync.Mutex
	runs int
}

// New returns a Debouncer that calls fn after quiet without triggers, or
// at the latest 20 quiet periods after the first of a burst that never
// stops.
func New(quiet time.Duration, fn func(context.Context)) *Debouncer {
	return &Debouncer{quiet: quiet, maxWait: 20 * quiet, fn: fn, kick: make(chan struct{}, 1)}
}

// Trigger notes an event. It never blocks.
func (d *Debouncer) Trigger() {
	select {
	case d.kick <- struct{}{}:
	default: // one is pending already
	}
}

// Runs counts the runs so far.
func (d *Debouncer) Runs() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.runs
}

// Run serves triggers until ctx ends; a run in progress is given ctx and
// finishes before Run returns.
func (d *Debouncer) Run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	armed := false
	var first time.Time // first trigger of the burst
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-d.kick:
			now := time.Now()
			if !armed {
				first, armed = now, true
			}
			wait := d.quiet
			if deadline := first.Add(d.maxWait); now.Add(wait).After(deadline) {
				wait = max(0, deadline.Sub(now))
			}
			timer.Reset(wait)
		case <-timer.C:
			if d.Ready != nil && !d.Ready() {
				timer.Reset(d.quiet)
				continue
			}
			armed = false
			d.mu.Lock()
			d.runs++
			d.mu.Unlock()
			d.fn(ctx)
		}
	}
}
