package lang

import (
	"gitnexus.dev/gitnexus/internal/graph"
)

// The evaluator types expressions well enough to resolve calls: it follows
// names through local bindings, enclosing scopes, imports and packages, and
// members through declared types, initializers and results of resolved
// calls. It never guesses: what it cannot type is ValNone, and what comes
// from outside the repository is ValExternal, so that no name-only fallback
// is tried for it.

// ValueKind is what an expression evaluates to.
type ValueKind uint8

// Value kinds.
const (
	ValNone     ValueKind = iota // not known
	ValSym                       // a symbol itself: callable, type, variable, constant, property
	ValInstance                  // an instance of the type Sym
	ValModule                    // a module, package or namespace
	ValExternal                  // something from outside the repository
)

// Value is the result of evaluating an expression.
type Value struct {
	Kind ValueKind
	Sym  SymID
	Mod  *Module
	// Elem is the container depth: 0 for an instance of Sym, 1 for a
	// slice, list, map or channel of them, 2 for a slice of slices...
	Elem uint8
	// Ext, for a ValExternal, names what outside the repository the
	// value is when the rules know it: an interface (an instance of it,
	// Elem deep) or a package to find interfaces in (external.go); 0 for
	// anything else.
	Ext int32
	// Alts are further candidates of the same name (overloads).
	Alts []SymID
	// Exact: an instance of exactly Sym, not of a subtype (the value of a
	// construction), so calls on it do not dispatch to overrides.
	Exact bool
}

var (
	none     = Value{Kind: ValNone, Sym: NoSym}
	external = Value{Kind: ValExternal, Sym: NoSym}
)

// None is the unknown value.
func None() Value { return none }

// External is the value of anything outside the repository.
func External() Value { return external }

// SymValue is the value of a symbol used by name.
func SymValue(id SymID) Value { return Value{Kind: ValSym, Sym: id} }

// SymsValue is the value of several same-named symbols (overloads): the
// first, with the rest as alternatives.
func SymsValue(ids []SymID) Value {
	if len(ids) == 0 {
		return none
	}
	v := Value{Kind: ValSym, Sym: ids[0]}
	if len(ids) > 1 {
		v.Alts = ids[1:]
	}
	return v
}

// ModuleValue is the value of a module.
func ModuleValue(m *Module) Value {
	if m == nil {
		return none
	}
	return Value{Kind: ValModule, Sym: NoSym, Mod: m}
}

// Known reports whether the value is anything but ValNone.
func (v Value) Known() bool { return v.Kind != ValNone }

// Ctx is where an expression is evaluated: a file, the local index of the
// innermost enclosing symbol (-1 at file level) and a byte offset.
type Ctx struct {
	File  *File
	Scope int
	Pos   uint32
	depth int
	// types: the name is used as a type, so local bindings and parameters
	// (values) do not hide it.
	types bool
	// called: the name is the callee of a call (`f()`), set only for the
	// lookup of that name; see Features.MethodNamespace.
	called bool
}

const maxDepth = 24

// At returns a context elsewhere (another file or scope) that keeps the
// evaluation depth, so that rules following declarations from one to the
// next (type parameters to their constraints) stay bounded.
func (c *Ctx) At(f *File, scope int, pos uint32) Ctx {
	return Ctx{File: f, Scope: scope, Pos: pos, depth: c.depth + 1}
}

// TypesOnly reports whether the name being looked up is used as a type.
func (c *Ctx) TypesOnly() bool { return c.types }

// Called reports whether the name being looked up is called (`f()`), so
// that rules of languages with a separate method namespace look up methods
// only.
func (c *Ctx) Called() bool { return c.called }

