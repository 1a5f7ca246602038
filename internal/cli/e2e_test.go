package cli_test

// End-to-end tests: they build the gitnexus binary once and drive it like a
// user, in temporary git repositories with their own GITNEXUS_HOME.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"gitnexus.dev/gitnexus/internal/store"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gitnexus-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gitnexus")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, "gitnexus.dev/gitnexus/cmd/gitnexus")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build gitnexus:", err)
		os.Exit(1)
	}
	// The whole history is mapped before analyze returns, as in CI: a
	// time budget would make what the tests compare depend on the load of
	// the machine. The catch-up tests ask for a window of commits instead.
	os.Setenv("GITNEXUS_WAIT_HISTORY", "1")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

// run executes the binary in dir with home as GITNEXUS_HOME.
func run(t *testing.T, home, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

func mustRun(t *testing.T, home, dir string, args ...string) result {
	t.Helper()
	r := run(t, home, dir, args...)
	if r.code != 0 {
		t.Fatalf("gitnexus %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newRepo creates a committed git repository named name.
func newRepo(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), name)
	writeFiles(t, root, files)
	git(t, root, "init", "-q", "-b", "main")
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "initial")
	return root
}

var shop = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"order/order.go": `// Package order places orders.
package order

import "example.com/shop/payment"

// Service places orders.
type Service struct {
	pay *payment.Client
}

// Place charges and records an order.
func (s *Service) Place(amount int) error {
	if err := s.pay.Charge(amount); err != nil {
		return err
	}
	return record(amount)
}

func record(amount int) error { return nil }
`,
	"payment/payment.go": `package payment

// Client talks to the payment provider.
type Client struct{}

// Charge charges an amount.
func (c *Client) Charge(amount int) error { return validate(amount) }

func validate(amount int) error { return nil }
`,
	"cmd/shop/main.go": `package main

import "example.com/shop/order"

func main() {
	s := &order.Service{}
	_ = s.Place(10)
}
`,
	"README.md": "# shop\n",
}

