package lang

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// FileChange is a file whose facts changed since the index was made: its
// facts then (Old) and now (New). Old is nil for a file added since, New
// nil for a file removed since.
type FileChange struct{ Old, New *FileFacts }

// Affected returns the files of a family whose CALLS and REFERENCES edges
// may differ from the index's, given the facts of all its files now
// (files) and those of the files whose content changed: the changed files
// and every file whose facts mention a name the change can give another
// meaning. The other files' edges are the index's. why is not empty when
// every file must be resolved again (a file came or went, a file's package,
// build condition, imports or exports changed, or the names reached are
// too many to be worth it) and says why.
//
// Resolution looks everything up by name: a call's edges change only when
// the declarations found under one of the names it goes through change, or
// what those declarations' types, values or results are. So the names that
// matter are:
//   - the names of the changed files' symbols that were added, removed or
//     changed in anything but their position (their text included, since
//     a function's result may be inferred from its body), and of their
//     non-local bindings (file-level names, `self.x = ...` fields);
//   - for a type whose supertypes or members changed (or whose supertypes
//     are such types), the names of all its members: which override,
//     implement or are promoted to which follows from the whole set;
//   - then, over all files until nothing is added, the names of the
//     declarations whose type, value, result, parameters, supertypes or
//     local bindings mention a name already there, the local names that
//     imports and exports give such names, and for a module whose whole
//     value (`module.exports = x`) is such a name, the module's own names.
//
// A file whose facts mention none of these names resolves as before.
func Affected(files []*FileFacts, changed []FileChange) (affected map[string]bool, why string) {
	if len(changed) == 0 {
		return map[string]bool{}, ""
	}
	if len(changed) > maxAffectedChanged && 4*len(changed) > len(files) {
		return nil, "many files changed"
	}
	a := &affectedSet{names: map[string]bool{}, hier: map[string]bool{}, fold: changed[0].New != nil && changed[0].New.Language == "php"}
	if changed[0].New != nil {
		a.flow = valueFlows(changed[0].New.Language)
		a.flowTypes = a.flow && callsTypes(changed[0].New.Language)
	}
	for _, c := range changed {
		if c.Old == nil || c.New == nil {
			return nil, "files were added or removed"
		}
		if why := a.compare(c.Old, c.New); why != "" {
			return nil, why
		}
		if a.flow {
			a.flowDiff(c.Old, c.New)
		}
	}
	if a.flow {
		a.plainFields = plainFields(files)
	}
	members := a.memberIndex(files, changed)
	// The closure: hierarchy first (types whose supertypes are changed
	// types), then declarations that mention a name, until stable.
	for round := 0; ; round++ {
		if round > maxAffectedRounds {
			return nil, "the change reaches too many names"
		}
		grew := false
		for t := range a.hier {
			if !a.hierDone(t) {
				for _, m := range members[t] {
					grew = a.add(m) || grew
				}
			}
		}
		for _, f := range files {
			grew = a.closeFile(f) || grew
		}
		if !grew {
			break
		}
	}
	affected = map[string]bool{}
	for _, c := range changed {
		affected[c.New.Path] = true
	}
	for _, f := range files {
		if !affected[f.Path] && (a.flowFiles[f.Path] || a.mentionsFile(f)) {
			affected[f.Path] = true
		}
	}
	return affected, ""
}

// maxAffectedRounds bounds the closure: each round adds names and reads
// every file's facts again (0.1 s on the Go standard library), and a change
// that keeps reaching further after this many is as good as everything.
// maxAffectedChanged is how many changed files, and a quarter of the files
// or more, resolve everything at once (a branch switched): finding the few
// files they leave alone would cost about as much as resolving them.
const (
	maxAffectedRounds  = 16
	maxAffectedChanged = 64
)

type affectedSet struct {
	names map[string]bool // names (and their identifier runs) that may mean something else now
	hier  map[string]bool // type names whose members' names are all in names
	// flow: the language's callables flow through arguments
	// (Features.ValueFlow); flowCallees are then the names of callees
	// whose arguments mention a name in names (closeFile).
	flow        bool
	flowCallees map[string]bool
	// plainFields are the field names that no field able to hold a
	// callable has (plainFields).
	plainFields map[string]bool
	// flowTypes: a callee may be a class whose constructor or call member
	// the arguments reach (Python); its name and members join the set.
	flowTypes bool
	// flowFiles are the files that declare a callable named in
	// flowCallees: calls through its parameters may reach more now.
	flowFiles map[string]bool
	done      map[string]bool // hier entries whose members were added
	fold      bool            // names are compared case-insensitively (PHP)
	// seeded marks, by file and symbol index, the symbols whose body
	// bindings changed (seed).
	seeded map[string][]bool
	// hashed are the hashes of names, sorted, when it held hashedOf
	// names (nameHashes).
	hashed   []uint32
	hashedOf int
}

