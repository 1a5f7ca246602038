package typescript

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// A module's exports are computed on demand from its facts, never from
// another file's bound imports, so the order in which files are bound does
// not matter. Each export name is memoised per module, with an in-flight
// guard that cuts re-export cycles (a cycle yields nothing).

// moduleInfo is the rules' bookkeeping for one file module.
type moduleInfo struct {
	proj *project
	file *lang.File
	mod  *lang.Module
	// exports indexes Facts.Exports by exported name.
	exports map[string][]int
	// locals maps the local names bound by imports to Facts.Imports.
	locals map[string]int

	importMemo lang.Memo[string, lang.Value]
	exportMemo lang.Memo[string, lang.Value]
	// busy holds the type parameters whose bounds are being resolved.
	busy map[string]bool
}

func newModuleInfo(proj *project, f *lang.File, m *lang.Module) *moduleInfo {
	info := &moduleInfo{proj: proj, file: f, mod: m, exports: map[string][]int{}, locals: map[string]int{},
		busy: map[string]bool{}}
	for i, e := range f.Facts.Exports {
		info.exports[e.Name] = append(info.exports[e.Name], i)
	}
	for i, imp := range f.Facts.Imports {
		if imp.Reexport {
			continue
		}
		name := ""
		switch imp.Kind {
		case lang.ImportModule:
			name = imp.Alias
		case lang.ImportName:
			name = imp.Alias
			if name == "" {
				name = imp.Name
			}
		}
		if _, dup := info.locals[name]; name != "" && !dup {
			info.locals[name] = i
		}
	}
	return info
}

// moduleOf returns the rules' data of a file's module.
func moduleOf(f *lang.File) *moduleInfo {
	if f == nil || f.Module == nil {
		return nil
	}
	info, _ := f.Module.Data.(*moduleInfo)
	return info
}

func fileNodeID(f *lang.File) string { return graph.FileID(f.Facts.Path) }

// imported returns the value an import binds to a local name; ok is false
// when no import binds it.
func (m *moduleInfo) imported(name string) (lang.Value, bool) {
	i, ok := m.locals[name]
	if !ok {
		return lang.None(), false
	}
	imp := &m.file.Facts.Imports[i]
	return m.importMemo.Get(m.proj.p, name, lang.None(), func() lang.Value { return m.proj.importValue(m.file, imp) }), true
}

// importValue is what one import binds: a module (or, for a module that
// assigns module.exports / `export =`, that value), one export, or an
// external value when the specifier leaves the repository.
func (proj *project) importValue(from *lang.File, imp *lang.Import) lang.Value {
	target := proj.resolve(from.Facts.Path, imp.Path)
	if target == nil {
		return lang.External()
	}
	switch imp.Kind {
	case lang.ImportModule:
		return proj.moduleValue(target)
	case lang.ImportName:
		return moduleOf(target).export(imp.Name)
	}
	return lang.None()
}

// moduleValue is the value of a whole module: what `module.exports = x` or
// `export = x` assigns, else the module itself.
func (proj *project) moduleValue(f *lang.File) lang.Value {
	info := moduleOf(f)
	if info == nil {
		return lang.None()
	}
	if v := info.export(lang.ExportAssign); v.Known() && v.Kind != lang.ValExternal {
		return v
	}
	return lang.ModuleValue(info.mod)
}

// Export returns what module m exports under name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	info, _ := m.Data.(*moduleInfo)
	if info == nil {
		return lang.None()
	}
	return info.export(name)
}

func (m *moduleInfo) export(name string) lang.Value {
	return m.exportMemo.Get(m.proj.p, name, lang.None(), func() lang.Value { return m.computeExport(name) })
}

// computeExport looks name up in order: export lists and CommonJS exports,
// declarations marked `export`, named and namespace re-exports, the
// default export of a CommonJS module (its module.exports), star
// re-exports, and static members of an assigned module.exports class.
func (m *moduleInfo) computeExport(name string) lang.Value {
	f := m.file
	p := m.proj.p
	declared := false
	for _, i := range m.exports[name] {
		e := &f.Facts.Exports[i]
		declared = true
		var v lang.Value
		switch {
		case e.Local != "":
			v = m.local(e.Local)
		case e.Value != nil:
			v = m.eval(e.Value)
		}
		if v.Known() {
			return v
		}
	}
	if name != lang.ExportAssign {
		var ids []lang.SymID
		for _, id := range f.Top[name] {
			if s := p.Sym(id); s.Exported && s.Qual == s.Name {
				ids = append(ids, id)
			}
		}
		if id := pickDecl(p, ids, false); id != lang.NoSym {
			return lang.SymValue(id)
		}
	}
	for i := range f.Facts.Imports {
		imp := &f.Facts.Imports[i]
		if !imp.Reexport {
			continue
		}
		switch imp.Kind {
		case lang.ImportName:
			exported := imp.Alias
			if exported == "" {
				exported = imp.Name
			}
			if exported == name {
				return m.proj.importValue(f, imp)
			}
		case lang.ImportModule:
			if imp.Alias == name {
				return m.proj.importValue(f, imp)
			}
		}
	}
	if name == lang.ExportAssign {
		return lang.None()
	}
	if name == "default" {
		if v := m.export(lang.ExportAssign); v.Known() {
			return v
		}
		if len(f.Facts.Exports) > 0 {
			// A CommonJS module imported by default: its exports object.
			return lang.ModuleValue(m.mod)
		}
		return lang.None()
	}
	external := false
	for i := range f.Facts.Imports {
		imp := &f.Facts.Imports[i]
		if !imp.Reexport || imp.Kind != lang.ImportWildcard {
			continue
		}
		target := m.proj.resolve(f.Facts.Path, imp.Path)
		if target == nil {
			external = true
			continue
		}
		if v := moduleOf(target).export(name); v.Known() && v.Kind != lang.ValExternal {
			return v
		} else if v.Kind == lang.ValExternal {
			external = true
		}
	}
	if av := m.export(lang.ExportAssign); av.Kind == lang.ValSym && p.Sym(av.Sym).Kind.IsType() {
		if ids, _ := p.FindMember(av.Sym, name); len(ids) > 0 {
			return lang.SymsValue(ids)
		}
	}
	if external && !declared {
		return lang.External()
	}
	return lang.None()
}

// local is the value of a file-level name of this module: a declaration,
// or a name bound by one of its imports.
func (m *moduleInfo) local(name string) lang.Value {
	if id := pickDecl(m.proj.p, m.file.Top[name], false); id != lang.NoSym {
		return lang.SymValue(id)
	}
	if v, ok := m.imported(name); ok {
		return v
	}
	return lang.None()
}

// eval evaluates an exported expression (`export default new Foo()`) at
// the end of the file.
func (m *moduleInfo) eval(e *lang.Expr) lang.Value {
	c := lang.Ctx{File: m.file, Scope: -1, Pos: ^uint32(0) >> 1}
	if e.Kind == lang.ExprCall {
		callee, _ := m.proj.p.Eval(c, e.X)
		return m.proj.p.CallResult(c, callee, 0)
	}
	v, _ := m.proj.p.Eval(c, e)
	return v
}
