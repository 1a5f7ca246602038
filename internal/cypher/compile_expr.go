package cypher

import (
	"regexp"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

// slotExpr reads a slot directly: the compiler uses it for hidden
// variables (anonymous pattern elements) it refers to.
type slotExpr struct {
	pos  Pos
	name string
	slot int
	typ  varType
}

func (e *slotExpr) exprPos() Pos { return e.pos }

func constExpr(src Expr, v Value) *cexpr {
	return &cexpr{src: src, eval: func(*execCtx, []Value) (Value, error) { return v, nil }}
}

func slotRead(src Expr, slot int) *cexpr {
	return &cexpr{src: src, slots: []int{slot}, eval: func(_ *execCtx, row []Value) (Value, error) { return row[slot], nil }}
}

// predicate compiles an expression in boolean position (WHERE, operands
// of AND, OR, XOR and NOT), where a bare pattern means "such a path
// exists".
func (c *compiler) predicate(e Expr, sc *scope) *cexpr {
	if pe, ok := e.(*PatternExpr); ok && c.restrict == nil {
		return c.subquery(pe, []*PatternPart{pe.Part}, nil, sc, subExists)
	}
	return c.expr(e, sc)
}

// expr compiles an expression in scope sc.
func (c *compiler) expr(e Expr, sc *scope) *cexpr {
	if r := c.restrict; r != nil {
		switch e.(type) {
		case *Literal, *Param:
		default:
			if slot, ok := r.items[exprString(e)]; ok {
				return slotRead(e, slot)
			}
		}
	}
	switch e := e.(type) {
	case *Literal:
		return constExpr(e, e.Val)
	case *Param:
		v, ok := c.params[e.Name]
		if !ok {
			c.errorf(e.Pos, SemanticError, "missing parameter $%s: pass it with --param %s=<value> (or in the tool's params)", e.Name, e.Name)
		}
		return constExpr(e, v)
	case *Variable:
		return c.variable(e, sc)
	case *slotExpr:
		return slotRead(e, e.slot)
	case *ListLit:
		elems := c.exprs(e.Elems, sc)
		return &cexpr{src: e, slots: slotsOf(elems), eval: func(ec *execCtx, row []Value) (Value, error) {
			saved := ec.pending
			defer func() { ec.pending = saved }()
			out := make([]Value, len(elems))
			w := valueBytes
			for i, x := range elems {
				v, err := x.eval(ec, row)
				if err != nil {
					return Null, err
				}
				if err := ec.carry(weight(v), "a list"); err != nil {
					return Null, err
				}
				out[i] = v
				w += weight(v)
			}
			return listValueOf(out, w), nil
		}}
	case *MapLit:
		vals := c.exprs(e.Vals, sc)
		keys := e.Keys
		return &cexpr{src: e, slots: slotsOf(vals), eval: func(ec *execCtx, row []Value) (Value, error) {
			saved := ec.pending
			defer func() { ec.pending = saved }()
			out := make([]Value, len(vals))
			for i, x := range vals {
				v, err := x.eval(ec, row)
				if err != nil {
					return Null, err
				}
				if err := ec.carry(weight(v), "a map"); err != nil {
					return Null, err
				}
				out[i] = v
			}
			return MapValue(keys, out), nil
		}}
	case *PropAccess:
		return c.propAccess(e, sc)
	case *IndexExpr:
		x, i := c.expr(e.X, sc), c.expr(e.Index, sc)
		return &cexpr{src: e, slots: unionSlots(x.slots, i.slots), eval: func(ec *execCtx, row []Value) (Value, error) {
			xv, err := x.eval(ec, row)
			if err != nil {
				return Null, err
			}
			iv, err := i.eval(ec, row)
			if err != nil {
				return Null, err
			}
			return indexValue(ec, xv, iv, e.Pos)
		}}
	case *SliceExpr:
		return c.slice(e, sc)
	case *UnaryExpr:
		return c.unary(e, sc)
	case *BinaryExpr:
		return c.binary(e, sc)
	case *IsNullExpr:
		x := c.expr(e.X, sc)
		not := e.Not
		return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
			v, err := x.eval(ec, row)
			if err != nil {
				return Null, err
			}
			return BoolValue(v.IsNull() != not), nil
		}}
	case *LabelExpr:
		return c.labelTest(e, sc)
	case *CallExpr:
		return c.call(e, sc)
	case *CaseExpr:
		return c.caseExpr(e, sc)
	case *ListComp:
		return c.listComp(e, sc)
	case *Quantifier:
		return c.quantifier(e, sc)
	case *ReduceExpr:
		return c.reduce(e, sc)
	case *PatternExpr:
		return c.subquery(e, []*PatternPart{e.Part}, nil, sc, subPaths)
	case *PatternComp:
		return c.patternComp(e, sc)
	case *SubqueryExpr:
		kind := subExists
		if e.Count {
			kind = subCount
		}
		return c.subquery(e, e.Pattern, e.Where, sc, kind)
	case *MapProjection:
		return c.mapProjection(e, sc)
	}
	c.errorf(e.exprPos(), SemanticError, "unsupported expression")
	return constExpr(e, Null)
}

