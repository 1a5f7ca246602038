package typescript

import (
	"maps"
	"path"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Organize makes every file a module and every directory holding source
// files a Package (key: the directory, "." at the root) that contains them.
// Module resolution state (tsconfig files, workspace packages) is built
// here and shared by every module through its Data.
func (rules) Organize(p *lang.Program) {
	proj := newProject(p)
	for _, f := range p.Files {
		fp := f.Facts.Path
		m := p.Module(fp, moduleName(fp), lang.Dir(fp), false)
		m.Data = newModuleInfo(proj, f, m)
		p.AddFile(m, f)
	}
	for _, f := range p.Files {
		dir := lang.Dir(f.Facts.Path)
		key, name := dir, path.Base(dir)
		if dir == "" {
			key, name = ".", "."
		}
		pkg := p.Module(key, name, dir, true)
		pkg.Files = append(pkg.Files, f)
	}
	mergeDeclarations(p)
}

// moduleName is the name a file's module goes by: its base name without
// extensions ("index" for src/index.ts, "util" for util.d.ts).
func moduleName(p string) string {
	base := path.Base(p)
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(base, ext) {
			return strings.TrimSuffix(base, ext)
		}
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// BindImports records the IMPORTS edges of a file (one per imported file)
// and binds its imported names.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	info := moduleOf(f)
	if info == nil {
		return
	}
	seen := map[string]bool{}
	for _, imp := range f.Facts.Imports {
		target := info.proj.resolve(f.Facts.Path, imp.Path)
		if target == nil || target == f || seen[target.Facts.Path] {
			continue
		}
		seen[target.Facts.Path] = true
		f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: fileNodeID(target), Line: imp.Line})
	}
	// In name order: binding a name may follow re-exports around a cycle,
	// where what the guard cuts depends on what was bound first, and a
	// map's order changes from run to run.
	for _, name := range slices.Sorted(maps.Keys(info.locals)) {
		f.Imported[name], _ = info.imported(name)
		f.ImportLines[name] = f.Facts.Imports[info.locals[name]].Line
	}
}
