package rust

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Name resolution, the way rustc resolves paths: a name is looked up in the
// innermost function's block-level `use` declarations, then in its module
// (items, child modules, `use` declarations, glob imports), then among the
// crates of the repository, then in the prelude. `crate`, `self`, `super`
// and `Self` start paths from the crate root, the module, its parent and
// the impl's type.

// Lookup resolves an unqualified name at c.
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	st := stateOf(c.File)
	if st == nil {
		return lang.None(), ""
	}
	mi := st.moduleAt(c.File, c.Scope, c.Pos)
	head := strings.HasPrefix(name, pathHead)
	if head {
		name = name[len(pathHead):]
	}
	switch name {
	case "Self":
		return st.selfValue(c), graph.ReasonSameFile
	case "crate":
		return lang.ModuleValue(mi.crate.root.mod), graph.ReasonSameFile
	case "self":
		return lang.ModuleValue(mi.mod), graph.ReasonSameFile
	case "super":
		if mi.parent != nil {
			return lang.ModuleValue(mi.parent.mod), graph.ReasonSameFile
		}
		return lang.None(), ""
	}
	if v, ok := st.typeParam(c, name); ok {
		return v, graph.ReasonSameFile
	}
	syms := c.File.Facts.Symbols
	if c.Called() && !head {
		// A called name skips the locals in the engine (fields and
		// methods live apart): a local closure or parameter of that name
		// hides the functions, a function declared in an enclosing body
		// comes first.
		if st.isLocal(c, name) {
			return lang.External(), ""
		}
		for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
			if syms[scope].Kind.IsCallable() {
				if ids := st.p.Members(c.File.SymOf(scope), name); len(ids) > 0 {
					return lang.SymsValue(ids), graph.ReasonSameFile
				}
			}
		}
	}
	for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
		for _, idx := range st.blockUses[c.File][scope] {
			imp := c.File.Facts.Imports[idx]
			var v lang.Value
			switch {
			case imp.Kind == lang.ImportName && boundName(imp) == name:
				v = st.resolveImport(c.File, idx, mi)
			case imp.Kind == lang.ImportWildcard:
				v = st.memberOf(st.resolveImport(c.File, idx, mi), name)
			}
			if v.Known() {
				return v, graph.ReasonImportResolved
			}
		}
	}
	return st.lookupIn(mi, name, c.TypesOnly(), c.Called(), true)
}

// isLocal reports whether a local binding or parameter named name is
// visible at c.
func (st *state) isLocal(c *lang.Ctx, name string) bool {
	syms := c.File.Facts.Symbols
	in := map[int]bool{}
	for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
		in[scope] = true
		for _, prm := range syms[scope].Params {
			if prm.Name == name {
				return true
			}
		}
	}
	byName := st.bindings[c.File]
	if byName == nil {
		byName = map[string][]int{}
		for i, b := range c.File.Facts.Bindings {
			byName[b.Name] = append(byName[b.Name], i)
		}
		st.bindings[c.File] = byName
	}
	for _, i := range byName[name] {
		b := &c.File.Facts.Bindings[i]
		if in[b.Scope] && b.Byte <= c.Pos && (b.End == 0 || c.Pos < b.End) {
			return true
		}
	}
	return false
}

// lookupIn resolves a name in module mi: its items, child modules, uses,
// globs; with outside, also the repository's crates and the prelude.
func (st *state) lookupIn(mi *modInfo, name string, types, called, outside bool) (lang.Value, graph.Reason) {
	k := lookupKey{mi, name}
	if st.busy[k] {
		st.p.Cut()
		return lang.None(), "" // globs importing each other
	}
	st.busy[k] = true
	defer delete(st.busy, k)
	child := mi.children[name]
	if ids := mi.items[name]; len(ids) > 0 {
		if v := st.pickItem(ids, types, called, child != nil); v.Known() {
			return v, graph.ReasonSameFile
		}
	}
	if child != nil {
		return lang.ModuleValue(child.mod), graph.ReasonSameFile
	}
	for _, idx := range mi.uses[name] {
		if v := st.resolveImport(mi.file, idx, mi); v.Known() {
			return v, graph.ReasonImportResolved
		}
	}
	externalGlob := false
	for _, idx := range mi.globs {
		target := st.resolveImport(mi.file, idx, mi)
		if target.Kind == lang.ValExternal {
			externalGlob = true
			continue
		}
		if v := st.memberOf(target, name); v.Known() {
			return v, graph.ReasonImportResolved
		}
	}
	if !outside {
		return lang.None(), ""
	}
	if root := st.externs[name]; root != nil {
		return lang.ModuleValue(root.mod), graph.ReasonImportResolved
	}
	if externalGlob || isBuiltin(name) {
		return lang.External(), ""
	}
	return lang.None(), ""
}

// pickItem chooses among the items of one name by namespace: a type where
// a type is wanted; a child module of the same name over a function or
// value when the name starts a path.
func (st *state) pickItem(ids []lang.SymID, types, called, hasChild bool) lang.Value {
	var kept []lang.SymID
	for _, id := range ids {
		s := st.p.Sym(id)
		switch {
		case types && !s.Kind.IsType():
		case hasChild && !called && !s.Kind.IsType():
		default:
			kept = append(kept, id)
		}
	}
	return lang.SymsValue(kept)
}