func TestAnalyzeAndQuery(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)

	r := mustRun(t, home, repo, "analyze", "--json")
	var rep struct {
		Repo    string
		Status  string
		Commit  string
		Summary struct {
			Files, SourceFiles, Nodes, Edges int
			EdgesByType                      map[string]int
			NodesByKind                      map[string]int
			FilesByLanguage                  map[string]int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze --json: %v\n%s", err, r.stdout)
	}
	if rep.Repo != "shop" || rep.Status != "indexed" || len(rep.Commit) != 40 {
		t.Errorf("report = %+v", rep)
	}
	s := rep.Summary
	if s.Files != 5 || s.SourceFiles != 3 || s.FilesByLanguage["go"] != 3 {
		t.Errorf("files = %d, source %d, by language %v", s.Files, s.SourceFiles, s.FilesByLanguage)
	}
	if s.EdgesByType["CALLS"] != 4 || s.NodesByKind["Method"] != 2 || s.NodesByKind["Function"] != 3 {
		t.Errorf("CALLS %d, kinds %v", s.EdgesByType["CALLS"], s.NodesByKind)
	}
	if !strings.Contains(r.stderr, "Parsing 5 files") {
		t.Errorf("progress on stderr: %q", r.stderr)
	}

	// callers (get-callers-of), two levels up, as JSON.
	r = mustRun(t, home, repo, "callers", "validate", "--depth", "3", "--json")
	var tr struct {
		Symbol struct{ UID string }
		Levels []struct {
			Items []struct {
				UID       string
				Depth     int
				CallLines []int
				Reason    string
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, lv := range tr.Levels {
		for _, h := range lv.Items {
			got = append(got, fmt.Sprintf("%d %s %v %s", h.Depth, h.UID, h.CallLines, h.Reason))
		}
	}
	want := []string{
		"1 Method:payment/payment.go:Client.Charge [7] same-file",
		"2 Method:order/order.go:Service.Place [13] receiver-typed",
		"3 Function:cmd/shop/main.go:main [7] receiver-typed",
	}
	if tr.Symbol.UID != "Function:payment/payment.go:validate" || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("callers:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// callees as text, from a subdirectory (repository found from the cwd).
	r = mustRun(t, home, filepath.Join(repo, "order"), "callees", "Service.Place")
	for _, w := range []string{"`Client.Charge` (`order/order.go:13`)", "`record` (`order/order.go:16`)", "| Client.Charge | Method | order/order.go:13 |", "Depth 1: direct callees (2)"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("callees output lacks %q:\n%s", w, r.stdout)
		}
	}

	// The database, read directly through the documented views.
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(repo, ".gitnexus", "graph.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT src, dst, reason FROM edges WHERE type = 'CALLS' ORDER BY src, dst`)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for rows.Next() {
		var a, b, why string
		if err := rows.Scan(&a, &b, &why); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, a+" -> "+b+" "+why)
	}
	rows.Close()
	wantCalls := []string{
		"Function:cmd/shop/main.go:main -> Method:order/order.go:Service.Place receiver-typed",
		"Method:order/order.go:Service.Place -> Function:order/order.go:record same-file",
		"Method:order/order.go:Service.Place -> Method:payment/payment.go:Client.Charge receiver-typed",
		"Method:payment/payment.go:Client.Charge -> Function:payment/payment.go:validate same-file",
	}
	if strings.Join(calls, "\n") != strings.Join(wantCalls, "\n") {
		t.Errorf("edges view:\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(wantCalls, "\n"))
	}
	var doc, sig string
	var start, end int
	err = db.QueryRow(`SELECT doc, signature, start_line, end_line FROM nodes WHERE id = 'Method:order/order.go:Service.Place'`).Scan(&doc, &sig, &start, &end)
	if err != nil || doc != "Place charges and records an order." || sig != "func (s *Service) Place(amount int) error" || start != 12 || end != 17 {
		t.Errorf("node row: %v %q %q %d-%d", err, doc, sig, start, end)
	}

	// Freshness: fresh now; a second analyze does nothing.
	if r := run(t, home, repo, "status"); r.code != 0 || !strings.Contains(r.stdout, "fresh") {
		t.Errorf("status: %d %s", r.code, r.stdout)
	}
	if r := mustRun(t, home, repo, "analyze"); !strings.Contains(r.stdout, "up to date") {
		t.Errorf("second analyze: %s", r.stdout)
	}
	// An edit makes it stale, with the reason; analyze rebuilds it.
	time.Sleep(20 * time.Millisecond)
	writeFiles(t, repo, map[string]string{"payment/payment.go": strings.Replace(shop["payment/payment.go"], "return validate(amount)", "return nil", 1)})
	r = run(t, home, repo, "status", "--json")
	if r.code != 3 || !strings.Contains(r.stdout, "payment/payment.go") {
		t.Errorf("status after edit: exit %d %s", r.code, r.stdout)
	}
	r = mustRun(t, home, repo, "analyze", "--json")
	if !strings.Contains(r.stdout, `"status": "indexed"`) || !strings.Contains(r.stderr, "changed since it was built") {
		t.Errorf("re-analyze: %s %s", r.stdout, r.stderr)
	}
	if r := mustRun(t, home, repo, "callers", "validate"); !strings.Contains(r.stdout, "nothing in the repository calls it") {
		t.Errorf("callers after edit: %s", r.stdout)
	}
	// list, then clean.
	r = mustRun(t, home, repo, "list", "--json")
	if !strings.Contains(r.stdout, `"id": "shop"`) || !strings.Contains(r.stdout, repo) {
		t.Errorf("list: %s", r.stdout)
	}
	mustRun(t, home, repo, "clean")
	if _, err := os.Stat(filepath.Join(repo, ".gitnexus")); !os.IsNotExist(err) {
		t.Errorf(".gitnexus still there: %v", err)
	}
	if r := mustRun(t, home, repo, "list"); !strings.Contains(r.stdout, "No indexed repositories") {
		t.Errorf("list after clean: %s", r.stdout)
	}
}

func TestSameNameRepositoriesAndRepoFlag(t *testing.T) {
	home := t.TempDir()
	a := newRepo(t, "svc", shop)
	b := newRepo(t, "svc", map[string]string{"lib.go": "package lib\n\nfunc validate() {}\n"})
	mustRun(t, home, a, "analyze", "-q")
	mustRun(t, home, b, "analyze", "-q")
	r := mustRun(t, home, t.TempDir(), "list", "--json")
	var entries []struct{ ID, Path string }
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	sort.Strings(ids)
	if len(ids) != 2 || ids[0] != "svc" || !strings.HasPrefix(ids[1], "svc-") || len(ids[1]) != len("svc-")+6 {
		t.Errorf("ids = %v", ids)
	}
	// Outside both repositories, the repository must be named.
	r = run(t, home, t.TempDir(), "callers", "validate")
	if r.code != 1 || !strings.Contains(r.stderr, "Multiple repositories indexed") {
		t.Errorf("no --repo: %d %s", r.code, r.stderr)
	}
	r = mustRun(t, home, t.TempDir(), "callers", "validate", "--repo", "svc")
	if !strings.Contains(r.stdout, "Client.Charge") {
		t.Errorf("--repo svc: %s", r.stdout)
	}
	r = run(t, home, t.TempDir(), "callers", "validate", "--repo", "nope")
	if r.code != 1 || !strings.Contains(r.stderr, `Repository "nope" not found. Available: svc, svc-`) {
		t.Errorf("--repo nope: %s", r.stderr)
	}
}

func TestBadInput(t *testing.T) {
	home := t.TempDir()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file.txt")
	writeFiles(t, tmp, map[string]string{"file.txt": "x"})
	empty := filepath.Join(tmp, "empty")
	os.MkdirAll(empty, 0o755)
	git(t, empty, "init", "-q")
	lua := newRepo(t, "lua", map[string]string{"a.lua": "print(1)\n", "b.lua": "print(2)\n", "README": "hi\n"})
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing path", []string{"analyze", filepath.Join(tmp, "nope")}, 1, "does not exist"},
		{"file path", []string{"analyze", file}, 1, "is a file, not a directory"},
		{"empty repository", []string{"analyze", empty}, 1, "nothing to index"},
		{"no supported language", []string{"analyze", lua}, 1, "no source files in a supported language"},
		{"unknown flag", []string{"analyze", "--frobnicate"}, 2, "unknown flag"},
		{"bad workers", []string{"analyze", "--workers", "0", lua}, 2, "--workers"},
		{"too many args", []string{"callers", "a", "b"}, 2, "accepts between 0 and 1 arg"},
		{"no index yet", []string{"status", lua}, 1, "run `gitnexus analyze"},
		{"nothing indexed", []string{"callers", "x"}, 1, "No indexed repositories. Run: gitnexus analyze"},
	}
	for _, c := range cases {
		r := run(t, home, tmp, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, r.code, r.stderr, c.code, c.msg)
		}
	}
	if strings.Contains(run(t, home, tmp, "analyze", lua).stderr, ".lua 2") == false {
		t.Errorf("no-language error should list what it found")
	}
}

func TestForeignAndCorruptIndex(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	dir := filepath.Join(repo, ".gitnexus")
	writeFiles(t, dir, map[string]string{"meta.json": `{"repoPath": "x", "lastCommit": "y"}`, "kuzu/data": "other tool"})
	r := run(t, home, repo, "analyze")
	if r.code != 1 || !strings.Contains(r.stderr, "written by another tool") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("foreign: %d %s", r.code, r.stderr)
	}
	mustRun(t, home, repo, "analyze", "--force", "-q")
	if _, err := os.Stat(filepath.Join(dir, "kuzu", "data")); err != nil {
		t.Errorf("the other tool's files must be left alone: %v", err)
	}
	// A damaged database: status says so, analyze rebuilds it.
	if err := os.WriteFile(filepath.Join(dir, "graph.db"), bytes.Repeat([]byte("garbage!"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, home, repo, "status")
	if r.code != 1 || !strings.Contains(r.stderr, "--force") {
		t.Errorf("status on corrupt: %d %s", r.code, r.stderr)
	}
	r = mustRun(t, home, repo, "analyze")
	if !strings.Contains(r.stderr, "unusable") {
		t.Errorf("analyze on corrupt should say why it rebuilds: %s", r.stderr)
	}
	mustRun(t, home, repo, "callers", "validate")
	// A .gitnexus that is a file.
	other := newRepo(t, "other", shop)
	writeFiles(t, other, map[string]string{".gitnexus": "a file"})
	if r := run(t, home, other, "analyze"); r.code != 1 || !strings.Contains(r.stderr, "is a file") {
		t.Errorf(".gitnexus file: %s", r.stderr)
	}
}

func TestConcurrentAnalyzeIsRefused(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "shop", shop)
	unlock, err := store.Lock(repo, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, home, repo, "analyze")
	if r.code != 1 || !strings.Contains(r.stderr, "another gitnexus analyze is running") || !strings.Contains(r.stderr, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("locked: %d %s", r.code, r.stderr)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		unlock()
	}()
	r = mustRun(t, home, repo, "analyze", "--wait", "10s", "-q")
	if !strings.Contains(r.stdout, "Indexed") {
		t.Errorf("--wait: %s", r.stdout)
	}
}

func TestNonGitDirectoryAndOddFiles(t *testing.T) {
	home := t.TempDir()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"main.go":         "package main\n\nfunc main() { helper() }\n\nfunc helper() {}\n",
		"latin1.go":       "package main\n\n// caf\xe9\nfunc caf\xe9() {}\n",
		"broken.go":       "package main\n\nfunc ok() {}\n\nfunc broken( {\n",
		"skip/ignored.go": "package skip\n",
		".gitnexusignore": "skip/\n",
		"image.png":       "\x89PNG\r\n\x1a\n\x00\x00",
	})
	r := mustRun(t, home, root, "analyze", "--json", "-q")
	var rep struct{ Summary ingestSummary }
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	// broken.go has a syntax error; so has latin1.go, whose identifier is
	// not valid UTF-8.
	if s.Git || s.SourceFiles != 3 || s.ParseErrors != 2 || s.Skipped["binary"] != 1 || s.Skipped["gitnexusignore"] != 1 {
		t.Errorf("summary = %+v", s)
	}
	if r := mustRun(t, home, root, "callers", "helper"); !strings.Contains(r.stdout, "called directly from: `main`") {
		t.Errorf("callers in a plain directory: %s", r.stdout)
	}
	// The broken file still yields what parsed.
	if r := mustRun(t, home, root, "callers", "ok"); !strings.Contains(r.stdout, "nothing in the repository calls it") {
		t.Errorf("symbol from a broken file: %s", r.stdout)
	}
}

