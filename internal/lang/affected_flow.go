package lang

// The value flow of callables (flow.go) in the affected set: what a file
// stores in a field or passes as an argument reaches calls in other files
// through that field or the callee's parameters, so the names of those
// fields and callees join the set when the stores or arguments change
// (flowDiff) or mention a name already in it (closeFile, addStored).

// addStored adds the names of the fields that e stores a value in (flow.go,
// flowStores) when the value mentions a name in the set, or always (all):
// the keys of a composite literal's keyed fields, the field of a store
// `x.f = v`. It reports whether anything was new.
func (a *affectedSet) addStored(e *Expr, all bool) bool {
	if e == nil || len(e.Args) == 0 {
		return false
	}
	grew := false
	switch {
	case e.Kind == ExprComposite:
		for _, kw := range e.Args {
			if kw.Kind == ExprKeyword {
				if all || a.hasExpr(kw.X) {
					grew = a.add(kw.Name) || grew
				}
				grew = a.addStored(kw.X, all) || grew
			}
		}
	case e.Kind == ExprKeyword && len(e.Args) == 1:
		if all || a.hasExpr(e.X) || a.hasExpr(e.Args[0]) {
			grew = a.add(e.Name) || grew
		}
		grew = a.addStored(e.X, all) || grew
	}
	return grew
}

// flowDiff adds the fields whose stores differ between a changed file's
// old and new facts, and the callees whose arguments do (with their
// parameters, as flowCallees). A store or argument that went away is in
// no file closeFile reads.
func (a *affectedSet) flowDiff(old, cur *FileFacts) {
	was, now := flowPrints(old), flowPrints(cur)
	for k := range was {
		if !now[k] {
			a.addFlowKey(k)
		}
	}
	for k := range now {
		if !was[k] {
			a.addFlowKey(k)
		}
	}
}

// flowKey is one store or argument list: the field or callee name it
// reaches (callee: a callee) and a print of the rest.
type flowKey struct {
	name   string
	callee bool
	sum    uint64
}

func (a *affectedSet) addFlowKey(k flowKey) {
	a.add(k.name)
	if k.callee {
		if a.flowCallees == nil {
			a.flowCallees = map[string]bool{}
		}
		a.flowCallees[k.name] = true
		a.hier[k.name] = true
	}
}

// flowPrints are the stores and argument lists of a file's facts.
func flowPrints(f *FileFacts) map[flowKey]bool {
	out := map[flowKey]bool{}
	qual := func(scope int) string {
		if scope >= 0 && scope < len(f.Symbols) {
			return f.Symbols[scope].Qual
		}
		return ""
	}
	var stores func(scope string, e *Expr, depth int)
	stores = func(scope string, e *Expr, depth int) {
		if e == nil || len(e.Args) == 0 || depth > 4 {
			return
		}
		switch {
		case e.Kind == ExprComposite:
			for _, kw := range e.Args {
				if kw.Kind == ExprKeyword {
					h := newPrint()
					h.str(scope)
					h.str(e.Name)
					h.expr(kw.X)
					out[flowKey{name: kw.Name, sum: h.sum()}] = true
					stores(scope, kw.X, depth+1)
				}
			}
		case e.Kind == ExprKeyword && len(e.Args) == 1:
			h := newPrint()
			h.str(scope)
			h.expr(e.Args[0])
			h.expr(e.X)
			out[flowKey{name: e.Name, sum: h.sum()}] = true
			stores(scope, e.X, depth+1)
		}
	}
	f.LoadCalls()
	for i := range f.Calls {
		c := &f.Calls[i]
		if len(c.ArgExprs) == 0 {
			continue
		}
		q := qual(c.Scope)
		if name := calleeName(c.Callee); name != "" {
			h := newPrint()
			h.str(q)
			h.expr(c.Callee)
			for _, e := range c.ArgExprs {
				h.expr(e)
			}
			out[flowKey{name: name, callee: true, sum: h.sum()}] = true
		}
		for _, e := range c.ArgExprs {
			stores(q, e, 0)
		}
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		stores(qual(b.Scope), b.Value, 0)
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Value != nil {
			stores(s.Qual, s.Value, 0)
		}
	}
	return out
}
