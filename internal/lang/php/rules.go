package php

import (
	"path"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves PHP. The extractor already wrote every class name fully
// qualified, so resolution walks namespaces: the first part of a dotted
// name is a class or function of the global namespace or a top-level
// namespace, each further part a member of the namespace before it.
type rules struct{}

// Features: a call that cannot be resolved is dropped, never linked by
// name only (an untyped `$x->save()` says nothing of which save runs); a
// class without a constructor runs its parent's; a member is looked up
// along one order, the first type that declares it winning: the class,
// its traits, its parent (and the parent's traits), then interfaces, so
// that a method a trait implements hides the interface's declaration; a
// variable is typed by the assignments before its use (and a closure's
// parameters, a caught exception, an instanceof test only inside their
// block), never by one further down.
func (rules) Features() lang.Features {
	return lang.Features{NoNameOnly: true, InheritedConstructors: true, LinearMRO: true, OrderedBindings: true}
}

// ConfigNames: composer.json gives the PSR-4 autoload map.
func (rules) ConfigNames() []string { return []string{"composer.json"} }

// IsBuiltin: PHP's own functions are not in the repository; unresolved
// calls are dropped anyway.
func (rules) IsBuiltin(string) bool { return false }

// Link: every PHP supertype is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// globalNamespace is the key of the module of files without a namespace.
const globalNamespace = "(global namespace)"

// moduleData is the rules' bookkeeping on a module.
type moduleData struct {
	psr4 []psr4Root // on the global module: the autoload map
}

func dataOf(m *lang.Module) *moduleData {
	if d, ok := m.Data.(*moduleData); ok {
		return d
	}
	d := &moduleData{}
	m.Data = d
	return d
}

// Organize groups files by their namespace; namespace prefixes get
// modules of their own, without a node.
func (rules) Organize(p *lang.Program) {
	global := p.Module(globalNamespace, "", "", false)
	dataOf(global).psr4 = readComposer(p.Config)
	for _, f := range p.Files {
		ns := f.Facts.Package
		if ns == "" {
			p.AddFile(global, f)
			continue
		}
		m := p.Module(ns, ns[strings.LastIndexByte(ns, '.')+1:], lang.Dir(f.Facts.Path), true)
		m.Qualifier = ns
		dataOf(m)
		p.AddFile(m, f)
	}
	p.AddPackagePrefixes()
}

// Export returns the class, function or constant name of namespace m, or
// the namespace m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if ids := visible(p, m.Scope[name]); len(ids) > 0 {
		return lang.SymsValue(ids)
	}
	if m.Key == globalNamespace {
		if sub, ok := p.Modules[name]; ok {
			return lang.ModuleValue(sub)
		}
		return lang.None()
	}
	return lang.Subpackage(p, m, name)
}

// visible keeps the symbols that are not hidden.
func visible(p *lang.Program, ids []lang.SymID) []lang.SymID {
	var out []lang.SymID
	for _, id := range ids {
		if !p.Sym(id).Hidden {
			out = append(out, id)
		}
	}
	return out
}

// Lookup resolves the first part of a name. A called unqualified name is
// a function of the file's namespace, else of the global namespace (PHP's
// fallback for functions). Any other name is a class of the global
// namespace or a top-level namespace.
func (r rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	global := p.Modules[globalNamespace]
	if c.Called() {
		if f.Module != global {
			if fs := functions(p, f.Module.Scope[name]); len(fs) > 0 {
				return lang.SymsValue(fs), reasonFor(p, fs[0], f, graph.ReasonSamePackage)
			}
		}
		if fs := functions(p, global.Scope[name]); len(fs) > 0 {
			return lang.SymsValue(fs), reasonFor(p, fs[0], f, graph.ReasonImportResolved)
		}
		return lang.External(), ""
	}
	for _, id := range global.Scope[name] {
		if s := p.Sym(id); s.Kind.IsType() {
			return lang.SymValue(id), reasonFor(p, id, f, graph.ReasonImportResolved)
		}
	}
	if m, ok := p.Modules[name]; ok && m != global {
		return lang.ModuleValue(m), graph.ReasonImportResolved
	}
	return lang.External(), ""
}

func reasonFor(p *lang.Program, id lang.SymID, f *lang.File, otherwise graph.Reason) graph.Reason {
	if p.Sym(id).File == f {
		return graph.ReasonSameFile
	}
	return otherwise
}

// functions keeps the functions among file-level symbols.
func functions(p *lang.Program, ids []lang.SymID) []lang.SymID {
	var out []lang.SymID
	for _, id := range ids {
		if p.Sym(id).Kind == graph.KindFunction {
			out = append(out, id)
		}
	}
	return out
}

// ParseType reads a dotted fully qualified class name, as the extractor
// writes declared types; "C[]" is a list of C (from doc comments).
func (rules) ParseType(text string) lang.TypeExpr {
	return lang.ParseDottedType(text)
}

// BindImports turns `use` imports into IMPORTS edges to the files that
// declare the imported classes and functions (by declaration, else by the
// PSR-4 map), and `require`/`include` of a literal path into edges to that
// file.
func (rules) BindImports(p *lang.Program, f *lang.File) {
	edge := lang.ImportEdgeOnce(f)
	global := p.Modules[globalNamespace]
	for _, imp := range f.Facts.Imports {
		switch imp.Kind {
		case lang.ImportSideEffect:
			if t := requiredFile(p, f, imp.Path); t != nil {
				edge(graph.FileID(t.Facts.Path), imp.Line)
			}
		case lang.ImportName:
			if id := declared(p, imp.Path); id != lang.NoSym {
				edge(graph.FileID(p.Sym(id).File.Facts.Path), imp.Line)
			} else if t := autoloaded(p, dataOf(global).psr4, imp.Path); t != nil {
				edge(graph.FileID(t.Facts.Path), imp.Line)
			}
		}
	}
}

// declared finds the symbol a dotted fully qualified name declares.
func declared(p *lang.Program, fqn string) lang.SymID {
	ns, name := globalNamespace, fqn
	if i := strings.LastIndexByte(fqn, '.'); i >= 0 {
		ns, name = fqn[:i], fqn[i+1:]
	}
	m, ok := p.Modules[ns]
	if !ok {
		return lang.NoSym
	}
	if ids := visible(p, m.Scope[name]); len(ids) > 0 {
		return ids[0]
	}
	return lang.NoSym
}

// requiredFile finds the file a require names: relative to the
// requiring file's directory, else to the repository root.
func requiredFile(p *lang.Program, f *lang.File, written string) *lang.File {
	if strings.HasPrefix(written, "/") {
		return nil
	}
	for _, cand := range []string{path.Join(lang.Dir(f.Facts.Path), written), path.Clean(written)} {
		if t := p.File(cand); t != nil {
			return t
		}
	}
	return nil
}
