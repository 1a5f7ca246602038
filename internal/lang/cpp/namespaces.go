package cpp

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// state is what the rules know of one program: the names each namespace
// declares, the prototypes and macros, the namespaces' modules, each
// file's using directives, and which out-of-line definition stands for
// which declaration in a class.
type state struct {
	// names: namespace (dotted, "" for the global one) → name → the
	// symbols declared at its scope (functions, classes, variables...).
	names map[string]map[string][]lang.SymID
	// protos: namespace → name → hidden prototypes.
	protos map[string]map[string][]lang.SymID
	// defines: name → hidden function-like macros.
	defines map[string][]lang.SymID

	modules     map[string]*lang.Module
	namespaceOf map[*lang.Module]string
	// spans: the namespace blocks of each file, in document order.
	spans map[*lang.File][]namespaceSpan

	usingNamespaces map[*lang.File][]string
	usingNames      map[*lang.File]map[string]string

	// defOf maps the hidden declaration of a member in its class to its
	// out-of-line definition, declOf the other way.
	defOf, declOf map[lang.SymID]lang.SymID

	// virtual caches isVirtual.
	virtual lang.Memo[lang.SymID, bool]
}

type namespaceSpan struct {
	span lang.Span
	ns   string
}

// stateKey is the key of the module that holds the state: no file path
// or namespace looks like it.
const stateKey = "(c++ family)"

func stateOf(p *lang.Program) *state {
	m, ok := p.Modules[stateKey]
	if !ok {
		return nil
	}
	st, _ := m.Data.(*state)
	return st
}

// Organize resolves the includes of every file (C's rules), makes a
// Package of each namespace, indexes the names declared at namespace
// scope, and attaches each out-of-line member definition to its class.
func (rules) Organize(p *lang.Program) {
	c.OwnRules().Organize(p)
	st := &state{
		names: map[string]map[string][]lang.SymID{}, protos: map[string]map[string][]lang.SymID{},
		defines: map[string][]lang.SymID{}, modules: map[string]*lang.Module{}, namespaceOf: map[*lang.Module]string{},
		spans: map[*lang.File][]namespaceSpan{}, usingNamespaces: map[*lang.File][]string{},
		usingNames: map[*lang.File]map[string]string{}, defOf: map[lang.SymID]lang.SymID{},
		declOf: map[lang.SymID]lang.SymID{},
	}
	p.Module(stateKey, "", "", false).Data = st
	var outOfLine []lang.SymID
	for _, f := range p.Files {
		for i := range f.Facts.Symbols {
			id := f.SymOf(i)
			s := p.Sym(id)
			switch {
			case s.Kind == graph.KindPackage && s.Hidden:
				ns := strings.TrimPrefix(s.Qual, namespaceMark)
				st.spans[f] = append(st.spans[f], namespaceSpan{span: s.Span, ns: ns})
				st.addNamespace(p, f, ns)
			case s.Parent >= 0:
				st.unscopedEnumerator(p, f, id)
			case s.Receiver != "":
				outOfLine = append(outOfLine, id)
			case s.Hidden && strings.HasPrefix(s.Qual, protoMark):
				add(st.protos, namespaceOfSym(s), s.Name, id)
			case s.Hidden && strings.HasPrefix(s.Qual, defineMark):
				st.defines[s.Name] = append(st.defines[s.Name], id)
			case s.Hidden || hasDecorator(s.Symbol, decoSpecialization):
			default:
				add(st.names, namespaceOfSym(s), s.Name, id)
			}
		}
		if !isCPlusPlus(f) {
			continue
		}
		for _, imp := range f.Facts.Imports {
			switch imp.Kind {
			case lang.ImportWildcard:
				st.usingNamespaces[f] = append(st.usingNamespaces[f], imp.Path)
			case lang.ImportName:
				if st.usingNames[f] == nil {
					st.usingNames[f] = map[string]string{}
				}
				st.usingNames[f][imp.Name] = imp.Path
			}
		}
	}
	for _, id := range outOfLine {
		st.attach(p, id)
	}
}

