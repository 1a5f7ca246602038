// Command soak keeps `gitnexus serve` busy for a long time the way a team
// would, with the attacks of a hostile client mixed in, and reports
// whether it held up:
//
//	go run ./bench/soak -bin bin/gitnexus -home <GITNEXUS_HOME> -repo-path <git work tree> [-clients 4] [-duration 10m] [-reindex 10s]
//
// It indexes the repository, starts the server on 127.0.0.1, and runs
// until -duration:
//
//   - -clients well-formed clients, each sending context, impact, query
//     and cypher requests in turn (tool calls on symbols sampled from the
//     index); any answer but 200 is an error;
//   - a writer that appends a comment to one of the repository's source
//     files and runs `gitnexus analyze` every -reindex, so the server
//     reloads a new generation under load;
//   - a hostile client cycling through the inputs of issue 31: Cypher that
//     grows a value past the memory budget, a body over the size limit, a
//     foreign Host header, a cross-site Origin, a malformed MCP message,
//     and -stalled connections that send headers and then stall their
//     bodies (reopened when the server answers them 408); each must get
//     the 4xx it calls for.
//
// The server's resident memory is sampled every second. The report gives
// the requests, errors and p50/p90/p99/max latency per kind, the hostile
// answers by status, the re-index times, and the memory; the program exits
// 1 when a well-formed request failed or a hostile one got an answer other
// than its 4xx. Nothing leaves 127.0.0.1; the server runs under timeout(1)
// and is stopped by its PID.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"gitnexus.dev/gitnexus/bench/internal/serveproc"
)

type options struct {
	bin, home, repoPath, repo string
	clients, stalled          int
	duration, reindex         time.Duration
	hostile                   bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/gitnexus", "the gitnexus binary")
	flag.StringVar(&o.home, "home", "", "GITNEXUS_HOME for the index and the server (required)")
	flag.StringVar(&o.repoPath, "repo-path", "", "a git work tree this program may modify: a scratch clone (required)")
	flag.IntVar(&o.clients, "clients", 4, "well-formed clients")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "how long to run")
	flag.DurationVar(&o.reindex, "reindex", 10*time.Second, "edit a file and re-index this often (0: never)")
	flag.BoolVar(&o.hostile, "hostile", true, "run the hostile client")
	flag.IntVar(&o.stalled, "stalled", 100, "connections of the hostile client that stall their bodies")
	flag.Parse()
	if o.home == "" || o.repoPath == "" || o.clients < 1 || o.clients > 64 || o.duration <= 0 {
		fmt.Fprintln(os.Stderr, "soak: -home and -repo-path are required; -clients 1-64; -duration > 0")
		flag.Usage()
		os.Exit(2)
	}
	o.repo = filepath.Base(o.repoPath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	failed, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if failed != "" {
		fmt.Fprintln(os.Stderr, "soak:", failed)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) (string, error) {
	fmt.Fprintf(os.Stderr, "soak: indexing %s\n", o.repoPath)
	if out, err := gitnexus(o, "analyze", o.repoPath); err != nil {
		return "", fmt.Errorf("analyze: %v\n%s", err, out)
	}
	syms, err := sampleSymbols(o)
	if err != nil {
		return "", err
	}
	srv, err := serveproc.Start(o.bin, o.home, o.duration+5*time.Minute)
	if err != nil {
		return "", err
	}
	defer os.Remove(srv.LogPath)
	defer srv.Stop()

	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	rep := newReport(o, srv)
	mem := sampleMemory(ctx, srv, rep)
	done := make(chan struct{})
	started := 0
	for i := 0; i < o.clients; i++ {
		started++
		go func() { wellFormed(ctx, srv.URL, o.repo, syms, i, rep); done <- struct{}{} }()
	}
	if o.reindex > 0 {
		started++
		go func() { reindexer(ctx, o, syms, rep); done <- struct{}{} }()
	}
	if o.hostile {
		started += 2
		go func() { hostile(ctx, srv.URL, o.repo, rep); done <- struct{}{} }()
		go func() { stalledBodies(ctx, srv.URL, o.stalled, rep); done <- struct{}{} }()
	}
	start := time.Now()
	for i := 0; i < started; i++ {
		<-done
	}
	<-mem
	elapsed := time.Since(start)
	if err := srv.Stop(); err != nil {
		rep.serverErr = err.Error()
	}
	rep.write(os.Stdout, elapsed)
	return rep.verdict(), nil
}

// gitnexus runs the binary with the soak's home.
func gitnexus(o options, args ...string) ([]byte, error) {
	cmd := exec.Command(o.bin, args...)
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+o.home)
	return cmd.CombinedOutput()
}
