// Command http is the load test of `gitnexus serve`: it starts the server on
// 127.0.0.1 over an index with history, drives a bounded load of N concurrent
// clients on two endpoints, stops the server by its PID and prints a markdown
// report: sustained requests per second, p50/p99 latency and errors per pass.
//
//	go run ./bench/http -bin bin/gitnexus -home <GITNEXUS_HOME> -repo-path <repository> [-clients 8] [-requests 2000] [-max-duration 60s]
//
// The passes, in order:
//
//   - file commits, cold: GET /api/v1/file/{path}/commits?limit=-page at
//     every offset of the files with the most commits (at least
//     -min-commits in git's first-parent history, files present at HEAD),
//     each request once: every answer is computed (cache misses).
//   - file commits, warm: the same requests again: every answer comes from
//     the server's cache.
//   - callers, twice: POST /api/v1/tools/impact upstream over CALLS to
//     depth 3 (target_uid) for the functions and methods with the most
//     callers, cycled to -requests; tool answers are not cached, so the two
//     passes show the steady state.
//
// Before the passes, one request loads the repository's graph and history
// into the server (its time is reported apart). Each pass stops after -requests requests or -max-duration, whichever
// comes first, and says which. Any answer but 200 is an error. Only
// loopback addresses are accepted.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"gitnexus.dev/gitnexus/bench/internal/serveproc"
)

type options struct {
	bin, home, repoPath, repo string
	clients, requests         int
	maxDuration               time.Duration
	minCommits, page, symbols int
	serverLife                time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/gitnexus", "the gitnexus binary")
	flag.StringVar(&o.home, "home", "", "GITNEXUS_HOME whose registry holds the indexed repository (required)")
	flag.StringVar(&o.repoPath, "repo-path", "", "the indexed repository's directory (required)")
	flag.StringVar(&o.repo, "repo", "", "repository id on the server (default: the directory's name)")
	flag.IntVar(&o.clients, "clients", 8, "concurrent clients")
	flag.IntVar(&o.requests, "requests", 20000, "requests per pass at most")
	flag.DurationVar(&o.maxDuration, "max-duration", 60*time.Second, "duration of a pass at most")
	flag.IntVar(&o.minCommits, "min-commits", 5, "sample files with at least this many commits")
	flag.IntVar(&o.page, "page", 20, "limit of a file commits request")
	flag.IntVar(&o.symbols, "symbols", 100, "sample this many functions and methods with the most callers")
	flag.DurationVar(&o.serverLife, "server-life", 15*time.Minute, "the server stops by itself after this long")
	flag.Parse()
	if o.home == "" || o.repoPath == "" || o.clients < 1 || o.clients > 64 || o.requests < 1 || o.page < 1 || o.page > 100 {
		fmt.Fprintln(os.Stderr, "http: -home and -repo-path are required; -clients 1-64, -requests >= 1, -page 1-100")
		flag.Usage()
		os.Exit(2)
	}
	if o.repo == "" {
		o.repo = filepath.Base(o.repoPath)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "http:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	files, err := busyFiles(o.repoPath, o.minCommits)
	if err != nil {
		return err
	}
	symbols, err := calledSymbols(o.bin, o.home, o.repo, o.symbols)
	if err != nil {
		return err
	}
	srv, err := serveproc.Start(o.bin, o.home, o.serverLife)
	if err != nil {
		return err
	}
	defer func() {
		srv.Stop()
		os.Remove(srv.LogPath)
	}()

	fileReqs := fileCommitRequests(srv.URL, o.repo, files, o.page)
	impactReqs := impactRequests(srv.URL, o.repo, symbols, o.requests)
	if len(fileReqs) > o.requests {
		fileReqs = fileReqs[:o.requests]
	}
	d := newDriver(o.clients, o.maxDuration)
	// The first request loads the graph and the history: a file commits
	// request no pass makes (limit 1).
	warm := fileCommitRequests(srv.URL, o.repo, files[:1], 1)[:1]
	first := d.run(ctx, "first request (loads the index)", warm)
	if first.errors > 0 {
		return fmt.Errorf("the first request failed: %s", first.firstError)
	}
	var passes []passResult
	for _, p := range []struct {
		name string
		reqs []request
	}{
		{"file commits, cold cache", fileReqs},
		{"file commits, warm cache", fileReqs},
		{"callers (impact), pass 1", impactReqs},
		{"callers (impact), pass 2", impactReqs},
	} {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "http: %s: %d requests, %d clients\n", p.name, len(p.reqs), o.clients)
		passes = append(passes, d.run(ctx, p.name, p.reqs))
	}
	logged, err := logCounts(srv)
	if err != nil {
		return err
	}
	errs, sent := 0, first.done
	for _, p := range passes {
		errs += p.errors
		sent += p.done
	}
	report(os.Stdout, o, srv, len(files), len(symbols), first, passes, logged)
	switch {
	case errs > 0:
		return fmt.Errorf("%d requests failed (see the error column)", errs)
	case logged["200"] != sent || logged["other"] > 0:
		return fmt.Errorf("the server logged %d answers 200 and %d others to the %d requests sent", logged["200"], logged["other"], sent)
	}
	return nil
}

func report(w *os.File, o options, srv *serveproc.Server, files, symbols int, first passResult, passes []passResult, logged map[string]int) {
	fmt.Fprintf(w, "gitnexus serve (%s) on %s, repository %s, %d clients, %d CPUs (GOMAXPROCS of the load generator %d)\n\n",
		srv.Version, srv.URL, o.repo, o.clients, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "sampled: %d files with >= %d commits (limit %d at every offset), %d functions and methods with the most callers\n",
		files, o.minCommits, o.page, symbols)
	fmt.Fprintf(w, "first request (loads the graph and the history): %.0f ms\n\n", ms(first.quantile(1)))
	fmt.Fprintln(w, "| pass | requests | errors | seconds | requests/s | p50 ms | p90 ms | p99 ms | max ms | stopped by |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, p := range passes {
		fmt.Fprintf(w, "| %s | %d | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f | %s |\n", p.name, p.done, p.errors,
			p.elapsed.Seconds(), float64(p.done)/p.elapsed.Seconds(), ms(p.quantile(0.50)), ms(p.quantile(0.90)),
			ms(p.quantile(0.99)), ms(p.quantile(1)), p.stoppedBy)
	}
	fmt.Fprintf(w, "\nserver access log: %d requests to these endpoints answered 200, %d otherwise\n", logged["200"], logged["other"])
	for _, p := range passes {
		if p.errors > 0 {
			fmt.Fprintf(w, "first error of %s: %s\n", p.name, p.firstError)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