func (a *affectedSet) hierDone(t string) bool {
	if a.done == nil {
		a.done = map[string]bool{}
	}
	if a.done[t] {
		return true
	}
	a.done[t] = true
	return false
}

// key is how a name is kept: folded when the language ignores case.
func (a *affectedSet) key(s string) string {
	if a.fold {
		return strings.ToLower(s)
	}
	return s
}

// add puts name and its identifier runs in the set; it reports whether
// anything was new.
func (a *affectedSet) add(name string) bool {
	if name == "" {
		return false
	}
	grew := false
	put := func(s string) {
		s = a.key(s)
		if !a.names[s] {
			a.names[s] = true
			grew = true
		}
	}
	put(name)
	eachRun(name, func(r string) { put(r) })
	return grew
}

// has reports whether s, or one of its identifier runs, is in the set.
func (a *affectedSet) has(s string) bool {
	if s == "" || len(a.names) == 0 {
		return false
	}
	if a.names[a.key(s)] {
		return true
	}
	found := false
	eachRun(s, func(r string) {
		if !found && a.names[a.key(r)] {
			found = true
		}
	})
	return found
}

// hasAny reports whether one of ss is in the set (has).
func (a *affectedSet) hasAny(ss []string) bool {
	for _, s := range ss {
		if a.has(s) {
			return true
		}
	}
	return false
}

// hasParamType reports whether one of ps's types is in the set.
func (a *affectedSet) hasParamType(ps []Param) bool {
	for _, p := range ps {
		if a.has(p.Type) {
			return true
		}
	}
	return false
}

// hasBase reports whether one of bs's types is in the set.
func (a *affectedSet) hasBase(bs []Base) bool {
	for _, b := range bs {
		if a.has(b.Type) {
			return true
		}
	}
	return false
}

func (a *affectedSet) hasExpr(e *Expr) bool {
	for ; e != nil; e = e.X {
		if a.has(e.Name) {
			return true
		}
		for _, arg := range e.Args {
			if a.hasExpr(arg) {
				return true
			}
		}
	}
	return false
}

// eachRun calls fn with each maximal run of identifier characters in s
// (letters, digits, '_', '$', and any byte of a multi-byte character),
// unless s is one such run.
func eachRun(s string, fn func(string)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		ident := i < len(s) && isIdentByte(s[i])
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			if start == 0 && i == len(s) {
				return
			}
			fn(s[start:i])
			start = -1
		}
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// compare adds what changed between a file's old and new facts, or says
// why the change is one that needs every file resolved again.
func (a *affectedSet) compare(old, cur *FileFacts) string {
	switch {
	case old.Path != cur.Path || old.Language != cur.Language:
		return "a file changed language"
	case old.Package != cur.Package:
		return "the package clause of " + cur.Path + " changed"
	case old.Constraint != cur.Constraint:
		return "the build condition of " + cur.Path + " changed"
	case !slices.Equal(importPrints(old), importPrints(cur)):
		return "the imports of " + cur.Path + " changed"
	case !slices.Equal(exportPrints(old), exportPrints(cur)):
		return "the exports of " + cur.Path + " changed"
	}
	oldIDs, curIDs := SymbolIDs(old), SymbolIDs(cur)
	type entry struct {
		shape, scope uint64
		i            int
	}
	oldScopes, curScopes := scopePrints(old), scopePrints(cur)
	before := make(map[string]entry, len(old.Symbols))
	for i := range old.Symbols {
		before[oldIDs[i]] = entry{symbolPrint(old, i), oldScopes[i], i}
	}
	seen := make(map[string]bool, len(cur.Symbols))
	for i := range cur.Symbols {
		id := curIDs[i]
		seen[id] = true
		o, ok := before[id]
		switch {
		case !ok:
			a.changedSymbol(cur, i)
			a.seed(cur, i)
		case o.shape != symbolPrint(cur, i):
			a.changedSymbol(old, o.i)
			a.changedSymbol(cur, i)
			a.seed(cur, i)
		case o.scope != curScopes[i]:
			// The same declaration, with other bindings in its body (or
			// nested declarations moved around them).
			a.seed(cur, i)
		}
	}
	for id, o := range before {
		if !seen[id] {
			a.changedSymbol(old, o.i)
		}
	}
	// Of several declarations of one name, which a lookup finds may
	// depend on their order.
	oo, co := a.nameOrder(old, oldIDs), a.nameOrder(cur, curIDs)
	for name, ids := range co {
		if !slices.Equal(ids, oo[name]) {
			a.add(name)
		}
	}
	for name := range oo {
		if _, ok := co[name]; !ok {
			a.add(name)
		}
	}
	// Bindings other than locals: file-level names, fields, names bound in
	// a type's body. A local binding changes its function's scope print.
	ob, cb := outerBindings(old), outerBindings(cur)
	for k, p := range cb {
		if !slices.Equal(p, ob[k]) {
			a.add(k.name)
			if k.owner != "" {
				a.hier[k.owner] = true
			}
		}
	}
	for k := range ob {
		if _, ok := cb[k]; !ok {
			a.add(k.name)
			if k.owner != "" {
				a.hier[k.owner] = true
			}
		}
	}
	return ""
}

