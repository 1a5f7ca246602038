package lang

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Interfaces declared outside the repository. A call `w.WriteHeader(200)`
// on an http.ResponseWriter, `err.Error()` on an error, `c.Close()` on an
// io.Closer names no method of the repository, yet the repository's own
// types that implement the interface are what may run. The rules name the
// method sets of such interfaces (ExternalInterfaces: Go's from a table
// generated from the standard library); a value whose type is one of them
// carries it (Value.Ext), the rules record which types of the repository
// implement it (AddExternalSubtype: by method sets in Go, by the bases a
// class names in nominal languages, which resolveBases records), and a
// call of one of its methods on such a value is linked to those types'
// methods with reason dispatch-external.
//
// On the Go web framework of the issue that asked for this, 203 of the 288
// calls the Go SSA call graph had and the index missed went through
// interfaces of the standard library (http.ResponseWriter, error, io).

// ExternalMethod is a method of an interface declared outside the
// repository, with its parameter and result counts.
type ExternalMethod struct {
	Name            string
	Params, Results int
}

// ExternalInterfaces is implemented by rules that know the method sets of
// interfaces declared outside the repository.
type ExternalInterfaces interface {
	// ExternalInterface returns the methods, sorted by name, of the
	// interface with this qualified name ("net/http.ResponseWriter",
	// "error", "java.lang.Runnable"); ok is false when it is not known.
	ExternalInterface(name string) (methods []ExternalMethod, ok bool)
}

// ImplicitExternalBase is implemented by rules whose classes all descend
// from a class outside the repository without naming it: every Java class
// extends java.lang.Object. A call of one of its methods on a value of
// that type (`value.equals(other)` on an Object) may run the method of any
// class of the repository that declares it (class-hierarchy analysis), so
// each class of the repository that names no superclass in it implements
// that type (addImplicitBases) and the others are found below those.
type ImplicitExternalBase interface {
	// ImplicitExternalBase returns the qualified name of that class, which
	// ExternalInterface must know.
	ImplicitExternalBase() string
}

// ExternalTable is a language's table of outside interfaces, read from
// its text (ParseExternalInterfaces' form) once, on first use.
type ExternalTable struct {
	text  string
	once  sync.Once
	table map[string][]ExternalMethod
}

// NewExternalTable returns the table that text describes.
func NewExternalTable(text string) *ExternalTable { return &ExternalTable{text: text} }

// All is the whole table, by qualified name.
func (t *ExternalTable) All() map[string][]ExternalMethod {
	t.once.Do(func() { t.table = ParseExternalInterfaces(t.text) })
	return t.table
}

// Lookup returns the methods of the interface of qualified name name
// (what a language's ExternalInterface answers).
func (t *ExternalTable) Lookup(name string) ([]ExternalMethod, bool) {
	ms, ok := t.All()[name]
	return ms, ok
}

// ParseExternalInterfaces reads a table of interfaces in the form the
// rules embed it: a line without leading space names a package, each
// indented line below it an interface of that package and its methods as
// name/params/results:
//
//	net/http
//	 ResponseWriter Header/0/1 Write/1/2 WriteHeader/1/0
//
// Interfaces before the first package line have no package (Go's
// predeclared error); blank lines and lines starting with # are skipped.
// The result maps qualified names ("net/http.ResponseWriter") to the
// methods, sorted by name.
func ParseExternalInterfaces(text string) map[string][]ExternalMethod {
	out := map[string][]ExternalMethod{}
	pkg := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line[0] != ' ' {
			pkg = strings.TrimSpace(line)
			continue
		}
		fields := strings.Fields(line)
		name := fields[0]
		if pkg != "" {
			name = pkg + "." + name
		}
		methods := make([]ExternalMethod, 0, len(fields)-1)
		for _, f := range fields[1:] {
			parts := strings.Split(f, "/")
			if len(parts) != 3 {
				continue
			}
			params, err1 := strconv.Atoi(parts[1])
			results, err2 := strconv.Atoi(parts[2])
			if err1 != nil || err2 != nil {
				continue
			}
			methods = append(methods, ExternalMethod{Name: parts[0], Params: params, Results: results})
		}
		sort.Slice(methods, func(i, j int) bool { return methods[i].Name < methods[j].Name })
		out[name] = methods
	}
	return out
}

// extEntry is a name outside the repository a value can carry: a package
// (or module) whose members are looked up by qualified name, or an
// interface with its methods.
type extEntry struct {
	name    string
	methods []ExternalMethod // nil for a package
	isType  bool
	// A type variable (ExternalTypeVariable) dispatches as the type
	// erasure, and only at call sites inside the symbol scope of file
	// that declares it.
	erasure int32
	file    *File
	scope   int
}

// extMember is a method of an external interface called with args
// arguments: Java overloads of one name differ in which of the
// implementations fit.
type extMember struct {
	ext  int32
	name string
	args int
}