// unscopedEnumerator makes an enumerator of an enum that is not an `enum
// class` a name of the enum's scope, as C++ does: of its namespace, or a
// member of its class (keeping the enum as owner).
func (st *state) unscopedEnumerator(p *lang.Program, f *lang.File, id lang.SymID) {
	s := p.Sym(id)
	if s.Kind != graph.KindConst {
		return
	}
	enum := p.Sym(f.SymOf(s.Parent))
	if enum.Kind != graph.KindEnum || hasDecorator(enum.Symbol, decoScoped) {
		return
	}
	if enum.Parent < 0 {
		add(st.names, namespaceOfSym(enum), s.Name, id)
		return
	}
	if outer := f.SymOf(enum.Parent); p.Sym(outer).Kind.IsType() {
		p.AddMember(outer, id)
		p.SetOwner(id, f.SymOf(s.Parent))
	}
}

func add(m map[string]map[string][]lang.SymID, ns, name string, id lang.SymID) {
	if m[ns] == nil {
		m[ns] = map[string][]lang.SymID{}
	}
	m[ns][name] = append(m[ns][name], id)
}

func hasDecorator(s *lang.Symbol, d string) bool {
	for _, x := range s.Decorators {
		if x == d {
			return true
		}
	}
	return false
}

// namespaceOfSym is the namespace a symbol at namespace scope is declared
// in, read off its Qual: the Qual without the name and, for an
// out-of-line definition, without the class written before it.
func namespaceOfSym(s *lang.Sym) string {
	q := s.Qual
	for _, mark := range []string{protoMark, declMark} {
		q = strings.TrimPrefix(q, mark)
	}
	if q == s.Name {
		return ""
	}
	q = strings.TrimSuffix(q, "."+s.Name)
	if s.Receiver != "" {
		if q == s.Receiver {
			return ""
		}
		q = strings.TrimSuffix(q, "."+s.Receiver)
	}
	return q
}

// addNamespace makes the Package of namespace ns (and of the namespaces
// around it) and puts f in it.
func (st *state) addNamespace(p *lang.Program, f *lang.File, ns string) {
	for cur := ns; cur != ""; cur = parentNamespace(cur) {
		key := strings.ReplaceAll(cur, ".", "::")
		m := p.Module(key, cur[strings.LastIndexByte(cur, '.')+1:], lang.Dir(f.Facts.Path), true)
		st.modules[cur], st.namespaceOf[m] = m, cur
		if cur == ns && (len(m.Files) == 0 || m.Files[len(m.Files)-1] != f) {
			m.Files = append(m.Files, f)
		}
	}
}

// namespace returns the module of namespace ns, nil when none is declared.
func (st *state) namespace(ns string) *lang.Module { return st.modules[ns] }

// namespaceAt is the innermost namespace whose block contains pos in f.
func (st *state) namespaceAt(f *lang.File, pos uint32) string {
	ns := ""
	for _, sp := range st.spans[f] {
		if sp.span.Contains(pos) {
			ns = sp.ns // later blocks nest in earlier ones
		}
	}
	return ns
}

// attach makes an out-of-line definition a member of the class its
// qualifier names, looked up from the namespace it is written in, and
// pairs it with the declaration in the class. A qualifier that names a
// namespace (`void ns::f() {}`) puts the function in that namespace.
func (st *state) attach(p *lang.Program, def lang.SymID) {
	s := p.Sym(def)
	ns := namespaceOfSym(s)
	parts := strings.Split(s.Receiver, ".")
	for cur := ns; ; cur = parentNamespace(cur) {
		if t := st.typeAt(p, s.File, cur, parts); t != lang.NoSym {
			p.AddMember(t, def)
			st.pair(p, t, def)
			return
		}
		if _, ok := st.modules[join(cur, s.Receiver)]; ok {
			add(st.names, join(cur, s.Receiver), s.Name, def)
			return
		}
		if cur == "" {
			return
		}
	}
}

