package cypher

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Limits every query runs under. The executor enforces them itself.
//
// Time: it counts work (every node, edge and list element it looks at, and
// every valueBytes of a value it builds, copies or compares) and checks the
// clock every checkEvery steps, so that one expression that copies a large
// value many times is stopped as promptly as a long MATCH.
//
// Memory: every value has a weight (weight: its bytes as if it were written
// out, a shared sub-list counted each time it appears), and a query may not
// build a value, assemble a list or row, or keep values in blocking
// operators beyond its budget:
//
//   - held: what blocking operators keep until the query ends or they
//     drop it (ORDER BY rows, DISTINCT keys, aggregation groups, collect);
//   - pending: what is being assembled (the elements of a list literal or
//     comprehension, the arguments of a call, the items of a row);
//   - a new value (a concatenation, range(), split(), replace()) is
//     refused before it is allocated when it would not fit beside them.
//
// The result's rows have a budget of the same size of their own. A value
// that grows by doubling inside reduce() is stopped when it would pass
// the budget, after at most twice the budget has been allocated.
const (
	// DefaultMaxRows is the default cap on result rows; a result cut by it
	// says so (Result.Truncated).
	DefaultMaxRows = 1000
	// DefaultTimeout is the default time limit of a query.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxMemory is the default memory budget of one query, in
	// bytes: about 2.4 million values (a node, a number or a short
	// string weighs valueBytes), the size the earlier cap of 2,000,000
	// held values allowed, now with strings counted by their bytes.
	DefaultMaxMemory = 128 << 20
	// MaxVarLength caps variable-length relationships: `*` and `*2..` mean
	// at most this many hops (memgraph's traversal cap).
	MaxVarLength = memgraph.MaxDepth
	checkEvery   = 1024
)

// valueBytes is the memory of one Value: the weight of a scalar, and the
// unit in which building and copying values is counted as work.
const valueBytes = int64(unsafe.Sizeof(Value{}))

// execCtx is the state of one query execution.
type execCtx struct {
	ctx       context.Context
	g         *memgraph.Graph
	props     *propReader
	width     int
	deadline  time.Time
	timeout   time.Duration
	steps     int
	held      int64
	pending   int64
	maxMemory int64
	keyBuf    []byte
}

// tick counts one step of work and checks the limits every checkEvery
// steps.
func (ec *execCtx) tick() error {
	ec.steps++
	if ec.steps%checkEvery != 0 {
		return nil
	}
	return ec.check()
}

// ticks counts n steps at once (for bulk work such as a large list).
func (ec *execCtx) ticks(n int) error {
	before := ec.steps / checkEvery
	ec.steps += n
	if ec.steps/checkEvery == before {
		return nil
	}
	return ec.check()
}

// work counts the work of going over a value of w bytes (copying,
// comparing, encoding it): one step per valueBytes. Values of a step or
// two are not counted; the operator that reads them ticks for them.
func (ec *execCtx) work(w int64) error {
	if w < 2*valueBytes {
		return nil
	}
	return ec.ticks(int(min(w/valueBytes, math.MaxInt32)))
}

func (ec *execCtx) check() error {
	if err := ec.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return ec.timeoutError()
		}
		return err
	}
	if !ec.deadline.IsZero() && time.Now().After(ec.deadline) {
		return ec.timeoutError()
	}
	return nil
}

func (ec *execCtx) timeoutError() error {
	return &Error{Diags: []Diagnostic{{Kind: LimitError, Msg: fmt.Sprintf(
		"the query was stopped after %s (the time limit) having looked at %d nodes, edges and values: "+
			"start from a named node (WHERE n.name = '...'), add labels and relationship types, "+
			"lower variable-length bounds, or raise the time limit (--timeout)", ec.timeout, ec.steps)}},
		cause: ErrTimeLimit}
}

// hold accounts for w more bytes kept by a blocking operator.
func (ec *execCtx) hold(w int64, what string) error {
	ec.held += w
	if ec.held+ec.pending > ec.maxMemory {
		return ec.memoryError(what)
	}
	return nil
}

// release gives back bytes an operator held and has let go (a row pushed
// out of a top-k heap).
func (ec *execCtx) release(w int64) { ec.held -= w }

// carry accounts for w more bytes of a value or row being assembled. The
// assembler saves ec.pending first and puts it back when it is done: what
// it built is then the caller's to account for.
func (ec *execCtx) carry(w int64, what string) error {
	ec.pending += w
	if ec.held+ec.pending > ec.maxMemory {
		return ec.memoryError(what)
	}
	return nil
}

// build is called before a value of w bytes is allocated: it refuses the
// value when it would not fit in what the budget has left, and counts
// the work of building it.
func (ec *execCtx) build(w float64, what string) error {
	if w > float64(ec.maxMemory-ec.held-ec.pending) {
		return ec.memoryError(what)
	}
	return ec.work(int64(w))
}

func (ec *execCtx) memoryError(what string) error {
	return &Error{Diags: []Diagnostic{{Kind: LimitError, Msg: fmt.Sprintf(
		"the query would use more than %s of memory (in %s): "+
			"add LIMIT after ORDER BY (only the top rows are kept), aggregate with count() instead of collect(), "+
			"narrow the MATCH, or build smaller values", formatBytes(ec.maxMemory), what)}},
		cause: ErrMemoryLimit}
}

// formatBytes writes a budget the way people read it: 128 MiB, 1.5 GiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// weight is the memory a value stands for: valueBytes for a scalar, a
// node or a relationship; a string adds its bytes; a list or map the
// weights of its elements (kept in the value when it is made, so this is
// constant time); a path its nodes and relationships.
func weight(v Value) int64 {
	switch v.kind {
	case KindString:
		return valueBytes + int64(len(v.s))
	case KindList:
		if v.i > 0 {
			return v.i
		}
		return listWeight(v.List())
	case KindMap:
		if v.i > 0 {
			return v.i
		}
		return mapWeight(v.Map())
	case KindPath:
		p := v.Path()
		return valueBytes + int64(len(p.Nodes))*4 + int64(len(p.Rels))*valueBytes
	}
	return valueBytes
}

func listWeight(l []Value) int64 {
	w := valueBytes
	for _, e := range l {
		w += weight(e)
	}
	return w
}

func mapWeight(m *Map) int64 {
	w := valueBytes
	if m == nil {
		return w
	}
	for i, k := range m.Keys {
		w += int64(len(k)) + 16 + weight(m.Vals[i])
	}
	return w
}

// rowWeight is the weight of the values of a row.
func rowWeight(row []Value) int64 {
	var w int64
	for _, v := range row {
		w += weight(v)
	}
	return w
}

// keyWeight is the memory a DISTINCT or grouping key of n bytes keeps:
// the bytes and a map entry.
func keyWeight(n int) int64 { return int64(n) + valueBytes }

// newRow returns an all-null row of the query's width.
func (ec *execCtx) newRow() []Value { return make([]Value, ec.width) }