// Eval evaluates e in c. The reason says how the last step was resolved.
func (p *Program) Eval(c Ctx, e *Expr) (Value, graph.Reason) {
	if e == nil || c.depth > maxDepth {
		return none, ""
	}
	c.depth++
	c.called = false
	switch e.Kind {
	case ExprIdent:
		return p.LookupIdent(c, e.Name)
	case ExprMember:
		if e.X.Kind == ExprSuper && p.Rules.Features().LinearSuper {
			return p.superMember(c, e.Name)
		}
		base, why := p.Eval(c, e.X)
		v, r := p.Member(c, base, e.Name, e.X.Kind == ExprSelf || e.X.Kind == ExprSuper)
		if base.Kind == ValModule && v.Known() && why != "" {
			r = why
			if r == graph.ReasonSameFile || r == graph.ReasonSamePackage {
				r = graph.ReasonImportResolved
			}
		}
		return v, r
	case ExprCall:
		return p.callValue(c, e, 0), ""
	case ExprNew, ExprComposite:
		v := p.ResolveType(c, e.Name)
		v.Exact = v.Kind == ValInstance && v.Elem == 0
		return v, ""
	case ExprTypeAssert:
		return p.ResolveType(c, e.Name), ""
	case ExprSelf:
		if t := p.EnclosingType(c.File, c.Scope); t != NoSym {
			return Value{Kind: ValInstance, Sym: t}, graph.ReasonSelfReceiver
		}
		return none, ""
	case ExprSuper:
		if t := p.EnclosingType(c.File, c.Scope); t != NoSym {
			for _, b := range p.bases(t) {
				if b.kind == BaseExtends || b.kind == BaseEmbedded {
					return Value{Kind: ValInstance, Sym: b.sym}, graph.ReasonSelfReceiver
				}
			}
			// No base class in the repository: super is a class outside
			// it (a library class, Java's Object, Python's object).
			return external, ""
		}
		return none, ""
	case ExprLiteral:
		// A literal is a value of a builtin type; a null says nothing
		// (`self.conn = None` in a constructor, assigned for real later).
		if e.Name == "null" || e.Name == "nil" {
			return none, ""
		}
		return external, ""
	case ExprIndex:
		v, r := p.Eval(c, e.X)
		v = p.held(v)
		switch {
		case v.Kind == ValInstance && v.Elem > 0:
			return Value{Kind: ValInstance, Sym: v.Sym, Elem: v.Elem - 1}, r
		case v.Kind == ValSym && p.Syms[v.Sym].Kind.IsCallable():
			return v, r // a generic function instantiated: F[int]
		case v.Kind == ValExternal:
			return elementOf(v), r
		}
		return none, ""
	case ExprAwait:
		return p.Eval(c, e.X)
	}
	return none, ""
}

// LookupIdent resolves an unqualified name at c: local bindings and
// parameters of the enclosing callables, symbols nested in enclosing
// scopes, then the language's rules (file, imports, package, wildcards).
func (p *Program) LookupIdent(c Ctx, name string) (Value, graph.Reason) {
	f := c.File
	if c.called && p.Rules.Features().MethodNamespace {
		return p.Rules.Lookup(p, &c, name)
	}
	for scope := c.Scope; ; {
		if !c.types {
			if v, r, ok := p.localBinding(c, scope, name); ok {
				return v, r
			}
		}
		if scope < 0 {
			break
		}
		s := &f.Facts.Symbols[scope]
		if !c.types {
			for _, prm := range s.Params {
				if prm.Name == name {
					if c.called && p.Rules.Features().CalledParamsTyped && len(p.Rules.ParseType(prm.Type).Path) > 0 {
						continue
					}
					if v, r := p.injectedParam(f, scope, prm); v.Known() {
						return v, r
					}
					return p.paramValue(f, scope, prm), graph.ReasonSameFile
				}
			}
		}
		// Symbols nested in an enclosing callable (Python inner functions,
		// local classes) are visible by name.
		if s.Kind.IsCallable() || (!s.Kind.IsType() && p.Rules.Features().NearestLocal) {
			if ids := p.Syms[f.SymOf(scope)].members[name]; len(ids) > 0 {
				if len(ids) > 1 && p.Rules.Features().NearestLocal {
					ids = p.nearestDeclared(ids, c.Pos)
				}
				return SymsValue(ids), graph.ReasonSameFile
			}
		}
		if s.Kind.IsType() && s.Parent >= 0 && p.Rules.Features().NearestLocal {
			// A local class's members (and its supertypes') hide the
			// names of the code around the class.
			ids, _ := p.FindMember(f.SymOf(scope), name)
			if c.types {
				// A written type names a type (`new ~(a, b)` in a class
				// with a method named ~).
				ids = p.typesOf(ids)
			}
			if len(ids) > 0 && p.Syms[ids[0]].Kind != graph.KindConstructor {
				return SymsValue(ids), graph.ReasonSelfReceiver
			}
		}
		scope = s.Parent
	}
	return p.Rules.Lookup(p, &c, name)
}