// nameOrder lists, for each name that several of f's symbols declare, their
// ids in the order of the file.
func (a *affectedSet) nameOrder(f *FileFacts, ids []string) map[string][]string {
	count := map[string]int{}
	for i := range f.Symbols {
		count[a.key(f.Symbols[i].Name)]++
	}
	m := map[string][]string{}
	for i := range f.Symbols {
		if n := a.key(f.Symbols[i].Name); count[n] > 1 {
			m[n] = append(m[n], ids[i])
		}
	}
	return m
}

// changedSymbol adds symbol i of f, which was added, removed or changed in
// its shape: its name, and the type it belongs to, or the type itself, to
// the types whose members are all added.
func (a *affectedSet) changedSymbol(f *FileFacts, i int) {
	s := &f.Symbols[i]
	a.add(s.Name)
	if s.Kind.IsType() {
		a.hier[s.Name] = true
	}
	if t := ownerName(f, i); t != "" {
		a.hier[t] = true
		if s.Kind == graph.KindConstructor || s.Name == "apply" || s.Name == "__call__" {
			// Reached through the type's name: `Foo()`, `new Foo()`,
			// Scala's `Foo(x)`, which runs Foo.apply, and calls of
			// instances (`foo(x)`, Python's __call__), whose values are
			// typed through the name; and through the
			// names of subtypes that inherit it (the closure adds types
			// whose supertypes are in the set).
			a.add(t)
		}
	}
}

// seed records that the bindings in the body of symbol i of f (a file as
// it is now) may hold something else: the closure treats what is
// evaluated in that body as changed (closeFile).
func (a *affectedSet) seed(f *FileFacts, i int) {
	if a.seeded == nil {
		a.seeded = map[string][]bool{}
	}
	m := a.seeded[f.Path]
	if m == nil {
		m = make([]bool, len(f.Symbols))
		a.seeded[f.Path] = m
	}
	m[i] = true
}

// ownerName is the name of the type symbol i is a member of: its enclosing
// type, or a Go method's receiver type; "" for none.
func ownerName(f *FileFacts, i int) string {
	s := &f.Symbols[i]
	if s.Receiver != "" {
		return s.Receiver
	}
	for p := s.Parent; p >= 0 && p < len(f.Symbols); p = f.Symbols[p].Parent {
		if f.Symbols[p].Kind.IsType() {
			return f.Symbols[p].Name
		}
		if f.Symbols[p].Kind.IsCallable() {
			return ""
		}
	}
	return ""
}

// memberIndex maps each type name to the names of its members, over every
// file now and the changed files as they were.
func (a *affectedSet) memberIndex(files []*FileFacts, changed []FileChange) map[string][]string {
	m := map[string][]string{}
	index := func(f *FileFacts) {
		for i := range f.Symbols {
			if t := ownerName(f, i); t != "" {
				m[t] = append(m[t], f.Symbols[i].Name)
			}
		}
		for i := range f.Bindings {
			b := &f.Bindings[i]
			if t := bindingOwner(f, b); t != "" {
				m[t] = append(m[t], b.Name)
			}
		}
	}
	for _, f := range files {
		index(f)
	}
	for _, c := range changed {
		index(c.Old)
	}
	return m
}

