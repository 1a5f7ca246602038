package backend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/registry"
)

var oneFile = map[string]string{"go.mod": "module example.com/one\n\ngo 1.22\n", "a.go": "package one\n\n// A is a.\nfunc A() int { return B() }\n\n// B is b.\nfunc B() int { return 1 }\n"}

// TestResolution checks the order in which a repository reference is
// resolved and the errors, with two repositories of the same folder name.
func TestResolution(t *testing.T) {
	newHome(t)
	empty := newBackend(t, Options{Cwd: t.TempDir()})
	if _, err := empty.Resolve(""); err == nil || err.Error() != "No indexed repositories. Run: gitnexus analyze" {
		t.Errorf("no repositories: %v", err)
	}
	// list_repos of none does not suggest calling a tool on a repository.
	if res, err := empty.CallTool(context.Background(), "list_repos", nil); err != nil ||
		res.Hint.String() != "index a repository with `gitnexus analyze <path>`, then call list_repos again." {
		t.Errorf("list_repos of none: %v\n%s", err, res.Markdown())
	}
	base := t.TempDir()
	appA := writeRepo(t, filepath.Join(base, "a", "app"), oneFile)
	appB := writeRepo(t, filepath.Join(base, "b", "app"), oneFile)
	lib := writeRepo(t, filepath.Join(base, "libcore"), oneFile)
	ea, eb, el := index(t, appA), index(t, appB), index(t, lib)
	if ea.ID == eb.ID || !strings.HasPrefix(ea.ID, "app") || !strings.HasPrefix(eb.ID, "app") {
		t.Fatalf("ids of same-named repositories: %q %q", ea.ID, eb.ID)
	}
	// The registry changed after the backend started: the next call sees it.
	b := empty
	cases := []struct {
		ref, cwd string
		want     string // id, or "" for an error
		err      string
	}{
		{ref: ea.ID, want: ea.ID},
		{ref: eb.ID, want: eb.ID},
		{ref: "LIBCORE", want: el.ID},
		{ref: appB, want: eb.ID},
		{ref: filepath.Join(appA, "sub", "dir"), want: ea.ID},
		{ref: "core", want: el.ID},
		{ref: "app", want: ea.ID}, // the exact id before the names
		{ref: "APP", err: `Repository "APP" is ambiguous: it names 2 repositories`},
		{ref: "ap", err: `Repository "ap" is ambiguous: it matches 2 repositories`},
		{ref: "nope", err: `Repository "nope" not found. Available: ` + ea.ID + ", " + eb.ID + ", " + el.ID},
		{ref: "", err: `Multiple repositories indexed. Specify which one with the "repo" parameter: `},
		{ref: "", cwd: filepath.Join(appB, "x"), want: eb.ID},
		{ref: "", cwd: lib, want: el.ID},
	}
	for _, c := range cases {
		bb := b
		if c.cwd != "" {
			bb = newBackend(t, Options{Cwd: c.cwd})
		}
		r, err := bb.Resolve(c.ref)
		switch {
		case c.want != "" && (err != nil || r.ID != c.want):
			t.Errorf("Resolve(%q) in %q = %q, %v; want %q", c.ref, c.cwd, r.ID, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Resolve(%q) = %q, %v; want error with %q", c.ref, r.ID, err, c.err)
		}
	}
	// An ambiguous substring names the candidates.
	if _, err := b.Resolve("ap"); err == nil || !strings.Contains(err.Error(), ea.ID) || !strings.Contains(err.Error(), eb.ID) {
		t.Errorf("ambiguous substring: %v", err)
	}
	// list_repos shows them all, with paths and counts.
	res, err := b.CallTool(context.Background(), "list_repos", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{ea.ID, eb.ID, el.ID, appA, appB, lib} {
		if !strings.Contains(res.Markdown(), want) {
			t.Errorf("list_repos does not show %s:\n%s", want, res.Markdown())
		}
	}
	page, err := b.CallTool(context.Background(), "list_repos", map[string]any{"limit": 1, "offset": 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.Markdown(), el.ID) || !strings.Contains(page.Markdown(), eb.ID) {
		t.Errorf("list_repos page 2 of 1: %s", page.Markdown())
	}
}

// TestLazyLoadAndIdleRelease: nothing is loaded at start, the first call
// loads, and an idle graph is released and loaded again on the next call.
func TestLazyLoadAndIdleRelease(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "one"), oneFile)
	e := index(t, root)
	b := newBackend(t, Options{Cwd: root, IdleTimeout: 50 * time.Millisecond})
	if b.loaded(e.ID) {
		t.Fatal("a graph is loaded before any call")
	}
	if _, err := b.CallTool(context.Background(), "context", map[string]any{"name": "A"}); err != nil {
		t.Fatal(err)
	}
	if !b.loaded(e.ID) {
		t.Fatal("the graph is not kept after a call")
	}
	deadline := time.Now().Add(5 * time.Second)
	for b.loaded(e.ID) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if b.loaded(e.ID) {
		t.Fatal("the idle graph was not released")
	}
	res, err := b.CallTool(context.Background(), "context", map[string]any{"name": "A"})
	if err != nil || !strings.Contains(res.Markdown(), "a.go:4") {
		t.Fatalf("after release: %v %v", res, err)
	}
}

// TestReindexWhileCallsRun re-indexes a repository while calls run
// concurrently: no call fails, and calls after the re-index see the new
// code. Run with -race.
func TestReindexWhileCallsRun(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "one"), oneFile)
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	var calls sync.Map
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			tools := []struct {
				name string
				args map[string]any
			}{
				{"context", map[string]any{"name": "A"}},
				{"impact", map[string]any{"target": "B"}},
				{"query", map[string]any{"query": "b"}},
				{"overview", nil},
			}
			for i := 0; ctx.Err() == nil; i++ {
				tc := tools[(i+w)%len(tools)]
				if _, err := b.CallTool(context.Background(), tc.name, tc.args); err != nil {
					errs <- err
					return
				}
				calls.Store(w, i)
			}
		}(w)
	}
	for gen := 0; gen < 3; gen++ {
		time.Sleep(30 * time.Millisecond)
		body := oneFile["a.go"] + "\n// C is new.\nfunc C() int { return A() }\n"
		if gen%2 == 1 {
			body = oneFile["a.go"]
		}
		if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		index(t, root)
	}
	time.Sleep(30 * time.Millisecond)
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a call failed during re-indexing: %v", err)
	}
	// The last generation has C: a call now sees it.
	res, err := b.CallTool(context.Background(), "context", map[string]any{"name": "C"})
	if err != nil || !strings.Contains(res.Markdown(), "a.go:10") {
		t.Fatalf("after re-indexing, C: %v\n%v", err, res)
	}
}

