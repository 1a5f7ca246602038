package lang

import (
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
)

// SymID indexes Program.Syms.
type SymID int32

// NoSym is the absent symbol.
const NoSym SymID = -1

// Program is the resolver's view of all files of one language family: a
// global symbol table, modules (packages, namespaces), and what each file's
// imports bind. It is built once per analysis and then only read, except for
// memo tables filled during resolution.
type Program struct {
	Rules Rules
	Files []*File
	// Config holds the contents of the configuration files the rules asked
	// for (Rules.ConfigNames), by repository-relative path.
	Config  map[string][]byte
	Syms    []Sym
	Modules map[string]*Module

	byPath   map[string]*File
	byName   map[string][]SymID // every symbol by simple name
	typeMemo Memo[SymID, Value] // value held by a variable symbol (ValueOf)
	retMemo  Memo[SymID, Value] // result of a callable, resolved
	aliases  map[SymID]bool     // type aliases being followed (ResolveType)
	subtypes map[SymID][]SymID  // direct subtypes, from resolved bases
	// mergedClass maps an interface merged with a class (MergeMembers)
	// to that class.
	mergedClass map[SymID]SymID
	bindMemo    Memo[bindKey, Value]
	// overrideMemo caches Overrides, belowMemo OverridesBelow.
	overrideMemo Memo[SymID, []SymID]
	belowMemo    Memo[[2]SymID, []SymID]
	// mroMemo caches the method resolution orders (Features.LinearMRO).
	mroMemo Memo[SymID, []SymID]
	// flow is what flows into each slot (Features.ValueFlow), computed
	// once over all files by AddDeclarations.
	flow *flowGraph
	// ext are the names outside the repository values carry (Value.Ext
	// is an index from 1), extIndex finds them by name; extSubtypes are
	// the repository's types that implement each external interface, and
	// extDispatchMemo caches externalDispatch (external.go).
	ext             []extEntry
	extIndex        map[string]int32
	extSubtypes     map[int32][]SymID
	extDispatchMemo Memo[extMember, []SymID]
	// round numbers the files resolved, from 1 (0 while linking; the
	// value-flow build takes a round of its own); cuts
	// counts the computations recursion guards cut short (see memo.go).
	round uint32
	cuts  uint64
}

// bindKey is a binding of a file; pos is the position it is evaluated at
// when that depends on the use (bindings visible in their whole scope).
type bindKey struct {
	file *File
	idx  int
	pos  uint32
}

// File is one source file in the program.
type File struct {
	Facts  *FileFacts
	Module *Module
	// First is the SymID of Facts.Symbols[0]; symbol i is First+i.
	First SymID
	// Top maps names declared at file level to their symbols.
	Top map[string][]SymID
	// Imported maps local names bound by imports to values.
	Imported map[string]Value
	// ImportLines gives the line of the import that bound a name.
	ImportLines map[string]int
	// Wildcards are modules whose exported names are all visible here.
	Wildcards []*Module
	// ImportEdges are the IMPORTS edges this file's imports produce, filled
	// by the rules: targets are File or Package node ids.
	ImportEdges []ImportEdge

	// bindings by scope symbol (local index, -1 for file level) and name.
	bindings map[scopeName][]int
}

type scopeName struct {
	scope int
	name  string
}

// ImportEdge is one resolved import of a file.
type ImportEdge struct {
	Target string // node id of a File or Package
	Line   int
}

// Sym is one symbol of the program.
type Sym struct {
	ID   string // graph node id
	File *File
	*Symbol
	Local int // index in File.Facts.Symbols

	// members of a type by name (own members only; inheritance is walked).
	members map[string][]SymID
	// bases are the resolved supertypes of a type, in declaration order.
	bases []baseRef
	// extBases are the interfaces outside the repository (Value.Ext) that
	// a type names as bases, in declaration order; extEmbedded marks
	// those it embeds (Go), by index.
	extBases    []int32
	extEmbedded []bool
	// ctors are the constructors among the members.
	ctors []SymID
	// owner is the type a member belongs to (the parent, or the receiver
	// type of a Go method), NoSym otherwise.
	owner SymID
}

type baseRef struct {
	sym  SymID
	kind BaseKind
}

