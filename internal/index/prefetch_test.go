package index

import (
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// testVersion is the version the tests write indexes as.
const testVersion = "test"

// TestPrefetch runs Analyze twice on a real repository (the
// second time after a save, which reads everything ahead and carries the
// history over), then reads the index ahead and asks for each read from
// several goroutines at once: each must give what reading the index
// directly gives. make test runs it with the race detector.
func TestPrefetch(t *testing.T) {
	testrepo.Home(t)
	root := testrepo.New(t, filepath.Join(t.TempDir(), "p"), map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n", "a.go": "package p\n\nfunc A() int { return B() }\n",
		"b.go": "package p\n\nfunc B() int { return 1 }\n"})
	analyze := func() ingest.Summary {
		t.Helper()
		opt := Defaults()
		opt.Version = testVersion
		opt.Workers, opt.MaxFileSize = 2, 512<<10
		rep, err := Analyze(context.Background(), root, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Summary == nil {
			t.Fatalf("no summary: %+v", rep)
		}
		return *rep.Summary
	}
	analyze()
	testrepo.Write(t, root, map[string]string{"b.go": "package p\n\nfunc B() int { return C() }\n\nfunc C() int { return 1 }\n"})
	if sum := analyze(); sum.Update == nil || sum.History == nil || !sum.History.Carried {
		t.Fatalf("the save was not written in place with the history carried over: %+v", sum)
	}
	// A commit on top links only its own records (history.LinkNewer); the
	// history is then encoded on another core while the rows are written.
	testrepo.Git(t, root, "commit", "-qam", "B calls C")
	if sum := analyze(); sum.Update == nil || sum.History == nil || !sum.History.Carried || sum.History.Read != 1 {
		t.Fatalf("the commit was not written in place with only its records linked: %+v", sum)
	}

	r, err := store.OpenRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	meta := r.Meta()
	cachePath := filepath.Join(store.Dir(root), ExtractCacheName)
	pf := startPrefetch(ctx, root, cachePath, extractorKey(testVersion), meta, true, true)
	defer pf.stop()
	wantPartition, err := r.Partition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantHistory, err := r.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantHistory.EncodedAt = meta.Generation // read with the generation, in one read
	wantCache := ingest.LoadExtractCache(cachePath, extractorKey(testVersion))
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pf.ReadAhead()
			if p, err := pf.Partition(); err != nil || !reflect.DeepEqual(p, wantPartition) {
				t.Errorf("communities read ahead: %+v, %v", p, err)
			}
			if h, why, ok := pf.History(); !ok || why != "" || !reflect.DeepEqual(h, wantHistory) {
				t.Errorf("history read ahead: ok %v, %q", ok, why)
			}
			if c := pf.Cache(); c.Token != wantCache.Token || !c.Same(wantCache) {
				t.Error("the extraction cache read ahead differs")
			}
			if pf.Ahead() == nil {
				t.Error("no snapshot read ahead")
			}
		}()
	}
	wg.Wait()
}