// nearestDeclared keeps, of several symbols of one name nested in the
// same callable (Features.NearestLocal), the one whose declaration
// encloses pos, else the one declared nearest to pos.
func (p *Program) nearestDeclared(ids []SymID, pos uint32) []SymID {
	best, bestDist := NoSym, ^uint32(0)
	for _, id := range ids {
		s := p.Syms[id].Symbol
		var dist uint32
		switch {
		case s.Contains(pos):
			dist = 0
		case pos < s.StartByte:
			dist = s.StartByte - pos
		default:
			dist = pos - s.EndByte
		}
		if dist < bestDist {
			best, bestDist = id, dist
		}
	}
	return []SymID{best}
}

// localBinding finds the binding of name in exactly this scope that is
// visible at c.Pos and starts last. A parameter's binding without a type
// holds what the rules inject into it (ParamInjector), found for their
// reason; any other binding is same-file.
func (p *Program) localBinding(c Ctx, scope int, name string) (Value, graph.Reason, bool) {
	f := c.File
	idx := f.bindings[scopeName{scope, name}]
	best := -1
	for _, i := range idx {
		b := &f.Facts.Bindings[i]
		if b.Field || b.Byte > c.Pos || (b.End != 0 && c.Pos >= b.End) {
			continue
		}
		if best < 0 || b.Byte >= f.Facts.Bindings[best].Byte {
			best = i
		}
	}
	if best < 0 {
		// A binding that starts after the use (flow-insensitive languages,
		// or a use in a closure defined before the assignment) still
		// names a local: prefer it over globals only in callable scopes.
		if scope >= 0 && len(idx) > 0 && !p.Rules.Features().OrderedBindings {
			for _, i := range idx {
				if !f.Facts.Bindings[i].Field {
					return p.bindingValue(c, i), graph.ReasonSameFile, true
				}
			}
		}
		return none, "", false
	}
	if b := &f.Facts.Bindings[best]; scope >= 0 && b.Type == "" && b.Value == nil && !b.Elem {
		for _, prm := range f.Facts.Symbols[scope].Params {
			if prm.Name == name {
				if v, r := p.injectedParam(f, scope, prm); v.Known() {
					return v, r, true
				}
				break
			}
		}
	}
	return p.bindingValue(c, best), graph.ReasonSameFile, true
}

// injectedParam is what the rules inject into parameter prm of local
// symbol scope of f when it declares no type (ParamInjector), else none.
func (p *Program) injectedParam(f *File, scope int, prm Param) (Value, graph.Reason) {
	pi, ok := p.Rules.(ParamInjector)
	if !ok || prm.Type != "" {
		return none, ""
	}
	return pi.InjectedParam(p, f, scope, prm)
}

func (p *Program) bindingValue(c Ctx, i int) Value {
	b := &c.File.Facts.Bindings[i]
	// Evaluate the value where it is written: just before the binding
	// becomes visible, so that `x = x.next()` sees the previous x. A
	// binding visible in its whole scope is evaluated at the use.
	k := bindKey{file: c.File, idx: i}
	pos := b.Byte - 1
	if b.Byte == 0 {
		pos, k.pos = c.Pos, c.Pos
	}
	if v, ok := p.bindMemo.Cached(p, k); ok {
		return v
	}
	mark, ok := p.bindMemo.Enter(p, k)
	if !ok {
		return none // `x = x.next()` reaching itself
	}
	bc := Ctx{File: c.File, Scope: b.Scope, Pos: pos}
	var v Value
	if b.Type != "" {
		v = p.ResolveType(bc, b.Type)
	}
	if !v.Known() && b.Value != nil {
		if b.Value.Kind == ExprCall {
			v = p.callValue(bc, b.Value, b.Index)
		} else {
			v, _ = p.Eval(bc, b.Value)
		}
		if b.Elem {
			v = elementOf(p.held(v))
		}
	}
	p.bindMemo.Leave(p, k, mark, v, true)
	return v
}