type ingestSummary struct {
	Git         bool
	SourceFiles int
	ParseErrors int
	Skipped     map[string]int
}

// bigRepo copies part of the Go standard library into a git repository,
// enough work for an analysis to be interrupted.
func bigRepo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "big")
	src := filepath.Join(runtime.GOROOT(), "src", "go")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v %s", src, err, out)
	}
	git(t, root, "init", "-q")
	return root
}

// waitFor runs the binary and returns once stderr shows marker.
func startUntil(t *testing.T, home, dir, marker string, args ...string) (*exec.Cmd, chan int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := make(chan struct{})
	done := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), marker) {
				found = true
				close(seen)
			}
		}
		if !found {
			close(seen)
		}
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		}
		done <- code
	}()
	select {
	case <-seen:
	case <-time.After(2 * time.Minute):
		t.Fatal("marker never appeared")
	}
	return cmd, done
}

func TestInterruptAndKillKeepPreviousIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes part of the Go standard library")
	}
	home := t.TempDir()
	repo := bigRepo(t)
	// SIGTERM during the first run: nothing was changed, and nothing is
	// left behind (no .gitnexus with a lock and a .gitignore).
	cmd, done := startUntil(t, home, repo, "Parsing", "analyze")
	cmd.Process.Signal(syscall.SIGTERM)
	if code := <-done; code != 130 {
		t.Errorf("terminated first analyze exit %d, want 130", code)
	}
	if entries, err := os.ReadDir(filepath.Join(repo, ".gitnexus")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a first run that was stopped left .gitnexus: %v %v", entries, err)
	}
	mustRun(t, home, repo, "analyze", "-q")
	before, err := store.OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	gen := before.Meta().Generation
	before.Close()

	check := func(what string) {
		t.Helper()
		r, err := store.OpenRepo(repo)
		if err != nil {
			t.Fatalf("%s: previous index unusable: %v", what, err)
		}
		defer r.Close()
		if r.Meta().Generation != gen {
			t.Errorf("%s: generation %d, want %d", what, r.Meta().Generation, gen)
		}
		if n, _, err := r.Counts(context.Background()); err != nil || n == 0 {
			t.Errorf("%s: counts %d %v", what, n, err)
		}
	}
	// Ctrl-C while parsing.
	cmd, done = startUntil(t, home, repo, "Parsing", "analyze", "--force")
	cmd.Process.Signal(os.Interrupt)
	if code := <-done; code != 130 {
		t.Errorf("interrupted analyze exit %d, want 130", code)
	}
	check("after Ctrl-C")
	// SIGKILL while writing the index.
	cmd, done = startUntil(t, home, repo, "Writing the index", "analyze", "--force")
	cmd.Process.Kill()
	<-done
	check("after kill")
	// The partial database is removed by the next command that opens the
	// index, now that its writer is gone.
	if left, _ := filepath.Glob(filepath.Join(repo, ".gitnexus", "graph.db.tmp-*")); len(left) == 0 {
		t.Log("the kill came after the partial database was renamed or before it was made")
	}
	mustRun(t, home, repo, "overview")
	if left, _ := filepath.Glob(filepath.Join(repo, ".gitnexus", "graph.db.tmp-*")); len(left) != 0 {
		t.Errorf("partial files left after a command opened the index: %v", left)
	}
	// The next analyze succeeds and leaves no partial files.
	mustRun(t, home, repo, "analyze", "--force", "-q")
	left, _ := filepath.Glob(filepath.Join(repo, ".gitnexus", "graph.db.tmp-*"))
	if len(left) != 0 {
		t.Errorf("partial files left: %v", left)
	}
}

