package lang

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The value flow of callables (flow.go) in the affected set: what a file
// stores in a field or passes as an argument reaches calls in other files
// through that field or the callee's parameters, so the names of those
// fields and callees join the set when the stores or arguments change
// (flowDiff) or mention a name already in it (closeFile, addStored).
//
// The parameters of such a callee are followed in its body only
// (flowNames): an argument or a store there that names one reaches on.
// Adding their names to the set instead made every file that mentions a
// `ctx` or an `r` affected once Go recorded its arguments: on chi, 30
// edits resolved 1248 files of 78 each (257 without the value flow).

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
			if kw.Kind == ExprComposite {
				grew = a.addStored(kw, all) || grew
			}
			if kw.Kind == ExprKeyword {
				if (all || a.hasExpr(kw.X)) && !a.plainFields[kw.Name] {
					grew = a.add(kw.Name) || grew
				}
				grew = a.addStored(kw.X, all) || grew
			}
		}
	case e.Kind == ExprKeyword && len(e.Args) == 1:
		if (all || a.hasExpr(e.X) || a.hasExpr(e.Args[0])) && !a.plainFields[e.Name] {
			grew = a.add(e.Name) || grew
		}
		grew = a.addStored(e.X, all) || grew
	}
	return grew
}

// flowDiff adds the fields whose stores differ between a changed file's
// old and new facts, and the callees whose arguments do (flowCallees). A
// store or argument that went away is in no file closeFile reads. Where
// they are written is left out: a store or call kept in a function that
// changed otherwise is followed from there (closeFile, seeded).
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
	switch {
	case k.callee:
		a.addFlowCallee(k.name)
	case !a.plainFields[k.name]:
		a.add(k.name)
	}
}

// addFlowCallee records a callee whose arguments may carry other values
// now. Its declarations' files resolve again (flowParamsOf); where a
// callee may be a class (flowTypes), its name and members join the set.
func (a *affectedSet) addFlowCallee(name string) {
	if a.flowCallees == nil {
		a.flowCallees = map[string]bool{}
	}
	a.flowCallees[name] = true
	if a.flowTypes {
		a.add(name)
		a.hier[name] = true
	}
}

// callsTypes reports whether calling a type constructs it or runs its
// call member in a language.
func callsTypes(language string) bool {
	l := ByName(language)
	if l == nil {
		return false
	}
	ft := l.Rules().Features()
	return ft.TypeCallConstructs || ft.CallMember != "" || ft.ApplyMember != ""
}

// flowPrints are the stores and argument lists of a file's facts.
func flowPrints(f *FileFacts) map[flowKey]bool {
	out := map[flowKey]bool{}
	var stores func(e *Expr, depth int)
	stores = func(e *Expr, depth int) {
		if e == nil || len(e.Args) == 0 || depth > 4 {
			return
		}
		switch {
		case e.Kind == ExprComposite:
			for _, kw := range e.Args {
				if kw.Kind == ExprComposite {
					stores(kw, depth+1)
				}
				if kw.Kind == ExprKeyword {
					h := newPrint()
					h.str(e.Name)
					h.expr(kw.X)
					out[flowKey{name: kw.Name, sum: h.sum()}] = true
					stores(kw.X, depth+1)
				}
			}
		case e.Kind == ExprKeyword && len(e.Args) == 1:
			h := newPrint()
			h.expr(e.Args[0])
			h.expr(e.X)
			out[flowKey{name: e.Name, sum: h.sum()}] = true
			stores(e.X, depth+1)
		}
	}
	f.LoadCalls()
	for i := range f.Calls {
		c := &f.Calls[i]
		if len(c.ArgExprs) == 0 {
			continue
		}
		if name := calleeName(c.Callee); name != "" {
			h := newPrint()
			h.expr(c.Callee)
			for _, e := range c.ArgExprs {
				h.expr(e)
			}
			out[flowKey{name: name, callee: true, sum: h.sum()}] = true
		}
		for _, e := range c.ArgExprs {
			stores(e, 0)
		}
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		stores(b.Value, 0)
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Value != nil {
			stores(s.Value, 0)
		}
	}
	return out
}