func (c *compiler) exprs(es []Expr, sc *scope) []*cexpr {
	out := make([]*cexpr, len(es))
	for i, e := range es {
		out[i] = c.expr(e, sc)
	}
	return out
}

func slotsOf(es []*cexpr) []int {
	var sets [][]int
	for _, e := range es {
		if e != nil {
			sets = append(sets, e.slots)
		}
	}
	return unionSlots(sets...)
}

func (c *compiler) variable(e *Variable, sc *scope) *cexpr {
	b, owner := sc.lookup(e.Name)
	if b == nil {
		c.errorf(e.Pos, SemanticError, "variable `%s` is not defined%s", e.Name, c.suggestVariable(e.Name, sc))
		return constExpr(e, Null)
	}
	if r := c.restrict; r != nil && owner.isAncestorOf(r.outer) && !r.keyVars[e.Name] {
		c.errorf(e.Pos, SemanticError, "`%s` is not available after %s: use only the projected columns (or make `%s` a grouping key)",
			e.Name, r.what, e.Name)
		return constExpr(e, Null)
	}
	return slotRead(e, b.slot)
}

func (c *compiler) suggestVariable(name string, sc *scope) string {
	var names []string
	for cur := sc; cur != nil; cur = cur.parent {
		for _, n := range cur.order {
			if !strings.HasPrefix(n, "#") {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return " (in scope: " + strings.Join(names, ", ") + ")"
}

// staticType is what the compiler knows about an expression's values.
func staticType(e Expr, sc *scope) varType {
	if v, ok := e.(*Variable); ok {
		if b, _ := sc.lookup(v.Name); b != nil {
			return b.typ
		}
	}
	if s, ok := e.(*slotExpr); ok {
		return s.typ
	}
	return vtAny
}

func (c *compiler) propAccess(e *PropAccess, sc *scope) *cexpr {
	x := c.expr(e.X, sc)
	name := e.Name
	switch staticType(e.X, sc) {
	case vtNode:
		idx, ok := nodePropIndex[name]
		if !ok {
			c.warnUnknownProperty(e, "nodes", nodePropertyNames())
			return &cexpr{src: e, slots: x.slots, eval: func(*execCtx, []Value) (Value, error) { return Null, nil }}
		}
		get := NodeProperties[idx].get
		if len(x.slots) == 1 && isSlotRef(e.X) {
			slot := x.slots[0]
			return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
				if v := &row[slot]; v.kind == KindNode {
					return get(ec.props, memgraph.NodeID(v.i))
				}
				return propertyOf(ec, row[slot], name, e.Pos)
			}}
		}
		return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
			v, err := x.eval(ec, row)
			if err != nil || v.kind != KindNode {
				if err == nil && v.kind != KindNull {
					return propertyOf(ec, v, name, e.Pos)
				}
				return Null, err
			}
			return get(ec.props, v.Node())
		}}
	case vtRel:
		if _, ok := relPropIndex[name]; !ok {
			c.warnUnknownProperty(e, "relationships", relPropertyNames())
		}
	}
	return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
		v, err := x.eval(ec, row)
		if err != nil {
			return Null, err
		}
		return propertyOf(ec, v, name, e.Pos)
	}}
}

// isSlotRef reports whether e reads one slot as it is (a variable).
func isSlotRef(e Expr) bool {
	switch e.(type) {
	case *Variable, *slotExpr:
		return true
	}
	return false
}

func (c *compiler) warnUnknownProperty(e *PropAccess, of string, known []string) {
	c.warnf("%s: %s have no property `%s`, so it is null (%s properties: %s)",
		exprString(e), of, e.Name, strings.TrimSuffix(of, "s"), strings.Join(known, ", "))
}