// valueFlows reports whether a language's rules follow the value flow of
// callables.
func valueFlows(language string) bool {
	l := ByName(language)
	return l != nil && l.Rules().Features().ValueFlow
}

// argsMention reports whether an argument expression mentions a name in
// the set.
func (a *affectedSet) argsMention(args []*Expr) bool {
	for _, e := range args {
		if a.hasExpr(e) {
			return true
		}
	}
	return false
}

// calleeName is the last name of a callee: f of `f(x)`, `m.f(x)`,
// `new p.f(x)`.
func calleeName(e *Expr) string {
	if e == nil {
		return ""
	}
	switch e.Kind {
	case ExprIdent, ExprMember:
		return e.Name
	case ExprNew:
		if i := strings.LastIndexByte(e.Name, '.'); i >= 0 {
			return e.Name[i+1:]
		}
		return e.Name
	}
	return ""
}

// bindingOwner is the type a field binding (`self.x = ...`) or a binding in
// a type's body belongs to; "" for other bindings.
func bindingOwner(f *FileFacts, b *Binding) string {
	if b.Scope < 0 || b.Scope >= len(f.Symbols) {
		return ""
	}
	s := &f.Symbols[b.Scope]
	if s.Kind.IsType() {
		return s.Name
	}
	if b.Field {
		return ownerName(f, b.Scope)
	}
	return ""
}

// closeFile adds the names of f's declarations that mention a name in the
// set, and the names its imports and exports give such names; it reports
// whether anything was new.
func (a *affectedSet) closeFile(f *FileFacts) bool {
	grew := false
	// What a callable's bindings mention reaches its result and the fields
	// it assigns, and those of the callables nested in it.
	local := make([]bool, len(f.Symbols))
	// fp: the names in the bodies of callables that may hold other values
	// now, followed to the stores and arguments that name them.
	var fp *flowNames
	if a.flow {
		f.LoadCalls()
		fp = a.flowParamsOf(f)
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		if b.Scope >= 0 && b.Scope < len(f.Symbols) && (a.has(b.Type) || a.hasExpr(b.Value)) {
			local[b.Scope] = true
			if a.flow && b.Name != "" {
				fp.addLocal(b.Scope, b.Name)
			}
		}
	}
	if a.flow {
		fp.closeLocals(f)
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		for _, p := range s.Params {
			if !local[i] && (a.has(p.Type) || a.hasExpr(p.Default)) {
				local[i] = true
			}
		}
	}
	seeded := a.seeded[f.Path]
	if len(seeded) != len(f.Symbols) {
		seeded = nil
	}
	// seededIn: symbol i's or an enclosing symbol's bindings changed.
	seededIn := func(i int) bool {
		for p := i; seeded != nil && p >= 0 && p < len(f.Symbols); p = f.Symbols[p].Parent {
			if seeded[p] {
				return true
			}
		}
		return false
	}
	// inherited: what is evaluated in symbol i's body may have changed,
	// through its own bindings or an enclosing symbol's.
	inherited := func(i int) bool {
		for p := i; p >= 0 && p < len(f.Symbols); p = f.Symbols[p].Parent {
			if local[p] || seeded != nil && seeded[p] {
				return true
			}
		}
		return false
	}
	// What an argument mentions flows into the parameters of the callee
	// (Features.ValueFlow), and from there into what the callee stores
	// them in: the callee's name and a class's members join the set, and
	// a function's parameters are followed in its body (flowNames).
	for i := range f.Calls {
		c := &f.Calls[i]
		if !a.flow || len(c.ArgExprs) == 0 {
			continue
		}
		all := c.Scope >= 0 && seededIn(c.Scope)
		for _, e := range c.ArgExprs {
			grew = a.addStored(e, all || fp.mention(f, c.Scope, e)) || grew
		}
		if !a.argsMention(c.ArgExprs) && !fp.mentionAny(f, c.Scope, c.ArgExprs) {
			continue
		}
		if name := calleeName(c.Callee); name != "" && !a.flowCallees[name] {
			a.addFlowCallee(name)
			grew = true
		}
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		// A symbol whose own bindings changed (seeded) is evaluated anew
		// by others only when its result is its returned expression: a
		// declared result does not read the body.
		hit := local[i] || seeded != nil && seeded[i] && len(s.Returns) == 0 && s.Value != nil ||
			s.Parent >= 0 && inherited(s.Parent) || a.has(s.Type) || a.hasExpr(s.Value) || a.has(s.Receiver) ||
			a.hasAny(s.Returns) || a.hasAny(s.Decorators) || a.hasParamType(s.TypeParams)
		base := a.hasBase(s.Bases)
		if a.flow {
			grew = a.addStored(s.Value, false) || grew
		}
		if hit || base {
			grew = a.add(s.Name) || grew
		}
		if base && s.Kind.IsType() && !a.hier[s.Name] {
			a.hier[s.Name] = true
			grew = true
		}
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		viaParam := fp.mention(f, b.Scope, b.Value)
		if a.flow {
			grew = a.addStored(b.Value, viaParam || b.Scope >= 0 && seededIn(b.Scope)) || grew
		}
		if b.Scope >= 0 && !b.Field && bindingOwner(f, b) == "" {
			continue // a local: it reaches others through its function
		}
		if a.has(b.Type) || a.hasExpr(b.Value) || viaParam || b.Scope >= 0 && inherited(b.Scope) {
			grew = a.add(b.Name) || grew
		}
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		if im.Alias != "" && (a.has(im.Name) || a.has(im.Path)) {
			grew = a.add(im.Alias) || grew
		}
	}
	for i := range f.Exports {
		e := &f.Exports[i]
		if !a.has(e.Local) && !a.hasExpr(e.Value) {
			continue
		}
		grew = a.add(e.Name) || grew
		if e.Name == ExportAssign || e.Name == "default" {
			// The module's value itself: importers name the module.
			grew = a.add("default") || grew
			grew = a.add(moduleName(f.Path)) || grew
			grew = a.add(baseName(Dir(f.Path))) || grew
		}
	}
	return grew
}