// Module is a namespace that imports name: a Go or Java package, a Python
// module or package, a JS/TS file.
type Module struct {
	// Key identifies the module; for modules that are packages it is also
	// the Package node key.
	Key  string
	Name string // the name an import binds by default (Go package name, last component)
	// Qualifier prefixes the qualified names of the module's symbols: the
	// Go package name, the Java package, the Python dotted module name; ""
	// for JS/TS files.
	Qualifier string
	Dir       string // directory of the module (repository-relative)
	// Files of the module: one for a Python or JS/TS module file, several
	// for a Go or Java package.
	Files []*File
	// IsPackage: the module gets a Package node.
	IsPackage bool
	// PackagePrefix: the module only stands for a leading part of dotted
	// package names (a.b of a.b.c; AddPackagePrefixes), without a node.
	PackagePrefix bool
	// Scope holds every name declared at file level by the module's files.
	Scope map[string][]SymID
	// Sub are child modules reachable as attributes (Python packages).
	Sub map[string]*Module
	// Data is for the rules' own bookkeeping (export tables and the like).
	Data any
}

// PackageNodeID is the id of the module's Package node, or "" when the
// module is not a package.
func (m *Module) PackageNodeID() string {
	if m == nil || !m.IsPackage {
		return ""
	}
	return graph.PackageID(m.Key)
}

// Rules are the language-specific parts of resolution. The engine calls
// them in this order: Organize, BindImports (each file), then the engine
// resolves type bases and members, then Link, then calls and references.
type Rules interface {
	// Organize puts every file in a module (p.Module) and fills module
	// scopes; it may attach extra members (Go methods to receivers).
	Organize(p *Program)
	// BindImports fills f.Imported, f.Wildcards and f.ImportEdges.
	BindImports(p *Program, f *File)
	// Export returns what module m exports under name (Go exported names,
	// Python module attributes, JS exports including re-exports).
	Export(p *Program, m *Module, name string) Value
	// Lookup resolves an unqualified name that is neither a local binding
	// nor a symbol nested in an enclosing scope.
	Lookup(p *Program, c *Ctx, name string) (Value, graph.Reason)
	// ParseType reads a type as written.
	ParseType(text string) TypeExpr
	// Link adds relations that need all types and members resolved (Go's
	// implicit interface satisfaction); it may call p.AddSubtype.
	Link(p *Program, g *graph.Graph)
	// Features are fixed facts about the language.
	Features() Features
	// IsBuiltin reports whether a name is a builtin that the language
	// provides and the repository cannot define calls into.
	IsBuiltin(name string) bool
	// ConfigNames are the base names of configuration files the rules read
	// (go.mod, tsconfig.json, ...); a name with * ? or [ is a path.Match
	// pattern over base names ("tsconfig*.json"). The pipeline passes their
	// contents in Program.Config.
	ConfigNames() []string
}

// BuiltinMembers is implemented by rules whose builtin types have methods
// that a receiver of unknown type most likely calls (Python's str.strip,
// list.append, dict.get): a call of such a member on an untyped receiver
// gets no name-only guess.
type BuiltinMembers interface {
	IsBuiltinMember(name string) bool
}

// ParamInjector is implemented by rules under which a framework passes
// some parameters by their names rather than a call doing so: pytest gives
// a test's parameter the value of the fixture of that name in scope.
// InjectedParam returns the value parameter prm of local symbol scope
// holds, with the reason the injected value was found, or an unknown value.
// The resolver asks only for parameters that declare no type.
type ParamInjector interface {
	InjectedParam(p *Program, f *File, scope int, prm Param) (Value, graph.Reason)
}

// Accessors is implemented by rules in which reading some methods as
// attributes runs them (Python @property, TS getters): the attribute's value
// is the method's result, so that `obj.prop.run()` follows prop's result
// type. Reading an accessor is not recorded as a call.
type Accessors interface {
	IsAccessor(s *Symbol) bool
}

