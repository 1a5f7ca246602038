package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/bench/internal/serveproc"
)

// report gathers what the run saw; safe for concurrent use.
type report struct {
	o   options
	srv *serveproc.Server

	mu        sync.Mutex
	kinds     map[string]*series
	reindexes series
	attacks   map[string]*attackCount
	rssStart  int64
	rssPeak   int64
	rssEnd    int64
	samples   int
	serverErr string
}

type series struct {
	lat        []time.Duration
	errors     int
	firstError string
}

func (s *series) add(d time.Duration, errMsg string) {
	s.lat = append(s.lat, d)
	if errMsg != "" {
		s.errors++
		if s.firstError == "" {
			s.firstError = errMsg
		}
	}
}

// quantile is the q-quantile of latencies sorted (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(max(int(q*float64(len(sorted))+0.5)-1, 0), len(sorted)-1)]
}

type attackCount struct {
	want     int
	byStatus map[int]int
	other    string // the first answer that was not want
}

func newReport(o options, srv *serveproc.Server) *report {
	return &report{o: o, srv: srv, kinds: map[string]*series{}, attacks: map[string]*attackCount{}}
}

func (r *report) request(kind string, d time.Duration, errMsg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.kinds[kind]
	if s == nil {
		s = &series{}
		r.kinds[kind] = s
	}
	s.add(d, errMsg)
}

func (r *report) reindex(d time.Duration, errMsg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reindexes.add(d, errMsg)
}

func (r *report) attack(name string, want, status int, d time.Duration, errMsg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.attacks[name]
	if a == nil {
		a = &attackCount{want: want, byStatus: map[int]int{}}
		r.attacks[name] = a
	}
	a.byStatus[status]++
	if status != want && a.other == "" {
		a.other = fmt.Sprintf("%d after %s %s", status, d.Round(time.Millisecond), errMsg)
	}
}

// sampleMemory reads the server's resident memory every second until ctx
// ends; the channel closes after the last sample.
func sampleMemory(ctx context.Context, srv *serveproc.Server, r *report) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			rss := srv.RSS()
			r.mu.Lock()
			if r.samples == 0 {
				r.rssStart = rss
			}
			r.samples++
			r.rssPeak = max(r.rssPeak, rss)
			r.rssEnd = rss
			r.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return done
}

func (r *report) write(w io.Writer, elapsed time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(w, "gitnexus serve (%s), repository %s, %s, %d well-formed clients, re-index every %s, hostile client %v with %d stalled bodies, %d CPUs\n\n",
		r.srv.Version, r.o.repo, elapsed.Round(time.Second), r.o.clients, r.o.reindex, r.o.hostile, r.o.stalled, runtime.NumCPU())
	fmt.Fprintln(w, "| requests | count | errors | per s | p50 ms | p90 ms | p99 ms | max ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	kinds := slices.Sorted(maps.Keys(r.kinds))
	row := func(name string, s *series) {
		l := slices.Sorted(slices.Values(s.lat))
		fmt.Fprintf(w, "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f |\n", name, len(l), s.errors,
			float64(len(l))/elapsed.Seconds(), ms(quantile(l, 0.5)), ms(quantile(l, 0.9)), ms(quantile(l, 0.99)), ms(quantile(l, 1)))
	}
	all := &series{}
	for _, k := range kinds {
		row(k, r.kinds[k])
		all.lat = append(all.lat, r.kinds[k].lat...)
		all.errors += r.kinds[k].errors
	}
	row("all well-formed", all)
	if len(r.reindexes.lat) > 0 {
		row("re-index (analyze, one edit)", &r.reindexes)
	}
	if len(r.attacks) > 0 {
		fmt.Fprintln(w, "\n| hostile input | wanted | answers by status |")
		fmt.Fprintln(w, "|---|---:|---|")
		for _, n := range slices.Sorted(maps.Keys(r.attacks)) {
			a := r.attacks[n]
			statuses := slices.Sorted(maps.Keys(a.byStatus))
			txt := ""
			for i, s := range statuses {
				if i > 0 {
					txt += ", "
				}
				txt += fmt.Sprintf("%d × %d", a.byStatus[s], s)
			}
			fmt.Fprintf(w, "| %s | %d | %s |\n", n, a.want, txt)
		}
	}
	fmt.Fprintf(w, "\nserver resident memory: %.0f MiB after start, %.0f MiB peak, %.0f MiB at the end (%d samples)\n",
		mib(r.rssStart), mib(r.rssPeak), mib(r.rssEnd), r.samples)
	for _, k := range kinds {
		if s := r.kinds[k]; s.errors > 0 {
			fmt.Fprintf(w, "first error of %s: %s\n", k, s.firstError)
		}
	}
	if r.reindexes.errors > 0 {
		fmt.Fprintf(w, "first re-index error: %s\n", r.reindexes.firstError)
	}
	for n, a := range r.attacks {
		if a.other != "" {
			fmt.Fprintf(w, "%s: first answer other than %d: %s\n", n, a.want, a.other)
		}
	}
	if r.serverErr != "" {
		fmt.Fprintf(w, "server: %s\n", r.serverErr)
	}
}

// verdict says what failed, or "".
func (r *report) verdict() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	errs := 0
	for _, s := range r.kinds {
		errs += s.errors
	}
	switch {
	case errs > 0:
		return fmt.Sprintf("%d well-formed requests failed", errs)
	case r.reindexes.errors > 0:
		return fmt.Sprintf("%d re-index runs failed", r.reindexes.errors)
	case r.serverErr != "":
		return r.serverErr
	}
	for n, a := range r.attacks {
		if a.other != "" {
			return fmt.Sprintf("%s: %s", n, a.other)
		}
	}
	return ""
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b int64) float64        { return float64(b) / (1 << 20) }
