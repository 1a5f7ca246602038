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
}

// Resolve links the program and adds its symbols and relations to g: symbol
// nodes, Package nodes, structural edges, IMPORTS, EXTENDS/IMPLEMENTS,
// CALLS and REFERENCES. File nodes must already be in g.
func (p *Program) Resolve(g *graph.Graph) ResolveStats {
	p.Rules.Organize(p)
	for _, f := range p.Files {
		p.Rules.BindImports(p, f)
	}
	p.addSymbolNodes(g)
	p.resolveBases(g)
	p.Rules.Link(p, g)
	p.addStructure(g)
	var st ResolveStats
	for _, f := range p.Files {
		p.resolveCalls(g, f, &st)
		p.resolveRefs(g, f)
	}
	return st
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
			if v.Kind != ValInstance || v.Elem || v.Sym == SymID(i) {
				continue
			}
			s.bases = append(s.bases, baseRef{sym: v.Sym, kind: b.Kind})
			if b.Kind != BaseEmbedded {
				// Embedding promotes members but is not subtyping: a call
				// on the embedded type never dispatches to the embedder.
				p.AddSubtype(SymID(i), v.Sym)
			}
			typ := graph.EdgeExtends
			if b.Kind == BaseImplements {
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
	for i := range p.Syms {
		s := &p.Syms[i]
		fileID := graph.FileID(s.File.Facts.Path)
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
	for i := range f.Facts.Calls {
		call := &f.Facts.Calls[i]
		st.Calls++
		targets, reason, exact := p.resolveCall(f, call)
		if len(targets) == 0 {
			st.CallsUnresolved++
			continue
		}
		st.CallsResolved++
		if reason == graph.ReasonNameOnly {
			st.CallsNameOnly++
		}
		src := p.callerID(f, call.Scope)
		virtual := isVirtualCall(call.Callee) && !exact
		recv := NoSym
		if e := call.Callee; e.Kind == ExprMember && e.X != nil && e.X.Kind == ExprSelf {
			recv = p.EnclosingType(f, call.Scope)
		}
		for _, t := range targets {
			g.AddEdge(graph.Edge{Src: src, Dst: p.Syms[t].ID, Type: graph.EdgeCalls,
				Confidence: reason.Confidence(), Reason: reason, Line: call.Line})
			if !virtual || p.Syms[t].Static || p.Syms[t].Kind != graph.KindMethod && p.Syms[t].Kind != graph.KindFunction {
				continue
			}
			for _, o := range p.OverridesFrom(t, recv) {
				g.AddEdge(graph.Edge{Src: src, Dst: p.Syms[o].ID, Type: graph.EdgeCalls,
					Confidence: graph.ReasonDispatch.Confidence(), Reason: graph.ReasonDispatch, Line: call.Line})
			}
		}
	}
}

// isVirtualCall reports whether a call may dispatch to overrides: not a
// construction (`new T()`, `super(...)`), whose constructor is fixed, nor
// a call through `super`, which names the base class's method.
func isVirtualCall(e *Expr) bool {
	for e != nil && e.Kind == ExprIndex {
		e = e.X
	}
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprNew, ExprSuper:
		return false
	case ExprMember:
		return e.X == nil || e.X.Kind != ExprSuper
	}
	return true
}

// ResolveCall returns the callables (or, for constructions of classes
// without a constructor, the class) a call site reaches, and why.
func (p *Program) ResolveCall(f *File, call *Call) ([]SymID, graph.Reason) {
	targets, reason, _ := p.resolveCall(f, call)
	return targets, reason
}

// resolveCall is ResolveCall that also reports whether the receiver's
// type is exact (`new Foo().run()`, `x = Foo(); x.run()`), in which case
// the call does not dispatch to overrides.
func (p *Program) resolveCall(f *File, call *Call) ([]SymID, graph.Reason, bool) {
	c := Ctx{File: f, Scope: call.Scope, Pos: call.Byte}
	e := call.Callee
	for e != nil && e.Kind == ExprIndex {
		e = e.X // F[int](x)
	}
	if e == nil {
		return nil, "", false
	}
	switch e.Kind {
	case ExprNew:
		v := p.ResolveType(c, e.Name)
		if v.Kind != ValInstance || v.Elem {
			return nil, "", false
		}
		return p.constructors(v.Sym, call.Args), p.typeReason(c, e.Name), true
	case ExprSuper:
		t := p.EnclosingType(f, call.Scope)
		if t == NoSym {
			return nil, "", false
		}
		for _, b := range p.bases(t) {
			if b.kind == BaseExtends {
				return p.constructors(b.sym, call.Args), graph.ReasonSelfReceiver, true
			}
		}
		return nil, "", false
	case ExprIdent:
		v, r := p.LookupIdent(c, e.Name)
		if v.Kind == ValNone && r == "" && !p.Rules.IsBuiltin(e.Name) {
			t, r := p.nameOnly(f, e.Name, call.Args)
			return t, r, false
		}
		return p.callTargets(c, v, call.Args), r, false
	case ExprMember:
		base, baseReason := p.Eval(c, e.X)
		v, r := p.Member(c, base, e.Name, e.X.Kind == ExprSelf || e.X.Kind == ExprSuper)
		if base.Kind == ValModule && baseReason != "" {
			r = graph.ReasonImportResolved
			if baseReason == graph.ReasonSameFile && base.Mod == f.Module {
				r = graph.ReasonSameFile
			}
		}
		if base.Kind == ValNone {
			t, r := p.nameOnly(f, e.Name, call.Args)
			return t, r, false
		}
		targets := p.callTargets(c, v, call.Args)
		switch {
		case len(targets) < 2:
		case base.Kind == ValInstance:
			targets = p.preferStatic(targets, false)
		case base.Kind == ValSym && p.Syms[base.Sym].Kind.IsType():
			targets = p.preferStatic(targets, true)
		}
		return targets, r, base.Kind == ValInstance && base.Exact
	}
	return nil, "", false
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
func (p *Program) callTargets(c Ctx, v Value, args int) []SymID {
	if v.Kind != ValSym {
		return nil
	}
	s := &p.Syms[v.Sym]
	switch {
	case s.Kind.IsCallable():
		return p.pickOverload(append([]SymID{v.Sym}, v.Alts...), args)
	case s.Kind.IsType():
		if p.Rules.Features().TypeCallConstructs {
			return p.constructors(v.Sym, args)
		}
	case s.Kind == graph.KindVariable || s.Kind == graph.KindConst || s.Kind == graph.KindProperty:
		// A variable holding a function: `handler = make_handler()`,
		// `f := s.Handle`.
		inner := p.ValueOf(v.Sym)
		if inner.Kind == ValSym && p.Syms[inner.Sym].Kind.IsCallable() {
			return p.pickOverload(append([]SymID{inner.Sym}, inner.Alts...), args)
		}
	}
	return nil
}

// pickOverload keeps the candidates whose parameter count fits; when none
// fits (default and keyword arguments), it keeps them all if there is one.
func (p *Program) pickOverload(cands []SymID, args int) []SymID {
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

// constructors returns the constructors of type t that fit the argument
// count, or t itself when it has none.
func (p *Program) constructors(t SymID, args int) []SymID {
	ctors := p.Syms[t].ctors
	if len(ctors) == 0 && p.Rules.Features().InheritedConstructors {
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
	if fit := p.pickOverload(ctors, args); len(fit) > 0 {
		return fit
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
// they read or write.
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
			if base.Kind != ValModule {
				continue
			}
			v, r = p.Rules.Export(p, base.Mod, ref.Expr.Name), graph.ReasonImportResolved
		default:
			continue
		}
		if v.Kind != ValSym {
			continue
		}
		s := &p.Syms[v.Sym]
		if (s.Kind != graph.KindVariable && s.Kind != graph.KindConst) || s.Parent >= 0 {
			continue
		}
		if r == "" {
			r = graph.ReasonSameFile
		}
		g.AddEdge(graph.Edge{Src: p.callerID(f, ref.Scope), Dst: s.ID, Type: graph.EdgeReferences,
			Confidence: r.Confidence(), Reason: r, Line: ref.Line})
	}
}