// Features are fixed facts about a language that the engine needs.
type Features struct {
	// TypeCallConstructs: calling a type by name constructs an instance
	// (Python `Foo()`), as opposed to converting (Go `T(x)`).
	TypeCallConstructs bool
	// InheritedConstructors: a class without its own constructor runs its
	// base class's (Python, TypeScript), instead of an implicit default one
	// (Java).
	InheritedConstructors bool
	// UnexportedIsPrivate: a name that is not exported cannot be used from
	// another module (Go, Java package-private and private members).
	UnexportedIsPrivate bool
	// FollowFunctionVariables: calling a module-level variable or a field
	// that holds a function calls that function (Python `run = main`, TS
	// `const run = main`), as the language's own tools resolve it. Go
	// leaves it out: package-level function variables exist to be swapped
	// (tests replace them), so their initial value is no static target.
	// Local bindings (`f := s.Handle; f()`) are followed in every language.
	FollowFunctionVariables bool
	// LinearMRO: a member is looked up along the type's method resolution
	// order (Python's C3 linearization of its bases), and the first type
	// in that order that declares the name wins, instead of every base at
	// the shallowest depth that has it.
	LinearMRO bool
	// MethodNamespace: method names live apart from variable names (Java:
	// `int size = size();`). A called simple name then skips local bindings,
	// parameters and symbols nested in callables, and goes straight to
	// Rules.Lookup with Ctx.Called set.
	MethodNamespace bool
	// NoNameOnly: a call that cannot be resolved is dropped, never linked
	// by name only. On JavaScript and TypeScript corpora such guesses were
	// nearly all wrong (an untyped array's `xs.map()` picking the one
	// repository function named map).
	NoNameOnly bool
	// OrderedBindings: a local binding is visible only from where it is
	// written to the end of its block (Rust); a use before it names a
	// parameter or an outer name, never the later binding.
	OrderedBindings bool
	// CalledParamsTyped: a called name skips the parameters declared with
	// a named type (Kotlin: in `fun B.tag(tag: T?) = tag(T::class, tag)`
	// the call runs the function tag, not the parameter); a parameter of
	// a function type (whose written type names nothing) is still called.
	CalledParamsTyped bool
	// LooseArity: an override need not take the same parameters as the
	// method it overrides (JavaScript and Python do not check), so
	// dispatch matches overrides by name alone. (A method only subtypes
	// declare is still matched against the call's argument count.)
	LooseArity bool
	// ApplyMember: calling a type by name runs its static member of this
	// name when it declares one that fits (Scala `C(x)` is `C.apply(x)`
	// when C's companion object defines apply), else the constructor; a
	// type without constructors (a Scala object) is then not constructed.
	// Calling an instance (`f(x)` with f a value of a class) runs the
	// class's member of this name.
	ApplyMember string
	// CallMember: calling an instance of a class (`m(x)` with m a value
	// of class M) runs M's member of this name, found like any member
	// (Python `__call__`). Unlike ApplyMember, calling the class itself
	// still constructs it.
	CallMember string
	// ValueFlow: functions, classes and instances flow through
	// assignments and arguments into variables, fields and parameters
	// (flow.go), and a call through one of those that typing leaves
	// unresolved is linked to what flows in (ReasonValueFlow). Call
	// sites record their ArgExprs for it.
	ValueFlow bool
	// LinearSuper: `super.f` is the f of the nearest base in the
	// linearization that declares it, traits included (Scala), rather than
	// the f of the superclass only.
	LinearSuper bool
	// NearestLocal: of several same-named symbols nested in one callable
	// (Scala local defs of different blocks, as in test suites that
	// declare `def parser` in each test), a name means the one whose
	// declaration encloses the use, else the one declared nearest to it,
	// rather than all of them. The symbols nested in a variable or
	// property (defs in its initializer) are then visible inside it, and
	// the members of a class nested in a def or a val hide the names
	// around that class.
	NearestLocal bool
	// InstanceNoStatic: a member reached through an instance is never a
	// static one (Scala: the members of a companion object are the
	// type's static members, which `x.f` on a value of the type does not
	// reach).
	InstanceNoStatic bool
	// RepeatedIsSequence: inside a function, a repeated (variadic)
	// parameter `xs: T*` is a sequence of T (Scala), so `xs.foreach` is no
	// member of T and the elements are Ts.
	RepeatedIsSequence bool
	// FirstFit: a method call runs the first of the same-named members
	// found on the receiver's type that takes its arguments, not each
	// that does (TypeScript picks one signature: the overloads of one
	// declaration in the order written, a later merged declaration's
	// before an earlier one's).
	FirstFit bool
}