// held is the value a variable, constant or property holds when v is one,
// else v: what `for x in self.items` iterates over.
func (p *Program) held(v Value) Value {
	if v.Kind == ValSym {
		switch p.Syms[v.Sym].Kind {
		case graph.KindVariable, graph.KindConst, graph.KindProperty:
			return p.ValueOf(v.Sym)
		}
		if p.isAccessor(v.Sym) {
			return p.CallResult(Ctx{File: p.Syms[v.Sym].File, Scope: p.Syms[v.Sym].Parent}, v, 0)
		}
	}
	return v
}

func elementOf(v Value) Value {
	switch {
	case v.Kind == ValInstance && v.Elem > 0:
		return Value{Kind: ValInstance, Sym: v.Sym, Elem: v.Elem - 1}
	case v.Kind == ValExternal && v.Ext != 0 && v.Elem > 0:
		return Value{Kind: ValExternal, Sym: NoSym, Ext: v.Ext, Elem: v.Elem - 1}
	case v.Kind == ValExternal:
		return external
	}
	return none
}

func (p *Program) paramValue(f *File, scope int, prm Param) Value {
	if prm.Type == "" {
		return none
	}
	v := p.ResolveType(Ctx{File: f, Scope: scope, Pos: f.Facts.Symbols[scope].StartByte}, prm.Type)
	if prm.Variadic && v.Kind == ValInstance && p.Rules.Features().RepeatedIsSequence {
		v.Elem++
	}
	return v
}

// EnclosingType returns the type symbol that encloses local symbol scope
// (the scope itself when it is a type), following Go receivers (a Go
// method's owner is its receiver's type).
func (p *Program) EnclosingType(f *File, scope int) SymID {
	for scope >= 0 {
		s := &f.Facts.Symbols[scope]
		if s.Kind.IsType() {
			return f.SymOf(scope)
		}
		if owner := p.Syms[f.SymOf(scope)].owner; owner != NoSym {
			return owner
		}
		scope = s.Parent
	}
	return NoSym
}

// ResolveType resolves a written type in context c to an instance value.
func (p *Program) ResolveType(c Ctx, text string) Value {
	if text == "" || c.depth > maxDepth {
		return none
	}
	te := p.Rules.ParseType(text)
	if len(te.Union) > 0 {
		return p.resolveUnion(c, te.Union)
	}
	return p.resolveTypeExpr(c, te)
}

// resolveUnion resolves a union of types to the nearest type every
// alternative is or extends (the first of the first one's method
// resolution order that all the others' orders hold): a call through
// `ValidationContext | SDLValidationContext` reaches a method their shared
// base declares. Alternatives that are not repository types, or share no
// type, leave the union unknown.
func (p *Program) resolveUnion(c Ctx, alts []TypeExpr) Value {
	var common []SymID
	for i, te := range alts {
		v := p.resolveTypeExpr(c, te)
		if v.Kind != ValInstance || v.Elem != 0 {
			return none
		}
		if i == 0 {
			common = append([]SymID(nil), p.MRO(v.Sym)...)
			continue
		}
		in := map[SymID]bool{}
		for _, s := range p.MRO(v.Sym) {
			in[s] = true
		}
		kept := common[:0]
		for _, s := range common {
			if in[s] {
				kept = append(kept, s)
			}
		}
		if common = kept; len(common) == 0 {
			return none
		}
	}
	if len(common) == 0 {
		return none
	}
	return Value{Kind: ValInstance, Sym: common[0]}
}

