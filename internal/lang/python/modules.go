package python

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Every .py file is a module. A directory with __init__.py is a package
// (the __init__.py file is the package's module, and the Package node's key
// is its dotted name); a directory without one is a namespace package: a
// module without a file whose attributes are its submodules, and without a
// Package node.
//
// Dotted names are relative to a source root, as if the root were on
// sys.path. The roots are the repository root, `src/` (the usual layout of
// an installable project), and the parent directory of every top-most
// package (`lib/foo/__init__.py` makes `lib` a root, so that the package is
// `foo`). A file's name comes from the deepest root above it. So that
// `import src.foo` or `import lib.foo` also work, each deeper root is
// reachable from the repository root as a namespace package whose
// attributes are the top-level modules under it.
//
// Two files of the repository can have the same dotted name (two projects
// each with a `tests` package). The first keeps the name as its module key
// and the others get "@" and their path appended; an absolute import picks the
// one closest to the importing file.

// moduleInfo is the Python bookkeeping of a module (Module.Data).
type moduleInfo struct {
	file   *lang.File   // the module's file; nil for a namespace package
	parent *lang.Module // the package this module is an attribute of; nil at top level
	root   string       // the source root the dotted name is relative to
	rank   int          // which of same-named modules Python prefers: package > file > namespace
	// twins are the modules sharing this module's dotted name, itself
	// included; set on the module that holds the plain key.
	twins []*lang.Module

	imports   []boundImport    // one per import of file, filled on demand
	byName    map[string][]int // file-level imports by the name they bind
	scoped    map[scopedName][]int
	exporting map[string]bool // names being exported (wildcard cycles)
	all       map[string]bool // __all__, nil when the module does not declare it
	// externalWildcard: `from outside import *` may bind any name.
	externalWildcard bool
}

type scopedName struct {
	scope int
	name  string
}

const (
	rankNamespace = iota
	rankFile
	rankPackage
)

func infoOf(m *lang.Module) *moduleInfo {
	if m == nil {
		return nil
	}
	info, _ := m.Data.(*moduleInfo)
	return info
}

func isInitFile(p string) bool { return path.Base(p) == "__init__.py" }

// organizer builds the module tree of one program.
type organizer struct {
	p        *lang.Program
	pkgDirs  map[string]bool
	dirs     map[string]*lang.Module // module of each directory (package or namespace)
	roots    []string                // deepest first
	topLevel map[string][]*lang.Module
}

// Organize gives every file its module and builds the package tree.
func (rules) Organize(p *lang.Program) {
	o := &organizer{p: p, pkgDirs: map[string]bool{}, dirs: map[string]*lang.Module{}, topLevel: map[string][]*lang.Module{}}
	for _, f := range p.Files {
		if isInitFile(f.Facts.Path) {
			o.pkgDirs[lang.Dir(f.Facts.Path)] = true
		}
	}
	o.findRoots()
	for _, f := range p.Files {
		o.addFile(f)
	}
	o.linkRoots()
}

// findRoots computes the source roots, deepest first.
func (o *organizer) findRoots() {
	set := map[string]bool{"": true}
	for dir := range o.pkgDirs {
		if dir == "" {
			continue
		}
		if parent := lang.Dir(dir); !o.pkgDirs[parent] {
			set[parent] = true
		}
	}
	for _, f := range o.p.Files {
		if strings.HasPrefix(f.Facts.Path, "src/") && !o.pkgDirs["src"] {
			set["src"] = true
			break
		}
	}
	for r := range set {
		o.roots = append(o.roots, r)
	}
	sort.Slice(o.roots, func(i, j int) bool {
		di, dj := strings.Count(o.roots[i], "/"), strings.Count(o.roots[j], "/")
		if o.roots[i] == "" || o.roots[j] == "" {
			return o.roots[j] == ""
		}
		if di != dj {
			return di > dj
		}
		return o.roots[i] < o.roots[j]
	})
}

// rootOf is the deepest source root containing dir.
func (o *organizer) rootOf(dir string) string {
	for _, r := range o.roots {
		if r == "" || dir == r || strings.HasPrefix(dir, r+"/") {
			return r
		}
	}
	return ""
}

// dotted is the dotted name of a repository path (a directory, or a file
// without its extension) below root.
func dotted(root, p string) string {
	if root != "" {
		p = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
	}
	return strings.ReplaceAll(p, "/", ".")
}

