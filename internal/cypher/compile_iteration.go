package cypher

// Expressions with their own control flow or scope: CASE, list
// comprehensions, quantifiers (all, any, none, single), reduce, and map
// projections. A comprehension's variable gets a slot of its own, written
// for each element while the body is evaluated.

func (c *compiler) caseExpr(e *CaseExpr, sc *scope) *cexpr {
	var subject *cexpr
	if e.Subject != nil {
		subject = c.expr(e.Subject, sc)
	}
	whens := make([]*cexpr, len(e.Whens))
	for i, w := range e.Whens {
		if subject != nil {
			whens[i] = c.expr(w, sc)
		} else {
			whens[i] = c.predicate(w, sc)
		}
	}
	thens := c.exprs(e.Thens, sc)
	var els *cexpr
	if e.Else != nil {
		els = c.expr(e.Else, sc)
	}
	all := append(append([]*cexpr{subject, els}, whens...), thens...)
	return &cexpr{src: e, slots: slotsOf(all), eval: func(ec *execCtx, row []Value) (Value, error) {
		var sv Value
		if subject != nil {
			var err error
			if sv, err = subject.eval(ec, row); err != nil {
				return Null, err
			}
		}
		for i, w := range whens {
			wv, err := w.eval(ec, row)
			if err != nil {
				return Null, err
			}
			hit := false
			if subject != nil {
				hit = equal(sv, wv) == triTrue
			} else {
				hit = wv.kind == KindBool && wv.i != 0
			}
			if hit {
				return thens[i].eval(ec, row)
			}
		}
		if els != nil {
			return els.eval(ec, row)
		}
		return Null, nil
	}}
}

// iterationScope declares a comprehension's variable in a child scope.
func (c *compiler) iterationScope(sc *scope, name string) (*scope, int) {
	inner := newScope(sc)
	slot := c.newSlot(name)
	inner.declare(&binding{name: name, slot: slot})
	return inner, slot
}

// listOf evaluates the list a comprehension iterates: null stays null.
func listOf(ec *execCtx, x *cexpr, row []Value, pos Pos) ([]Value, bool, error) {
	v, err := x.eval(ec, row)
	if err != nil || v.kind == KindNull {
		return nil, false, err
	}
	if v.kind != KindList {
		return nil, false, typeErr(pos, "expected a list to iterate, got %s", typeName(v))
	}
	return v.List(), true, nil
}

func (c *compiler) listComp(e *ListComp, sc *scope) *cexpr {
	list := c.expr(e.List, sc)
	inner, slot := c.iterationScope(sc, e.Var)
	var where, proj *cexpr
	if e.Where != nil {
		where = c.predicate(e.Where, inner)
	}
	if e.Proj != nil {
		proj = c.expr(e.Proj, inner)
	}
	return &cexpr{src: e, slots: withoutSlots(slotsOf([]*cexpr{list, where, proj}), slot), eval: func(ec *execCtx, row []Value) (Value, error) {
		l, ok, err := listOf(ec, list, row, e.List.exprPos())
		if !ok {
			return Null, err
		}
		saved := ec.pending
		defer func() { ec.pending = saved }()
		out := make([]Value, 0, len(l))
		w := valueBytes
		for _, x := range l {
			if err := ec.tick(); err != nil {
				return Null, err
			}
			row[slot] = x
			if where != nil {
				t, err := evalTri(ec, where, row)
				if err != nil {
					return Null, err
				}
				if t != triTrue {
					continue
				}
			}
			if proj != nil {
				if x, err = proj.eval(ec, row); err != nil {
					return Null, err
				}
			}
			if err := ec.carry(weight(x), "a list comprehension"); err != nil {
				return Null, err
			}
			out = append(out, x)
			w += weight(x)
		}
		return listValueOf(out, w), nil
	}}
}

