package python

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Imports are bound on demand and memoized: `from pkg import name` asks
// what pkg/__init__.py binds to name, which may be one of its own imports
// (a re-export) that is then bound first, in whatever order the files come.
// An import that is already being bound (an import cycle) counts as not
// binding anything.

// boundImport is one resolved import.
type boundImport struct {
	state  uint8      // bindNew, bindBusy, bindDone
	local  string     // the name it binds; "" for a wildcard import
	value  lang.Value // what the name is bound to
	module *lang.Module
	edge   string // the File node it imports, "" when outside the repository
}

const (
	bindNew uint8 = iota
	bindBusy
	bindDone
)

// BindImports fills f.Imported, f.Wildcards and f.ImportEdges.
func (r rules) BindImports(p *lang.Program, f *lang.File) {
	info := infoOf(f.Module)
	for i, imp := range f.Facts.Imports {
		b := r.bindImport(p, f, i)
		if b == nil {
			continue
		}
		if b.edge != "" {
			f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: b.edge, Line: imp.Line})
		}
		if imp.Scope >= 0 {
			continue
		}
		if imp.Kind == lang.ImportWildcard {
			if b.module != nil {
				f.Wildcards = append(f.Wildcards, b.module)
			} else {
				info.externalWildcard = true
			}
			continue
		}
		if prev, ok := f.Imported[b.local]; !ok || (prev.Kind == lang.ValExternal && b.value.Kind != lang.ValExternal) {
			f.Imported[b.local] = b.value
			f.ImportLines[b.local] = imp.Line
		}
	}
}

// bindImport resolves import i of f, or returns nil while it is being
// resolved.
func (r rules) bindImport(p *lang.Program, f *lang.File, i int) *boundImport {
	info := infoOf(f.Module)
	if info.imports == nil {
		info.imports = make([]boundImport, len(f.Facts.Imports))
	}
	b := &info.imports[i]
	switch b.state {
	case bindDone:
		return b
	case bindBusy:
		return nil
	}
	b.state = bindBusy
	imp := &f.Facts.Imports[i]
	b.value = lang.External()
	switch imp.Kind {
	case lang.ImportModule:
		parts := strings.Split(imp.Path, ".")
		chain := modulePath(p, f, nil, parts, true)
		b.local = parts[0]
		if imp.Alias != "" {
			b.local = imp.Alias
			if len(chain) == len(parts) {
				b.value = lang.ModuleValue(chain[len(chain)-1])
			}
		} else if len(chain) > 0 {
			b.value = lang.ModuleValue(chain[0])
		}
		for j := len(chain) - 1; j >= 0; j-- {
			if file := infoOf(chain[j]).file; file != nil {
				b.edge = graph.FileID(file.Facts.Path)
				break
			}
		}
	case lang.ImportName:
		b.local = imp.Name
		if imp.Alias != "" {
			b.local = imp.Alias
		}
		if m, top := fromModule(p, f, imp.Path); top {
			// `from . import x` in a module at the top of a source root.
			if sub := topModule(p, imp.Name, f); sub != nil {
				b.value, b.edge = lang.ModuleValue(sub), fileNode(sub)
			}
		} else if m != nil {
			b.edge = fileNode(m)
			if v := r.Export(p, m, imp.Name); v.Known() {
				b.value = v
				if v.Kind == lang.ValModule {
					if e := fileNode(v.Mod); e != "" {
						b.edge = e
					}
				}
			}
		}
	case lang.ImportWildcard:
		if m, _ := fromModule(p, f, imp.Path); m != nil {
			b.module = m
			b.edge = fileNode(m)
		}
	}
	b.state = bindDone
	return b
}

// fileNode is the File node id of a module with a file, else "".
func fileNode(m *lang.Module) string {
	if info := infoOf(m); info != nil && info.file != nil {
		return graph.FileID(info.file.Facts.Path)
	}
	return ""
}

// modulePath resolves the modules named by parts, starting below base (nil:
// top level, seen from file from). It returns the prefix that resolved.
func modulePath(p *lang.Program, from *lang.File, base *lang.Module, parts []string, top bool) []*lang.Module {
	var chain []*lang.Module
	cur := base
	for i, part := range parts {
		var next *lang.Module
		if i == 0 && top {
			next = topModule(p, part, from)
		} else if cur != nil {
			next = cur.Sub[part]
		}
		if next == nil {
			break
		}
		chain = append(chain, next)
		cur = next
	}
	return chain
}

// fromModule resolves the module of `from <path> import ...`: absolute, or
// relative to the importing file's package. It returns nil when the module
// is not in the repository, and top when the path names the top level of a
// source root (`from . import x` in a top-level module).
func fromModule(p *lang.Program, f *lang.File, spec string) (m *lang.Module, top bool) {
	rest := strings.TrimLeft(spec, ".")
	dots := len(spec) - len(rest)
	var parts []string
	if rest != "" {
		parts = strings.Split(rest, ".")
	}
	if dots == 0 {
		chain := modulePath(p, f, nil, parts, true)
		if len(chain) != len(parts) || len(chain) == 0 {
			return nil, false
		}
		return chain[len(chain)-1], false
	}
	base := packageOf(f)
	for i := 1; i < dots; i++ {
		if base == nil {
			return nil, false
		}
		base = infoOf(base).parent
	}
	if len(parts) == 0 {
		return base, base == nil
	}
	chain := modulePath(p, f, base, parts, base == nil)
	if len(chain) != len(parts) {
		return nil, false
	}
	return chain[len(chain)-1], false
}