// TestRepositoryIndexedAfterStart: a repository indexed while the backend
// runs is served without a restart, and one removed from the registry is
// no longer.
func TestRepositoryIndexedAfterStart(t *testing.T) {
	newHome(t)
	first := writeRepo(t, filepath.Join(t.TempDir(), "first"), oneFile)
	index(t, first)
	b := newBackend(t, Options{Cwd: t.TempDir()})
	if _, err := b.CallTool(context.Background(), "overview", nil); err != nil {
		t.Fatal(err)
	}
	second := writeRepo(t, filepath.Join(t.TempDir(), "second"), oneFile)
	index(t, second)
	res, err := b.CallTool(context.Background(), "context", map[string]any{"name": "B", "repo": "second"})
	if err != nil || !strings.Contains(res.Markdown(), "a.go:7") {
		t.Fatalf("second repository: %v %v", res, err)
	}
	if _, err := b.CallTool(context.Background(), "overview", nil); err == nil || !strings.Contains(err.Error(), "Multiple repositories indexed") {
		t.Errorf("two repositories and no repo: %v", err)
	}
	if _, err := registry.Remove(second); err != nil {
		t.Fatal(err)
	}
	if _, err := b.CallTool(context.Background(), "overview", map[string]any{"repo": "second"}); err == nil {
		t.Error("a repository removed from the registry is still served")
	}
	if _, err := b.CallTool(context.Background(), "overview", nil); err != nil {
		t.Errorf("one repository left: %v", err)
	}
}

// TestConcurrentFirstCalls: many calls racing to open the same repository
// load it once and all succeed.
func TestConcurrentFirstCalls(t *testing.T) {
	b, _ := shop(t)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			name := []string{"context", "impact", "query", "overview", "detect_changes", "list_repos"}[i%6]
			args := map[string]map[string]any{"context": {"name": "Store.Get"}, "impact": {"target": "Store.Get"}, "query": {"query": "store"}}[name]
			if _, err := b.CallTool(context.Background(), name, args); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := b.loads(); n != 1 {
		t.Errorf("the graph was loaded %d times, want 1", n)
	}
}

func TestMissingIndex(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "gone"), oneFile)
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	if err := os.RemoveAll(filepath.Join(root, ".gitnexus")); err != nil {
		t.Fatal(err)
	}
	_, err := b.CallTool(context.Background(), "overview", nil)
	if err == nil || !strings.Contains(err.Error(), "gitnexus analyze") {
		t.Errorf("missing index: %v", err)
	}
	var ae *ArgError
	if errors.As(err, &ae) {
		t.Errorf("a missing index is not an argument error: %v", err)
	}
}