// resolveTypeExpr resolves a parsed type that is not a union.
func (p *Program) resolveTypeExpr(c Ctx, te TypeExpr) Value {
	if len(te.Path) == 0 || c.depth > maxDepth {
		return none
	}
	c.depth++
	c.types = true
	c.called = false
	v, _ := p.LookupIdent(c, te.Path[0])
	for _, part := range te.Path[1:] {
		switch v.Kind {
		case ValModule:
			v = p.Rules.Export(p, v.Mod, part)
		case ValSym:
			if p.Syms[v.Sym].Kind.IsType() {
				v = SymsValue(p.Syms[v.Sym].members[part])
			} else {
				v = none
			}
		case ValExternal:
			v = p.externalMember(v, part)
		default:
			return none
		}
	}
	switch v.Kind {
	case ValSym:
		s := &p.Syms[v.Sym]
		if !s.Kind.IsType() {
			return none
		}
		if s.Kind == graph.KindTypeAlias && s.Type != "" && len(s.members) == 0 {
			// Follow aliases that declare nothing of their own.
			if p.aliases[v.Sym] {
				p.Cut() // an alias of itself
			} else {
				p.aliases[v.Sym] = true
				av := p.ResolveType(Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte, depth: c.depth}, s.Type)
				delete(p.aliases, v.Sym)
				if av.Known() {
					av.Elem += te.Elem
					return av
				}
			}
		}
		return Value{Kind: ValInstance, Sym: v.Sym, Elem: te.Elem}
	case ValExternal:
		if v.Ext != 0 && p.ext[v.Ext-1].isType {
			return Value{Kind: ValExternal, Sym: NoSym, Ext: v.Ext, Elem: te.Elem}
		}
		return external
	}
	return none
}

// Member looks name up on the value base. viaSelf says the receiver was
// self/this/super. The reason reflects how the member was found.
func (p *Program) Member(c Ctx, base Value, name string, viaSelf bool) (Value, graph.Reason) {
	if c.depth > maxDepth {
		return none, "" // variables holding each other: `x = y; y = x`
	}
	c.depth++
	switch base.Kind {
	case ValModule:
		return p.Rules.Export(p, base.Mod, name), graph.ReasonImportResolved
	case ValExternal:
		return external, ""
	case ValInstance:
		if base.Elem > 0 {
			return none, ""
		}
		ids, depth := p.FindMember(base.Sym, name)
		if p.Rules.Features().InstanceNoStatic {
			ids = p.withoutStatic(ids)
		}
		if len(ids) == 0 {
			if p.hasExternalBase(base.Sym) {
				return external, ""
			}
			return none, ""
		}
		r := graph.ReasonReceiverTyped
		if viaSelf {
			r = graph.ReasonSelfReceiver
		} else if depth > 0 {
			r = graph.ReasonInherited
		}
		return SymsValue(ids), r
	case ValSym:
		s := &p.Syms[base.Sym]
		switch {
		case s.Kind.IsType():
			// Static members, nested types, Python class attributes, Go
			// method expressions.
			ids, depth := p.FindMember(base.Sym, name)
			if len(ids) == 0 {
				return none, ""
			}
			if depth > 0 {
				return SymsValue(ids), graph.ReasonInherited
			}
			return SymsValue(ids), graph.ReasonReceiverTyped
		case s.Kind == graph.KindVariable || s.Kind == graph.KindConst || s.Kind == graph.KindProperty:
			return p.Member(c, p.ValueOf(base.Sym), name, false)
		case p.isAccessor(base.Sym):
			return p.Member(c, p.CallResult(c, base, 0), name, false)
		case s.Kind.IsCallable() && p.Rules.Features().MethodNamespace:
			// A name that is both a method and a field (Java) used as a
			// value: the field.
			if v := p.narrow(base, isVariable); v.Known() {
				return p.Member(c, v, name, viaSelf)
			}
		}
	}
	return none, ""
}

// typesOf keeps the types of ids.
func (p *Program) typesOf(ids []SymID) []SymID {
	var out []SymID
	for _, id := range ids {
		if p.Syms[id].Kind.IsType() {
			out = append(out, id)
		}
	}
	return out
}