// exportOf is what a path reaches in module mi by name: `m::name`.
func (st *state) exportOf(mi *modInfo, name string) lang.Value {
	switch name {
	case "super":
		if mi.parent != nil {
			return lang.ModuleValue(mi.parent.mod)
		}
		return lang.None()
	case "self":
		return lang.ModuleValue(mi.mod)
	}
	v, _ := st.lookupIn(mi, name, false, false, false)
	return v
}

// memberOf is name in what a glob or a path reaches: a module's export,
// an enum's variant or a type's associated item.
func (st *state) memberOf(v lang.Value, name string) lang.Value {
	switch v.Kind {
	case lang.ValModule:
		if mi := infoOf(v.Mod); mi != nil {
			return st.exportOf(mi, name)
		}
	case lang.ValSym:
		if st.p.Sym(v.Sym).Kind.IsType() {
			ids, _ := rules{}.LookupMember(st.p, v.Sym, name)
			return lang.SymsValue(ids)
		}
	case lang.ValExternal:
		return lang.External()
	}
	return lang.None()
}

// Export is what module m exports under name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	mi := infoOf(m)
	if mi == nil {
		return lang.None()
	}
	return mi.st.exportOf(mi, name)
}

// resolveImport is what import idx of file f reaches: the module, item or
// crate its path names (for a glob, what the glob reads from). mi is the
// module the import is declared in.
func (st *state) resolveImport(f *lang.File, idx int, mi *modInfo) lang.Value {
	k := importKey{f, idx}
	if v, ok := st.importMemo.Cached(st.p, k); ok {
		return v
	}
	mark, ok := st.importMemo.Enter(st.p, k)
	if !ok {
		return lang.None()
	}
	imp := f.Facts.Imports[idx]
	var segs []string
	if imp.Path != "" {
		segs = strings.Split(imp.Path, "::")
	}
	if imp.Kind == lang.ImportName {
		segs = append(segs, imp.Name)
	}
	v := st.resolvePath(mi, segs)
	st.importMemo.Leave(st.p, k, mark, v, true)
	return v
}

// resolvePath resolves the segments of a use path from module mi.
func (st *state) resolvePath(mi *modInfo, segs []string) lang.Value {
	if len(segs) == 0 {
		return lang.None()
	}
	var v lang.Value
	switch head := segs[0]; head {
	case "crate":
		v = lang.ModuleValue(mi.crate.root.mod)
	case "self":
		v = lang.ModuleValue(mi.mod)
	case "super":
		if mi.parent == nil {
			return lang.None()
		}
		v = lang.ModuleValue(mi.parent.mod)
	case "":
		return lang.None()
	default:
		v, _ = st.lookupIn(mi, head, false, false, true)
	}
	for _, seg := range segs[1:] {
		v = st.memberOf(v, seg)
		if !v.Known() {
			return v
		}
	}
	return v
}

// typeParam resolves a type parameter of an enclosing item (a function,
// an impl block, a trait, a type) to its first trait bound, so that a
// value of type T has the methods of its bound; an unbounded parameter
// or one bound by a trait outside the repository has none we know.
func (st *state) typeParam(c *lang.Ctx, name string) (lang.Value, bool) {
	syms := c.File.Facts.Symbols
	for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
		s := &syms[scope]
		for _, tp := range s.TypeParams {
			if tp.Name != name {
				continue
			}
			file, at, bound := c.File, scope, tp.Type
			if bound == "" {
				impl, ok := st.bounds[c.File.SymOf(scope)][name]
				if !ok {
					return lang.None(), true
				}
				is := st.p.Sym(impl)
				file, at = is.File, is.Local
				for _, ip := range is.TypeParams {
					if ip.Name == name {
						bound = ip.Type
					}
				}
			}
			v := st.p.ResolveType(c.At(file, at, file.Facts.Symbols[at].StartByte), bound)
			switch {
			case v.Kind == lang.ValInstance && v.Elem == 0:
				return lang.SymValue(v.Sym), true
			case v.Kind == lang.ValExternal:
				return lang.External(), true
			}
			return lang.None(), true
		}
	}
	return lang.None(), false
}

// selfValue is the type `Self` names at c: the impl block's type (the impl
// block itself when its type is outside the repository), or the trait or
// type being declared.
func (st *state) selfValue(c *lang.Ctx) lang.Value {
	syms := c.File.Facts.Symbols
	for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
		s := &syms[scope]
		id := c.File.SymOf(scope)
		switch {
		case isImpl(s):
			if t := st.implType(id); t != lang.NoSym {
				return lang.SymValue(t)
			}
			return lang.SymValue(id)
		case s.Kind.IsType():
			return lang.SymValue(id)
		}
	}
	return lang.None()
}

// isBuiltin: the prelude's types, traits, functions and variants, the
// primitive types and the standard crates, which the repository does not
// define.
func isBuiltin(name string) bool { return builtins[name] }

var builtins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`std core alloc Some None Ok Err Box Vec String Option Result drop
		Default Iterator IntoIterator DoubleEndedIterator ExactSizeIterator Extend FromIterator ToString
		ToOwned From Into TryFrom TryInto AsRef AsMut Clone Copy Send Sync Sized Unpin Fn FnMut FnOnce
		PartialEq Eq PartialOrd Ord Drop Debug i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64
		bool char str`) {
		builtins[n] = true
	}
}
