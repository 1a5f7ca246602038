package lang

import (
	"gitnexus.dev/gitnexus/internal/graph"
)

// ResolveStats counts what resolution did, for the summary and the report.
type ResolveStats struct {
	Calls           int // call sites seen
	CallsResolved   int // call sites linked to at least one target
	CallsNameOnly   int // call sites linked by name only
	CallsUnresolved int // call sites dropped
	Macros          int // macro invocations, never calls (FileFacts.Macros)
}

// Resolve links the program and adds its symbols and relations to g: symbol
// nodes, Package nodes, structural edges, IMPORTS, EXTENDS/IMPLEMENTS,
// CALLS and REFERENCES. File nodes must already be in g.
func (p *Program) Resolve(g *graph.Graph) ResolveStats {
	return p.ResolveOnly(g, nil)
}

// ResolveOnly is Resolve with the CALLS and REFERENCES of the files keep
// accepts only (all files when keep is nil). A file's edges do not depend
// on which other files are resolved (memo.go).
func (p *Program) ResolveOnly(g *graph.Graph, keep func(path string) bool) ResolveStats {
	return p.ResolveEach(g, keep, nil)
}

// ResolveEach is ResolveOnly that also gives each resolved file's own
// counts to each, when set.
func (p *Program) ResolveEach(g *graph.Graph, keep func(path string) bool, each func(path string, st ResolveStats)) ResolveStats {
	p.AddDeclarations(g)
	return p.ResolveFiles(g, keep, each)
}

// AddDeclarations links the program and adds what does not depend on call
// sites to g: symbol nodes, Package nodes, structural edges, IMPORTS,
// EXTENDS/IMPLEMENTS. ResolveFiles then adds the files' CALLS and
// REFERENCES.
func (p *Program) AddDeclarations(g *graph.Graph) {
	p.Rules.Organize(p)
	for _, f := range p.Files {
		p.Rules.BindImports(p, f)
	}
	p.addSymbolNodes(g)
	p.resolveBases(g)
	p.addImplicitBases()
	p.Rules.Link(p, g)
	p.addStructure(g)
	p.buildFlow()
}

// ResolveFiles adds the CALLS and REFERENCES of the files keep accepts (all
// when nil) to g, after AddDeclarations, and gives each file's own counts
// to each, when set. It may run more than once, on other files: a file's
// edges do not depend on which files were resolved before it.
func (p *Program) ResolveFiles(g *graph.Graph, keep func(path string) bool, each func(path string, st ResolveStats)) ResolveStats {
	var total ResolveStats
	for _, f := range p.Files {
		if keep != nil && !keep(f.Facts.Path) {
			continue
		}
		p.round++
		var st ResolveStats
		p.resolveCalls(g, f, &st)
		p.resolveRefs(g, f)
		st.Macros = f.Facts.Macros
		total.Add(st)
		if each != nil {
			each(f.Facts.Path, st)
		}
	}
	return total
}

// Add adds o's counts to s's.
func (s *ResolveStats) Add(o ResolveStats) {
	s.Calls += o.Calls
	s.CallsResolved += o.CallsResolved
	s.CallsNameOnly += o.CallsNameOnly
	s.CallsUnresolved += o.CallsUnresolved
	s.Macros += o.Macros
}

// QualifiedName is a symbol's qualified name including its module's
// qualifier: "http.Server.Serve", "requests.sessions.Session.get".
func (p *Program) QualifiedName(id SymID) string {
	s := &p.Syms[id]
	if m := s.File.Module; m != nil && m.Qualifier != "" {
		return m.Qualifier + "." + s.Qual
	}
	return s.Qual
}

func (p *Program) addSymbolNodes(g *graph.Graph) {
	for i := range p.Syms {
		s := &p.Syms[i]
		if s.Hidden {
			continue
		}
		g.AddNode(graph.Node{
			ID: s.ID, Kind: s.Kind, Name: s.Name, QualifiedName: p.QualifiedName(SymID(i)),
			FilePath: s.File.Facts.Path, StartLine: s.StartLine, EndLine: s.EndLine,
			Signature: s.Signature, Doc: s.Doc, Exported: s.Exported,
			Language: s.File.Facts.Language, Content: s.Content,
		})
	}
	for _, m := range p.SortedModules() {
		if !m.IsPackage {
			continue
		}
		lang := ""
		if len(m.Files) > 0 {
			lang = m.Files[0].Facts.Language
		}
		g.AddNode(graph.Node{ID: m.PackageNodeID(), Kind: graph.KindPackage, Name: m.Name,
			QualifiedName: m.Key, FilePath: m.Dir, Language: lang})
		for _, f := range m.Files {
			g.AddEdge(graph.Edge{Src: m.PackageNodeID(), Dst: graph.FileID(f.Facts.Path), Type: graph.EdgeContains,
				Confidence: graph.ReasonPackageMember.Confidence(), Reason: graph.ReasonPackageMember})
		}
	}
}

