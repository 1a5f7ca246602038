package csharp

import (
	"sort"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves C#. Namespaces are modules that span files; a type name
// is looked up in the enclosing namespaces, then in the namespaces the
// file's using directives import, then in the global namespace, among the
// types of the file's project and the projects it references
// (projects.go).
type rules struct{}

// Features: a call that cannot be resolved is dropped, never linked by
// name only; a class without a constructor runs its base's.
func (rules) Features() lang.Features {
	return lang.Features{NoNameOnly: true, InheritedConstructors: true}
}

// ConfigNames: project files (projects.go).
func (rules) ConfigNames() []string { return []string{"*.csproj"} }

// IsBuiltin: the framework's types are not in the repository; unresolved
// calls are dropped anyway.
func (rules) IsBuiltin(string) bool { return false }

// Link: every C# supertype is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// globalNamespace is the key of the module of files without a namespace.
const globalNamespace = "(global namespace)"

// Organize groups files by their namespace; namespace prefixes get
// modules without a node, so that qualified names walk through them.
// Parts of a partial class find each other's members.
func (rules) Organize(p *lang.Program) {
	global := p.Module(globalNamespace, "", "", false)
	for _, f := range p.Files {
		ns := f.Facts.Package
		if ns == "" {
			p.AddFile(global, f)
			continue
		}
		m := p.Module(ns, ns[strings.LastIndexByte(ns, '.')+1:], lang.Dir(f.Facts.Path), true)
		m.Qualifier = ns
		p.AddFile(m, f)
	}
	p.AddPackagePrefixes()
	c := &compilation{projects: readProjects(p.Config), fileProject: map[*lang.File]int{}, globals: map[int][]lang.Import{}}
	for i, pr := range c.projects.list {
		c.globals[i] = append(c.globals[i], pr.usings...)
	}
	for _, f := range p.Files {
		pr := c.projects.of(f.Facts.Path)
		c.fileProject[f] = pr
		for _, imp := range f.Facts.Imports {
			if imp.Name == globalMark {
				c.globals[pr] = append(c.globals[pr], imp)
			}
		}
	}
	global.Data = c
	joinPartials(p)
	attachExtensions(p)
}

// compilation is what Organize learns of the projects: which project
// each file is in, and the global usings of each project.
type compilation struct {
	projects    *projects
	fileProject map[*lang.File]int
	globals     map[int][]lang.Import
}

// compilationOf returns what Organize stored.
func compilationOf(p *lang.Program) *compilation {
	c, _ := p.Modules[globalNamespace].Data.(*compilation)
	return c
}

// visible keeps the symbols that code of file f may use: those of its
// project and of the projects it references (projects.go).
func visible(p *lang.Program, f *lang.File, ids []lang.SymID) []lang.SymID {
	c := compilationOf(p)
	if c == nil || len(c.projects.list) == 0 {
		return ids
	}
	from := c.fileProject[f]
	var out []lang.SymID
	for _, id := range ids {
		if c.projects.sees(from, c.fileProject[p.Sym(id).File]) {
			out = append(out, id)
		}
	}
	return out
}

// importsOf is the using directives that apply in file f: its own, then
// the `global using` directives of its project's files and project file.
func importsOf(p *lang.Program, f *lang.File) []lang.Import {
	var globals []lang.Import
	if c := compilationOf(p); c != nil {
		globals = c.globals[c.fileProject[f]]
	}
	if len(globals) == 0 {
		return f.Facts.Imports
	}
	out := make([]lang.Import, 0, len(f.Facts.Imports)+len(globals))
	out = append(out, f.Facts.Imports...)
	return append(out, globals...)
}

// attachExtensions makes each extension method `static M(this T x)` a
// member of T found by lookups, when T (its own members and its bases')
// declares no member M: an instance method always wins over an extension.
// The method keeps its static class as owner. Which namespaces the calling
// file imports is not checked.
func attachExtensions(p *lang.Program) {
	r := rules{}
	for i := range p.Syms {
		s := &p.Syms[i]
		if s.Kind != graph.KindMethod || !s.Static || len(s.Decorators) == 0 || s.Decorators[0] != extensionMark {
			continue
		}
		owner := p.Owner(lang.SymID(i))
		if owner == lang.NoSym || len(s.Params) == 0 {
			continue
		}
		written := s.Params[0].Type
		var targets []lang.SymID
		if strings.Contains(written, ".") {
			targets = visible(p, s.File, r.typesAt(p, written))
		} else {
			targets = r.typeNamed(p, s.File, written)
		}
		if len(targets) != 1 {
			continue
		}
		if ids, _ := p.FindMember(targets[0], s.Name); len(ids) > 0 {
			continue
		}
		p.AddMember(targets[0], lang.SymID(i))
		p.SetOwner(lang.SymID(i), owner)
	}
}

// joinPartials makes the parts of a partial type (same project, same
// namespace, same qualified name, several declarations) one type for
// lookups: each part
// finds the members of the others; each member keeps its own part as
// owner.
func joinPartials(p *lang.Program) {
	byQual := map[string][]lang.SymID{}
	c := compilationOf(p)
	for i := range p.Syms {
		s := &p.Syms[i]
		if s.Kind.IsType() {
			// The parts of a partial type are in one project.
			key := strconv.Itoa(c.fileProject[s.File]) + "\x00" + s.File.Facts.Package + "\x00" + s.Qual
			byQual[key] = append(byQual[key], lang.SymID(i))
		}
	}
	keys := make([]string, 0, len(byQual))
	for k, ids := range byQual {
		if len(ids) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.JoinDeclarations(byQual[k])
	}
}

// Export returns the type named name in namespace m, or the namespace
// m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if ids := types(p, m.Scope[name]); len(ids) > 0 {
		return lang.SymsValue(ids)
	}
	key := name
	if m.Key != globalNamespace {
		key = m.Key + "." + name
	}
	if sub, ok := p.Modules[key]; ok {
		return lang.ModuleValue(sub)
	}
	return lang.None()
}

