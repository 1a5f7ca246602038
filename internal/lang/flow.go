package lang

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Value flow of callables (Features.ValueFlow).
//
// Typing resolves a call through a field only when the field's declared
// type or assigned value says what it holds. Frameworks store the
// callables they are given and call them later: a middleware keeps the
// next application (`def __init__(self, app): self.app = app`, then
// `await self.app(scope)`), composed as `A(B(router))`; a config keeps a
// hook (`Config(skip=my_skip)`, then `cfg.skip(c)`). Measured against
// call graphs of such frameworks, these calls were most of the missed
// dispatch.
//
// So, once per program and over all files, every slot — a variable,
// constant or property symbol, or one parameter of a callable — gets the
// set of functions, classes and class instances that can flow into it:
//   - an argument flows into the parameter it binds (by position or by
//     keyword) of each callable its call resolves to, a class's
//     constructor included;
//   - the value of a field binding (`self.name = v`) flows into the
//     property, a variable's initializer into the variable, a
//     parameter's default into the parameter;
//   - an argument or value that names a slot (a parameter of the
//     enclosing function, a variable, `self.other`) passes on whatever
//     flows into that slot.
//
// The sets are propagated along the slot-to-slot edges in at most
// maxFlowRounds rounds (a middleware chain nests a few levels deep); a
// slot that more than maxFlowItems values reach is given up, as too
// generic for its calls to name targets. A call through a slot that
// typing leaves unresolved is linked to each function that flows in, the
// constructor of each class, and the call member (Features.CallMember) of
// each instance, with ReasonValueFlow. The flow is computed before any
// file is resolved and depends on every file's facts alone, so a file's
// edges still do not depend on which files are resolved with it.
//
// What a language's extractor feeds it: Call.ArgExprs (keyword arguments
// as ExprKeyword), field bindings with their values, initializers of
// variables and properties, and Param.Default. Stores into the fields of
// other objects come as expressions (flowStores), wherever an argument, a
// binding's value or an initializer holds them: a composite literal with
// keyed fields (Go `Config{Skip: skip}`: an ExprComposite whose Args are
// ExprKeyword), and a store `x.f = v` (ExprKeyword f=v whose one Arg is
// x), which the Go extractor records as a binding without a name.
// Returned callables flow only as far as typing follows results.

// maxFlowItems: the flow is per field, not per object, so a field that a
// test suite fills with many callables hands them all to every call
// through it, subclasses' included. On httpx the ASGI and WSGI
// transports' app fields hold 8 test apps each (all right); MockTransport's
// handler holds 23, which would also go to two test subclasses given one
// handler each (46 edges, 2 right), so it is given up.
const (
	maxFlowRounds = 8
	maxFlowItems  = 16
)

// flowSlot is a place a callable can be stored in: the variable,
// constant or property sym (param -1), or parameter param of callable sym.
type flowSlot struct {
	sym   SymID
	param int32
}

// flowItem is a value that can be called: the function, method or class
// sym itself, or (inst) an instance of class sym.
type flowItem struct {
	sym  SymID
	inst bool
}

func (a flowItem) less(b flowItem) bool {
	if a.sym != b.sym {
		return a.sym < b.sym
	}
	return !a.inst && b.inst
}

func (a flowSlot) less(b flowSlot) bool {
	if a.sym != b.sym {
		return a.sym < b.sym
	}
	return a.param < b.param
}

// flowGraph holds what flows into each slot.
type flowGraph struct {
	items map[flowSlot][]flowItem // sorted, without repeats
	succ  map[flowSlot][]flowSlot // what flows into the key flows into these
	full  map[flowSlot]bool       // reached by more than maxFlowItems values
}

// flowSource is where an expression's value comes from: an item, or a slot.
type flowSource struct {
	item   flowItem
	slot   flowSlot
	isSlot bool
	ok     bool
}

