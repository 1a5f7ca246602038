package freshness

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestMonitorServesLastAnswer: within the TTL a change goes unseen and no
// check runs; after it the old answer is served once while a check runs in
// the background, and the next call sees the change.
func TestMonitorServesLastAnswer(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	later()
	const ttl = 300 * time.Millisecond
	m := NewMonitor(root, "v1", ttl)
	defer m.Close()
	a, ok := m.Get(idx, 5*time.Second)
	if !ok || !a.Fresh {
		t.Fatalf("first answer: %+v %v", a, ok)
	}
	write(t, root, "a.go", "package a\n")
	for i := 0; i < 50; i++ {
		if b, _ := m.Get(idx, 0); !b.Fresh || b.CheckedAt != a.CheckedAt {
			t.Fatalf("within the TTL: %+v", b)
		}
	}
	if n := m.finished(); n != 1 {
		t.Fatalf("%d checks within the TTL, want 1", n)
	}
	time.Sleep(ttl)
	if b, ok := m.Get(idx, 0); !ok || !b.Fresh || b.CheckedAt != a.CheckedAt {
		t.Fatalf("after the TTL, the last answer comes first: %+v", b)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := m.Get(idx, 0)
		if !b.Fresh {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background check never reported the change")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMonitorNewBuild: an answer about one build is never served for the
// next; Forget makes the next call check again.
func TestMonitorNewBuild(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	later()
	m := NewMonitor(root, "v1", time.Hour)
	defer m.Close()
	m.Refresh(idx)
	if a, ok := m.Get(idx, 5*time.Second); !ok || !a.Fresh {
		t.Fatalf("first build: %+v", a)
	}
	write(t, root, "a.go", "package a\n")
	if a, _ := m.Get(idx, 0); !a.Fresh {
		t.Fatal("a one-hour TTL checked again")
	}
	m.Forget()
	if a, ok := m.Get(idx, 5*time.Second); !ok || a.Fresh {
		t.Fatalf("after Forget: %+v %v", a, ok)
	}
	later()
	next := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	next.Generation = 2
	later()
	if a, ok := m.Get(next, 5*time.Second); !ok || !a.Fresh {
		t.Fatalf("the next build: %+v %v", a, ok)
	}
}

// TestMonitorConcurrent: many calls at once share one check (run with
// -race).
func TestMonitorConcurrent(t *testing.T) {
	root := testrepo.New(t, filepath.Join(t.TempDir(), "r"), files)
	idx := indexed(t, root, "a.go", "dir/b.go", "go.mod")
	m := NewMonitor(root, "v1", 20*time.Millisecond)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if _, ok := m.Get(idx, time.Second); !ok {
					t.Error("no answer")
					return
				}
				if i%50 == 0 {
					os.Chtimes(filepath.Join(root, "a.go"), time.Now(), time.Now())
				}
			}
		}()
	}
	wg.Wait()
	m.Close()
	if m.running != nil {
		t.Error("a check still runs after Close")
	}
}

func (m *Monitor) finished() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.checks
}

// BenchmarkCheck times one check of the repository at
// $GITNEXUS_BENCH_REPO (skipped without it): what a call would wait for if
// the monitor did not answer from the last check.
func BenchmarkCheck(b *testing.B) {
	root := os.Getenv("GITNEXUS_BENCH_REPO")
	if root == "" {
		b.Skip("set GITNEXUS_BENCH_REPO to an indexed repository")
	}
	ctx := context.Background()
	idx := Index{IndexedAt: time.Now(), HasFile: func(string) bool { return true }}
	for b.Loop() {
		Check(ctx, root, idx, "", ReadGitState(ctx, root))
	}
}