// flowNames are, by symbol index in one file, the names in a callable's
// body that may hold other values now: the parameters of the callables
// that flowCallees names, and the locals whose values mention a name in
// the set.
type flowNames struct {
	names map[int][]string
}

// flowParamsOf finds the callables of f that flowCallees names, and marks
// f as affected when there are any.
func (a *affectedSet) flowParamsOf(f *FileFacts) *flowNames {
	fp := &flowNames{names: map[int][]string{}}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if !a.flowCallees[s.Name] || !s.Kind.IsCallable() || len(s.Params) == 0 {
			continue
		}
		for _, prm := range s.Params {
			fp.names[i] = append(fp.names[i], prm.Name)
		}
		if a.flowFiles == nil {
			a.flowFiles = map[string]bool{}
		}
		a.flowFiles[f.Path] = true
	}
	return fp
}

// addLocal adds a local of scope whose value may have changed.
func (fp *flowNames) addLocal(scope int, name string) {
	fp.names[scope] = append(fp.names[scope], name)
}

// closeLocals adds the locals whose values name one of fp's names, until
// none is new (`g := h` after h).
func (fp *flowNames) closeLocals(f *FileFacts) {
	if len(fp.names) == 0 {
		return
	}
	seen := map[scopeName]bool{}
	for scope, names := range fp.names {
		for _, n := range names {
			seen[scopeName{scope, n}] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for i := range f.Bindings {
			b := &f.Bindings[i]
			k := scopeName{b.Scope, b.Name}
			if b.Name == "" || b.Scope < 0 || seen[k] || !fp.mention(f, b.Scope, b.Value) {
				continue
			}
			seen[k] = true
			fp.addLocal(b.Scope, b.Name)
			grew = true
		}
	}
}

// mention reports whether e, in scope, names one of fp's names of an
// enclosing callable.
func (fp *flowNames) mention(f *FileFacts, scope int, e *Expr) bool {
	if fp == nil || len(fp.names) == 0 || e == nil {
		return false
	}
	for p := scope; p >= 0 && p < len(f.Symbols); p = f.Symbols[p].Parent {
		for _, name := range fp.names[p] {
			if exprMentions(e, func(s string) bool { return s == name }) {
				return true
			}
		}
	}
	return false
}

func (fp *flowNames) mentionAny(f *FileFacts, scope int, es []*Expr) bool {
	for _, e := range es {
		if fp.mention(f, scope, e) {
			return true
		}
	}
	return false
}

// plainFields are the names of fields that only fields whose declared
// type cannot hold a callable have: a basic type, a pointer, slice, map,
// array or channel. A store into such a field reaches no call through
// it. A field without a declared type may hold anything.
func plainFields(files []*FileFacts) map[string]bool {
	plain, callable := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		for i := range f.Symbols {
			s := &f.Symbols[i]
			if s.Kind != graph.KindProperty || s.Parent < 0 {
				continue
			}
			if plainType(s.Type) {
				plain[s.Name] = true
			} else {
				callable[s.Name] = true
			}
		}
	}
	for name := range callable {
		delete(plain, name)
	}
	return plain
}

// plainType reports whether a declared type cannot hold a callable.
func plainType(t string) bool {
	switch {
	case t == "":
		return false
	case strings.HasPrefix(t, "*"), strings.HasPrefix(t, "["), strings.HasPrefix(t, "map["),
		strings.HasPrefix(t, "chan "), strings.HasPrefix(t, "<-chan"):
		return true
	}
	switch t {
	case "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
		"uint32", "uint64", "uintptr", "byte", "rune", "float32", "float64", "complex64",
		"complex128", "error", "time.Duration", "time.Time", "sync.Mutex", "sync.RWMutex":
		return true
	}
	return false
}