// withoutStatic drops the static members of ids, extension methods
// (static, with a receiver) apart.
func (p *Program) withoutStatic(ids []SymID) []SymID {
	var out []SymID
	for _, id := range ids {
		if s := &p.Syms[id]; !s.Static || s.Receiver != "" {
			out = append(out, id)
		}
	}
	return out
}

// isAccessor reports whether reading the callable id as an attribute runs
// it (Accessors).
func (p *Program) isAccessor(id SymID) bool {
	s := p.Syms[id].Symbol
	if !s.Kind.IsCallable() {
		return false
	}
	if s.Getter {
		return true
	}
	a, ok := p.Rules.(Accessors)
	return ok && a.IsAccessor(s)
}

// FindMember finds members named name on type t or, breadth first, on its
// bases (inheritance and Go embedding). depth is 0 for own members.
func (p *Program) FindMember(t SymID, name string) ([]SymID, int) {
	if ov, ok := p.Rules.(Overloading); ok {
		return ov.LookupMember(p, t, name)
	}
	if p.Rules.Features().LinearMRO {
		for i, c := range p.MRO(t) {
			if ids := p.Syms[c].members[name]; len(ids) > 0 {
				return ids, i
			}
		}
		return nil, 0
	}
	return p.NearestMembers(t, name)
}

// hasExternalBase reports whether t has a declared base that did not
// resolve inside the repository (a member missing on t may live there).
func (p *Program) hasExternalBase(t SymID) bool {
	s := &p.Syms[t]
	return len(s.Bases) > len(p.bases(t))
}

func (p *Program) bases(t SymID) []baseRef { return p.Syms[t].bases }

// ValueOf returns the value held by a variable, constant or property symbol:
// an instance of its declared type, or what its initializer evaluates to.
func (p *Program) ValueOf(id SymID) Value {
	if v, ok := p.typeMemo.Cached(p, id); ok {
		return v
	}
	mark, ok := p.typeMemo.Enter(p, id)
	if !ok {
		return none
	}
	s := &p.Syms[id]
	c := Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
	v := none
	if s.Type != "" {
		v = p.ResolveType(c, s.Type)
	}
	if !v.Known() && s.Value != nil {
		if s.Value.Kind == ExprCall {
			v = p.callValue(c, s.Value, 0)
		} else {
			v, _ = p.Eval(c, s.Value)
		}
	}
	if !v.Known() {
		// Python `self.x = Foo()` assignments recorded as field bindings.
		v = p.fieldBindingValue(s)
	}
	p.typeMemo.Leave(p, id, mark, v, true)
	return v
}

// fieldBindingValue types a property from `self.name = value` bindings in
// its class's methods.
func (p *Program) fieldBindingValue(s *Sym) Value {
	if s.Kind != graph.KindProperty || s.Parent < 0 {
		return none
	}
	f := s.File
	for i := range f.Facts.Bindings {
		b := &f.Facts.Bindings[i]
		if !b.Field || b.Name != s.Name || b.Scope < 0 {
			continue
		}
		if p.EnclosingType(f, b.Scope) != f.SymOf(s.Parent) {
			continue
		}
		c := Ctx{File: f, Scope: b.Scope, Pos: b.Byte}
		var v Value
		if b.Type != "" {
			v = p.ResolveType(c, b.Type)
		}
		if !v.Known() && b.Value != nil {
			if b.Value.Kind == ExprCall {
				v = p.callValue(c, b.Value, b.Index)
			} else {
				v, _ = p.Eval(c, b.Value)
			}
			if b.Elem {
				v = elementOf(p.held(v))
			}
		}
		if v.Known() {
			return v
		}
	}
	return none
}

