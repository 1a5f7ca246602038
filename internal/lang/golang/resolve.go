package golang

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Go: a package is a directory (plus its external _test
// package), import paths come from go.mod module paths (several modules per
// repository are fine), methods attach to their receiver's type, and
// interface satisfaction is computed from method sets.
type rules struct{}

func (rules) Features() lang.Features {
	return lang.Features{UnexportedIsPrivate: true, ValueFlow: true}
}

func (rules) ConfigNames() []string { return []string{"go.mod"} }

var predeclared = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`append cap clear close complex copy delete imag len make max min new panic
		print println real recover any bool byte comparable complex64 complex128 error float32 float64 int
		int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil`) {
		predeclared[n] = true
	}
}

func (rules) IsBuiltin(name string) bool { return predeclared[name] }

// goModule is one go.mod: the directory it governs and its module path.
type goModule struct {
	dir, path string
}

// Organize computes each file's import path and groups files into packages.
func (rules) Organize(p *lang.Program) {
	var mods []goModule
	for file, content := range p.Config {
		if path.Base(file) != "go.mod" {
			continue
		}
		if mp := modulePath(content); mp != "" {
			mods = append(mods, goModule{dir: lang.Dir(file), path: mp})
		}
	}
	// Deepest directory first, so nested modules win.
	sort.Slice(mods, func(i, j int) bool {
		if len(mods[i].dir) != len(mods[j].dir) {
			return len(mods[i].dir) > len(mods[j].dir)
		}
		return mods[i].dir < mods[j].dir
	})
	// The package of a directory is the name most of its regular files
	// declare; a file declaring another name (a `//go:build ignore`
	// generator in package main) is a package of its own, and `x_test`
	// files form the external test package.
	dominant := map[string]map[string]int{}
	for _, f := range p.Files {
		if name := f.Facts.Package; name != "" && !strings.HasSuffix(name, "_test") && defaultBuild(f.Facts) {
			dir := lang.Dir(f.Facts.Path)
			if dominant[dir] == nil {
				dominant[dir] = map[string]int{}
			}
			dominant[dir][name]++
		}
	}
	for _, f := range p.Files {
		dir := lang.Dir(f.Facts.Path)
		key := importPath(mods, dir)
		name := f.Facts.Package
		main := mostCommon(dominant[dir])
		switch {
		case name == "":
			name = path.Base(key)
		case strings.HasSuffix(name, "_test") && strings.TrimSuffix(name, "_test") == main:
			key += "_test"
		case main != "" && name != main:
			key += " (" + name + ")"
		}
		m := p.Module(key, name, dir, true)
		m.Qualifier = m.Name
		p.AddFile(m, f)
	}
	// Attach methods to their receiver types. Files for different
	// platforms declare the same method; where they do, the declarations
	// the default build compiles are the members calls resolve to, and
	// the others only belong to the type (HAS_METHOD).
	for _, m := range p.SortedModules() {
		type methodKey struct {
			typ  lang.SymID
			name string
		}
		var order []methodKey
		cands := map[methodKey][]lang.SymID{}
		for _, f := range m.Files {
			for i := range f.Facts.Symbols {
				s := &f.Facts.Symbols[i]
				if s.Kind != graph.KindMethod || s.Receiver == "" || s.Parent >= 0 {
					continue
				}
				if t := pickDecl(p, m.Scope[s.Receiver], true); t != lang.NoSym {
					k := methodKey{t, s.Name}
					if _, ok := cands[k]; !ok {
						order = append(order, k)
					}
					cands[k] = append(cands[k], f.SymOf(i))
				}
			}
		}
		for _, k := range order {
			ids := cands[k]
			preferred := map[lang.SymID]bool{}
			for _, id := range ids {
				if defaultBuild(p.Sym(id).File.Facts) {
					preferred[id] = true
				}
			}
			for _, id := range ids {
				if len(preferred) == 0 || preferred[id] {
					p.AddMember(k.typ, id)
				} else {
					p.SetOwner(id, k.typ)
				}
			}
		}
	}
}