func nodePropertyNames() []string {
	out := make([]string, len(NodeProperties))
	for i, p := range NodeProperties {
		out[i] = p.Name
	}
	return out
}

func relPropertyNames() []string {
	out := make([]string, len(RelProperties))
	for i, p := range RelProperties {
		out[i] = p.Name
	}
	return out
}

// propertyOf reads property name of any value: nodes, relationships, maps
// and null (which gives null).
func propertyOf(ec *execCtx, v Value, name string, pos Pos) (Value, error) {
	switch v.kind {
	case KindNull:
		return Null, nil
	case KindNode:
		return ec.props.nodeProperty(v.Node(), name)
	case KindRel:
		return relProperty(ec.props.g, v, name), nil
	case KindMap:
		x, _ := v.Map().Get(name)
		return x, nil
	}
	return Null, typeErr(pos, "cannot read property `%s` of a value of type %s", name, typeName(v))
}

func (c *compiler) slice(e *SliceExpr, sc *scope) *cexpr {
	x := c.expr(e.X, sc)
	var from, to *cexpr
	if e.From != nil {
		from = c.expr(e.From, sc)
	}
	if e.To != nil {
		to = c.expr(e.To, sc)
	}
	return &cexpr{src: e, slots: slotsOf([]*cexpr{x, from, to}), eval: func(ec *execCtx, row []Value) (Value, error) {
		xv, err := x.eval(ec, row)
		if err != nil {
			return Null, err
		}
		bound := func(b *cexpr) (Value, bool, error) {
			if b == nil {
				return Null, false, nil
			}
			v, err := b.eval(ec, row)
			return v, true, err
		}
		fv, hasFrom, err := bound(from)
		if err != nil {
			return Null, err
		}
		tv, hasTo, err := bound(to)
		if err != nil {
			return Null, err
		}
		return sliceValue(ec, xv, fv, hasFrom, tv, hasTo, e.Pos)
	}}
}

func (c *compiler) unary(e *UnaryExpr, sc *scope) *cexpr {
	if e.Op == "NOT" {
		x := c.predicate(e.X, sc)
		return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
			t, err := evalTri(ec, x, row)
			if err != nil {
				return Null, err
			}
			switch t {
			case triTrue:
				return BoolValue(false), nil
			case triFalse:
				return BoolValue(true), nil
			}
			return Null, nil
		}}
	}
	x := c.expr(e.X, sc)
	neg := e.Op == "-"
	return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
		v, err := x.eval(ec, row)
		if err != nil {
			return Null, err
		}
		return unaryArith(v, neg, e.Pos)
	}}
}

// evalTri evaluates a boolean operand: null is unknown, anything but a
// boolean is a type error.
func evalTri(ec *execCtx, x *cexpr, row []Value) (tri, error) {
	v, err := x.eval(ec, row)
	if err != nil {
		return triNull, err
	}
	switch v.kind {
	case KindBool:
		return triOf(v.i != 0), nil
	case KindNull:
		return triNull, nil
	}
	return triNull, typeErr(x.src.exprPos(), "expected a boolean, got %s: %s", typeName(v), x.String())
}