// buildFlow computes the flow graph over all files (AddDeclarations).
func (p *Program) buildFlow() {
	if !p.Rules.Features().ValueFlow {
		return
	}
	// The build counts as a round of its own: a value a recursion guard
	// cut short while it ran is kept for the build only (memo.go), and
	// files resolve as they would without it.
	p.round++
	fg := &flowGraph{items: map[flowSlot][]flowItem{}, succ: map[flowSlot][]flowSlot{}, full: map[flowSlot]bool{}}
	assigned := map[flowSlot]bool{}
	for _, f := range p.Files {
		f.Facts.LoadCalls()
		for i := range f.Facts.Bindings {
			b := &f.Facts.Bindings[i]
			if b.Value != nil && b.Scope >= 0 {
				p.flowStores(fg, Ctx{File: f, Scope: b.Scope, Pos: b.Byte}, b.Value, 0)
			}
			if !b.Field || b.Scope < 0 || b.Value == nil || b.Elem {
				continue
			}
			t := p.EnclosingType(f, b.Scope)
			if t == NoSym {
				continue
			}
			prop := p.variableMember(t, b.Name)
			if prop == NoSym {
				continue
			}
			to := flowSlot{prop, -1}
			assigned[to] = true
			fg.connect(p.flowSources(Ctx{File: f, Scope: b.Scope, Pos: b.Byte}, b.Value), to)
		}
		for i := range f.Facts.Calls {
			call := &f.Facts.Calls[i]
			p.flowArgs(fg, f, call)
			for _, a := range call.ArgExprs {
				p.flowStores(fg, Ctx{File: f, Scope: call.Scope, Pos: call.Byte}, a, 0)
			}
		}
	}
	for id := range p.Syms {
		s := &p.Syms[id]
		if s.Kind.IsCallable() {
			// Defaults, evaluated where the callable is declared.
			for i, prm := range s.Params {
				if prm.Default != nil {
					c := Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
					fg.connect(p.flowSources(c, prm.Default), flowSlot{SymID(id), int32(i)})
				}
			}
		}
		if s.Value == nil || !isVariable(s) {
			continue
		}
		p.flowStores(fg, Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}, s.Value, 0)
		to := flowSlot{SymID(id), -1}
		if assigned[to] {
			continue // a field: its bindings, evaluated in their methods
		}
		fg.connect(p.flowSources(Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}, s.Value), to)
	}
	fg.propagate()
	p.flow = fg
}

// flowStores connects the fields that e stores callables in: each keyed
// field of a composite literal (`Config{Skip: skip}`, ExprComposite with
// ExprKeyword arguments; a container's literal elements are ExprComposite
// arguments) into that field of the literal's type, and a
// field store `x.f = v` (ExprKeyword f=v with the object x as its
// argument) into the field f of x's type.
func (p *Program) flowStores(fg *flowGraph, c Ctx, e *Expr, depth int) {
	if e == nil || depth > 4 {
		return
	}
	var obj Value
	switch {
	case e.Kind == ExprComposite && len(e.Args) > 0:
		obj, _ = p.Eval(c, e)
	case e.Kind == ExprKeyword && len(e.Args) == 1 && e.Name != "*" && e.Name != "**":
		obj, _ = p.Eval(c, e.Args[0])
		obj = p.held(obj)
		e = &Expr{Args: []*Expr{{Kind: ExprKeyword, Name: e.Name, X: e.X}}}
	default:
		return
	}
	for _, kw := range e.Args {
		if kw.Kind == ExprComposite {
			p.flowStores(fg, c, kw, depth+1) // an element of a container
		}
		if kw.Kind != ExprKeyword {
			continue
		}
		p.flowStores(fg, c, kw.X, depth+1)
		if obj.Kind != ValInstance || obj.Elem != 0 {
			continue
		}
		if prop := p.variableMember(obj.Sym, kw.Name); prop != NoSym {
			fg.connect(p.flowSources(c, kw.X), flowSlot{prop, -1})
		}
	}
}