// Overloading is implemented by the Rules of languages where one name
// denotes several methods told apart by their parameter types (Java). When
// the rules implement it, the engine asks them instead of applying its own
// defaults (first-found members, arity-only overload choice, same-arity
// overrides).
type Overloading interface {
	// LookupMember returns the members named name of type t, own or
	// inherited, and the inheritance depth of the nearest; it replaces the
	// engine's breadth-first search, which stops at the first level that
	// declares the name (Java inherits overloads from every level).
	LookupMember(p *Program, t SymID, name string) ([]SymID, int)
	// SelectOverload keeps the candidates (same-named callables) that a
	// call with these argument expressions may run; args is nil for a call
	// without arguments. It may return nothing.
	SelectOverload(p *Program, c Ctx, cands []SymID, args []*Expr) []SymID
	// Overrides reports whether method o, found on a subtype of m's owner,
	// overrides m (same parameter types, not just the same count).
	Overrides(p *Program, m, o SymID) bool
}

// TypeExpr is a written type reduced to what the resolver follows: a dotted
// name path and whether the value is a container of that type, or the
// alternatives of a union.
type TypeExpr struct {
	Path []string // e.g. ["pkg", "Foo"]; empty when the type has no name we follow
	Elem uint8    // container depth: 1 for a slice, list, array, map value or channel of Path
	// Union holds the alternatives of a union of several named types
	// (`A | B`), Path then being empty: a value of the union is used as
	// the nearest type all of them are or extend (Program.ResolveType).
	Union []TypeExpr
}

// NewProgram indexes the facts of one language family. Files must be sorted
// by path for deterministic ids.
func NewProgram(rules Rules, facts []*FileFacts, config map[string][]byte) *Program {
	// Room for every symbol and file at once: growing the symbols to the
	// Go standard library's 230,000 step by step was a third of the time.
	n := 0
	for _, ff := range facts {
		n += len(ff.Symbols)
	}
	p := &Program{
		Rules:    rules,
		Config:   config,
		Modules:  map[string]*Module{},
		Files:    make([]*File, 0, len(facts)),
		Syms:     make([]Sym, 0, n),
		byPath:   make(map[string]*File, len(facts)),
		byName:   make(map[string][]SymID, n/2),
		aliases:  map[SymID]bool{},
		subtypes: map[SymID][]SymID{},
	}
	for _, ff := range facts {
		f := &File{Facts: ff, First: SymID(len(p.Syms))}
		p.Files = append(p.Files, f)
		for i := range ff.Symbols {
			p.Syms = append(p.Syms, Sym{File: f, Symbol: &ff.Symbols[i], Local: i, owner: NoSym})
		}
	}
	// Each file's own tables (its symbols' members are its own) on one
	// core, the program's name tables on the other: they write apart, and
	// each keeps the order of the symbols.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, f := range p.Files {
			ff := f.Facts
			f.Top, f.Imported, f.ImportLines, f.bindings = map[string][]SymID{}, map[string]Value{}, map[string]int{}, map[scopeName][]int{}
			for i := range ff.Symbols {
				s := &ff.Symbols[i]
				id := f.First + SymID(i)
				if s.Parent < 0 {
					f.Top[s.Name] = append(f.Top[s.Name], id)
				} else {
					p.attach(f.First+SymID(s.Parent), id)
				}
			}
			for i, b := range ff.Bindings {
				k := scopeName{b.Scope, b.Name}
				f.bindings[k] = append(f.bindings[k], i)
			}
		}
	}()
	for _, f := range p.Files {
		p.byPath[f.Facts.Path] = f
		for i := range f.Facts.Symbols {
			name := f.Facts.Symbols[i].Name
			p.byName[name] = append(p.byName[name], f.First+SymID(i))
		}
	}
	<-done
	p.assignIDs()
	return p
}

func (p *Program) attach(parent, id SymID) {
	ps := &p.Syms[parent]
	if ps.members == nil {
		ps.members = map[string][]SymID{}
	}
	s := &p.Syms[id]
	ps.members[s.Name] = append(ps.members[s.Name], id)
	if ps.Kind.IsType() {
		s.owner = parent
		if s.Kind == graph.KindConstructor {
			ps.ctors = append(ps.ctors, id)
		}
	}
}