// typeAt finds the class a qualified name (parts) names in namespace ns;
// of several same-named classes, the one the file sees through its
// includes.
func (st *state) typeAt(p *lang.Program, f *lang.File, ns string, parts []string) lang.SymID {
	var cands []lang.SymID
	for _, id := range st.names[ns][parts[0]] {
		if p.Sym(id).Kind.IsType() {
			cands = append(cands, id)
		}
	}
	if len(cands) == 0 {
		if _, ok := st.modules[join(ns, parts[0])]; ok && len(parts) > 1 {
			return st.typeAt(p, f, join(ns, parts[0]), parts[1:])
		}
		return lang.NoSym
	}
	t := cands[0]
	if len(cands) > 1 {
		seen := c.Sees(f)
		t = lang.NoSym
		for _, id := range cands {
			if seen[p.Sym(id).File] {
				t = id
				break
			}
		}
		if t == lang.NoSym {
			return lang.NoSym
		}
	}
	for _, part := range parts[1:] {
		next := lang.NoSym
		for _, id := range p.Members(t, part) {
			if p.Sym(id).Kind.IsType() {
				next = id
				break
			}
		}
		if next == lang.NoSym {
			return lang.NoSym
		}
		t = next
	}
	return t
}

// pair links an out-of-line definition to the hidden declaration of the
// same member in class t: the one with the same parameter types, else
// the only one with as many parameters.
func (st *state) pair(p *lang.Program, t, def lang.SymID) {
	d := p.Sym(def)
	var byCount []lang.SymID
	for _, m := range p.Members(t, d.Name) {
		ms := p.Sym(m)
		if !ms.Hidden || ms.Kind != d.Kind && !(ms.Kind.IsCallable() && d.Kind.IsCallable()) {
			continue
		}
		if _, taken := st.defOf[m]; taken {
			continue
		}
		if sameParams(ms.Params, d.Params) {
			st.defOf[m], st.declOf[def] = def, m
			return
		}
		if len(ms.Params) == len(d.Params) {
			byCount = append(byCount, m)
		}
	}
	if len(byCount) == 1 {
		st.defOf[byCount[0]], st.declOf[def] = def, byCount[0]
	}
}

// lookupInNamespaces resolves a name at namespace scope: for an
// out-of-line member, the class's namespace first; then the namespaces
// around the use, innermost first, each with the namespaces the file's
// using directives name (relative to it); then the names the file's
// using declarations bind. A function-like macro the file sees makes a
// call a macro invocation: nothing.
func (st *state) lookupInNamespaces(p *lang.Program, cx *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := cx.File
	if cx.Called() {
		seen := c.Sees(f)
		for _, id := range st.defines[name] {
			if seen[p.Sym(id).File] {
				return lang.None(), ""
			}
		}
	}
	var chain []string
	done := map[string]bool{}
	addChain := func(ns string) {
		for cur := ns; ; cur = parentNamespace(cur) {
			if !done[cur] {
				done[cur] = true
				chain = append(chain, cur)
			}
			if cur == "" {
				return
			}
		}
	}
	if cx.Scope >= 0 {
		if t := p.EnclosingType(f, cx.Scope); t != lang.NoSym {
			for outerType(p, t) != lang.NoSym {
				t = outerType(p, t)
			}
			addChain(namespaceOfSym(p.Sym(t)))
		}
	}
	pos := cx.Pos
	if cx.Scope >= 0 {
		// The namespace of the enclosing symbol: references are looked up
		// from the end of their scope.
		pos = f.Facts.Symbols[cx.Scope].StartByte
	}
	addChain(st.namespaceAt(f, pos))
	for _, ns := range chain {
		if v, why, ok := st.found(p, cx, ns, name); ok {
			return v, why
		}
		if ns == "" {
			if path, ok := st.usingNames[f][name]; ok {
				if v, why, ok := st.foundPath(p, cx, chain, path); ok {
					return v, why
				}
			}
		}
		for _, u := range st.usingNamespaces[f] {
			for _, base := range []string{join(ns, u), u} {
				if _, ok := st.modules[base]; !ok {
					continue
				}
				if v, why, ok := st.found(p, cx, base, name); ok {
					return v, why
				}
			}
		}
	}
	return lang.External(), ""
}