func (c *compiler) binary(e *BinaryExpr, sc *scope) *cexpr {
	switch e.Op {
	case "AND", "OR", "XOR":
		l, r := c.predicate(e.L, sc), c.predicate(e.R, sc)
		op := e.Op
		return &cexpr{src: e, slots: unionSlots(l.slots, r.slots), eval: func(ec *execCtx, row []Value) (Value, error) {
			a, err := evalTri(ec, l, row)
			if err != nil {
				return Null, err
			}
			if op == "AND" && a == triFalse {
				return BoolValue(false), nil
			}
			if op == "OR" && a == triTrue {
				return BoolValue(true), nil
			}
			b, err := evalTri(ec, r, row)
			if err != nil {
				return Null, err
			}
			return logic(op, a, b).value(), nil
		}}
	}
	l, r := c.expr(e.L, sc), c.expr(e.R, sc)
	slots := unionSlots(l.slots, r.slots)
	var f func(ec *execCtx, a, b Value) (Value, error)
	switch e.Op {
	case "=":
		f = func(_ *execCtx, a, b Value) (Value, error) { return equal(a, b).value(), nil }
	case "<>":
		f = func(_ *execCtx, a, b Value) (Value, error) { return logic("NOT", equal(a, b), triNull).value(), nil }
	case "<", ">", "<=", ">=":
		op := e.Op
		f = func(_ *execCtx, a, b Value) (Value, error) { return comparison(op, a, b), nil }
	case "+", "-", "*", "/", "%", "^":
		op := e.Op
		f = func(ec *execCtx, a, b Value) (Value, error) { return arith(ec, op, a, b, e.Pos) }
	case "IN":
		f = func(_ *execCtx, a, b Value) (Value, error) { return inList(a, b, e.Pos) }
	case "STARTS WITH", "ENDS WITH", "CONTAINS":
		op := e.Op
		f = func(_ *execCtx, a, b Value) (Value, error) { return stringPredicate(op, a, b), nil }
	case "=~":
		f = c.regexMatcher(e, r)
	}
	// Comparing or searching large strings and lists is work in
	// proportion to their size (arith counts its own).
	counted := !strings.ContainsAny(e.Op, "+-*/%^")
	return &cexpr{src: e, slots: slots, eval: func(ec *execCtx, row []Value) (Value, error) {
		a, err := l.eval(ec, row)
		if err != nil {
			return Null, err
		}
		b, err := r.eval(ec, row)
		if err != nil {
			return Null, err
		}
		if counted && (a.kind >= KindString || b.kind >= KindString) {
			if err := ec.work(weight(a) + weight(b)); err != nil {
				return Null, err
			}
		}
		return f(ec, a, b)
	}}
}

// regexMatcher compiles `x =~ pattern`: the whole string must match (RE2
// syntax). A constant pattern is compiled once, and checked at plan time.
func (c *compiler) regexMatcher(e *BinaryExpr, pattern *cexpr) func(*execCtx, Value, Value) (Value, error) {
	var fixed *regexp.Regexp
	if len(pattern.slots) == 0 {
		if v, err := c.constEval(pattern); err == nil && v.kind == KindString {
			re, err := regexp.Compile("^(?:" + v.s + ")$")
			if err != nil {
				c.errorf(e.R.exprPos(), ArgumentError, "invalid regular expression %s: %v", literalString(v), err)
			}
			fixed = re
		}
	}
	cache := map[string]*regexp.Regexp{}
	return func(_ *execCtx, a, b Value) (Value, error) {
		if a.kind != KindString || b.kind != KindString {
			return Null, nil
		}
		re := fixed
		if re == nil {
			if re = cache[b.s]; re == nil {
				var err error
				if re, err = regexp.Compile("^(?:" + b.s + ")$"); err != nil {
					return Null, argErr(e.R.exprPos(), "invalid regular expression %s: %v", literalString(b), err)
				}
				if len(cache) < 64 {
					cache[b.s] = re
				}
			}
		}
		return BoolValue(re.MatchString(a.s)), nil
	}
}

func (c *compiler) labelTest(e *LabelExpr, sc *scope) *cexpr {
	x := c.expr(e.X, sc)
	kinds := c.labelSet(e.Labels, true)
	var types edgeSet = allEdges
	for _, group := range e.Labels {
		var any edgeSet
		for _, l := range group {
			if t, ok := relTypeEdges(l); ok {
				any |= t
			}
		}
		types &= any
	}
	return &cexpr{src: e, slots: x.slots, eval: func(ec *execCtx, row []Value) (Value, error) {
		v, err := x.eval(ec, row)
		if err != nil {
			return Null, err
		}
		switch v.kind {
		case KindNull:
			return Null, nil
		case KindNode:
			return BoolValue(kinds.has(ec.g.Nodes[v.Node()].Kind)), nil
		case KindRel:
			return BoolValue(types.has(v.et)), nil
		}
		return Null, typeErr(e.Pos, "a label test needs a node, got %s", typeName(v))
	}}
}

// labelSet turns `:A|B:C` into the set of kinds that satisfy it, warning
// about names that are not labels (nor, in a label test, which may be of
// a relationship, relationship types).
func (c *compiler) labelSet(groups [][]string, relTypesToo bool) kindSet {
	set := allKinds
	for _, group := range groups {
		var any kindSet
		for _, l := range group {
			k, ok := labelKinds(l)
			if _, isType := relTypeEdges(l); !ok && !(relTypesToo && isType) {
				c.warnf("label `%s` does not exist, so nothing matches it (labels: %s)", l, strings.Join(labelNames(), ", "))
			}
			any |= k
		}
		set &= any
	}
	return set
}