// resolveBases resolves the supertypes written on each type declaration.
func (p *Program) resolveBases(g *graph.Graph) {
	for i := range p.Syms {
		s := &p.Syms[i]
		if len(s.Bases) == 0 {
			continue
		}
		c := Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
		for _, b := range s.Bases {
			v := p.ResolveType(c, b.Type)
			if v.Kind == ValExternal && v.Ext != 0 && v.Elem == 0 {
				// An interface outside the repository: its methods are
				// the type's, and a type that names it as a supertype
				// (not by embedding) implements it.
				s.extBases = append(s.extBases, v.Ext)
				s.extEmbedded = append(s.extEmbedded, b.Kind == BaseEmbedded)
				if b.Kind != BaseEmbedded {
					p.AddExternalSubtype(SymID(i), v.Ext)
				}
				continue
			}
			if v.Kind != ValInstance || v.Elem > 0 || v.Sym == SymID(i) {
				continue
			}
			kind := b.Kind
			if kind == BaseExtends && p.Syms[v.Sym].Kind == graph.KindInterface && s.Kind != graph.KindInterface {
				// A class "extending" an interface implements it: a Java
				// anonymous class names one supertype, class or interface.
				kind = BaseImplements
			}
			s.bases = append(s.bases, baseRef{sym: v.Sym, kind: kind})
			if kind != BaseEmbedded {
				// Embedding promotes members but is not subtyping: a call
				// on the embedded type never dispatches to the embedder.
				p.AddSubtype(SymID(i), v.Sym)
			}
			typ := graph.EdgeExtends
			if kind == BaseImplements {
				typ = graph.EdgeImplements
			}
			g.AddEdge(graph.Edge{Src: s.ID, Dst: p.Syms[v.Sym].ID, Type: typ,
				Confidence: graph.ReasonDeclared.Confidence(), Reason: graph.ReasonDeclared})
		}
	}
}

// addStructure adds DEFINES, HAS_METHOD, HAS_PROPERTY and IMPORTS.
func (p *Program) addStructure(g *graph.Graph) {
	syntax := func(src, dst string, t graph.EdgeType) {
		g.AddEdge(graph.Edge{Src: src, Dst: dst, Type: t, Confidence: 1, Reason: graph.ReasonSyntax})
	}
	// The symbols are grouped by file: each file's id is made once (a
	// concatenation per symbol was 70 ms of the Go standard library's).
	var file *File
	fileID := ""
	for i := range p.Syms {
		s := &p.Syms[i]
		if s.Hidden {
			continue
		}
		if s.File != file {
			file, fileID = s.File, graph.FileID(s.File.Facts.Path)
		}
		if s.Parent < 0 {
			syntax(fileID, s.ID, graph.EdgeDefines)
		} else if parent := &p.Syms[s.File.SymOf(s.Parent)]; !parent.Kind.IsType() {
			// A symbol nested in a function (inner function, local class).
			syntax(parent.ID, s.ID, graph.EdgeDefines)
		}
		if s.owner != NoSym {
			owner := p.Syms[s.owner].ID
			switch {
			case s.Kind.IsCallable():
				syntax(owner, s.ID, graph.EdgeHasMethod)
			case s.Kind == graph.KindProperty || s.Kind == graph.KindConst || s.Kind == graph.KindVariable:
				syntax(owner, s.ID, graph.EdgeHasProperty)
			}
		}
	}
	for _, f := range p.Files {
		src := graph.FileID(f.Facts.Path)
		for _, ie := range f.ImportEdges {
			if ie.Target == src {
				continue
			}
			g.AddEdge(graph.Edge{Src: src, Dst: ie.Target, Type: graph.EdgeImports,
				Confidence: graph.ReasonImportResolved.Confidence(), Reason: graph.ReasonImportResolved, Line: ie.Line})
		}
	}
}