// AddMember attaches a member declared outside its type's body (Go methods).
func (p *Program) AddMember(typ, member SymID) { p.attach(typ, member) }

// MergeMembers makes decls, declarations of one type (TypeScript's
// declaration merging: a class and an interface of one name, or several
// interfaces), share their members: each finds, under a name, the members
// all of them declare, those of later declarations first (the order in
// which TypeScript tries the overloads of merged declarations). Each
// member keeps the declaration that declares it as its owner. A call
// resolved to an interface's method (a signature) that is merged with a
// class dispatches to the class's implementation, its own or inherited,
// and to the overrides below the class.
func (p *Program) MergeMembers(decls []SymID) {
	if len(decls) < 2 {
		return
	}
	names := map[string]bool{}
	for _, d := range decls {
		for name := range p.Syms[d].members {
			names[name] = true
		}
	}
	merged := make(map[string][]SymID, len(names))
	for name := range names {
		var ids []SymID
		for i := len(decls) - 1; i >= 0; i-- {
			ids = append(ids, p.Syms[decls[i]].members[name]...)
		}
		merged[name] = ids
	}
	class := NoSym
	for _, d := range decls {
		if p.Syms[d].Kind == graph.KindClass {
			class = d
		}
	}
	for _, d := range decls {
		if class != NoSym && d != class {
			if p.mergedClass == nil {
				p.mergedClass = map[SymID]SymID{}
			}
			p.mergedClass[d] = class
		}
		ms := make(map[string][]SymID, len(merged))
		for name, ids := range merged {
			ms[name] = append([]SymID(nil), ids...)
		}
		p.Syms[d].members = ms
	}
}

// SetOwner makes typ the owner of member (HAS_METHOD, dispatch) without
// making it a member that lookups find: a Go method declared for another
// platform than the one that wins.
func (p *Program) SetOwner(member, typ SymID) {
	if p.Syms[typ].Kind.IsType() {
		p.Syms[member].owner = typ
	}
}

// Owner returns the type a member belongs to, or NoSym.
func (p *Program) Owner(member SymID) SymID { return p.Syms[member].owner }

// AddSubtype records that sub is a direct subtype of super.
func (p *Program) AddSubtype(sub, super SymID) {
	for _, s := range p.subtypes[super] {
		if s == sub {
			return
		}
	}
	p.subtypes[super] = append(p.subtypes[super], sub)
}

// assignIDs gives every symbol its graph id (SymbolIDs). Each file's are
// its own, so the files are shared out among the cores: on the Go
// standard library this was half of NewProgram, on one core.
func (p *Program) assignIDs() {
	workers := min(runtime.GOMAXPROCS(0), len(p.Files)/64+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(p.Files); k += workers {
				f := p.Files[k]
				for i, id := range SymbolIDs(f.Facts) {
					p.Syms[f.First+SymID(i)].ID = id
				}
			}
		}()
	}
	wg.Wait()
}

// SymbolIDs returns the graph id of each symbol of a file, by index: kind,
// file and qualified name, with a parameter-type suffix where overloads
// share a qualified name, and a counter after that where even those
// collide (several Go init functions). The history links a symbol as it
// was in a commit to the symbol at HEAD by this id.
func SymbolIDs(f *FileFacts) []string {
	keys := SymbolKeys(len(f.Symbols), func(i int) (graph.NodeKind, string) {
		return f.Symbols[i].Kind, f.Symbols[i].Qual
	}, func(i int) string { return OverloadSuffix(&f.Symbols[i]) })
	for i, k := range keys {
		keys[i] = graph.SymbolID(f.Symbols[i].Kind, f.Path, k)
	}
	return keys
}

// SymbolKeys returns the part of each symbol's id after the file: its
// qualified name, with its overload suffix and a counter where symbols of
// the same kind share the name. at gives the n symbols in document order,
// and suffix a symbol's overload suffix (asked only of those that share
// their name).
func SymbolKeys(n int, at func(i int) (kind graph.NodeKind, qual string), suffix func(i int) string) []string {
	type base struct {
		kind graph.NodeKind
		qual string
	}
	keys := make([]string, n)
	count := make(map[base]int, n)
	for i := 0; i < n; i++ {
		k, q := at(i)
		count[base{k, q}]++
	}
	used := map[base]int{}
	for i := 0; i < n; i++ {
		k, q := at(i)
		keys[i] = q
		if count[base{k, q}] > 1 {
			key := q + suffix(i)
			used[base{k, key}]++
			if c := used[base{k, key}]; c > 1 {
				key += "#" + strconv.Itoa(c)
			}
			keys[i] = key
		}
	}
	return keys
}

