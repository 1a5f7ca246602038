package cypher_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
)

// exprGen turns fuzz bytes into a Cypher expression made of the
// constructs that build values: concatenation, list and map literals,
// range(), reduce() that doubles, comprehensions, replace(), split() and
// the string functions.
type exprGen struct {
	b []byte
	i int
}

func (g *exprGen) next() int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1])
}

func (g *exprGen) expr(depth int) string {
	if depth > 6 {
		return "'ab'"
	}
	n := func() int { return g.next()%40 + 1 }
	switch g.next() % 18 {
	case 0:
		return "'ab'"
	case 1:
		return "[1, 'ab']"
	case 2:
		return fmt.Sprintf("range(1, %d)", g.next()*g.next()*16)
	case 3:
		return "(" + g.expr(depth+1) + " + " + g.expr(depth+1) + ")"
	case 4:
		return "[" + g.expr(depth+1) + ", " + g.expr(depth+1) + "]"
	case 5:
		return "{a: " + g.expr(depth+1) + ", b: " + g.expr(depth+1) + "}"
	case 6:
		return fmt.Sprintf("reduce(acc = %s, x IN range(1, %d) | acc + acc)", g.expr(depth+1), n())
	case 7:
		return fmt.Sprintf("reduce(acc = %s, x IN range(1, %d) | [acc, acc])", g.expr(depth+1), n())
	case 8:
		return fmt.Sprintf("reduce(acc = %s, x IN range(1, %d) | {a: acc, b: acc})", g.expr(depth+1), n())
	case 9:
		return fmt.Sprintf("[x IN range(1, %d) | %s]", g.next()*g.next()+1, g.expr(depth+1))
	case 10:
		return fmt.Sprintf("reduce(acc = toString(%s), x IN range(1, %d) | replace(acc, 'a', acc))", g.expr(depth+1), n())
	case 11:
		return "replace(toString(" + g.expr(depth+1) + "), '', 'xyz')"
	case 12:
		return "split(toString(" + g.expr(depth+1) + "), '')"
	case 13:
		return "toUpper(toString(" + g.expr(depth+1) + "))"
	case 14:
		return "reverse(" + g.expr(depth+1) + ")"
	case 15:
		return "tail(" + g.expr(depth+1) + ")"
	case 16:
		return fmt.Sprintf("[x IN %s WHERE x = x | [x, x]]", g.expr(depth+1))
	}
	return fmt.Sprintf("reduce(acc = [], x IN range(1, %d) | acc + [%s])", g.next()*8+1, g.expr(depth+1))
}

// query wraps an expression in one of the query shapes that keep values:
// a single row, many rows, collect(), ORDER BY, DISTINCT.
func (g *exprGen) query() string {
	shape := g.next() % 6
	x := g.expr(0)
	k := g.next()*4 + 1
	switch shape {
	case 0:
		return "RETURN " + x + " AS v"
	case 1:
		return fmt.Sprintf("UNWIND range(1, %d) AS i RETURN %s AS v, i", k, x)
	case 2:
		return fmt.Sprintf("UNWIND range(1, %d) AS i RETURN collect(%s) AS v", k, x)
	case 3:
		return fmt.Sprintf("UNWIND range(1, %d) AS i WITH i, %s AS v RETURN v, i ORDER BY i DESC", k, x)
	case 4:
		return fmt.Sprintf("UNWIND range(1, %d) AS i WITH DISTINCT [i, %s] AS v RETURN count(*) AS n", k, x)
	}
	return "RETURN size(" + x + ") AS v"
}

// FuzzExpressionMemory runs generated expressions under a 4 MiB budget and
// measures the heap while they run: whatever they build, the heap must
// not grow past a small multiple of the budget, the query must stop
// within its time limit, and a result that is returned must fit the
// budget written out.
func FuzzExpressionMemory(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 6, 0, 39},                     // reduce doubling a string
		{0, 7, 0, 39},                     // reduce nesting a list in itself
		{0, 8, 0, 39},                     // reduce nesting a map in itself
		{1, 6, 0, 18, 255},                // many rows of a large string
		{2, 6, 1, 12, 255},                // collect() of large lists
		{3, 10, 0, 30, 200},               // replace() growing its own string
		{5, 12, 6, 0, 19},                 // split() of a large string into characters
		{4, 9, 255, 255, 2, 255, 255, 60}, // a comprehension of ranges, distinct
		{0, 17, 255, 6, 0, 20},            // appending large strings to a list
		{5, 3, 6, 0, 25, 6, 0, 25},        // two large strings added
	} {
		f.Add(seed)
	}
	const budget = 4 << 20
	f.Fuzz(func(t *testing.T, b []byte) {
		fx := loadFixture(t, "chain")
		q := (&exprGen{b: b}).query()
		old := debug.SetGCPercent(25) // keep garbage close to what is live, so the heap shows what the query holds
		defer debug.SetGCPercent(old)
		var res *cypher.Result
		var err error
		start := time.Now()
		peak := peakObjects(func() {
			res, err = fx.engine.Query(context.Background(), q, cypher.Options{Timeout: 500 * time.Millisecond, MaxMemory: budget})
		})
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s ran %s, past its time limit", q, d)
		}
		if peak > 64<<20 {
			t.Fatalf("%s: the heap grew by %d MiB under a budget of %d MiB (err %v)", q, peak>>20, budget>>20, err)
		}
		if err != nil {
			_ = err.Error()
			return
		}
		var rows [][]any
		for _, r := range res.Rows {
			row := make([]any, len(r))
			for i, v := range r {
				row[i] = res.JSONValue(v)
			}
			rows = append(rows, row)
		}
		out, jerr := json.Marshal(rows)
		if jerr != nil {
			t.Fatalf("%s: %v", q, jerr)
		}
		if len(out) > budget {
			t.Fatalf("%s: the result is %d bytes written out, over the budget of %d", q, len(out), budget)
		}
	})
}

// peakObjects runs f while reading the heap's live and unswept objects
// every millisecond, and returns the most seen above what was there
// before f.
func peakObjects(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak.Load()
}