// callerID is the node a call or reference in scope belongs to.
func (p *Program) callerID(f *File, scope int) string {
	if scope < 0 {
		return graph.FileID(f.Facts.Path)
	}
	return p.Syms[f.SymOf(scope)].ID
}

func (p *Program) resolveCalls(g *graph.Graph, f *File, st *ResolveStats) {
	f.Facts.LoadCalls()
	for i := range f.Facts.Calls {
		call := &f.Facts.Calls[i]
		st.Calls++
		res := p.resolveCall(f, call)
		if len(res.targets) == 0 {
			st.CallsUnresolved++
			continue
		}
		st.CallsResolved++
		if res.reason == graph.ReasonNameOnly {
			st.CallsNameOnly++
		}
		src := p.callerID(f, call.Scope)
		for _, t := range res.targets {
			g.AddEdge(graph.Edge{Src: src, Dst: p.Syms[t].ID, Type: graph.EdgeCalls,
				Confidence: res.reason.Confidence(), Reason: res.reason, Line: call.Line})
			// A constructor runs exactly the class constructed: it does
			// not dispatch.
			if !res.dispatch || !p.Syms[t].Kind.IsCallable() || p.Syms[t].Kind == graph.KindConstructor || p.Syms[t].Static {
				continue
			}
			for _, o := range p.OverridesBelow(t, res.recv) {
				g.AddEdge(graph.Edge{Src: src, Dst: p.Syms[o].ID, Type: graph.EdgeCalls,
					Confidence: graph.ReasonDispatch.Confidence(), Reason: graph.ReasonDispatch, Line: call.Line})
			}
		}
	}
}

// callResolution is what a call site reaches.
type callResolution struct {
	targets []SymID
	reason  graph.Reason
	// dispatch: overrides of the targets in subtypes may run instead. It
	// is false for guesses (name-only), calls through super and calls
	// through a class name (`Base.method(self)`), which run exactly the
	// method named.
	dispatch bool
	// recv is the static type of the receiver, NoSym when not known.
	recv SymID
}

// ResolveCall returns the callables (or, for constructions of classes
// without a constructor, the class) a call site reaches, and why.
func (p *Program) ResolveCall(f *File, call *Call) ([]SymID, graph.Reason) {
	res := p.resolveCall(f, call)
	return res.targets, res.reason
}