// variableMember is the variable or property named name of type t, own or
// inherited, or NoSym.
func (p *Program) variableMember(t SymID, name string) SymID {
	ids, _ := p.FindMember(t, name)
	for _, id := range ids {
		if isVariable(&p.Syms[id]) {
			return id
		}
	}
	return NoSym
}

// flowArgs connects the arguments of a call to the parameters they bind
// in each callable the call resolves to.
func (p *Program) flowArgs(fg *flowGraph, f *File, call *Call) {
	if len(call.ArgExprs) == 0 {
		return
	}
	type arg struct {
		pos  int    // position, -1 for a keyword argument
		kw   string // keyword
		srcs []flowSource
	}
	c := Ctx{File: f, Scope: call.Scope, Pos: call.Byte}
	var args []arg
	pos, positional := 0, true
	for _, a := range call.ArgExprs {
		at, kw, e := -1, "", a
		switch {
		case a.Kind == ExprKeyword && (a.Name == "*" || a.Name == "**"):
			positional = positional && a.Name == "**"
			continue
		case a.Kind == ExprKeyword:
			kw, e = a.Name, a.X
		case !positional:
			continue
		default:
			at = pos
			pos++
		}
		if srcs := p.flowSources(c, e); len(srcs) > 0 {
			args = append(args, arg{at, kw, srcs})
		}
	}
	if len(args) == 0 {
		return
	}
	unbound := p.unboundCallee(c, call.Callee)
	for _, t := range p.resolveCall(f, call).targets {
		s := p.Syms[t].Symbol
		if !s.Kind.IsCallable() {
			continue
		}
		// A method called through its class or by its bare name (in the
		// class body) takes its receiver as the first argument: the
		// positions do not match its parameters.
		skipPositional := unbound && p.Owner(t) != NoSym && !s.Static && s.Kind != graph.KindConstructor
		for _, a := range args {
			if a.pos >= 0 && skipPositional {
				continue
			}
			if i := paramIndex(s, a.pos, a.kw); i >= 0 {
				fg.connect(a.srcs, flowSlot{t, int32(i)})
			}
		}
	}
}

// unboundCallee reports whether a callee names a callable without a
// receiver to bind: a bare name, or a member of a type (`Base.run`).
func (p *Program) unboundCallee(c Ctx, e *Expr) bool {
	switch {
	case e == nil:
		return false
	case e.Kind == ExprIdent:
		return true
	case e.Kind == ExprMember && e.X.Kind != ExprSelf && e.X.Kind != ExprSuper:
		base, _ := p.Eval(c, e.X)
		return base.Kind == ValSym && p.Syms[base.Sym].Kind.IsType()
	}
	return false
}

// paramIndex is the parameter of s that the argument at position pos, or
// named kw, binds; -1 when none does or a variadic one does.
func paramIndex(s *Symbol, pos int, kw string) int {
	for i, prm := range s.Params {
		switch {
		case kw != "":
			if prm.Name == kw && !prm.Variadic {
				return i
			}
		case prm.Variadic:
			return -1 // bound by a rest parameter
		case i == pos:
			return i
		}
	}
	return -1
}

// flowSources is where the value of e, evaluated in c, comes from: one
// source, or one for each alternative of an ExprEither.
func (p *Program) flowSources(c Ctx, e *Expr) []flowSource {
	if e == nil || e.Kind != ExprEither {
		if src := p.flowSourceOf(c, e); src.ok {
			return []flowSource{src}
		}
		return nil
	}
	var out []flowSource
	for _, alt := range append([]*Expr{e.X}, e.Args...) {
		if src := p.flowSourceOf(c, alt); src.ok {
			out = append(out, src)
		}
	}
	return out
}