// foundPath resolves the qualified name a using declaration binds.
func (st *state) foundPath(p *lang.Program, cx *lang.Ctx, chain []string, path string) (lang.Value, graph.Reason, bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return st.found(p, cx, "", path)
	}
	qualifier, name := path[:i], path[i+1:]
	for _, ns := range chain {
		if _, ok := st.modules[join(ns, qualifier)]; ok {
			return st.found(p, cx, join(ns, qualifier), name)
		}
	}
	return lang.External(), "", true // std::swap and the like
}

// found looks name up in namespace ns: the symbols of that name the
// use can see, or the nested namespace. ok is false when ns declares
// nothing of that name; an ambiguous name (definitions in several files,
// none the calling file sees) is found but resolves to nothing.
func (st *state) found(p *lang.Program, cx *lang.Ctx, ns, name string) (lang.Value, graph.Reason, bool) {
	f := cx.File
	var ids []lang.SymID
	for _, id := range st.names[ns][name] {
		s := p.Sym(id)
		switch {
		case cx.TypesOnly() && !s.Kind.IsType():
		case cx.Called() && s.Kind == graph.KindTypeAlias:
			// A conversion to an alias (`size_type(n)`): no constructor of
			// the repository is named.
			return lang.External(), "", true
		case cx.Called() && !s.Kind.IsType() && !s.Kind.IsCallable() && s.Kind != graph.KindVariable:
		default:
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		if m, ok := st.modules[join(ns, name)]; ok && !cx.Called() {
			return lang.ModuleValue(m), graph.ReasonImportResolved, true
		}
		return lang.None(), "", false
	}
	ids = st.visibleDefs(p, f, ids)
	if len(ids) == 0 {
		return lang.None(), "", true
	}
	why := graph.ReasonImportResolved
	if p.Sym(ids[0]).File == f {
		why = graph.ReasonSameFile
	}
	return lang.SymsValue(ids), why, true
}

// visibleDefs keeps the definitions a file can mean: file-local ones
// (static, anonymous namespace) of the file or of the headers it sees;
// of definitions in several files, those in the file, in the headers it
// sees, or in a file that includes a header declaring the name that the
// file sees too. When none is preferred and the definitions lie in
// several files, nothing (two programs of the repository each define
// their own). f nil keeps them all (qualified names).
func (st *state) visibleDefs(p *lang.Program, f *lang.File, ids []lang.SymID) []lang.SymID {
	if f == nil || len(ids) == 0 {
		return ids
	}
	seen := c.Sees(f)
	var kept, preferred []lang.SymID
	files := map[*lang.File]bool{}
	for _, id := range ids {
		s := p.Sym(id)
		if s.Static && s.File != f && !seen[s.File] {
			continue
		}
		kept = append(kept, id)
		files[s.File] = true
		if s.File == f || seen[s.File] || st.declaredFor(p, s, seen) {
			preferred = append(preferred, id)
		}
	}
	switch {
	case len(preferred) > 0:
		return preferred
	case len(files) == 1:
		return kept
	}
	return nil
}

// declaredFor reports whether a header that the definition's file sees,
// and that the caller sees too (seen), declares the definition's name.
func (st *state) declaredFor(p *lang.Program, s *lang.Sym, seen map[*lang.File]bool) bool {
	defSees := c.Sees(s.File)
	for _, id := range st.protos[namespaceOfSym(s)][s.Name] {
		h := p.Sym(id).File
		if seen[h] && defSees[h] {
			return true
		}
	}
	return false
}