// types keeps the type symbols.
func types(p *lang.Program, ids []lang.SymID) []lang.SymID {
	var out []lang.SymID
	for _, id := range ids {
		if s := p.Sym(id); s.Kind.IsType() && !s.Hidden {
			out = append(out, id)
		}
	}
	return out
}

// Lookup resolves a simple name that is not a local or parameter. A called
// name is a method of the enclosing type and its bases, then of the
// classes a `using static` imports. Any other name is a member of the
// enclosing type (field, property, nested type), then a type of the
// enclosing namespaces, of an alias, of the imported namespaces, of the
// global namespace, then a namespace.
func (r rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = outerType(p, t) {
		ids, _ := p.FindMember(t, name)
		var found []lang.SymID
		for _, id := range ids {
			s := p.Sym(id)
			if s.Kind == graph.KindConstructor {
				continue
			}
			if isMethod(s) == c.Called() {
				found = append(found, id)
			}
		}
		if len(found) > 0 {
			return lang.SymsValue(found), graph.ReasonSelfReceiver
		}
	}
	if c.Called() {
		var found []lang.SymID
		for _, imp := range importsOf(p, f) {
			if imp.Kind != lang.ImportName || imp.Alias != "" {
				continue
			}
			for _, t := range visible(p, f, r.typesAt(p, imp.Path)) {
				ids, _ := p.FindMember(t, name)
				for _, id := range ids {
					if s := p.Sym(id); isMethod(s) && s.Static {
						found = append(found, id)
					}
				}
			}
		}
		if len(found) > 0 {
			return lang.SymsValue(found), graph.ReasonImportResolved
		}
		return lang.External(), ""
	}
	if ids := r.typeNamed(p, f, name); len(ids) > 0 {
		why := graph.ReasonImportResolved
		if p.Sym(ids[0]).File == f {
			why = graph.ReasonSameFile
		} else if p.Sym(ids[0]).File.Module == f.Module {
			why = graph.ReasonSamePackage
		}
		return lang.SymsValue(ids), why
	}
	if m, ok := p.Modules[name]; ok && m.Key != globalNamespace {
		return lang.ModuleValue(m), graph.ReasonImportResolved
	}
	return lang.External(), ""
}

func isMethod(s *lang.Sym) bool {
	return s.Kind == graph.KindMethod || s.Kind == graph.KindFunction
}

// outerType is the type a nested type is declared in, or NoSym.
func outerType(p *lang.Program, t lang.SymID) lang.SymID {
	s := p.Sym(t)
	if s.Parent < 0 {
		return lang.NoSym
	}
	return p.EnclosingType(s.File, s.Parent)
}

// typeNamed finds the top-level type name visible in file f.
func (r rules) typeNamed(p *lang.Program, f *lang.File, name string) []lang.SymID {
	ns := f.Facts.Package
	for ns != "" {
		if m, ok := p.Modules[ns]; ok {
			if ids := visible(p, f, types(p, m.Scope[name])); len(ids) > 0 {
				return ids
			}
		}
		i := strings.LastIndexByte(ns, '.')
		if i < 0 {
			break
		}
		ns = ns[:i]
	}
	imports := importsOf(p, f)
	for _, imp := range imports {
		if imp.Kind == lang.ImportName && imp.Alias == name {
			return visible(p, f, r.typesAt(p, imp.Path))
		}
	}
	var found []lang.SymID
	for _, imp := range imports {
		if imp.Kind != lang.ImportWildcard {
			continue
		}
		if m, ok := p.Modules[imp.Path]; ok {
			found = append(found, visible(p, f, types(p, m.Scope[name]))...)
		}
	}
	if len(found) > 0 {
		return found
	}
	return visible(p, f, types(p, p.Modules[globalNamespace].Scope[name]))
}

// typesAt finds the types a dotted fully qualified name declares.
func (r rules) typesAt(p *lang.Program, fqn string) []lang.SymID {
	ns, name := globalNamespace, fqn
	if i := strings.LastIndexByte(fqn, '.'); i >= 0 {
		ns, name = fqn[:i], fqn[i+1:]
	}
	if m, ok := p.Modules[ns]; ok {
		return types(p, m.Scope[name])
	}
	return nil
}

// ParseType reads a dotted type name as the extractor writes it; "T[]"
// is a sequence of T.
func (rules) ParseType(text string) lang.TypeExpr {
	return lang.ParseDottedType(text)
}

// BindImports turns using directives into IMPORTS edges: a namespace
// import to the namespace's Package node, an alias or `using static` to
// the file declaring the type.
func (r rules) BindImports(p *lang.Program, f *lang.File) {
	edge := lang.ImportEdgeOnce(f)
	for _, imp := range f.Facts.Imports {
		if m, ok := p.Modules[imp.Path]; ok && m.IsPackage && imp.Kind == lang.ImportWildcard {
			edge(graph.PackageID(m.Key), imp.Line)
			continue
		}
		for _, id := range visible(p, f, r.typesAt(p, imp.Path)) {
			edge(graph.FileID(p.Sym(id).File.Facts.Path), imp.Line)
		}
	}
}