func (c *compiler) quantifier(e *Quantifier, sc *scope) *cexpr {
	list := c.expr(e.List, sc)
	inner, slot := c.iterationScope(sc, e.Var)
	where := c.predicate(e.Where, inner)
	kind := e.Kind
	return &cexpr{src: e, slots: withoutSlots(unionSlots(list.slots, where.slots), slot), eval: func(ec *execCtx, row []Value) (Value, error) {
		l, ok, err := listOf(ec, list, row, e.List.exprPos())
		if !ok {
			return Null, err
		}
		trues, nulls := 0, 0
		for _, x := range l {
			if err := ec.tick(); err != nil {
				return Null, err
			}
			row[slot] = x
			t, err := evalTri(ec, where, row)
			if err != nil {
				return Null, err
			}
			switch t {
			case triTrue:
				trues++
			case triNull:
				nulls++
			}
			if kind == "all" && t == triFalse {
				return BoolValue(false), nil
			}
			if (kind == "any" && t == triTrue) || (kind == "none" && t == triTrue) {
				return BoolValue(kind == "any"), nil
			}
			if kind == "single" && trues > 1 {
				return BoolValue(false), nil
			}
		}
		if nulls > 0 && !(kind == "single" && trues > 1) {
			return Null, nil
		}
		switch kind {
		case "all":
			return BoolValue(true), nil
		case "any":
			return BoolValue(false), nil
		case "none":
			return BoolValue(true), nil
		}
		return BoolValue(trues == 1), nil
	}}
}

func (c *compiler) reduce(e *ReduceExpr, sc *scope) *cexpr {
	init := c.expr(e.Init, sc)
	list := c.expr(e.List, sc)
	inner := newScope(sc)
	accSlot := c.newSlot(e.Acc)
	inner.declare(&binding{name: e.Acc, slot: accSlot})
	varSlot := c.newSlot(e.Var)
	inner.declare(&binding{name: e.Var, slot: varSlot})
	body := c.expr(e.Expr, inner)
	return &cexpr{src: e, slots: withoutSlots(slotsOf([]*cexpr{init, list, body}), accSlot, varSlot), eval: func(ec *execCtx, row []Value) (Value, error) {
		acc, err := init.eval(ec, row)
		if err != nil {
			return Null, err
		}
		l, ok, err := listOf(ec, list, row, e.List.exprPos())
		if !ok {
			return Null, err
		}
		for _, x := range l {
			if err := ec.tick(); err != nil {
				return Null, err
			}
			row[accSlot], row[varSlot] = acc, x
			if acc, err = body.eval(ec, row); err != nil {
				return Null, err
			}
		}
		return acc, nil
	}}
}

func (c *compiler) mapProjection(e *MapProjection, sc *scope) *cexpr {
	x := c.expr(e.X, sc)
	vals := make([]*cexpr, len(e.Items))
	for i, it := range e.Items {
		if it.Kind == "key" || it.Kind == "var" {
			vals[i] = c.expr(it.Expr, sc)
		}
	}
	items := e.Items
	return &cexpr{src: e, slots: unionSlots(x.slots, slotsOf(vals)), eval: func(ec *execCtx, row []Value) (Value, error) {
		base, err := x.eval(ec, row)
		if err != nil || base.kind == KindNull {
			return Null, err
		}
		saved := ec.pending
		defer func() { ec.pending = saved }()
		m := &Map{}
		for i, it := range items {
			switch it.Kind {
			case "prop":
				v, err := propertyOf(ec, base, it.Key, e.Pos)
				if err != nil {
					return Null, err
				}
				m.Set(it.Key, v)
			case "all":
				all, err := propertiesOf(ec, base, e.Pos)
				if err != nil {
					return Null, err
				}
				am := all.Map()
				for j, k := range am.Keys {
					m.Set(k, am.Vals[j])
				}
			default:
				v, err := vals[i].eval(ec, row)
				if err != nil {
					return Null, err
				}
				if err := ec.carry(weight(v), "a map projection"); err != nil {
					return Null, err
				}
				m.Set(it.Key, v)
			}
		}
		return mapValue(m), nil
	}}
}