func mostCommon(counts map[string]int) string {
	best, n := "", 0
	for name, c := range counts {
		if c > n || (c == n && name < best) {
			best, n = name, c
		}
	}
	return best
}

// modulePath reads the module directive of a go.mod file.
func modulePath(content []byte) string {
	for _, line := range strings.Split(string(content), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			return strings.Trim(rest, "\"`")
		}
	}
	return ""
}

// importPath is the import path of the package in dir: the module path of
// the nearest go.mod above it plus the relative directory. The standard
// library's module "std" has no prefix. Without a go.mod the directory
// itself is used.
func importPath(mods []goModule, dir string) string {
	for _, m := range mods {
		if m.dir != "" && dir != m.dir && !strings.HasPrefix(dir, m.dir+"/") {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
		switch {
		case m.path == "std":
			if rel == "" {
				return "std"
			}
			return rel
		case rel == "":
			return m.path
		default:
			return m.path + "/" + rel
		}
	}
	if dir == "" {
		return "."
	}
	return dir
}

// BindImports binds each import's local name to the package it names, or
// marks it external when the package is not in the repository.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	for _, imp := range f.Facts.Imports {
		m := p.Modules[imp.Path]
		if m != nil && m.Key == f.Module.Key {
			m = nil
		}
		if imp.Path == "unsafe" || imp.Path == "C" {
			// The compiler provides these; unsafe/unsafe.go in the
			// standard library only documents them.
			m = nil
		}
		if m != nil {
			f.ImportEdges = append(f.ImportEdges, lang.ImportEdge{Target: m.PackageNodeID(), Line: imp.Line})
		}
		switch imp.Kind {
		case lang.ImportWildcard:
			if m != nil {
				f.Wildcards = append(f.Wildcards, m)
			}
		case lang.ImportModule:
			name := imp.Alias
			if name == "" {
				if m != nil {
					name = m.Name
				} else {
					name = guessPackageName(imp.Path)
				}
			}
			if m != nil {
				f.Imported[name] = lang.ModuleValue(m)
			} else {
				f.Imported[name] = p.ExternalPackage(imp.Path)
			}
			f.ImportLines[name] = imp.Line
		}
	}
}

// guessPackageName guesses the package name of an import path outside the
// repository: the last element, skipping a major-version suffix and common
// "go-" / ".go" / ".vN" decorations.
func guessPackageName(importPath string) string {
	parts := strings.Split(importPath, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) >= 2 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), ".go")
	name = strings.TrimSuffix(name, "-go")
	return strings.ReplaceAll(name, "-", "_")
}

// Export returns an exported package-level name of package m.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if !exported(name) {
		return lang.None()
	}
	if id := pickDecl(p, m.Scope[name], false); id != lang.NoSym {
		return lang.SymValue(id)
	}
	return lang.None()
}

// Lookup resolves a name in package scope, then the file's imports, then
// dot-imported packages; the type error is the predeclared interface.
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if v, ok := typeParam(p, c, name); ok {
		return v, graph.ReasonSameFile
	}
	if id := pickDecl(p, f.Module.Scope[name], c.TypesOnly()); id != lang.NoSym {
		if p.Sym(id).File == f {
			return lang.SymValue(id), graph.ReasonSameFile
		}
		return lang.SymValue(id), graph.ReasonSamePackage
	}
	if v, ok := f.Imported[name]; ok {
		return v, graph.ReasonImportResolved
	}
	for _, m := range f.Wildcards {
		if v := (rules{}).Export(p, m, name); v.Known() {
			return v, graph.ReasonImportResolved
		}
	}
	if v, ok := errorType(p, c, name); ok {
		return v, ""
	}
	return lang.None(), ""
}