// flowSourceOf is where the value of e, evaluated in c, comes from.
func (p *Program) flowSourceOf(c Ctx, e *Expr) flowSource {
	if e == nil {
		return flowSource{}
	}
	switch e.Kind {
	case ExprIdent:
		if slot, ok := p.paramSlot(c, e.Name); ok {
			return flowSource{slot: slot, isSlot: true, ok: true}
		}
		v, _ := p.LookupIdent(c, e.Name)
		return p.valueSource(v)
	case ExprMember, ExprSelf, ExprCall, ExprNew, ExprComposite:
		v, _ := p.Eval(c, e)
		return p.valueSource(v)
	}
	return flowSource{}
}

// valueSource is where a value comes from: the callable, class or
// instance itself, or the variable holding it.
func (p *Program) valueSource(v Value) flowSource {
	switch v.Kind {
	case ValSym:
		s := &p.Syms[v.Sym]
		switch {
		case isVariable(s):
			return flowSource{slot: flowSlot{v.Sym, -1}, isSlot: true, ok: true}
		case s.Kind.IsCallable() && !p.isAccessor(v.Sym), s.Kind.IsType():
			return flowSource{item: flowItem{sym: v.Sym}, ok: true}
		}
	case ValInstance:
		// Only an instance that can be called is worth following.
		if v.Elem == 0 && p.Syms[v.Sym].Kind.IsType() && p.Rules.Features().CallMember != "" {
			return flowSource{item: flowItem{sym: v.Sym, inst: true}, ok: true}
		}
	}
	return flowSource{}
}

// paramSlot is the parameter slot that name denotes at c: a parameter of
// the innermost enclosing callable that declares it, unless that callable
// assigns the name again (then typing follows the assignments).
func (p *Program) paramSlot(c Ctx, name string) (flowSlot, bool) {
	f := c.File
	for scope := c.Scope; scope >= 0; scope = f.Facts.Symbols[scope].Parent {
		s := &f.Facts.Symbols[scope]
		if !s.Kind.IsCallable() {
			continue
		}
		assigned := false
		for _, i := range f.bindings[scopeName{scope, name}] {
			if b := &f.Facts.Bindings[i]; !b.Field && b.Value != nil {
				assigned = true
			}
		}
		for i, prm := range s.Params {
			if prm.Name == name {
				if prm.Variadic || assigned {
					return flowSlot{}, false
				}
				return flowSlot{f.SymOf(scope), int32(i)}, true
			}
		}
		if assigned {
			return flowSlot{}, false
		}
	}
	return flowSlot{}, false
}

// connect records that srcs flow into slot to.
func (fg *flowGraph) connect(srcs []flowSource, to flowSlot) {
	for _, src := range srcs {
		switch {
		case !src.ok:
		case src.isSlot:
			if src.slot != to {
				fg.succ[src.slot] = append(fg.succ[src.slot], to)
			}
		default:
			fg.merge(to, []flowItem{src.item}, false)
		}
	}
}

// merge adds items (full: too many to name) to what flows into slot to,
// and reports whether that grew.
func (fg *flowGraph) merge(to flowSlot, items []flowItem, full bool) bool {
	if fg.full[to] {
		return false
	}
	if full {
		fg.full[to] = true
		delete(fg.items, to)
		return true
	}
	have := fg.items[to]
	grew := false
	for _, it := range items {
		i := sort.Search(len(have), func(k int) bool { return !have[k].less(it) })
		if i < len(have) && have[i] == it {
			continue
		}
		have = append(have, flowItem{})
		copy(have[i+1:], have[i:])
		have[i] = it
		grew = true
	}
	if len(have) > maxFlowItems {
		fg.full[to] = true
		delete(fg.items, to)
		return true
	}
	if grew {
		fg.items[to] = have
	}
	return grew
}

