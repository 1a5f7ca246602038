package cypher

import (
	"fmt"
	"strings"
)

// A plan is a tree of immutable nodes. Each node opens an iterator that
// pulls rows from its input's iterator; the leaves are Start (one empty
// row) and Argument (the row of an enclosing operator: OPTIONAL MATCH and
// pattern predicates run their plan once per outer row). A row is a slice
// of values indexed by slot; the resolver gives every variable, hidden
// pattern element and projected column its own slot, so an operator only
// writes the slots it binds and passes the rest through.

// planNode is one operator of a plan.
type planNode interface {
	// open starts the operator for one run; arg is the outer row for
	// plans run per row (nil at the top).
	open(ec *execCtx, arg []Value) iterator
	// inputs lists the operators this one reads, for printing.
	inputs() []planNode
	// describe is the one-line text of the operator in EXPLAIN output.
	describe() string
}

// iterator yields rows; a nil row ends the stream. A row is valid until
// the next call; operators that keep rows copy them. Streaming operators
// pass their input's row through and write only the slots they bind (each
// slot has one writer), so a row is copied only where it is kept: by the
// Argument of a plan run per outer row, ORDER BY, aggregation and the
// result.
type iterator interface {
	next(ec *execCtx) ([]Value, error)
}

// cexpr is a compiled expression: its source (for printing), the function
// that evaluates it against a row, and the slots it reads (for predicate
// push-down).
type cexpr struct {
	src   Expr
	eval  func(ec *execCtx, row []Value) (Value, error)
	slots []int
	// sub are the plans of the patterns inside the expression (EXISTS,
	// pattern predicates, comprehensions), for EXPLAIN.
	sub []planNode
}

func (e *cexpr) String() string { return exprString(e.src) }

// planString prints a plan, one operator per line, inputs indented below;
// the plans of patterns inside an operator's expressions are printed
// under a "Subquery:" line before its inputs.
func planString(root planNode) string {
	var b strings.Builder
	var walk func(n planNode, depth int)
	walk = func(n planNode, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(n.describe())
		b.WriteByte('\n')
		if s, ok := n.(interface{ subplans() []planNode }); ok {
			for _, sp := range s.subplans() {
				b.WriteString(strings.Repeat("  ", depth+1) + "Subquery:\n")
				walk(sp, depth+2)
			}
		}
		for _, in := range n.inputs() {
			walk(in, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

// subplansOf collects the pattern plans of expressions.
func subplansOf(es ...*cexpr) []planNode {
	var out []planNode
	for _, e := range es {
		if e != nil {
			out = append(out, e.sub...)
		}
	}
	return out
}

func (n *filterNode) subplans() []planNode { return subplansOf(n.pred) }
func (n *unwindNode) subplans() []planNode { return subplansOf(n.expr) }

func (n *projectNode) subplans() []planNode {
	var out []planNode
	for _, it := range n.items {
		out = append(out, it.expr.sub...)
	}
	return out
}

func (n *sortNode) subplans() []planNode {
	var out []planNode
	for _, k := range n.keys {
		out = append(out, k.expr.sub...)
	}
	return out
}

func (n *aggregateNode) subplans() []planNode {
	var out []planNode
	for _, k := range n.keys {
		out = append(out, k.expr.sub...)
	}
	for _, a := range n.aggs {
		out = append(out, subplansOf(a.arg)...)
	}
	return out
}

// joinExprs prints compiled expressions separated by commas.
func joinExprs(es []*cexpr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// projItem is `slot <- expr` with the name the slot is known by.
type projItem struct {
	slot int
	name string
	expr *cexpr
}

func (it projItem) String() string {
	text := it.expr.String()
	if text == quoteName(it.name) || text == it.name {
		return text
	}
	return fmt.Sprintf("%s AS %s", text, quoteName(it.name))
}

func joinItems(items []projItem) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = it.String()
	}
	return strings.Join(parts, ", ")
}
