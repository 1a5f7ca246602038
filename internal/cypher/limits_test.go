package cypher_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

var (
	bigOnce  sync.Once
	bigGraph *memgraph.Graph
)

// loadBig builds a graph of 1,500 functions where function i calls i+1,
// i+7 and i*3 (mod n): cross products of two or three patterns make
// millions or billions of rows, and variable-length patterns explode.
func loadBig(t *testing.T) *cypher.Engine {
	t.Helper()
	bigOnce.Do(func() {
		const n = 1500
		g := graph.New()
		id := func(i int) string { return fmt.Sprintf("Function:big.go:f%04d", i%n) }
		for i := 0; i < n; i++ {
			g.AddNode(graph.Node{ID: id(i), Kind: graph.KindFunction, Name: fmt.Sprintf("f%04d", i), FilePath: "big.go", StartLine: i + 1})
		}
		for i := 0; i < n; i++ {
			for _, j := range []int{i + 1, i + 7, i * 3} {
				if id(i) != id(j) {
					g.AddEdge(graph.Edge{Src: id(i), Dst: id(j), Type: graph.EdgeCalls, Confidence: 0.9, Reason: graph.ReasonSameFile})
				}
			}
		}
		dir, err := os.MkdirTemp("", "cypher-big-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if _, err := store.Write(context.Background(), dir, g, store.Meta{}); err != nil {
			t.Fatal(err)
		}
		r, err := store.OpenRepo(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if bigGraph, err = memgraph.Load(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	})
	if bigGraph == nil {
		t.Fatal("big graph failed to load")
	}
	return cypher.New(bigGraph, nil)
}

// peakHeap runs f while sampling the heap, and returns the largest heap
// in use seen above the heap before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapInuse > base && m.HeapInuse-base > peak.Load() {
					peak.Store(m.HeapInuse - base)
				}
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
}

