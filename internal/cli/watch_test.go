package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// lockedBuffer is a bytes.Buffer written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// generation is the number of the index's current build (0: none).
func generation(t *testing.T, root string) int64 {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		return 0
	}
	defer r.Close()
	return r.Meta().Generation
}

func hasFile(t *testing.T, root, rel string) bool {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		return false
	}
	defer r.Close()
	return r.HasFile(context.Background(), rel)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatch runs analyze --watch in-process on a real repository: an edit
// is indexed, a burst of 50 saves gives few re-indexes, a branch switch
// that rewrites many files gives one, and cancelling stops it cleanly.
func TestWatch(t *testing.T) {
	testrepo.Home(t)
	files := map[string]string{"go.mod": "module example.com/w\n\ngo 1.22\n", "a.go": "package w\n\nfunc A() {}\n"}
	root := testrepo.New(t, filepath.Join(t.TempDir(), "w"), files)
	out, errOut := &lockedBuffer{}, &lockedBuffer{}
	o := &analyzeOptions{io: &IO{Out: out, ErrOut: errOut, Getwd: os.Getwd}, path: root, workers: 2, maxFileSize: 512,
		quiet: true, debounce: 150 * time.Millisecond, history: index.History{Off: true, MaxCommits: 1, MaxCommitFiles: 1}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- runWatch(ctx, o) }()
	waitFor(t, "the first analysis and the watch", func() bool { return strings.Contains(errOut.String(), "Watching ") })
	if g := generation(t, root); g != 1 {
		t.Fatalf("generation after the first analysis: %d", g)
	}

	// An edit.
	testrepo.Write(t, root, map[string]string{"b.go": "package w\n\nfunc B() { A() }\n"})
	waitFor(t, "b.go indexed", func() bool { return hasFile(t, root, "b.go") })

	// A burst of 50 saves.
	before := generation(t, root)
	for i := 0; i < 50; i++ {
		testrepo.Write(t, root, map[string]string{"c.go": fmt.Sprintf("package w\n\nfunc C%d() {}\n", i)})
		time.Sleep(2 * time.Millisecond)
	}
	waitFor(t, "the last save indexed", func() bool {
		return indexedSymbol(t, root, "C49")
	})
	time.Sleep(400 * time.Millisecond) // let a trailing run finish
	if n := generation(t, root) - before; n < 1 || n > 4 {
		t.Errorf("%d re-indexes for a burst of 50 saves", n)
	}

	// A branch switch that rewrites 40 files.
	testrepo.Git(t, root, "add", "-A")
	testrepo.Git(t, root, "commit", "-q", "-m", "b and c")
	waitFor(t, "the commit indexed", func() bool { return headIndexed(t, root) })
	testrepo.Git(t, root, "checkout", "-q", "-b", "wide")
	many := map[string]string{}
	for i := 0; i < 40; i++ {
		many[fmt.Sprintf("p%d/f.go", i)] = fmt.Sprintf("package p%d\n\nfunc F() {}\n", i)
	}
	testrepo.Write(t, root, many)
	testrepo.Git(t, root, "add", "-A")
	testrepo.Git(t, root, "commit", "-q", "-m", "wide")
	waitFor(t, "the wide branch indexed", func() bool { return headIndexed(t, root) && hasFile(t, root, "p39/f.go") })
	time.Sleep(400 * time.Millisecond)
	before = generation(t, root)
	testrepo.Git(t, root, "checkout", "-q", "main")
	waitFor(t, "main indexed again", func() bool { return headIndexed(t, root) && !hasFile(t, root, "p0/f.go") })
	time.Sleep(400 * time.Millisecond)
	if n := generation(t, root) - before; n < 1 || n > 2 {
		t.Errorf("%d re-indexes for one branch switch over 40 files", n)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("watch ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop")
	}
	if !strings.Contains(errOut.String(), "Stopped watching.") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
	// The first analysis prints its summary, every re-index one line.
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	brief := regexp.MustCompile(`^\d\d:\d\d:\d\d re-indexed in \d+\.\ds \(.+\): \d+ of \d+ source files extracted, \d+ nodes, \d+ edges$`)
	var briefs int64
	for _, l := range lines {
		if brief.MatchString(l) {
			briefs++
		}
	}
	if !strings.HasPrefix(lines[0], "Indexed ") || strings.Count(out.String(), "Indexed ") != 1 || briefs != generation(t, root)-1 {
		t.Errorf("%d one-line reports for %d re-indexes:\n%s", briefs, generation(t, root)-1, out.String())
	}
}

// indexedSymbol reports whether the index has a symbol of that name.
func indexedSymbol(t *testing.T, root, name string) bool {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		return false
	}
	defer r.Close()
	var n int
	if err := r.DB().QueryRow(`SELECT count(*) FROM node WHERE name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// headIndexed reports whether the index was built at HEAD.
func headIndexed(t *testing.T, root string) bool {
	t.Helper()
	r, err := store.OpenRepo(root)
	if err != nil {
		return false
	}
	defer r.Close()
	return r.Meta().IndexedCommit == testrepo.Git(t, root, "rev-parse", "HEAD")
}