// CallResult is the value of calling callee; index selects one result of a
// multi-valued Go call.
func (p *Program) CallResult(c Ctx, callee Value, index int) Value {
	if callee.Kind == ValSym && !p.Syms[callee.Sym].Kind.IsCallable() && p.Rules.Features().MethodNamespace {
		// A name that is both a field and a method (Java) called: the method.
		if v := p.narrow(callee, isCallable); v.Known() {
			callee = v
		}
	}
	switch callee.Kind {
	case ValExternal:
		return external
	case ValSym:
		s := &p.Syms[callee.Sym]
		switch {
		case s.Kind.IsCallable():
			if s.Kind == graph.KindConstructor {
				if t := p.EnclosingType(s.File, s.Parent); t != NoSym {
					return Value{Kind: ValInstance, Sym: t, Exact: true}
				}
			}
			return p.resultOf(callee.Sym, index)
		case s.Kind.IsType():
			return Value{Kind: ValInstance, Sym: callee.Sym, Exact: true}
		case s.Kind == graph.KindVariable || s.Kind == graph.KindConst || s.Kind == graph.KindProperty:
			inner := p.ValueOf(callee.Sym)
			if inner.Kind == ValSym && (p.Syms[inner.Sym].Kind.IsCallable() ||
				p.Syms[inner.Sym].Kind.IsType() && p.Rules.Features().TypeCallConstructs) {
				return p.CallResult(c, inner, index)
			}
		}
	}
	return none
}

func (p *Program) resultOf(fn SymID, index int) Value {
	s := &p.Syms[fn]
	if index >= len(s.Returns) {
		if index == 0 && len(s.Returns) == 0 && s.Value != nil {
			// A returned expression recorded by the extractor for
			// languages without declared result types.
			if v, ok := p.retMemo.Cached(p, fn); ok {
				return v
			}
			mark, ok := p.retMemo.Enter(p, fn)
			if !ok {
				return none
			}
			c := Ctx{File: s.File, Scope: s.Local, Pos: s.EndByte}
			var v Value
			if s.Value.Kind == ExprCall {
				v = p.callValue(c, s.Value, 0)
			} else {
				v, _ = p.Eval(c, s.Value)
			}
			p.retMemo.Leave(p, fn, mark, v, true)
			return v
		}
		return none
	}
	if index != 0 {
		return p.ResolveType(Ctx{File: s.File, Scope: s.Local, Pos: s.StartByte}, s.Returns[index])
	}
	if v, ok := p.retMemo.Cached(p, fn); ok {
		return v
	}
	mark, ok := p.retMemo.Enter(p, fn)
	if !ok {
		return none
	}
	v := p.ResolveType(Ctx{File: s.File, Scope: s.Local, Pos: s.StartByte}, s.Returns[index])
	p.retMemo.Leave(p, fn, mark, v, true)
	return v
}

// callValue is the value of the call expression e (ExprCall): its callee is
// evaluated as called, the overload is chosen by the recorded arguments when
// the rules implement Overloading, and index selects one result.
func (p *Program) callValue(c Ctx, e *Expr, index int) Value {
	var callee Value
	if e.X != nil && e.X.Kind == ExprIdent {
		cc := c
		cc.depth++
		cc.called = true
		callee, _ = p.LookupIdent(cc, e.X.Name)
	} else {
		callee, _ = p.Eval(c, e.X)
	}
	if ov, ok := p.Rules.(Overloading); ok && callee.Kind == ValSym {
		if v := p.narrow(callee, isCallable); v.Known() {
			if picked := ov.SelectOverload(p, c, append([]SymID{v.Sym}, v.Alts...), e.Args); len(picked) > 0 {
				callee = SymsValue(picked)
			}
		}
	}
	return p.CallResult(c, callee, index)
}

func isCallable(s *Sym) bool { return s.Kind.IsCallable() }

func isVariable(s *Sym) bool {
	return s.Kind == graph.KindVariable || s.Kind == graph.KindConst || s.Kind == graph.KindProperty
}

// narrow keeps the candidates of a symbol value (the symbol and its
// alternatives) that keep accepts; ValNone when none does. One name may
// denote a field and methods at once in languages with a separate method
// namespace (Features.MethodNamespace, Java), and the use decides which is
// meant.
func (p *Program) narrow(v Value, keep func(*Sym) bool) Value {
	if v.Kind != ValSym {
		return none
	}
	var ids []SymID
	for _, id := range append([]SymID{v.Sym}, v.Alts...) {
		if keep(&p.Syms[id]) {
			ids = append(ids, id)
		}
	}
	return SymsValue(ids)
}
