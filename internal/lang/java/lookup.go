package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Lookup resolves a simple name that is not a local variable or parameter,
// the way javac does. Methods, fields and types are separate namespaces, so
// the use decides where to look:
//
//   - a called name (`m()`): methods of the enclosing class and its
//     supertypes (implicit this), then of each outer class, then single
//     static imports, then static on-demand imports;
//   - a name used as a value: fields the same way, and when there is none,
//     the name as a type (`Math.max`), then as a package (`java.util.List`);
//   - a name used as a type: type variables in scope, member types of the
//     enclosing and outer classes and their supertypes, top-level types of
//     the file, single-type imports, types of the same package, on-demand
//     imports, then a package name; what remains comes from outside the
//     repository (java.lang and other libraries).
func (r rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	switch {
	case c.Called():
		return r.lookupMethod(p, c, name)
	case c.TypesOnly():
		return r.lookupType(p, c, name)
	}
	if v, why := r.lookupField(p, c, name); v.Known() {
		return v, why
	}
	return r.lookupType(p, c, name)
}

func (r rules) lookupMethod(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	external := false
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = outerType(p, t) {
		ids, _ := r.LookupMember(p, t, name)
		if ms := filter(p, ids, isMethod); len(ms) > 0 {
			return lang.SymsValue(ms), graph.ReasonSelfReceiver
		}
		if hasImplicitSupertype(p.Sym(t)) || hasExternalSupertype(p, t) {
			external = true
		}
	}
	fi := importsOf(f)
	if ms := filter(p, fi.statics[name], isMethod); len(ms) > 0 {
		return lang.SymsValue(ms), graph.ReasonImportResolved
	}
	var found []lang.SymID
	for _, t := range fi.staticTypes {
		ids, _ := r.LookupMember(p, t, name)
		found = append(found, filter(p, ids, func(s *lang.Sym) bool { return isMethod(s) && s.Static })...)
	}
	if len(found) > 0 {
		return lang.SymsValue(found), graph.ReasonImportResolved
	}
	if external || fi.staticExternal[name] || fi.externalStatic || objectMethods[name] {
		return lang.External(), ""
	}
	return lang.None(), ""
}

func (r rules) lookupField(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = outerType(p, t) {
		ids, depth := r.LookupMember(p, t, name)
		if fs := filter(p, ids, isField); len(fs) > 0 {
			why := graph.ReasonSameFile
			if p.Sym(fs[0]).File != f && depth > 0 {
				why = graph.ReasonInherited
			}
			return lang.SymsValue(fs), why
		}
	}
	fi := importsOf(f)
	if fs := filter(p, fi.statics[name], isField); len(fs) > 0 {
		return lang.SymsValue(fs), graph.ReasonImportResolved
	}
	for _, t := range fi.staticTypes {
		ids, _ := r.LookupMember(p, t, name)
		if fs := filter(p, ids, func(s *lang.Sym) bool { return isField(s) && (s.Static || s.Kind == graph.KindConst) }); len(fs) > 0 {
			return lang.SymsValue(fs), graph.ReasonImportResolved
		}
	}
	return lang.None(), ""
}

func (r rules) lookupType(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if tp, scope, ok := typeParamOwner(f, c.Scope, name); ok {
		// A type variable stands for its bound (its erasure); one with
		// none for an Object, where it is in scope.
		if tp.Type == "" {
			return p.ExternalTypeVariable(f, scope, name, "java.lang.Object"), ""
		}
		if v := p.ResolveType(*c, tp.Type); v.Kind == lang.ValInstance && v.Elem == 0 {
			return lang.SymValue(v.Sym), graph.ReasonSameFile
		}
		return lang.External(), ""
	}
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = outerType(p, t) {
		ids, depth := r.LookupMember(p, t, name)
		if ts := filter(p, ids, isType); len(ts) > 0 {
			why := graph.ReasonSameFile
			if p.Sym(ts[0]).File != f && depth > 0 {
				why = graph.ReasonInherited
			}
			return lang.SymValue(ts[0]), why
		}
	}
	if t := firstType(p, f.Top[name], f); t != lang.NoSym {
		return lang.SymValue(t), graph.ReasonSameFile
	}
	fi := importsOf(f)
	if v, ok := fi.types[name]; ok {
		return v, graph.ReasonImportResolved
	}
	if ts := filter(p, fi.statics[name], isType); len(ts) > 0 {
		return lang.SymValue(ts[0]), graph.ReasonImportResolved
	}
	if t := firstType(p, f.Module.Scope[name], f); t != lang.NoSym {
		return lang.SymValue(t), graph.ReasonSamePackage
	}
	for _, m := range f.Wildcards {
		if t := firstType(p, m.Scope[name], f); t != lang.NoSym {
			return lang.SymValue(t), graph.ReasonImportResolved
		}
	}
	for _, t := range append(append([]lang.SymID(nil), fi.memberTypes...), fi.staticTypes...) {
		ids, _ := r.LookupMember(p, t, name)
		if ts := filter(p, ids, isType); len(ts) > 0 {
			return lang.SymValue(ts[0]), graph.ReasonImportResolved
		}
	}
	if m, ok := p.Modules[name]; ok && (m.IsPackage || m.PackagePrefix) {
		return lang.ModuleValue(m), graph.ReasonImportResolved
	}
	return outsideType(p, f, name), ""
}

// hasImplicitSupertype reports whether a type has a supertype that is
// never written: an enum extends java.lang.Enum (values, ordinal, name), a
// record java.lang.Record (and has implicit component accessors).
func hasImplicitSupertype(s *lang.Sym) bool {
	return s.Kind == graph.KindEnum || isRecord(s)
}

// isRecord reports whether a class symbol is a record declaration.
func isRecord(s *lang.Sym) bool {
	if s.Kind != graph.KindClass {
		return false
	}
	for _, w := range strings.Fields(s.Signature) {
		switch w {
		case "record":
			return true
		case "class", s.Name:
			return false
		}
	}
	return false
}