// typeParam resolves a type parameter of an enclosing generic function,
// method or type to its constraint, so that a value of type T has the
// methods its constraint declares. A method's receiver names the type
// parameters of its type; their constraints are the type's, by position.
func typeParam(p *lang.Program, c *lang.Ctx, name string) (lang.Value, bool) {
	syms := c.File.Facts.Symbols
	for scope := c.Scope; scope >= 0; scope = syms[scope].Parent {
		s := &syms[scope]
		for i, tp := range s.TypeParams {
			if tp.Name != name {
				continue
			}
			constraint, file, at := tp.Type, c.File, scope
			if constraint == "" && s.Receiver != "" {
				t := p.EnclosingType(c.File, scope)
				if t == lang.NoSym {
					return lang.None(), true
				}
				ts := p.Sym(t)
				if i >= len(ts.TypeParams) {
					return lang.None(), true
				}
				constraint, file, at = ts.TypeParams[i].Type, ts.File, ts.Local
			}
			v := p.ResolveType(c.At(file, at, file.Facts.Symbols[at].StartByte), constraint)
			if v.Kind == lang.ValInstance && v.Elem == 0 {
				return lang.SymValue(v.Sym), true
			}
			return lang.None(), true // any, comparable, unions: no methods to follow
		}
	}
	return lang.None(), false
}

// pickDecl chooses among same-named package-level declarations (files for
// different platforms declare the same names): the first one in a file
// that the default build (linux/amd64) compiles, else the first.
func pickDecl(p *lang.Program, ids []lang.SymID, typesOnly bool) lang.SymID {
	best := lang.NoSym
	for _, id := range ids {
		s := p.Sym(id)
		if typesOnly && !s.Kind.IsType() {
			continue
		}
		if s.Receiver != "" {
			continue // a method is never visible by its bare name
		}
		if best == lang.NoSym {
			best = id
		}
		if defaultBuild(s.File.Facts) {
			return id
		}
	}
	return best
}

// ParseType reduces a Go type to its named part: "*pkg.T" → [pkg T],
// "[]*T" → [T] as a container, "map[K]V" → [V] as a container, "func(...)"
// and literal struct/interface types → nothing.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	var elem uint8
	for t != "" {
		switch {
		case strings.HasPrefix(t, "*"):
			t = strings.TrimSpace(t[1:])
		case strings.HasPrefix(t, "..."):
			t, elem = strings.TrimSpace(t[3:]), elem+1
		case strings.HasPrefix(t, "[]"):
			t, elem = strings.TrimSpace(t[2:]), elem+1
		case strings.HasPrefix(t, "["):
			i := strings.IndexByte(t, ']')
			if i < 0 {
				return lang.TypeExpr{}
			}
			t, elem = strings.TrimSpace(t[i+1:]), elem+1
		case strings.HasPrefix(t, "map["):
			i := matchingBracket(t, 3)
			if i < 0 {
				return lang.TypeExpr{}
			}
			t, elem = strings.TrimSpace(t[i+1:]), elem+1
		case strings.HasPrefix(t, "<-chan "), strings.HasPrefix(t, "chan<- "):
			t, elem = strings.TrimSpace(t[7:]), elem+1
		case strings.HasPrefix(t, "chan "):
			t, elem = strings.TrimSpace(t[5:]), elem+1
		case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")"):
			t = strings.TrimSpace(t[1 : len(t)-1])
		default:
			if strings.HasPrefix(t, "func") || strings.HasPrefix(t, "struct") || strings.HasPrefix(t, "interface") {
				return lang.TypeExpr{}
			}
			if i := strings.IndexByte(t, '['); i >= 0 {
				t = t[:i]
			}
			parts := strings.Split(t, ".")
			for _, part := range parts {
				if part == "" || !lang.IsIdentifier(part, "") {
					return lang.TypeExpr{}
				}
			}
			return lang.TypeExpr{Path: parts, Elem: elem}
		}
	}
	return lang.TypeExpr{}
}

func matchingBracket(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
