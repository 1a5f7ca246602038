package debounce

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestDebouncer: bursts become single runs, triggers during a run give one
// more, a never-ending burst still runs, and Ready holds a run back.
func TestDebouncer(t *testing.T) {
	const quiet = 50 * time.Millisecond
	cases := []struct {
		name     string
		events   func(d *Debouncer)
		ready    func() bool
		min, max int
	}{
		{name: "burst", events: func(d *Debouncer) {
			for i := 0; i < 50; i++ {
				d.Trigger()
			}
		}, min: 1, max: 1},
		{name: "saves a millisecond apart", events: func(d *Debouncer) {
			for i := 0; i < 50; i++ {
				d.Trigger()
				time.Sleep(time.Millisecond)
			}
		}, min: 1, max: 3}, // a loaded machine may sleep much longer than asked
		{name: "two bursts", events: func(d *Debouncer) {
			d.Trigger()
			time.Sleep(5 * quiet)
			d.Trigger()
		}, min: 2, max: 2},
		{name: "endless burst", events: func(d *Debouncer) {
			for end := time.Now().Add(30 * quiet); time.Now().Before(end); time.Sleep(quiet / 3) {
				d.Trigger()
			}
		}, min: 1, max: 3},
		{name: "held back", events: func(d *Debouncer) { d.Trigger() }, ready: func() bool { return false }, min: 0, max: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var running atomic.Int32
			d := New(quiet, func(context.Context) {
				if running.Add(1) > 1 {
					t.Error("two runs at once")
				}
				time.Sleep(quiet / 2)
				running.Add(-1)
			})
			d.Ready = c.ready
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { d.Run(ctx); close(done) }()
			c.events(d)
			time.Sleep(6 * quiet)
			cancel()
			<-done
			if n := d.Runs(); n < c.min || n > c.max {
				t.Errorf("%d runs, want %d to %d", n, c.min, c.max)
			}
		})
	}
}

// TestTriggerDuringRun: a trigger while the function runs gives exactly
// one more run.
func TestTriggerDuringRun(t *testing.T) {
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	var n atomic.Int32
	d := New(10*time.Millisecond, func(context.Context) {
		if n.Add(1) == 1 {
			started <- struct{}{}
			<-release
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	d.Trigger()
	<-started
	for i := 0; i < 10; i++ {
		d.Trigger()
	}
	close(release)
	time.Sleep(100 * time.Millisecond)
	if got := n.Load(); got != 2 {
		t.Errorf("%d runs, want 2", got)
	}
}
