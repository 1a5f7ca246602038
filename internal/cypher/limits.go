package cypher

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Limits every query runs under. The executor enforces them itself: it
// counts work (every node, edge and list element it looks at) and checks
// the clock every checkEvery steps; blocking operators (ORDER BY without
// LIMIT, DISTINCT, aggregation groups, collect) count the rows and values
// they hold.
const (
	// DefaultMaxRows is the default cap on result rows; a result cut by it
	// says so (Result.Truncated).
	DefaultMaxRows = 1000
	// DefaultTimeout is the default time limit of a query.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxHeld is the default cap on values held in memory by ORDER
	// BY (a row counts its width), DISTINCT, aggregation groups, collect()
	// and list-building functions: at about 56 bytes a value, some 100-200
	// MiB at most.
	DefaultMaxHeld = 2_000_000
	// MaxVarLength caps variable-length relationships: `*` and `*2..` mean
	// at most this many hops (memgraph's traversal cap).
	MaxVarLength = memgraph.MaxDepth
	checkEvery   = 1024
)

// execCtx is the state of one query execution.
type execCtx struct {
	ctx      context.Context
	g        *memgraph.Graph
	props    *propReader
	width    int
	deadline time.Time
	timeout  time.Duration
	steps    int
	held     int
	maxHeld  int
	keyBuf   []byte
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

// hold accounts for n more values kept in memory.
func (ec *execCtx) hold(n int, what string) error {
	ec.held += n
	if ec.held > ec.maxHeld {
		return &Error{Diags: []Diagnostic{{Kind: LimitError, Msg: fmt.Sprintf(
			"the query would hold more than %d values in memory (in %s): "+
				"add LIMIT after ORDER BY (only the top rows are kept), aggregate with count() instead of collect(), "+
				"or narrow the MATCH", ec.maxHeld, what)}},
			cause: ErrMemoryLimit}
	}
	return nil
}

// newRow returns an all-null row of the query's width.
func (ec *execCtx) newRow() []Value { return make([]Value, ec.width) }