// mentionsFile reports whether any of f's facts mention a name in the set:
// from the hashes of its names when the cache's form of the facts carries
// them (mentions.go), else from the facts.
func (a *affectedSet) mentionsFile(f *FileFacts) bool {
	if f.lazy != nil && f.lazy.hashed && a.fold == foldsCase(f.Language) {
		return a.mentionsHashed(f.lazy.mentions)
	}
	f.LoadCalls()
	return eachMention(f, a.has)
}

// opensScope reports whether a symbol's name is a scope that other files
// may open too (a namespace, a package block, a partial class, a merged
// interface): what they declare in it is looked up together.
func opensScope(s *Symbol) bool {
	return !s.Kind.IsCallable() && s.Kind != graph.KindVariable && s.Kind != graph.KindConst && s.Kind != graph.KindProperty
}

// moduleName is a file's name without its extension.
func moduleName(p string) string {
	b := baseName(p)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// bindingKey groups a file's non-local bindings: by the type they belong
// to (owner) or the file (""), and name.
type bindingKey struct{ owner, name string }

func outerBindings(f *FileFacts) map[bindingKey][]uint64 {
	m := map[bindingKey][]uint64{}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		owner := bindingOwner(f, b)
		if b.Scope >= 0 && owner == "" && !b.Field {
			continue
		}
		h := newPrint()
		h.str(b.Type)
		h.expr(b.Value)
		h.num(b.Index)
		h.flag(b.Elem)
		h.flag(b.Field)
		if b.Scope >= 0 {
			h.str(f.Symbols[b.Scope].Qual)
		}
		k := bindingKey{owner, b.Name}
		m[k] = append(m[k], h.sum())
	}
	return m
}

func importPrints(f *FileFacts) []uint64 {
	out := make([]uint64, 0, len(f.Imports))
	for i := range f.Imports {
		im := &f.Imports[i]
		h := newPrint()
		h.num(int(im.Kind))
		h.str(im.Path)
		h.str(im.Name)
		h.str(im.Alias)
		h.flag(im.Reexport)
		h.flag(im.Static)
		h.str(scopeQual(f, im.Scope))
		out = append(out, h.sum())
	}
	return out
}

func exportPrints(f *FileFacts) []uint64 {
	out := make([]uint64, 0, len(f.Exports))
	for i := range f.Exports {
		e := &f.Exports[i]
		h := newPrint()
		h.str(e.Name)
		h.str(e.Local)
		h.expr(e.Value)
		out = append(out, h.sum())
	}
	return out
}