func TestRowLimitStopsBillionsOfRows(t *testing.T) {
	e := loadBig(t)
	start := time.Now()
	res, err := e.Query(context.Background(), "MATCH (a), (b), (c) RETURN a.name, b.name, c.name", cypher.Options{MaxRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1000 || !res.Truncated {
		t.Errorf("rows %d truncated %v, want 1000 and truncated", len(res.Rows), res.Truncated)
	}
	if !strings.Contains(res.Markdown(), "Truncated: only the first 1000 rows are shown") {
		t.Errorf("the markdown does not say the result was cut:\n%s", res.Markdown()[len(res.Markdown())-300:])
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the row limit took %s to stop the query", d)
	}
}

func TestTimeLimitStopsLongQueries(t *testing.T) {
	e := loadBig(t)
	for _, q := range []string{
		"MATCH (a), (b), (c) RETURN count(*)",                                                     // 3.4 billion rows to count
		"MATCH p = (a)-[*]-(b) RETURN count(p)",                                                   // trails up to 10 hops from every node
		"MATCH (a) WHERE size([x IN range(1, 100000) WHERE x > a.startLine]) > 0 RETURN count(a)", // work inside expressions
		"MATCH (a), (b) MATCH p = shortestPath((a)-[*]-(b)) RETURN count(p)",                      // a search for each of 2.25 million pairs
	} {
		start := time.Now()
		var err error
		peak := peakHeap(func() {
			_, err = e.Query(context.Background(), q, cypher.Options{Timeout: 300 * time.Millisecond})
		})
		elapsed := time.Since(start)
		if !errors.Is(err, cypher.ErrTimeLimit) {
			t.Errorf("%s: err = %v, want the time limit", q, err)
			continue
		}
		if !strings.Contains(err.Error(), "stopped after 300ms (the time limit)") || !strings.Contains(err.Error(), "--timeout") {
			t.Errorf("%s: the message does not say what happened and what to do: %v", q, err)
		}
		t.Logf("%s: stopped after %s, heap peak +%d MiB", q, elapsed.Round(time.Millisecond), peak>>20)
		if elapsed > 2*time.Second {
			t.Errorf("%s: stopped after %s, want about 300ms", q, elapsed)
		}
		if peak > 64<<20 {
			t.Errorf("%s: heap grew by %d MiB while streaming", q, peak>>20)
		}
	}
}

func TestMemoryLimitStopsQueriesThatHoldTooMuch(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the memory budget query by query (10 s): not under -short")
	}
	e := loadBig(t)
	for _, q := range []string{
		"MATCH (a), (b) RETURN a.name AS x, b.name AS y ORDER BY x, y",              // 2.25 million rows to sort
		"MATCH (a), (b) RETURN collect(a.name + b.name) AS all",                     // one list of 2.25 million strings
		"MATCH (a), (b) WITH DISTINCT a.name + b.name AS pair RETURN count(*) AS n", // 2.25 million distinct values
		"MATCH (a), (b) RETURN count(DISTINCT a.name + b.name) AS n",                // the same inside an aggregate
		"MATCH (a), (b) RETURN a.name + b.name AS pair, count(*) AS n",              // 2.25 million groups
		"RETURN size(range(1, 100000000)) AS n",                                     // a list of a hundred million
	} {
		var err error
		peak := peakHeap(func() {
			_, err = e.Query(context.Background(), q, cypher.Options{Timeout: time.Minute})
		})
		if !errors.Is(err, cypher.ErrMemoryLimit) {
			t.Errorf("%s: err = %v, want the memory limit", q, err)
			continue
		}
		t.Logf("%s: stopped by the memory limit, heap peak +%d MiB", q, peak>>20)
		if !strings.Contains(err.Error(), "would use more than 128 MiB of memory") {
			t.Errorf("%s: message %v", q, err)
		}
		if peak > 512<<20 {
			t.Errorf("%s: heap grew by %d MiB before the limit stopped it", q, peak>>20)
		}
	}
}

func TestTopKKeepsOnlyTheLimit(t *testing.T) {
	e := loadBig(t)
	var res *cypher.Result
	var err error
	peak := peakHeap(func() {
		res, err = e.Query(context.Background(),
			"MATCH (a), (b) RETURN a.name AS x, b.name AS y ORDER BY x DESC, y SKIP 1 LIMIT 2", cypher.Options{Timeout: time.Minute})
	})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(res.Rows[0][0].Str(), res.Rows[0][1].Str(), res.Rows[1][0].Str(), res.Rows[1][1].Str())
	if got != "f1499f0001f1499f0002" {
		t.Errorf("top rows = %s", got)
	}
	if peak > 64<<20 {
		t.Errorf("ORDER BY ... LIMIT held %d MiB", peak>>20)
	}
}

func TestCancelStopsAQuery(t *testing.T) {
	e := loadBig(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := e.Query(ctx, "MATCH (a), (b), (c) RETURN count(*)", cypher.Options{Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
}

// TestMemoryBudgetBoundsValuesBuiltInsideOneExpression: a value that grows
// inside one expression (doubling in reduce, lists of lists, a row of
// many large items, a result of many large rows) is stopped by the memory
// budget before it is allocated, and promptly, whatever the time limit.
func TestMemoryBudgetBoundsValuesBuiltInsideOneExpression(t *testing.T) {
	e := loadBig(t)
	for _, tc := range []struct {
		query string
		in    string // where the message says the budget ran out
	}{
		{"RETURN size(reduce(s = 'a', x IN range(1, 28) | s + s)) AS n", "string concatenation"},
		{"RETURN size(reduce(s = 'a', x IN range(1, 40) | s + s)) AS n", "string concatenation"},
		{"RETURN size(reduce(l = [1], x IN range(1, 40) | l + l)) AS n", "list concatenation"},
		{"RETURN size(reduce(l = [], x IN range(1, 60) | [l, l])) AS n", "a list"},                                                       // shared halves: written out, 2^60 elements
		{"RETURN size(keys(reduce(m = {}, x IN range(1, 60) | {a: m, b: m}))) AS n", "a map"},                                            // the same with maps
		{"RETURN size(reduce(s = 'ab', x IN range(1, 40) | replace(s, 'a', s))) AS n", "replace()"},                                      // grows by the pattern
		{"RETURN size(reduce(s = 'ab', x IN range(1, 40) | replace(s, '', 'xy'))) AS n", "replace()"},                                    // an empty pattern matches everywhere
		{"RETURN size([x IN range(1, 100000) | range(1, 1000)]) AS n", "range()"},                                                        // each element small, the list not: the next range() does not fit beside it
		{"RETURN size(reduce(l = [], x IN range(1, 1000) | l + [range(1, 10000)])) AS n", "list concatenation"},                          // grows by appending
		{"RETURN size(split(reduce(s = ',', x IN range(1, 24) | s + s), ',')) AS n", "split()"},                                          // sixteen million empty parts
		{"WITH reduce(s = 'a', x IN range(1, 26) | s + s) AS s RETURN s + 'a' AS a, s + 'b' AS b, s + 'c' AS c", "string concatenation"}, // b does not fit beside a
		{"UNWIND range(1, 1000) AS i RETURN reduce(s = 'a', x IN range(1, 20) | s + s) + i AS s", "the result's rows"},
		{"UNWIND range(1, 1000) AS i RETURN collect(reduce(s = 'a', x IN range(1, 20) | s + s) + i) AS l", "string concatenation"},      // beside what collect() holds
		{"UNWIND range(1, 1000) AS i RETURN i, reduce(s = 'a', x IN range(1, 20) | s + s) + i AS s ORDER BY s", "string concatenation"}, // beside what ORDER BY holds
	} {
		start := time.Now()
		var err error
		peak := peakHeap(func() {
			_, err = e.Query(context.Background(), tc.query, cypher.Options{Timeout: time.Second})
		})
		elapsed := time.Since(start)
		if !errors.Is(err, cypher.ErrMemoryLimit) {
			t.Errorf("%s: err = %v, want the memory limit", tc.query, err)
			continue
		}
		if want := "would use more than 128 MiB of memory (in " + tc.in + ")"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: the message does not say %q:\n%v", tc.query, want, err)
		}
		t.Logf("%s: stopped after %s, heap peak +%d MiB", tc.query, elapsed.Round(time.Millisecond), peak>>20)
		// The memory limit, not the 1 s time limit, stopped it (the error
		// above). How soon is for the benchmarks; this only catches a
		// runaway, with room for a machine busy with other work (one run
		// beside a benchmark took 3.3 s for the doubling list).
		if elapsed > 20*time.Second {
			t.Errorf("%s: stopped after %s", tc.query, elapsed)
		}
		if peak > 512<<20 {
			t.Errorf("%s: heap grew by %d MiB with a budget of 128 MiB", tc.query, peak>>20)
		}
	}
}

// TestMemoryBudgetIsAnOption: a smaller budget stops a smaller value, and
// the same query fits a larger one.
func TestMemoryBudgetIsAnOption(t *testing.T) {
	e := loadBig(t)
	q := "RETURN size(reduce(s = 'a', x IN range(1, 20) | s + s)) AS n" // one MiB
	if _, err := e.Query(context.Background(), q, cypher.Options{MaxMemory: 512 << 10}); !errors.Is(err, cypher.ErrMemoryLimit) ||
		!strings.Contains(err.Error(), "more than 512 KiB of memory") {
		t.Errorf("with a 512 KiB budget: err = %v, want the memory limit", err)
	}
	res, err := e.Query(context.Background(), q, cypher.Options{MaxMemory: 4 << 20})
	if err != nil {
		t.Fatalf("with a 4 MiB budget: %v", err)
	}
	if got := res.Rows[0][0].Int(); got != 1<<20 {
		t.Errorf("n = %d, want %d", got, 1<<20)
	}
}

// TestTimeLimitStopsCopiesInsideOneExpression: copying a large value is
// counted as work by its size, so a loop of few, large copies is stopped
// at its time limit rather than after a thousand of them.
func TestTimeLimitStopsCopiesInsideOneExpression(t *testing.T) {
	e := loadBig(t)
	for _, q := range []string{
		// each step copies eight MiB and cuts a byte off
		"WITH reduce(s = 'a', y IN range(1, 23) | s + s) AS big RETURN size(reduce(s = big, x IN range(1, 100000) | substring(s + 'x', 1))) AS n",
		// each step compares two eight MiB strings
		"WITH reduce(s = 'a', y IN range(1, 23) | s + s) AS big RETURN size([x IN range(1, 100000) WHERE big + 'x' = big + 'y']) AS n",
		// each step turns eight MiB to upper case
		"WITH reduce(s = 'a', y IN range(1, 23) | s + s) AS big RETURN size([x IN range(1, 100000) | size(toUpper(big))]) AS n",
	} {
		start := time.Now()
		_, err := e.Query(context.Background(), q, cypher.Options{Timeout: 300 * time.Millisecond})
		elapsed := time.Since(start)
		if !errors.Is(err, cypher.ErrTimeLimit) {
			t.Errorf("%s: err = %v, want the time limit", q, err)
			continue
		}
		t.Logf("%s: stopped after %s", q, elapsed.Round(time.Millisecond))
		if elapsed > 1500*time.Millisecond {
			t.Errorf("%s: stopped after %s, want about 300ms", q, elapsed)
		}
	}
}
