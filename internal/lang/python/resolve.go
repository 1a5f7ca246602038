package python

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Python. Names are looked up LEGB-style: the engine walks
// the locals and parameters of the enclosing functions (skipping class
// bodies, which methods cannot see); Lookup then tries the class body the
// code is directly in, imports inside the enclosing functions, the module's
// definitions and imports, its wildcard imports, and the builtins. A name
// found nowhere is not defined by the repository: it is external, and no
// name-only guess is made for it.
type rules struct{}

func (rules) Features() lang.Features {
	return lang.Features{TypeCallConstructs: true, InheritedConstructors: true, LinearMRO: true, FollowFunctionVariables: true, LooseArity: true,
		CallMember: "__call__", ValueFlow: true}
}

func (rules) ConfigNames() []string { return nil }

func (rules) IsBuiltin(name string) bool { return builtinNames[name] }

// IsAccessor: a @property (or cached_property) method runs when its name is
// read; reading it is not a call, but its result types what follows.
func (rules) IsAccessor(s *lang.Symbol) bool {
	return hasDecorator(s.Decorators, "property") || hasDecorator(s.Decorators, "cached_property") ||
		hasDecorator(s.Decorators, "abstractproperty")
}

// Lookup resolves a name that is not a local of an enclosing function.
func (r rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	syms := f.Facts.Symbols
	if c.Scope >= 0 && syms[c.Scope].Kind.IsType() {
		// Code directly in a class body sees the names declared before it
		// in that body.
		if ids := p.Members(f.SymOf(c.Scope), name); len(ids) > 0 {
			return lang.SymsValue(ids), graph.ReasonSameFile
		}
	}
	for s := c.Scope; s >= 0; s = syms[s].Parent {
		if syms[s].Kind.IsType() && s != c.Scope {
			continue
		}
		for _, i := range r.scopedImports(f, s, name) {
			if b := r.bindImport(p, f, i); b != nil {
				return b.value, graph.ReasonImportResolved
			}
		}
	}
	if v, why := r.moduleName(p, f, name); v.Known() {
		return v, why
	}
	if v := r.wildcardName(p, f, name); v.Known() {
		return v, graph.ReasonImportResolved
	}
	return lang.External(), ""
}

// Link adds CONTAINS edges from each package to the module files directly
// in it (the engine links it to its __init__.py).
func (rules) Link(p *lang.Program, g *graph.Graph) {
	for _, m := range p.SortedModules() {
		info := infoOf(m)
		if info == nil || info.file == nil || info.parent == nil || !info.parent.IsPackage || m.IsPackage {
			continue
		}
		g.AddEdge(graph.Edge{Src: info.parent.PackageNodeID(), Dst: graph.FileID(info.file.Facts.Path),
			Type: graph.EdgeContains, Confidence: graph.ReasonPackageMember.Confidence(), Reason: graph.ReasonPackageMember})
	}
}