func scopeQual(f *FileFacts, i int) string {
	if i < 0 || i >= len(f.Symbols) {
		return ""
	}
	return f.Symbols[i].Qual
}

// symbolPrint hashes what a symbol says apart from where it is and what
// its body binds (its shape). Its text and doc are left out: resolution
// never reads them.
func symbolPrint(f *FileFacts, i int) uint64 {
	s := &f.Symbols[i]
	h := newPrint()
	h.num(int(s.Kind))
	h.str(s.Name)
	h.str(s.Qual)
	h.str(scopeQual(f, s.Parent))
	h.str(s.Signature)
	h.flag(s.Exported)
	h.flag(s.Static)
	h.flag(s.Abstract)
	h.flag(s.Hidden)
	h.flag(s.Getter)
	h.str(s.Type)
	h.expr(s.Value)
	h.num(len(s.Returns))
	for _, r := range s.Returns {
		h.str(r)
	}
	h.num(len(s.Params))
	for _, p := range s.Params {
		h.str(p.Name)
		h.str(p.Type)
		h.flag(p.Variadic)
		h.flag(p.Optional)
		h.expr(p.Default)
		h.flag(p.Supplied)
	}
	h.str(s.Receiver)
	h.num(len(s.Bases))
	for _, b := range s.Bases {
		h.str(b.Type)
		h.num(int(b.Kind))
	}
	h.num(len(s.Decorators))
	for _, d := range s.Decorators {
		h.str(d)
	}
	h.num(len(s.TypeParams))
	for _, p := range s.TypeParams {
		h.str(p.Name)
		h.str(p.Type)
	}
	return h.sum()
}

// scopePrints hashes, for each symbol of f, what its body binds and where,
// relative to its start: the bindings whose scope it is (locals and
// fields, every field of them), the spans of the symbols nested in it, and
// its own length. Which binding a use or a returned expression sees
// depends on those positions (the one visible there that starts last).
func scopePrints(f *FileFacts) []uint64 {
	hs := make([]*print, len(f.Symbols))
	at := func(i int) *print {
		if hs[i] == nil {
			hs[i] = newPrint()
			s := &f.Symbols[i]
			hs[i].num(int(s.EndByte) - int(s.StartByte))
		}
		return hs[i]
	}
	rel := func(i int, b uint32) int {
		if b == 0 {
			return -1
		}
		return int(b) - int(f.Symbols[i].StartByte)
	}
	for k := range f.Bindings {
		b := &f.Bindings[k]
		if b.Scope < 0 || b.Scope >= len(f.Symbols) {
			continue
		}
		h := at(b.Scope)
		h.str(b.Name)
		h.str(b.Type)
		h.expr(b.Value)
		h.num(b.Index)
		h.flag(b.Elem)
		h.flag(b.Field)
		h.num(rel(b.Scope, b.Byte))
		h.num(rel(b.Scope, b.End))
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Parent < 0 || s.Parent >= len(f.Symbols) {
			continue
		}
		h := at(s.Parent)
		h.num(-2) // a nested symbol, not a binding
		h.num(rel(s.Parent, s.StartByte))
		h.num(rel(s.Parent, s.EndByte))
	}
	out := make([]uint64, len(f.Symbols))
	for i, h := range hs {
		if h != nil {
			out[i] = h.sum()
		} else {
			out[i] = uint64(int64(f.Symbols[i].EndByte) - int64(f.Symbols[i].StartByte))
		}
	}
	return out
}

// print hashes a sequence of fields, each length-prefixed.
type print struct {
	h   hash.Hash64
	buf [binary.MaxVarintLen64]byte
}

func newPrint() *print { return &print{h: fnv.New64a()} }

func (p *print) num(n int) {
	k := binary.PutVarint(p.buf[:], int64(n))
	p.h.Write(p.buf[:k])
}

func (p *print) str(s string) {
	p.num(len(s))
	p.h.Write([]byte(s))
}

func (p *print) flag(b bool) {
	if b {
		p.num(1)
	} else {
		p.num(0)
	}
}

func (p *print) expr(e *Expr) {
	if e == nil {
		p.num(-1)
		return
	}
	p.num(int(e.Kind))
	p.str(e.Name)
	p.num(len(e.Args))
	for _, x := range e.Args {
		p.expr(x)
	}
	p.expr(e.X)
}

func (p *print) sum() uint64 { return p.h.Sum64() }