func (p *Program) resolveCall(f *File, call *Call) callResolution {
	c := Ctx{File: f, Scope: call.Scope, Pos: call.Byte}
	e := call.Callee
	for e != nil && e.Kind == ExprIndex {
		e = e.X // F[int](x)
	}
	if e == nil {
		return callResolution{}
	}
	switch e.Kind {
	case ExprNew:
		v := p.ResolveType(c, e.Name)
		if v.Kind != ValInstance || v.Elem > 0 {
			return callResolution{}
		}
		return callResolution{targets: p.constructors(c, v.Sym, call), reason: p.typeReason(c, e.Name)}
	case ExprSuper:
		t := p.EnclosingType(f, call.Scope)
		if t == NoSym {
			return callResolution{}
		}
		for _, b := range p.bases(t) {
			if b.kind == BaseExtends {
				return callResolution{targets: p.constructors(c, b.sym, call), reason: graph.ReasonSelfReceiver}
			}
		}
		return callResolution{}
	case ExprSelf:
		// Java `this(...)`: another constructor of the same class.
		t := p.EnclosingType(f, call.Scope)
		if t == NoSym || len(p.Syms[t].ctors) == 0 {
			return callResolution{}
		}
		return callResolution{targets: p.constructors(c, t, call), reason: graph.ReasonSelfReceiver}
	case ExprIdent:
		cc := c
		cc.called = true
		v, r := p.LookupIdent(cc, e.Name)
		if v.Kind == ValNone && r == "" && !p.Rules.IsBuiltin(e.Name) {
			targets, r := p.nameOnly(f, e.Name, call.Args)
			return callResolution{targets: targets, reason: r}
		}
		if res, ok := p.callInstance(c, v, call); ok {
			return res
		}
		res := callResolution{targets: p.callTargets(c, v, call), reason: r, dispatch: true, recv: NoSym}
		if len(res.targets) == 0 {
			if fr := p.flowCall(c, e, v, call); len(fr.targets) > 0 {
				return fr
			}
		}
		return res
	case ExprMember:
		if e.X.Kind == ExprSuper && p.Rules.Features().LinearSuper {
			v, r := p.superMember(c, e.Name)
			return callResolution{targets: p.callTargets(c, v, call), reason: r, recv: NoSym}
		}
		base, baseReason := p.Eval(c, e.X)
		base = p.held(base)
		v, r := p.Member(c, base, e.Name, e.X.Kind == ExprSelf || e.X.Kind == ExprSuper)
		if base.Kind == ValModule && baseReason != "" {
			r = graph.ReasonImportResolved
			if baseReason == graph.ReasonSameFile && base.Mod == f.Module {
				r = graph.ReasonSameFile
			}
		}
		if base.Kind == ValNone {
			if bm, ok := p.Rules.(BuiltinMembers); ok && bm.IsBuiltinMember(e.Name) {
				return callResolution{}
			}
			targets, r := p.nameOnly(f, e.Name, call.Args)
			return callResolution{targets: targets, reason: r}
		}
		if e.X.Kind != ExprSuper {
			if res, ok := p.callInstance(c, v, call); ok {
				return res
			}
		}
		res := callResolution{targets: p.callTargets(c, v, call), reason: r, recv: NoSym}
		if len(res.targets) == 0 {
			if fr := p.flowCall(c, e, v, call); len(fr.targets) > 0 {
				return fr
			}
		}
		if len(res.targets) == 0 && base.Kind == ValExternal && base.Ext != 0 && base.Elem == 0 {
			// A method of an interface outside the repository: the
			// repository's types that implement it may run (a type
			// variable's erasure, where the variable is in scope).
			if ext := p.externalAt(f, call.Scope, base.Ext); ext != 0 {
				targets := p.overloadsByOwner(c, p.externalDispatch(ext, e.Name, call.Args), call)
				return callResolution{targets: targets, reason: graph.ReasonDispatchExternal}
			}
		}
		if len(res.targets) == 0 && (v.Kind == ValNone || v.Kind == ValExternal) &&
			base.Kind == ValInstance && base.Elem == 0 && e.X.Kind != ExprSuper {
			// Not declared on the receiver's type in the repository (a
			// hook left to subclasses, or a method of an outside base):
			// the subtypes that declare it may run.
			if below := p.declaredBelow(base.Sym, e.Name, call.Args); len(below) > 0 {
				return callResolution{targets: below, reason: graph.ReasonDispatch}
			}
			// Else, a method promoted from an interface outside the
			// repository that a struct embeds: any implementation of it.
			if ext := p.externalBaseDispatch(base.Sym, e.Name, call.Args); len(ext) > 0 {
				return callResolution{targets: ext, reason: graph.ReasonDispatchExternal}
			}
		}
		switch {
		case len(res.targets) < 2:
		case base.Kind == ValInstance:
			res.targets = p.preferStatic(res.targets, false)
		case base.Kind == ValSym && p.Syms[base.Sym].Kind.IsType():
			res.targets = p.preferStatic(res.targets, true)
		}
		if len(res.targets) > 1 && p.Rules.Features().FirstFit {
			res.targets = res.targets[:1]
		}
		switch {
		case e.X.Kind == ExprSuper:
		case base.Kind == ValInstance && base.Elem == 0:
			// A constructed receiver (`new Foo().run()`) is exactly Foo.
			res.dispatch, res.recv = !base.Exact, base.Sym
		case base.Kind == ValSym && p.Syms[base.Sym].Kind.IsType():
		default:
			res.dispatch = true
		}
		return res
	}
	return callResolution{}
}