// Export returns what module m binds to name: a definition or import of its
// file (re-exports), a name brought in by one of its wildcard imports, or a
// submodule.
func (r rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	info := infoOf(m)
	if info == nil {
		return lang.None()
	}
	if info.exporting[name] {
		// Asked again while computing it: the package's own `from . import
		// name` (or `from pkg import name` in pkg/__init__.py), met when an
		// importer of pkg is bound first. Python falls back to importing
		// the submodule, so that is the answer, whatever the file order.
		if sub := m.Sub[name]; sub != nil {
			return lang.ModuleValue(sub)
		}
		return lang.None()
	}
	if info.exporting == nil {
		info.exporting = map[string]bool{}
	}
	info.exporting[name] = true
	defer delete(info.exporting, name)
	if f := info.file; f != nil {
		if v, _ := r.moduleName(p, f, name); v.Known() {
			return v
		}
		if v := r.wildcardName(p, f, name); v.Known() {
			return v
		}
	}
	if sub := m.Sub[name]; sub != nil {
		return lang.ModuleValue(sub)
	}
	return lang.None()
}

// starExports reports whether `from m import *` brings in name: the names
// of __all__ when m declares it, else every name not starting with "_".
func starExports(m *lang.Module, name string) bool {
	if info := infoOf(m); info != nil && info.all != nil {
		return info.all[name]
	}
	return !strings.HasPrefix(name, "_")
}

// wildcardName looks name up in the modules f imports with `*`.
func (r rules) wildcardName(p *lang.Program, f *lang.File, name string) lang.Value {
	for i, imp := range f.Facts.Imports {
		if imp.Kind != lang.ImportWildcard || imp.Scope >= 0 {
			continue
		}
		b := r.bindImport(p, f, i)
		if b == nil || b.module == nil || !starExports(b.module, name) {
			continue
		}
		if v := r.Export(p, b.module, name); v.Known() {
			return v
		}
	}
	return lang.None()
}

// moduleName is what name means at the top level of file f: a definition
// or a (non-wildcard) import. A function or class defined in the file wins
// over an import of the same name, and an import that resolves inside the
// repository wins over a plain variable (`try: from ._c import f` /
// `except ImportError: f = None`).
func (r rules) moduleName(p *lang.Program, f *lang.File, name string) (lang.Value, graph.Reason) {
	sym := lang.NoSym
	for _, id := range f.Top[name] {
		if k := p.Sym(id).Kind; k.IsCallable() || k.IsType() {
			sym = id
			break
		}
		if sym == lang.NoSym {
			sym = id
		}
	}
	if sym != lang.NoSym && (p.Sym(sym).Kind.IsCallable() || p.Sym(sym).Kind.IsType()) {
		return lang.SymValue(sym), graph.ReasonSameFile
	}
	imported := lang.None()
	for _, i := range r.importsNamed(f, name) {
		b := r.bindImport(p, f, i)
		if b == nil {
			continue
		}
		if b.value.Kind != lang.ValExternal {
			imported = b.value
			break
		}
		if !imported.Known() {
			imported = b.value
		}
	}
	switch {
	case imported.Known() && imported.Kind != lang.ValExternal:
		return imported, graph.ReasonImportResolved
	case sym != lang.NoSym:
		return lang.SymValue(sym), graph.ReasonSameFile
	case imported.Known():
		return imported, graph.ReasonImportResolved
	}
	return lang.None(), ""
}

// importsNamed lists the file-level imports of f that bind name.
func (r rules) importsNamed(f *lang.File, name string) []int {
	info := infoOf(f.Module)
	if info.byName == nil {
		info.byName = map[string][]int{}
		info.scoped = map[scopedName][]int{}
		for i, imp := range f.Facts.Imports {
			local := importLocal(&imp)
			if local == "" {
				continue
			}
			if imp.Scope >= 0 {
				k := scopedName{imp.Scope, local}
				info.scoped[k] = append(info.scoped[k], i)
			} else {
				info.byName[local] = append(info.byName[local], i)
			}
		}
	}
	return info.byName[name]
}

// scopedImports lists the imports inside scope of f that bind name.
func (r rules) scopedImports(f *lang.File, scope int, name string) []int {
	r.importsNamed(f, name)
	return infoOf(f.Module).scoped[scopedName{scope, name}]
}

// importLocal is the name an import binds, as written.
func importLocal(imp *lang.Import) string {
	switch {
	case imp.Kind == lang.ImportWildcard:
		return ""
	case imp.Alias != "":
		return imp.Alias
	case imp.Kind == lang.ImportName:
		return imp.Name
	}
	name, _, _ := strings.Cut(imp.Path, ".")
	return name
}