func (o *organizer) addFile(f *lang.File) {
	p := f.Facts.Path
	dir := lang.Dir(p)
	root := o.rootOf(dir)
	var m *lang.Module
	switch {
	case isInitFile(p) && dir != root:
		m = o.dirModule(root, dir)
	default:
		var parent *lang.Module
		if dir != root {
			parent = o.dirModule(root, dir)
		}
		name := strings.TrimSuffix(path.Base(p), ".py")
		m = o.newModule(root, dotted(root, strings.TrimSuffix(p, ".py")), name, dir, p, false, rankFile, parent)
	}
	info := infoOf(m)
	info.file = f
	o.p.AddFile(m, f)
	for _, e := range f.Facts.Exports {
		if info.all == nil {
			info.all = map[string]bool{}
		}
		info.all[e.Name] = true
	}
}

// dirModule returns the module of a directory below root: its package, or
// a namespace package.
func (o *organizer) dirModule(root, dir string) *lang.Module {
	if m, ok := o.dirs[dir]; ok {
		return m
	}
	var parent *lang.Module
	if up := lang.Dir(dir); up != root && dir != root {
		parent = o.dirModule(root, up)
	}
	isPkg := o.pkgDirs[dir]
	rank := rankNamespace
	if isPkg {
		rank = rankPackage
	}
	m := o.newModule(root, dotted(root, dir), path.Base(dir), dir, dir, isPkg, rank, parent)
	o.dirs[dir] = m
	return m
}

// newModule creates a module, keyed by its dotted name unless another
// module has it, and makes it an attribute of its parent.
func (o *organizer) newModule(root, name, short, dir, where string, isPkg bool, rank int, parent *lang.Module) *lang.Module {
	key := name
	first, taken := o.p.Modules[name]
	if taken {
		key = name + "@" + where
	}
	m := o.p.Module(key, short, dir, isPkg)
	m.Qualifier = name
	info := &moduleInfo{parent: parent, root: root, rank: rank}
	m.Data = info
	if taken {
		fi := infoOf(first)
		if len(fi.twins) == 0 {
			fi.twins = []*lang.Module{first}
		}
		fi.twins = append(fi.twins, m)
	}
	if parent != nil {
		o.attach(parent, short, m)
	} else {
		o.topLevel[short] = append(o.topLevel[short], m)
	}
	return m
}

// attach makes m the attribute name of parent, unless parent already has a
// module there that Python would prefer.
func (o *organizer) attach(parent *lang.Module, name string, m *lang.Module) {
	if parent.Sub == nil {
		parent.Sub = map[string]*lang.Module{}
	}
	if prev, ok := parent.Sub[name]; ok && infoOf(prev).rank >= infoOf(m).rank {
		return
	}
	parent.Sub[name] = m
}

// linkRoots makes each deeper source root reachable from the repository
// root as a namespace package.
func (o *organizer) linkRoots() {
	for _, r := range o.roots {
		if r == "" {
			continue
		}
		ns := o.dirModule("", r)
		for _, name := range sortedKeys(o.topLevel) {
			for _, m := range o.topLevel[name] {
				if infoOf(m).root == r {
					o.attach(ns, name, m)
				}
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// topModule returns the top-level module named name that an import in file
// from sees: among same-named modules, the one sharing the longest
// directory prefix with the importing file, then the one Python prefers.
func topModule(p *lang.Program, name string, from *lang.File) *lang.Module {
	m := p.Modules[name]
	if m == nil {
		return nil
	}
	info := infoOf(m)
	if info == nil || len(info.twins) == 0 {
		return m
	}
	best, bestLen, bestRank := (*lang.Module)(nil), -1, -1
	for _, t := range info.twins {
		ti := infoOf(t)
		if ti.parent != nil {
			continue
		}
		l := commonPrefix(t.Dir, lang.Dir(from.Facts.Path))
		if l > bestLen || (l == bestLen && ti.rank > bestRank) {
			best, bestLen, bestRank = t, l, ti.rank
		}
	}
	if best == nil {
		return m
	}
	return best
}

// commonPrefix is the number of leading path components two directories
// share.
func commonPrefix(a, b string) int {
	if a == "" || b == "" {
		return 0
	}
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(pa) && n < len(pb) && pa[n] == pb[n] {
		n++
	}
	return n
}

// packageOf is the package a file's relative imports start from: the
// package itself for an __init__.py, else the module's parent (nil at top
// level).
func packageOf(f *lang.File) *lang.Module {
	m := f.Module
	if isInitFile(f.Facts.Path) && m.IsPackage {
		return m
	}
	return infoOf(m).parent
}