func TestVersionAndHelp(t *testing.T) {
	home := t.TempDir()
	if r := mustRun(t, home, t.TempDir(), "--version"); !strings.HasPrefix(r.stdout, "gitnexus ") || !strings.Contains(r.stdout, "commit") {
		t.Errorf("--version: %q", r.stdout)
	}
	r := mustRun(t, home, t.TempDir(), "--help")
	for _, cmd := range []string{"analyze", "callers", "callees", "cypher", "list", "status", "clean"} {
		if !strings.Contains(r.stdout, cmd) {
			t.Errorf("--help lacks %s", cmd)
		}
	}
	if r := mustRun(t, home, t.TempDir(), "analyze", "--help"); !strings.Contains(r.stdout, "--max-file-size") || !strings.Contains(r.stdout, ".gitnexusignore") {
		t.Errorf("analyze --help: %s", r.stdout)
	}
}

func TestPolyglotRepository(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "poly", map[string]string{
		"go.mod":                    "module example.com/poly\n\ngo 1.22\n",
		"main.go":                   "package main\n\nfunc main() { helper() }\n\nfunc helper() {}\n",
		"app/util.py":               "def slugify(s):\n    return s.lower()\n",
		"app/__init__.py":           "",
		"app/views.py":              "from app.util import slugify\n\n\ndef index():\n    return slugify('X')\n",
		"web/math.ts":               "export function add(a: number, b: number): number { return a + b }\n",
		"web/main.ts":               "import { add } from './math'\n\nexport function total(): number { return add(1, 2) }\n",
		"web/legacy.js":             "const { add } = require('./math')\nfunction sum() { return add(3, 4) }\nmodule.exports = { sum }\n",
		"src/com/acme/Greeter.java": "package com.acme;\n\npublic class Greeter {\n  public String greet() { return name(); }\n  private String name() { return \"x\"; }\n}\n",
	})
	r := mustRun(t, home, repo, "analyze", "--json", "-q")
	var rep struct {
		Summary struct {
			FilesByLanguage map[string]int
			EdgesByType     map[string]int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	langs := rep.Summary.FilesByLanguage
	if langs["go"] != 1 || langs["python"] != 3 || langs["typescript"] != 2 || langs["javascript"] != 1 || langs["java"] != 1 {
		t.Errorf("files by language = %v", langs)
	}
	for _, c := range []struct{ symbol, caller string }{
		{"helper", "`main`"},
		{"slugify", "`index`"},
		{"add", "`total`"},
		{"name", "`Greeter.greet`"},
	} {
		if r := mustRun(t, home, repo, "callers", c.symbol); !strings.Contains(r.stdout, c.caller) {
			t.Errorf("callers %s: want %s in\n%s", c.symbol, c.caller, r.stdout)
		}
	}
	if r := mustRun(t, home, repo, "callers", "add"); !strings.Contains(r.stdout, "`sum`") {
		t.Errorf("a JavaScript file requiring a TypeScript module: %s", r.stdout)
	}
}

// TestFreshIndexFromElsewhere: an index built in one checkout and copied
// into another checkout of the same commit (a CI artifact) is fresh there,
// and analyze registers it without indexing again.
func TestFreshIndexFromElsewhere(t *testing.T) {
	built := newRepo(t, "shop", shop)
	mustRun(t, t.TempDir(), built, "analyze", "-q")
	other := filepath.Join(t.TempDir(), "shop")
	if out, err := exec.Command("git", "clone", "-q", built, other).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(built, ".gitnexus"), other).CombinedOutput(); err != nil {
		t.Fatalf("copy the index: %v\n%s", err, out)
	}
	home := t.TempDir()
	r := mustRun(t, home, other, "analyze", "--json", "-q")
	if !strings.Contains(r.stdout, `"status": "fresh"`) || !strings.Contains(r.stdout, `"repo": "shop"`) || !strings.Contains(r.stdout, `"commit": "`) {
		t.Fatalf("the copied index is not fresh, or the answer does not name it: %s", r.stdout)
	}
	// Again, now registered: the answer still names the repository.
	if r := mustRun(t, home, other, "analyze", "--json", "-q"); !strings.Contains(r.stdout, `"repo": "shop"`) {
		t.Errorf("a fresh index's JSON lacks its id: %s", r.stdout)
	}
	list := mustRun(t, home, other, "list", "--json").stdout
	if !strings.Contains(list, other) || !strings.Contains(list, `"functions": 5`) {
		t.Errorf("the copied index is not registered with its counts: %s", list)
	}
	if r := mustRun(t, home, other, "callers", "validate"); !strings.Contains(r.stdout, "Charge") {
		t.Errorf("callers through the registered copy: %s", r.stdout)
	}
}
