package cypher

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// compiler resolves a parsed statement against a graph and parameters and
// builds its plan: it gives every variable a slot, checks names, types
// that are known statically and where aggregates may appear, compiles
// expressions to functions, and plans each MATCH (plan_match.go).
type compiler struct {
	src       string
	g         *memgraph.Graph
	params    map[string]Value
	limits    Options // the query's time and memory limits, for what runs at plan time
	diags     diagList
	slotNames []string
	warnings  []string
	warned    map[string]bool
	// restrict is set while compiling expressions that may only use
	// projected columns (after aggregation or DISTINCT).
	restrict *restriction
	// subs collects the plans of patterns compiled inside expressions;
	// top hands them to the operator that evaluates the expression.
	subs    []planNode
	lastSub planNode
	// currentRels are the relationships of the pattern being planned.
	currentRels []*patRel
}

// top compiles an expression evaluated directly by an operator, and
// attaches the plans of the patterns inside it.
func (c *compiler) top(f func() *cexpr) *cexpr {
	start := len(c.subs)
	e := f()
	if len(c.subs) > start {
		cp := *e
		cp.sub = append([]planNode(nil), c.subs[start:]...)
		c.subs = c.subs[:start]
		return &cp
	}
	return e
}

// compiled is a planned statement.
type compiled struct {
	root     planNode
	columns  []string
	width    int
	explain  bool
	warnings []string
}

func compile(src string, stmt *Statement, g *memgraph.Graph, params map[string]Value, limits Options) (*compiled, error) {
	c := &compiler{src: src, g: g, params: params, limits: limits.withDefaults(), warned: map[string]bool{}}
	out := &compiled{explain: stmt.Explain}
	c.resolveAliases(stmt)
	var roots []planNode
	for i, q := range stmt.Parts {
		root, cols := c.singleQuery(q)
		if i == 0 {
			out.columns = cols
		} else if len(c.diags.diags) == 0 && !slices.Equal(cols, out.columns) {
			c.errorf(stmt.UnionPos[i-1], SemanticError, "every part of a UNION must return the same columns: %s and %s",
				strings.Join(out.columns, ", "), strings.Join(cols, ", "))
		}
		roots = append(roots, root)
	}
	if err := c.diags.err(src); err != nil {
		return nil, err
	}
	out.root = roots[0]
	if len(roots) > 1 {
		// UNION is distinct unless every UNION is ALL; mixing is refused.
		all := stmt.UnionAll[0]
		for i, a := range stmt.UnionAll {
			if a != all {
				c.errorf(stmt.UnionPos[i], SemanticError, "cannot mix UNION and UNION ALL in one query")
			}
		}
		out.root = &unionNode{parts: roots, distinct: !all}
	}
	if err := c.diags.err(src); err != nil {
		return nil, err
	}
	out.width = len(c.slotNames)
	out.warnings = c.warnings
	return out, nil
}

func (c *compiler) errorf(pos Pos, kind ErrorKind, format string, args ...any) {
	c.diags.add(pos, kind, format, args...)
}

func (c *compiler) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !c.warned[msg] {
		c.warned[msg] = true
		c.warnings = append(c.warnings, msg)
	}
}

// newSlot allocates a row slot; name is what EXPLAIN calls it.
func (c *compiler) newSlot(name string) int {
	c.slotNames = append(c.slotNames, name)
	return len(c.slotNames) - 1
}

// hiddenName names an anonymous pattern element.
func (c *compiler) hiddenName(prefix string) string {
	return fmt.Sprintf("#%s%d", prefix, len(c.slotNames))
}

func (c *compiler) singleQuery(q *SingleQuery) (planNode, []string) {
	var plan planNode = &argumentNode{top: true}
	sc := newScope(nil)
	var columns []string
	if len(q.Clauses) == 0 {
		c.errorf(Pos{Line: 1, Col: 1}, SyntaxError, "empty query: write MATCH ... RETURN ...")
		return plan, nil
	}
	for _, cl := range q.Clauses {
		switch cl := cl.(type) {
		case *MatchClause:
			plan = c.matchClause(plan, cl, sc)
		case *UnwindClause:
			e := c.top(func() *cexpr { return c.expr(cl.Expr, sc) })
			if b, _ := sc.lookup(cl.Var); b != nil {
				c.errorf(cl.VarPos, SemanticError, "variable `%s` is already defined", cl.Var)
			}
			slot := c.newSlot(cl.Var)
			sc.declare(&binding{name: cl.Var, slot: slot})
			plan = &unwindNode{input: plan, expr: e, slot: slot, name: cl.Var}
		case *WithClause:
			plan, sc, _ = c.projection(plan, cl.Proj, sc, cl.Where, false)
		case *ReturnClause:
			plan, sc, columns = c.projection(plan, cl.Proj, sc, nil, true)
		}
	}
	last := q.Clauses[len(q.Clauses)-1]
	if _, ok := last.(*ReturnClause); !ok {
		c.errorf(last.clausePos(), SemanticError, "a query must end with RETURN (this engine only reads)")
	}
	return plan, columns
}

// constInt evaluates SKIP and LIMIT: constant non-negative integers.
func (c *compiler) constInt(e Expr, what string) (int64, bool) {
	var variable Expr
	walkExpr(e, func(x Expr) bool {
		if _, ok := x.(*Variable); ok && variable == nil {
			variable = x
		}
		return true
	})
	if variable != nil {
		c.errorf(variable.exprPos(), SemanticError, "%s must be a constant or a parameter, not an expression over variables", what)
		return 0, false
	}
	before, n0 := len(c.diags.diags), len(c.subs)
	ce := c.expr(e, newScope(nil))
	c.subs = c.subs[:n0]
	if len(c.diags.diags) > before {
		return 0, false
	}
	v, err := c.constEval(ce)
	if err != nil {
		c.errorf(e.exprPos(), SemanticError, "%s: %v", what, err)
		return 0, false
	}
	if v.kind != KindInt || v.i < 0 {
		c.errorf(e.exprPos(), ArgumentError, "%s must be a non-negative integer, got %s", what, literalString(v))
		return 0, false
	}
	return v.i, true
}

// constEval evaluates an expression that reads no slots, at plan time.
func (c *compiler) constEval(ce *cexpr) (Value, error) {
	if len(c.diags.diags) > 0 {
		return Null, nil // the query will not run; do not evaluate broken expressions
	}
	ec := &execCtx{ctx: backgroundCtx, g: c.g, props: &propReader{ctx: backgroundCtx, g: c.g}, maxMemory: c.limits.MaxMemory,
		width: len(c.slotNames), deadline: time.Now().Add(c.limits.Timeout), timeout: c.limits.Timeout}
	return ce.eval(ec, make([]Value, len(c.slotNames)))
}