// externalID interns name, returning its Value.Ext number (from 1).
func (p *Program) externalID(name string, methods []ExternalMethod, isType bool) int32 {
	if id, ok := p.extIndex[name]; ok {
		return id
	}
	if p.extIndex == nil {
		p.extIndex = map[string]int32{}
	}
	p.ext = append(p.ext, extEntry{name: name, methods: methods, isType: isType})
	id := int32(len(p.ext))
	p.extIndex[name] = id
	return id
}

// ExternalPackage is the value of a package outside the repository with
// this path, through which its interfaces are found by qualified name
// ("net/http" and ResponseWriter make "net/http.ResponseWriter").
func (p *Program) ExternalPackage(path string) Value {
	if _, ok := p.Rules.(ExternalInterfaces); !ok || path == "" {
		return external
	}
	if id, ok := p.extIndex[path]; ok && !p.ext[id-1].isType {
		return Value{Kind: ValExternal, Sym: NoSym, Ext: id}
	}
	return Value{Kind: ValExternal, Sym: NoSym, Ext: p.externalID(path, nil, false)}
}

// ExternalType is an instance of the interface outside the repository
// with this qualified name, or the plain external value when the rules do
// not know it.
func (p *Program) ExternalType(name string) Value {
	if id := p.ExternalTypeID(name); id != 0 {
		return Value{Kind: ValExternal, Sym: NoSym, Ext: id}
	}
	return external
}

// ExternalTypeID is the Value.Ext number of the interface outside the
// repository with this qualified name, 0 when the rules do not know it.
func (p *Program) ExternalTypeID(name string) int32 {
	if id, ok := p.extIndex[name]; ok && p.ext[id-1].isType {
		return id
	}
	ei, ok := p.Rules.(ExternalInterfaces)
	if !ok {
		return 0
	}
	methods, ok := ei.ExternalInterface(name)
	if !ok {
		return 0
	}
	return p.externalID(name, methods, true)
}

// ExternalTypeVariable is an instance of the type variable name declared
// by the local symbol scope of f, whose erasure is the type outside the
// repository erasure (Java's unbounded T is an Object). A call of one of
// its methods dispatches as one on erasure, but only where the variable
// is in scope (`item.toString()` in the generic class): elsewhere it
// stands for a type argument that is not known (the result of a generic
// method seen from a caller, a field of a generic supertype seen from a
// subclass that binds it), and links nothing. External when the rules do
// not know erasure.
func (p *Program) ExternalTypeVariable(f *File, scope int, name, erasure string) Value {
	base := p.ExternalTypeID(erasure)
	if base == 0 {
		return external
	}
	key := f.Facts.Path + "#" + strconv.Itoa(scope) + "#" + name
	id, ok := p.extIndex[key]
	if !ok {
		id = p.externalID(key, p.ext[base-1].methods, true)
		e := &p.ext[id-1]
		e.erasure, e.file, e.scope = base, f, scope
	}
	return Value{Kind: ValExternal, Sym: NoSym, Ext: id}
}

// externalAt returns the external type a call at scope of f on a value
// of ext dispatches through: ext itself, or for a type variable its
// erasure where the variable is in scope, else 0.
func (p *Program) externalAt(f *File, scope int, ext int32) int32 {
	e := &p.ext[ext-1]
	if e.erasure == 0 {
		return ext
	}
	if f != e.file {
		return 0
	}
	for depth := 0; scope >= 0 && depth < 64; depth++ {
		if scope == e.scope {
			return e.erasure
		}
		scope = f.Facts.Symbols[scope].Parent
	}
	return 0
}

// ExternalMethods returns the methods of the external interface ext (a
// Value.Ext), nil for anything else.
func (p *Program) ExternalMethods(ext int32) []ExternalMethod {
	if ext <= 0 || int(ext) > len(p.ext) {
		return nil
	}
	return p.ext[ext-1].methods
}

// ExternalName returns the qualified name of ext (a Value.Ext).
func (p *Program) ExternalName(ext int32) string {
	if ext <= 0 || int(ext) > len(p.ext) {
		return ""
	}
	return p.ext[ext-1].name
}

// externalMember resolves `name` on an external package value: the
// interface pkg.name when the rules know it.
func (p *Program) externalMember(v Value, name string) Value {
	if v.Ext <= 0 || int(v.Ext) > len(p.ext) || p.ext[v.Ext-1].isType {
		return external
	}
	return p.ExternalType(p.ext[v.Ext-1].name + "." + name)
}

// AddExternalSubtype records that the repository's type sub implements the
// external interface ext.
func (p *Program) AddExternalSubtype(sub SymID, ext int32) {
	if ext <= 0 {
		return
	}
	if p.extSubtypes == nil {
		p.extSubtypes = map[int32][]SymID{}
	}
	for _, s := range p.extSubtypes[ext] {
		if s == sub {
			return
		}
	}
	p.extSubtypes[ext] = append(p.extSubtypes[ext], sub)
}

