package rust

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// The module tree. Every crate root (from the Cargo manifests) is a
// module; `mod x;` in a module adds the module of x.rs or x/mod.rs (or the
// file a #[path] attribute names), an inline `mod x { ... }` adds a module
// inside the file. Each module is a lang.Module and a Package node keyed by
// its path, "shapes::geometry::area"; its modInfo (Module.Data) holds what
// name resolution needs: its items, child modules, use declarations and
// globs. A file no `mod` declaration reaches (a module behind a macro, a
// file for a disabled feature) becomes a module of the crate whose package
// holds it, named after its path.

// state is what the rules know of one program, shared by its modules.
type state struct {
	p *lang.Program
	// externs are the library crates of the repository by name: what a
	// path starting with a crate's name reaches from any crate.
	externs map[string]*modInfo
	// inline are the inline modules of each file, in document order.
	inline map[*lang.File][]*modInfo
	// blockUses are the imports declared in function bodies, by file and
	// function.
	blockUses map[*lang.File]map[int][]int
	// impls: the resolved type and trait of each impl block; traitsOf the
	// traits each type (or impl block) implements.
	implSelf, implTrait map[lang.SymID]lang.SymID
	traitsOf            map[lang.SymID][]lang.SymID
	// bounds: for a type's unbounded type parameter, the impl block that
	// bounds a parameter of the same name (recordBounds).
	bounds map[lang.SymID]map[string]lang.SymID
	// importMemo caches resolved imports (and breaks their cycles).
	importMemo lang.Memo[importKey, lang.Value]
	busy       map[lookupKey]bool
	// bindings are the local bindings of each file by name (isLocal).
	bindings map[*lang.File]map[string][]int
}

type importKey struct {
	file *lang.File
	idx  int
}

type lookupKey struct {
	mod  *modInfo
	name string
}

// crateInfo is one crate: its name and root module.
type crateInfo struct {
	name string
	root *modInfo
}

// modInfo is one Rust module.
type modInfo struct {
	st     *state
	mod    *lang.Module
	crate  *crateInfo
	parent *modInfo
	file   *lang.File
	sym    int    // local index of the inline module's symbol; -1 for a file's module
	dir    string // directory of the files of `mod x;` declared inside
	// children are the modules declared inside, by name.
	children map[string]*modInfo
	// items are the module's own items by name (functions, types, traits,
	// consts, statics).
	items map[string][]lang.SymID
	// uses are the imports binding a name (use, extern crate), globs the
	// glob imports: indexes into the file's Imports.
	uses  map[string][]int
	globs []int
}

func infoOf(m *lang.Module) *modInfo {
	if m == nil {
		return nil
	}
	mi, _ := m.Data.(*modInfo)
	return mi
}

// Organize reads the manifests, builds the module tree from each crate
// root, and gives every file a module.
func (rules) Organize(p *lang.Program) {
	st := &state{p: p, externs: map[string]*modInfo{}, inline: map[*lang.File][]*modInfo{},
		blockUses: map[*lang.File]map[int][]int{}, implSelf: map[lang.SymID]lang.SymID{},
		implTrait: map[lang.SymID]lang.SymID{}, traitsOf: map[lang.SymID][]lang.SymID{},
		bounds:   map[lang.SymID]map[string]lang.SymID{},
		busy:     map[lookupKey]bool{},
		bindings: map[*lang.File]map[string][]int{}}
	var manifests []string
	for file := range p.Config {
		if path.Base(file) == "Cargo.toml" {
			manifests = append(manifests, file)
		}
	}
	sort.Strings(manifests)
	var pkgs []*cargoPackage
	for _, file := range manifests {
		pkg := readManifest(file, p.Config[file])
		pkgs = append(pkgs, &pkg)
	}
	files := make([]string, len(p.Files))
	for i, f := range p.Files {
		files[i] = f.Facts.Path
	}
	exists := func(path string) bool { return p.File(path) != nil }
	// The first crate of each package: its library when it has one.
	first := map[*cargoPackage]*crateInfo{}
	for _, root := range crateRoots(pkgs, files, exists) {
		f := p.File(root.root)
		if f.Module != nil {
			continue
		}
		c := &crateInfo{name: root.name}
		c.root = st.fileModule(f, root.name, root.name, nil, c, dirOf(root.root))
		if first[root.pkg] == nil {
			first[root.pkg] = c
		}
		if _, taken := st.externs[root.name]; root.lib && !taken {
			st.externs[root.name] = c.root
		}
	}
	// Files no declaration reached: modules of the nearest package's crate.
	for _, f := range p.Files {
		if f.Module != nil {
			continue
		}
		var home *crateInfo
		homeDir := ""
		for _, pkg := range pkgs {
			if c := first[pkg]; c != nil && (pkg.dir == "" || strings.HasPrefix(f.Facts.Path, pkg.dir+"/")) && (home == nil || len(pkg.dir) > len(homeDir)) {
				home, homeDir = c, pkg.dir
			}
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(f.Facts.Path, homeDir), "/"), ".rs")
		rel = strings.TrimSuffix(strings.TrimPrefix(rel, "src/"), "/mod")
		name := path.Base(rel)
		if home == nil {
			home = &crateInfo{name: crateName(name)}
			home.root = st.fileModule(f, strings.ReplaceAll(rel, "/", "::"), name, nil, home, childDir(f.Facts.Path))
			continue
		}
		key := home.root.mod.Key + "::" + strings.ReplaceAll(rel, "/", "::")
		st.fileModule(f, key, name, nil, home, childDir(f.Facts.Path))
	}
}