// propagate passes what flows into each slot on to the slots it flows
// into, in slot order, for at most maxFlowRounds rounds.
func (fg *flowGraph) propagate() {
	from := make([]flowSlot, 0, len(fg.succ))
	for s, to := range fg.succ {
		from = append(from, s)
		sort.Slice(to, func(i, j int) bool { return to[i].less(to[j]) })
	}
	sort.Slice(from, func(i, j int) bool { return from[i].less(from[j]) })
	for round := 0; round < maxFlowRounds; round++ {
		grew := false
		for _, s := range from {
			items, full := fg.items[s], fg.full[s]
			if len(items) == 0 && !full {
				continue
			}
			for _, to := range fg.succ[s] {
				grew = fg.merge(to, items, full) || grew
			}
		}
		if !grew {
			return
		}
	}
}

// flowTargets are the callables a call through slot reaches by value
// flow: the functions that flow in, the constructors of the classes, the
// call members of the instances.
func (p *Program) flowTargets(c Ctx, slot flowSlot, call *Call) []SymID {
	if p.flow == nil || p.flow.full[slot] {
		return nil
	}
	var out []SymID
	seen := map[SymID]bool{}
	add := func(ids ...SymID) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	feat := p.Rules.Features()
	for _, it := range p.flow.items[slot] {
		s := &p.Syms[it.sym]
		switch {
		case it.inst:
			if feat.CallMember != "" {
				ids, _ := p.FindMember(it.sym, feat.CallMember)
				for _, id := range ids {
					if p.Syms[id].Kind.IsCallable() {
						add(id)
					}
				}
			}
		case s.Kind.IsCallable():
			add(it.sym)
		case s.Kind.IsType() && feat.TypeCallConstructs:
			add(p.constructors(c, it.sym, call)...)
		}
	}
	return out
}

// flowCall resolves a call whose callee e typing left without targets
// through the slot e names, if any.
func (p *Program) flowCall(c Ctx, e *Expr, v Value, call *Call) callResolution {
	if p.flow == nil {
		return callResolution{}
	}
	slot, ok := flowSlot{}, false
	if e.Kind == ExprIdent {
		slot, ok = p.paramSlot(c, e.Name)
	}
	if !ok && v.Kind == ValSym && isVariable(&p.Syms[v.Sym]) &&
		(p.Syms[v.Sym].Parent >= 0 || p.Rules.Features().FollowFunctionVariables) {
		// A package-level variable is a slot only where such variables
		// are not there to be swapped (FollowFunctionVariables).
		slot, ok = flowSlot{v.Sym, -1}, true
	}
	if !ok {
		return callResolution{}
	}
	targets := p.flowTargets(c, slot, call)
	if len(targets) == 0 {
		return callResolution{}
	}
	return callResolution{targets: targets, reason: graph.ReasonValueFlow, recv: NoSym}
}

// callInstance resolves calling v when it is, or a variable holds, an
// instance of a class that declares or inherits the call member
// (Features.CallMember): the call runs that member.
func (p *Program) callInstance(c Ctx, v Value, call *Call) (callResolution, bool) {
	cm := p.Rules.Features().CallMember
	if cm == "" || call.Bare {
		return callResolution{}, false
	}
	inst := v
	if v.Kind == ValSym && isVariable(&p.Syms[v.Sym]) {
		inst = p.ValueOf(v.Sym)
	}
	if inst.Kind != ValInstance || inst.Elem != 0 || !p.Syms[inst.Sym].Kind.IsType() {
		return callResolution{}, false
	}
	ids, depth := p.FindMember(inst.Sym, cm)
	var callables []SymID
	for _, id := range ids {
		if p.Syms[id].Kind.IsCallable() {
			callables = append(callables, id)
		}
	}
	if len(callables) == 0 {
		return callResolution{}, false
	}
	r := graph.ReasonReceiverTyped
	if depth > 0 {
		r = graph.ReasonInherited
	}
	return callResolution{targets: p.pickOverload(c, callables, call), reason: r,
		dispatch: !inst.Exact, recv: inst.Sym}, true
}