// preferStatic keeps, of several targets that fit a call, the static ones
// (static true: the receiver is the type itself) or the instance ones,
// when there are any: `config.load()` calls the instance method load, not
// the static method of the same name.
func (p *Program) preferStatic(targets []SymID, static bool) []SymID {
	var kept []SymID
	for _, t := range targets {
		if p.Syms[t].Static == static {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return targets
	}
	return kept
}

// typeReason is the reason a type name resolved (for constructor calls).
func (p *Program) typeReason(c Ctx, text string) graph.Reason {
	te := p.Rules.ParseType(text)
	if len(te.Path) == 0 {
		return graph.ReasonReceiverTyped
	}
	c.types = true
	_, r := p.LookupIdent(c, te.Path[0])
	if len(te.Path) > 1 || r == "" {
		return graph.ReasonImportResolved
	}
	return r
}

// callTargets turns the value of a callee into call targets.
func (p *Program) callTargets(c Ctx, v Value, call *Call) []SymID {
	if am := p.Rules.Features().ApplyMember; am != "" && !call.Bare {
		// Calling a value runs its apply member (Scala `f(x)` with f an
		// instance of a class that declares apply).
		inst := v
		if v.Kind == ValSym && isVariable(&p.Syms[v.Sym]) {
			inst = p.ValueOf(v.Sym)
		}
		if inst.Kind == ValInstance && inst.Elem == 0 {
			ids, _ := p.FindMember(inst.Sym, am)
			return p.pickOverload(c, ids, call)
		}
	}
	if v.Kind != ValSym {
		return nil
	}
	if !p.Syms[v.Sym].Kind.IsCallable() && p.Rules.Features().MethodNamespace {
		// A name that is both a field and a method (Java): the call means
		// the method.
		if m := p.narrow(v, isCallable); m.Known() {
			v = m
		}
	}
	s := &p.Syms[v.Sym]
	if call.Bare && !s.Kind.IsCallable() {
		return nil // a type, an object or a value read, not called
	}
	switch {
	case s.Kind.IsCallable():
		return p.pickOverload(c, append([]SymID{v.Sym}, v.Alts...), call)
	case s.Kind.IsType():
		if am := p.Rules.Features().ApplyMember; am != "" {
			if fit := p.pickOverload(c, p.staticMembers(v.Sym, am), call); len(fit) > 0 {
				return fit
			}
			if len(p.Syms[v.Sym].ctors) == 0 {
				return nil // an object whose apply, if any, is not in the repository
			}
		}
		if p.Rules.Features().TypeCallConstructs {
			return p.constructors(c, v.Sym, call)
		}
	case s.Kind == graph.KindVariable || s.Kind == graph.KindConst || s.Kind == graph.KindProperty:
		// A variable holding a function: `handler = make_handler()`,
		// `f := s.Handle`; or a class, where calling a type constructs:
		// `factory = Foo`.
		inner := p.ValueOf(v.Sym)
		if inner.Kind == ValSym && p.Syms[inner.Sym].Kind.IsCallable() && p.Rules.Features().FollowFunctionVariables {
			return p.pickOverload(c, append([]SymID{inner.Sym}, inner.Alts...), call)
		}
		if inner.Kind == ValSym && p.Syms[inner.Sym].Kind.IsType() && p.Rules.Features().TypeCallConstructs {
			return p.constructors(c, inner.Sym, call)
		}
	}
	return nil
}

// staticMembers are the own static callables of type t named name.
func (p *Program) staticMembers(t SymID, name string) []SymID {
	var out []SymID
	for _, id := range p.Syms[t].members[name] {
		if s := &p.Syms[id]; s.Static && s.Kind.IsCallable() {
			out = append(out, id)
		}
	}
	return out
}

// superMember finds `super.name` along the linearization
// (Features.LinearSuper): the bases of the enclosing type from the last
// written to the first, each with its own supertypes, and the first that
// declares name wins.
func (p *Program) superMember(c Ctx, name string) (Value, graph.Reason) {
	t := p.EnclosingType(c.File, c.Scope)
	if t == NoSym {
		return none, ""
	}
	bases := p.bases(t)
	for i := len(bases) - 1; i >= 0; i-- {
		if ids, _ := p.FindMember(bases[i].sym, name); len(ids) > 0 {
			return SymsValue(ids), graph.ReasonSelfReceiver
		}
	}
	if p.hasExternalBase(t) {
		return external, ""
	}
	return none, ""
}

// pickOverload keeps the candidates whose parameter count fits; when none
// fits (default and keyword arguments), it keeps them all if there is one.
// Rules that implement Overloading choose instead, by argument types.
func (p *Program) pickOverload(c Ctx, cands []SymID, call *Call) []SymID {
	if ov, ok := p.Rules.(Overloading); ok {
		return ov.SelectOverload(p, c, cands, call.ArgExprs)
	}
	args := call.Args
	if len(cands) <= 1 {
		return cands
	}
	var fit []SymID
	for _, id := range cands {
		if Accepts(p.Syms[id].Symbol, args) {
			fit = append(fit, id)
		}
	}
	if len(fit) == 0 {
		return nil
	}
	return fit
}

// constructors returns the constructors of type t that fit the arguments,
// or t itself when it has none. An interface has no constructor to run: a
// Java anonymous class implementing it calls nothing of it.
func (p *Program) constructors(c Ctx, t SymID, call *Call) []SymID {
	if p.Syms[t].Kind == graph.KindInterface {
		return nil
	}
	ctors := p.Syms[t].ctors
	if len(ctors) == 0 && p.Rules.Features().InheritedConstructors && p.Rules.Features().LinearMRO {
		for _, base := range p.MRO(t)[1:] {
			if ctors = p.Syms[base].ctors; len(ctors) > 0 {
				break
			}
		}
	}
	if len(ctors) == 0 && p.Rules.Features().InheritedConstructors && !p.Rules.Features().LinearMRO {
		for cur, depth := t, 0; depth < 12 && len(ctors) == 0; depth++ {
			next := NoSym
			for _, b := range p.bases(cur) {
				if b.kind == BaseExtends {
					next = b.sym
					break
				}
			}
			if next == NoSym {
				break
			}
			ctors, cur = p.Syms[next].ctors, next
		}
	}
	if len(ctors) == 0 {
		return []SymID{t}
	}
	if fit := p.pickOverload(c, ctors, call); len(fit) > 0 {
		return fit
	}
	if _, ok := p.Rules.(Overloading); ok {
		return nil // the rules found no constructor that fits
	}
	return ctors[:1]
}

// nameOnly links a call that could not be typed to the only callable of
// that name in the program, if there is exactly one that the caller may see.
func (p *Program) nameOnly(f *File, name string, args int) ([]SymID, graph.Reason) {
	if p.Rules.Features().NoNameOnly {
		return nil, ""
	}
	var found SymID = NoSym
	for _, id := range p.byName[name] {
		s := &p.Syms[id]
		if !s.Kind.IsCallable() || s.Abstract {
			continue
		}
		if found != NoSym {
			return nil, ""
		}
		found = id
	}
	if found == NoSym {
		return nil, ""
	}
	s := &p.Syms[found]
	if !s.Exported && s.File.Module != f.Module && p.Rules.Features().UnexportedIsPrivate {
		return nil, ""
	}
	if !Accepts(s.Symbol, args) {
		return nil, ""
	}
	return []SymID{found}, graph.ReasonNameOnly
}

// resolveRefs links callables to the package-level variables and constants
// they read or write, and to static members (Java static fields and
// constants, read through a type or by simple name).
func (p *Program) resolveRefs(g *graph.Graph, f *File) {
	for i := range f.Facts.Refs {
		ref := &f.Facts.Refs[i]
		if ref.Scope < 0 || !f.Facts.Symbols[ref.Scope].Kind.IsCallable() {
			continue
		}
		c := Ctx{File: f, Scope: ref.Scope, Pos: 0}
		var v Value
		var r graph.Reason
		switch ref.Expr.Kind {
		case ExprIdent:
			c.Pos = ^uint32(0) >> 1
			v, r = p.LookupIdent(c, ref.Expr.Name)
		case ExprMember:
			base, _ := p.Eval(c, ref.Expr.X)
			switch {
			case base.Kind == ValModule:
				v, r = p.Rules.Export(p, base.Mod, ref.Expr.Name), graph.ReasonImportResolved
			case base.Kind == ValSym && p.Syms[base.Sym].Kind.IsType():
				v, r = p.Member(c, base, ref.Expr.Name, false)
			default:
				continue
			}
		default:
			continue
		}
		// Variables and constants only (a Java name may also be a method).
		v = p.narrow(v, isVariable)
		if !v.Known() {
			continue
		}
		s := &p.Syms[v.Sym]
		switch {
		case s.Parent < 0 && (s.Kind == graph.KindVariable || s.Kind == graph.KindConst):
		case s.Parent >= 0 && s.Static && isVariable(s) && p.Syms[s.File.SymOf(s.Parent)].Kind.IsType():
		default:
			continue
		}
		if r == "" {
			r = graph.ReasonSameFile
		}
		g.AddEdge(graph.Edge{Src: p.callerID(f, ref.Scope), Dst: s.ID, Type: graph.EdgeReferences,
			Confidence: r.Confidence(), Reason: r, Line: ref.Line})
	}
}