// addImplicitBases records, when the rules have an implicit base
// (ImplicitExternalBase), every class of the repository that extends no
// class of the repository as implementing it. After resolveBases.
func (p *Program) addImplicitBases() {
	ib, ok := p.Rules.(ImplicitExternalBase)
	if !ok {
		return
	}
	ext := p.ExternalTypeID(ib.ImplicitExternalBase())
	if ext == 0 {
		return
	}
	for i := range p.Syms {
		s := &p.Syms[i]
		switch s.Kind {
		case graph.KindClass, graph.KindStruct, graph.KindEnum:
		default:
			continue
		}
		if slices.ContainsFunc(s.bases, func(b baseRef) bool { return b.kind == BaseExtends }) {
			continue // reached below its superclass
		}
		if slices.Contains(s.extBases, ext) {
			continue // named it: recorded by resolveBases
		}
		if p.extSubtypes == nil {
			p.extSubtypes = map[int32][]SymID{}
		}
		// Appended without AddExternalSubtype's scan, which over every
		// class would be quadratic.
		p.extSubtypes[ext] = append(p.extSubtypes[ext], SymID(i))
	}
}

// ExternalBases returns the interfaces outside the repository that type t
// names as bases (Go embedded interfaces, Java implemented interfaces),
// in declaration order.
func (p *Program) ExternalBases(t SymID) []int32 { return p.Syms[t].extBases }

// hasExternalMethod reports whether the external interface ext declares a
// method named name.
func (p *Program) hasExternalMethod(ext int32, name string) bool {
	ms := p.ExternalMethods(ext)
	i := sort.Search(len(ms), func(i int) bool { return ms[i].Name >= name })
	return i < len(ms) && ms[i].Name == name
}

// externalDispatch returns the methods named name that a call with args
// arguments on a value of the external interface ext may run: each
// implementing type's own or inherited method, and the overrides below
// it; sorted, deduplicated.
func (p *Program) externalDispatch(ext int32, name string, args int) []SymID {
	if !p.hasExternalMethod(ext, name) {
		return nil
	}
	return p.extDispatchMemo.Get(p, extMember{ext, name, args}, nil, func() []SymID {
		seen := map[SymID]bool{}
		var out []SymID
		keep := func(id SymID) {
			s := &p.Syms[id]
			if seen[id] || !s.Kind.IsCallable() || s.Abstract || s.Static {
				return
			}
			if !p.Rules.Features().LooseArity && !Accepts(s.Symbol, args) {
				return
			}
			seen[id] = true
			out = append(out, id)
		}
		for _, t := range p.extSubtypes[ext] {
			// An interface of the repository that extends ext has no
			// implementation of its own (unless a default method) but
			// the types below it do.
			ids, _ := p.FindMember(t, name)
			for _, id := range ids {
				keep(id)
			}
			for _, id := range p.methodsBelow(t, name, NoSym, func(*Sym, SymID) bool { return true }) {
				keep(id)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	})
}

// overloadsByOwner narrows externalDispatch's targets, which fit the
// call by argument count only, by argument types: of the several
// overloads one type declares (a Writer's write(int) and write(String)),
// those the rules choose (Overloading) for the call's arguments; all of
// them when the rules cannot choose. Order is kept.
func (p *Program) overloadsByOwner(c Ctx, targets []SymID, call *Call) []SymID {
	ov, ok := p.Rules.(Overloading)
	if !ok || len(targets) < 2 {
		return targets
	}
	byOwner := map[SymID][]SymID{}
	for _, t := range targets {
		byOwner[p.Syms[t].owner] = append(byOwner[p.Syms[t].owner], t)
	}
	if len(byOwner) == len(targets) {
		return targets
	}
	drop := map[SymID]bool{}
	for _, group := range byOwner {
		if len(group) < 2 {
			continue
		}
		kept := ov.SelectOverload(p, c, group, call.ArgExprs)
		if len(kept) == 0 {
			continue
		}
		for _, t := range group {
			if !slices.Contains(kept, t) {
				drop[t] = true
			}
		}
	}
	if len(drop) == 0 {
		return targets
	}
	out := make([]SymID, 0, len(targets)-len(drop))
	for _, t := range targets {
		if !drop[t] {
			out = append(out, t)
		}
	}
	return out
}

// externalBaseDispatch is externalDispatch for a call of name on an
// instance of the repository's type t that neither declares nor inherits
// it in the repository, when t embeds an interface outside the repository
// that declares it (`struct{ http.ResponseWriter }`), itself or through
// embedded types: the embedded value may be of any type that implements
// it. An interface, or a class that implements one, is left to its own
// subtypes (declaredBelow): its value is one of those.
func (p *Program) externalBaseDispatch(t SymID, name string, args int) []SymID {
	seen := map[SymID]bool{t: true}
	level := []SymID{t}
	for depth := 0; len(level) > 0 && depth < 12; depth++ {
		var next []SymID
		for _, s := range level {
			sym := &p.Syms[s]
			if sym.Kind == graph.KindInterface {
				continue
			}
			for i, ext := range sym.extBases {
				if sym.extEmbedded[i] && p.hasExternalMethod(ext, name) {
					return p.externalDispatch(ext, name, args)
				}
			}
			for _, b := range sym.bases {
				if b.kind == BaseEmbedded && !seen[b.sym] {
					seen[b.sym] = true
					next = append(next, b.sym)
				}
			}
		}
		level = next
	}
	return nil
}
