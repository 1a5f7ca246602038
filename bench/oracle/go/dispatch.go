package main

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Dispatch is class-hierarchy analysis over the repository's named types:
// an interface-method call may run the method of every repository type T
// whose pointer method set (a superset of T's own) contains all the
// interface's methods.
//
// Packages are type-checked in several universes (one per load unit, and
// test variants recompile their dependents), so the same type exists as
// several distinct types.Type values. Methods are therefore compared by a
// key, not by identity: the name (qualified by the package path when
// unexported) and the signature without receiver and parameter names,
// with types written with full package paths.

// methodKey identifies a method across type-checking universes.
func methodKey(f *types.Func) string {
	var b strings.Builder
	if !f.Exported() && f.Pkg() != nil {
		b.WriteString(f.Pkg().Path())
		b.WriteByte('.')
	}
	b.WriteString(f.Name())
	sig := f.Signature()
	writeTuple(&b, sig.Params(), sig.Variadic())
	writeTuple(&b, sig.Results(), false)
	return b.String()
}

func writeTuple(b *strings.Builder, t *types.Tuple, variadic bool) {
	b.WriteByte('(')
	for i := range t.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
		}
		writeType(b, t.At(i).Type())
	}
	b.WriteByte(')')
}

// writeType writes a type with full package paths. Function types are
// written without parameter names (types.TypeString keeps them, so
// `func(rpc RPC)` and `func(RPC)` would differ although they are identical
// types); composite types containing function types are unfolded for that.
func writeType(b *strings.Builder, t types.Type) {
	switch t := t.(type) {
	case *types.Signature:
		b.WriteString("func")
		writeTuple(b, t.Params(), t.Variadic())
		writeTuple(b, t.Results(), false)
	case *types.Slice:
		b.WriteString("[]")
		writeType(b, t.Elem())
	case *types.Pointer:
		b.WriteByte('*')
		writeType(b, t.Elem())
	case *types.Array:
		b.WriteString("[" + strconv.FormatInt(t.Len(), 10) + "]")
		writeType(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		writeType(b, t.Key())
		b.WriteByte(']')
		writeType(b, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
		}
		writeType(b, t.Elem())
	default:
		b.WriteString(types.TypeString(t, qualifyByPath))
	}
}

func qualifyByPath(p *types.Package) string { return p.Path() }

// looseKey identifies a method by name and arity only, for calls through
// a type parameter: an instantiation substitutes the type arguments into
// the constraint's signature, which the declared method then matches.
func looseKey(f *types.Func) string {
	var b strings.Builder
	if !f.Exported() && f.Pkg() != nil {
		b.WriteString(f.Pkg().Path())
		b.WriteByte('.')
	}
	sig := f.Signature()
	fmt.Fprintf(&b, "%s/%d/%d", f.Name(), sig.Params().Len(), sig.Results().Len())
	return b.String()
}

// concreteType is one repository type seen from one universe: the keys of
// the methods of *T and, for those declared concretely in the repository,
// their declarations (exact keys and loose keys both).
type concreteType struct {
	keys    map[string]bool
	targets map[string]Node
}

// typeIndex holds the concrete types of all load units.
type typeIndex struct {
	types []concreteType
	byKey map[string][]int // method key -> types having it
	seen  map[string]bool  // type string + method keys, to skip repeats
}

func newTypeIndex() *typeIndex {
	return &typeIndex{byKey: make(map[string][]int), seen: make(map[string]bool)}
}

// addPackage indexes the named types a package declares (generic ones in
// their generic form) and the instances of repository generic types it
// uses.
func (ix *typeIndex) addPackage(x *callExtractor, p *packages.Package) {
	for _, obj := range p.TypesInfo.Defs {
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			ix.addType(x, tn.Type())
		}
	}
	for _, inst := range p.TypesInfo.Instances {
		if named, ok := inst.Type.(*types.Named); ok {
			ix.addType(x, named)
		}
	}
}

func (ix *typeIndex) addType(x *callExtractor, t types.Type) {
	named, ok := t.(*types.Named)
	if !ok {
		return
	}
	if _, _, ok := x.repo.position(named.Origin().Obj().Pos()); !ok {
		return
	}
	switch named.Underlying().(type) {
	case *types.Interface, *types.Pointer:
		return // not a concrete type with methods
	}
	mset := types.NewMethodSet(types.NewPointer(named))
	if mset.Len() == 0 {
		return
	}
	ct := concreteType{keys: make(map[string]bool, mset.Len()), targets: make(map[string]Node)}
	keys := make([]string, 0, mset.Len())
	for sel := range mset.Methods() {
		f := sel.Obj().(*types.Func)
		key, loose := methodKey(f), looseKey(f)
		ct.keys[key], ct.keys[loose] = true, true
		keys = append(keys, key, loose)
		decl := f.Origin()
		if types.IsInterface(decl.Signature().Recv().Type()) {
			continue // promoted from an embedded interface: not concrete
		}
		if n, ok := x.declaration(decl); ok {
			ct.targets[key], ct.targets[loose] = n, n
		}
	}
	slices.Sort(keys)
	id := types.TypeString(named, qualifyByPath) + "\x00" + strings.Join(keys, "\x00")
	if ix.seen[id] || len(ct.targets) == 0 {
		return
	}
	ix.seen[id] = true
	i := len(ix.types)
	ix.types = append(ix.types, ct)
	for _, k := range keys {
		ix.byKey[k] = append(ix.byKey[k], i)
	}
}

// implementations returns the declarations that a call of method (a key)
// through an interface with the given method keys may run.
func (ix *typeIndex) implementations(iface []string, method string) []Node {
	if len(iface) == 0 {
		return nil
	}
	rarest := iface[0]
	for _, k := range iface[1:] {
		if len(ix.byKey[k]) < len(ix.byKey[rarest]) {
			rarest = k
		}
	}
	seen := make(map[Node]bool)
	var out []Node
	for _, i := range ix.byKey[rarest] {
		ct := ix.types[i]
		if !hasAll(ct.keys, iface) {
			continue
		}
		if n, ok := ct.targets[method]; ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func hasAll(set map[string]bool, keys []string) bool {
	for _, k := range keys {
		if !set[k] {
			return false
		}
	}
	return true
}
