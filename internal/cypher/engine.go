package cypher

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Engine runs queries over one loaded graph. It is safe for concurrent
// use: every query has its own execution state.
type Engine struct {
	g    *memgraph.Graph
	text TextSource
}

// New returns an engine over g. text supplies `doc` and `content`; when it
// is nil those properties are null.
func New(g *memgraph.Graph, text TextSource) *Engine {
	return &Engine{g: g, text: text}
}

// Options bound one query. Zero values mean the defaults.
type Options struct {
	// Params are the values of $name parameters: Go values as decoded
	// from JSON (nil, bool, float64, json.Number, string, []any,
	// map[string]any), Go integers, or Values.
	Params map[string]any
	// MaxRows caps the rows returned (DefaultMaxRows when 0). A result
	// with more rows is cut and says so.
	MaxRows int
	// Timeout caps the running time (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxMemory is the query's memory budget in bytes
	// (DefaultMaxMemory when 0): what ORDER BY, DISTINCT, aggregation and
	// collect() keep, the values a query builds (strings by their bytes,
	// lists and maps by their elements), and, separately, the result's
	// rows. limits.go says how values are weighed.
	MaxMemory int64
}

// Result is a query's answer.
type Result struct {
	Columns []string
	Rows    [][]Value
	// Truncated says that MaxRows cut the result: more rows exist.
	Truncated bool
	MaxRows   int
	// Warnings point out what is probably a mistake (an unknown label,
	// relationship type or property) without failing the query.
	Warnings []string
	// Plan is the plan text (EXPLAIN returns it as rows too).
	Plan  string
	Stats Stats
	g     *memgraph.Graph
}

// Stats describe the work a query did.
type Stats struct {
	Steps        int           // nodes, edges and values looked at
	TextFetches  int           // nodes whose doc/content was read from the store
	Elapsed      time.Duration // parse, plan and run
	PlanElapsed  time.Duration // parse and plan
	RowsReturned int
}

// Query parses, plans and runs a query. Errors are *Error values that show
// where the problem is (syntax, semantic, type errors) or which limit
// stopped the query (errors.Is ErrTimeLimit or ErrMemoryLimit).
func (e *Engine) Query(ctx context.Context, query string, opt Options) (*Result, error) {
	start := time.Now()
	opt = opt.withDefaults()
	plan, err := e.prepare(query, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{Columns: plan.columns, Warnings: plan.warnings, Plan: planString(plan.root), MaxRows: opt.MaxRows, g: e.g}
	res.Stats.PlanElapsed = time.Since(start)
	if plan.explain {
		res.Columns = []string{"plan"}
		for _, line := range splitLines(res.Plan) {
			res.Rows = append(res.Rows, []Value{StringValue(line)})
		}
		res.Stats.Elapsed = time.Since(start)
		res.Stats.RowsReturned = len(res.Rows)
		return res, nil
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	ec := &execCtx{ctx: ctx, g: e.g, props: &propReader{ctx: ctx, g: e.g, src: e.text}, width: plan.width,
		deadline: start.Add(opt.Timeout), timeout: opt.Timeout, maxMemory: opt.MaxMemory}
	it := plan.root.open(ec, nil)
	var resultBytes int64
	for {
		row, err := it.next(ec)
		if err != nil {
			return nil, asQueryError(query, err)
		}
		if row == nil {
			break
		}
		if len(res.Rows) == opt.MaxRows {
			res.Truncated = true
			break
		}
		out := append([]Value(nil), row...)
		if resultBytes += rowWeight(out); resultBytes > opt.MaxMemory {
			return nil, asQueryError(query, ec.memoryError("the result's rows"))
		}
		res.Rows = append(res.Rows, out)
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	res.Stats.Steps = ec.steps
	res.Stats.TextFetches = ec.props.fetches
	res.Stats.Elapsed = time.Since(start)
	res.Stats.RowsReturned = len(res.Rows)
	return res, nil
}

func (o Options) withDefaults() Options {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	return o
}

// prepare parses and plans a query with its parameters; expressions
// evaluated at plan time run under its limits.
func (e *Engine) prepare(query string, opt Options) (*compiled, error) {
	values := map[string]Value{}
	for k, v := range opt.Params {
		pv, err := FromGo(v)
		if err != nil {
			return nil, fmt.Errorf("parameter $%s: %w", k, err)
		}
		values[k] = pv
	}
	stmt, err := Parse(query)
	if err != nil {
		return nil, err
	}
	return compile(query, stmt, e.g, values, opt)
}

// Explain returns the plan of a query without running it.
func (e *Engine) Explain(query string, params map[string]any) (string, error) {
	plan, err := e.prepare(query, Options{Params: params})
	if err != nil {
		return "", err
	}
	return planString(plan.root), nil
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
