package cypher

import (
	"strconv"
	"strings"
)

// call compiles a function call: an aggregate (only where the projection
// computed it), exists(), or a scalar function from the table.
func (c *compiler) call(e *CallExpr, sc *scope) *cexpr {
	lname := strings.ToLower(e.Name)
	if isAggregate(e) {
		if r := c.restrict; r != nil {
			if slot, ok := r.aggs[e]; ok {
				return slotRead(e, slot)
			}
			c.errorf(e.Pos, SemanticError, "%s after %s can only use an aggregate that is projected: add it to the projection with an alias and order by the alias",
				exprString(e), r.what)
			return constExpr(e, Null)
		}
		c.errorf(e.Pos, SemanticError, "aggregate %s() is only allowed in the items of WITH and RETURN", e.Name)
		return constExpr(e, Null)
	}
	if e.Star {
		c.errorf(e.Pos, SemanticError, "only count accepts *")
		return constExpr(e, Null)
	}
	if e.Distinct {
		c.errorf(e.Pos, SemanticError, "DISTINCT is only allowed in aggregates, not in %s()", e.Name)
	}
	if lname == "exists" {
		return c.existsCall(e, sc)
	}
	f, ok := functions[lname]
	if !ok {
		if strings.Contains(e.Name, ".") {
			c.errorf(e.Pos, UnsupportedError, "%s(): functions and procedures of plugins are not available; %s", e.Name, functionHelp())
		} else {
			c.errorf(e.Pos, SemanticError, "unknown function %s(); %s", e.Name, functionHelp())
		}
		return constExpr(e, Null)
	}
	if len(e.Args) < f.min || (f.max >= 0 && len(e.Args) > f.max) {
		want := itoa(int64(f.min))
		switch {
		case f.max < 0:
			want = "at least " + want
		case f.max != f.min:
			want += " to " + itoa(int64(f.max))
		}
		c.errorf(e.Pos, SemanticError, "%s() takes %s argument(s), got %d", f.name, want, len(e.Args))
		return constExpr(e, Null)
	}
	args := c.exprs(e.Args, sc)
	pos := e.Pos
	argsWhat := "the arguments of " + f.name + "()"
	return &cexpr{src: e, slots: slotsOf(args), eval: func(ec *execCtx, row []Value) (Value, error) {
		saved := ec.pending
		defer func() { ec.pending = saved }()
		vals := make([]Value, len(args))
		for i, a := range args {
			v, err := a.eval(ec, row)
			if err != nil {
				return Null, err
			}
			if v.IsNull() && !f.keepNull {
				return Null, nil
			}
			if len(args) > 1 {
				if err := ec.carry(weight(v), argsWhat); err != nil {
					return Null, err
				}
			}
			vals[i] = v
		}
		return f.eval(ec, vals, pos)
	}}
}

func functionHelp() string {
	return "functions: " + strings.Join(functionNames(), ", ")
}

// existsCall is exists(pattern) (a pattern predicate) or exists(x.prop)
// (x.prop IS NOT NULL).
func (c *compiler) existsCall(e *CallExpr, sc *scope) *cexpr {
	if len(e.Args) != 1 {
		c.errorf(e.Pos, SemanticError, "exists() takes one argument: a pattern or a property")
		return constExpr(e, Null)
	}
	switch a := e.Args[0].(type) {
	case *PatternExpr:
		return c.subquery(e, []*PatternPart{a.Part}, nil, sc, subExists)
	case *PropAccess:
		x := c.expr(a, sc)
		return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
			v, err := x.eval(ec, row)
			if err != nil {
				return Null, err
			}
			return BoolValue(!v.IsNull()), nil
		}}
	}
	c.errorf(e.Pos, SemanticError, "exists() expects a pattern, as in exists((a)-[:CALLS]->()), or a property, as in exists(n.doc)")
	return constExpr(e, Null)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
