package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// request is one HTTP request of a pass.
type request struct {
	method, url string
	body        []byte
}

// driver sends a pass's requests from a fixed number of clients sharing
// one connection pool.
type driver struct {
	clients     int
	maxDuration time.Duration
	http        *http.Client
}

func newDriver(clients int, maxDuration time.Duration) *driver {
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, IdleConnTimeout: time.Minute}
	return &driver{clients: clients, maxDuration: maxDuration, http: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// passResult is what one pass measured.
type passResult struct {
	name       string
	done       int
	errors     int
	elapsed    time.Duration
	latencies  []time.Duration // sorted
	stoppedBy  string
	firstError string
}

// quantile is the q-quantile of the latencies (nearest rank).
func (p passResult) quantile(q float64) time.Duration {
	if len(p.latencies) == 0 {
		return 0
	}
	i := int(q*float64(len(p.latencies))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(p.latencies) {
		i = len(p.latencies) - 1
	}
	return p.latencies[i]
}

// run sends reqs in order from d.clients goroutines until all are sent or
// maxDuration has passed.
func (d *driver) run(ctx context.Context, name string, reqs []request) passResult {
	ctx, cancel := context.WithTimeout(ctx, d.maxDuration)
	defer cancel()
	var next atomic.Int64
	var mu sync.Mutex
	res := passResult{name: name}
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < d.clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			errs, firstErr := 0, ""
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(reqs) {
					break
				}
				t0 := time.Now()
				err := d.send(ctx, reqs[i])
				if ctx.Err() != nil && err != nil {
					break // cut by the duration cap, not a server error
				}
				lat = append(lat, time.Since(t0))
				if err != nil {
					if errs == 0 {
						firstErr = err.Error()
					}
					errs++
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			if res.firstError == "" {
				res.firstError = firstErr
			}
			res.errors += errs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.done = len(res.latencies)
	sort.Slice(res.latencies, func(i, j int) bool { return res.latencies[i] < res.latencies[j] })
	res.stoppedBy = "request count"
	if res.done < len(reqs) {
		res.stoppedBy = "max duration"
	}
	return res
}

// send makes one request and reads the whole answer; anything but a 200
// is an error.
func (d *driver) send(ctx context.Context, r request) error {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return err
	}
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: read the answer: %w", r.method, r.url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %.200s", r.method, r.url, resp.StatusCode, b)
	}
	return nil
}