// moduleKey is key, or key with the file when another module has it (a
// binary named after its package's library).
func (st *state) moduleKey(key, file string) string {
	if _, taken := st.p.Modules[key]; taken {
		return key + " (" + file + ")"
	}
	return key
}

// childDir is where `mod x;` in a module file finds x: beside mod.rs, in
// the directory named after any other file.
func childDir(file string) string {
	if path.Base(file) == "mod.rs" {
		return dirOf(file)
	}
	return strings.TrimSuffix(file, ".rs")
}

func (st *state) newModule(key, name string, file *lang.File, parent *modInfo, c *crateInfo, sym int, dir string) *modInfo {
	m := st.p.Module(st.moduleKey(key, file.Facts.Path), name, lang.Dir(file.Facts.Path), true)
	m.Qualifier = key
	mi := &modInfo{st: st, mod: m, crate: c, parent: parent, file: file, sym: sym, dir: dir,
		children: map[string]*modInfo{}, items: map[string][]lang.SymID{}, uses: map[string][]int{}}
	m.Data = mi
	m.Scope = mi.items
	return mi
}

// fileModule makes f the module key and reads its inline modules, items,
// imports and the files of its `mod x;` declarations.
func (st *state) fileModule(f *lang.File, key, name string, parent *modInfo, c *crateInfo, dir string) *modInfo {
	mi := st.newModule(key, name, f, parent, c, -1, dir)
	f.Module = mi.mod
	mi.mod.Files = append(mi.mod.Files, f)
	syms := f.Facts.Symbols
	byQual := map[string]*modInfo{"": mi}
	bySym := map[int]*modInfo{}
	for i := range syms {
		s := &syms[i]
		if s.Kind != graph.KindPackage || !s.Hidden {
			continue
		}
		outer := mi
		if j := strings.LastIndex(s.Qual, "::"); j >= 0 && byQual[s.Qual[:j]] != nil {
			outer = byQual[s.Qual[:j]]
		}
		in := st.newModule(outer.mod.Key+"::"+s.Name, s.Name, f, outer, c, i, path.Join(outer.dir, s.Name))
		outer.children[s.Name] = in
		byQual[s.Qual] = in
		bySym[i] = in
		st.inline[f] = append(st.inline[f], in)
	}
	for i := range syms {
		s := &syms[i]
		if s.Parent >= 0 || s.Hidden {
			continue
		}
		prefix := ""
		if j := strings.LastIndex(s.Qual, "::"); j >= 0 {
			prefix = s.Qual[:j]
		}
		if owner := byQual[prefix]; owner != nil {
			owner.items[s.Name] = append(owner.items[s.Name], f.SymOf(i))
		}
	}
	var mods []int
	for idx, imp := range f.Facts.Imports {
		owner := mi
		if imp.Scope >= 0 {
			if in := bySym[imp.Scope]; in != nil {
				owner = in
			} else {
				if st.blockUses[f] == nil {
					st.blockUses[f] = map[int][]int{}
				}
				st.blockUses[f][imp.Scope] = append(st.blockUses[f][imp.Scope], idx)
				continue
			}
		}
		switch imp.Kind {
		case lang.ImportModule:
			mods = append(mods, idx)
		case lang.ImportWildcard:
			owner.globs = append(owner.globs, idx)
		case lang.ImportName:
			owner.uses[boundName(imp)] = append(owner.uses[boundName(imp)], idx)
		}
	}
	for _, idx := range mods {
		imp := f.Facts.Imports[idx]
		owner := mi
		if in := bySym[imp.Scope]; in != nil {
			owner = in
		}
		var cands []string
		if imp.Path != "" {
			base := dirOf(f.Facts.Path)
			if owner != mi {
				base = owner.dir
			}
			cands = []string{joinPath(base, imp.Path)}
		} else {
			cands = []string{joinPath(owner.dir, imp.Name+".rs"), joinPath(owner.dir, imp.Name+"/mod.rs")}
		}
		for _, cand := range cands {
			g := st.p.File(cand)
			if g == nil {
				continue
			}
			if child := infoOf(g.Module); child != nil {
				owner.children[imp.Name] = child // declared twice (by a library and a binary)
			} else {
				owner.children[imp.Name] = st.fileModule(g, owner.mod.Key+"::"+imp.Name, imp.Name, owner, c, childDir(cand))
			}
			break
		}
	}
	return mi
}

// boundName is the name an import binds: its alias, else the last segment.
func boundName(imp lang.Import) string {
	if imp.Alias != "" {
		return imp.Alias
	}
	return imp.Name
}

// moduleAt is the module at a place of a file: the innermost inline module
// holding the symbol scope (or the byte pos at file level), else the
// file's module.
func (st *state) moduleAt(f *lang.File, scope int, pos uint32) *modInfo {
	if scope >= 0 {
		pos = f.Facts.Symbols[scope].StartByte
	}
	best := infoOf(f.Module)
	for _, in := range st.inline[f] {
		if f.Facts.Symbols[in.sym].Contains(pos) {
			best = in
		}
	}
	return best
}

// stateOf returns the rules' state of the program a file belongs to.
func stateOf(f *lang.File) *state {
	if mi := infoOf(f.Module); mi != nil {
		return mi.st
	}
	return nil
}