// OverloadSuffix is the suffix an id gets where overloads share a
// qualified name: the parameter types, "(int,String)".
func OverloadSuffix(s *Symbol) string {
	types := make([]string, len(s.Params))
	for i, prm := range s.Params {
		types[i] = strings.ReplaceAll(prm.Type, " ", "")
	}
	return "(" + strings.Join(types, ",") + ")"
}

// File returns the file at a repository-relative path.
func (p *Program) File(path string) *File { return p.byPath[path] }

// Sym returns the symbol with this id.
func (p *Program) Sym(id SymID) *Sym { return &p.Syms[id] }

// SymOf returns the SymID of symbol i of file f (-1 stays NoSym).
func (f *File) SymOf(i int) SymID {
	if i < 0 {
		return NoSym
	}
	return f.First + SymID(i)
}

// Module returns the module with this key, creating it.
func (p *Program) Module(key, name, dir string, isPackage bool) *Module {
	if m, ok := p.Modules[key]; ok {
		return m
	}
	m := &Module{Key: key, Name: name, Dir: dir, IsPackage: isPackage, Scope: map[string][]SymID{}}
	p.Modules[key] = m
	return m
}

// AddFile puts f in module m and adds its file-level names to m's scope.
func (p *Program) AddFile(m *Module, f *File) {
	f.Module = m
	m.Files = append(m.Files, f)
	for name, ids := range f.Top {
		m.Scope[name] = append(m.Scope[name], ids...)
	}
}

// SortedModules returns the modules sorted by key.
func (p *Program) SortedModules() []*Module {
	out := make([]*Module, 0, len(p.Modules))
	for _, m := range p.Modules {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Dir returns the directory of a repository-relative path ("" at the root).
func Dir(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// SymbolsNamed returns every symbol with this simple name.
func (p *Program) SymbolsNamed(name string) []SymID { return p.byName[name] }

// Members returns the own members of a type named name.
func (p *Program) Members(t SymID, name string) []SymID { return p.Syms[t].members[name] }

// AllMembers returns the own members of a type, by name.
func (p *Program) AllMembers(t SymID) map[string][]SymID { return p.Syms[t].members }

// Subtypes returns the direct subtypes of t.
func (p *Program) Subtypes(t SymID) []SymID { return p.subtypes[t] }

// Bases returns the resolved supertypes of t (including Go embedded types).
func (p *Program) Bases(t SymID) []SymID {
	out := make([]SymID, len(p.Syms[t].bases))
	for i, b := range p.Syms[t].bases {
		out[i] = b.sym
	}
	return out
}

// NearestMembers finds the members named name on t or, breadth first, on
// its bases, and the depth they were found at: the nearest level that
// declares the name hides the others. It is FindMember's search, for
// rules that implement Overloading with it (Kotlin, C++).
func (p *Program) NearestMembers(t SymID, name string) ([]SymID, int) {
	seen := map[SymID]bool{t: true}
	level := []SymID{t}
	for depth := 0; len(level) > 0 && depth < 12; depth++ {
		var found, next []SymID
		for _, s := range level {
			found = append(found, p.Syms[s].members[name]...)
			for _, b := range p.bases(s) {
				if !seen[b.sym] {
					seen[b.sym] = true
					next = append(next, b.sym)
				}
			}
		}
		if len(found) > 0 {
			return found, depth
		}
		level = next
	}
	return nil, 0
}

// DeclaringType is the type that declares type t (its nearest enclosing
// type symbol), or NoSym.
func (p *Program) DeclaringType(t SymID) SymID {
	s := p.Sym(t)
	for i := s.Parent; i >= 0; i = s.File.Facts.Symbols[i].Parent {
		if s.File.Facts.Symbols[i].Kind.IsType() {
			return s.File.SymOf(i)
		}
	}
	return NoSym
}
