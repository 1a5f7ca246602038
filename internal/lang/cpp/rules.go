package cpp

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/lang/c"
)

// rules resolves the C and C++ files of a repository as one program
// (package c, JoinFamily): C files by C's own rules, C++ files by these.
type rules struct{}

// familyRules is the one value of the family, so that the pipeline puts C
// and C++ files in one program.
var familyRules lang.Rules = rules{}

// Features: unresolved calls are dropped, never linked by name only; a
// local is visible from its declaration on; calling a type (`A(1)`)
// constructs an A.
func (rules) Features() lang.Features {
	return lang.Features{NoNameOnly: true, OrderedBindings: true, TypeCallConstructs: true}
}

// ConfigNames: the compilation databases give the include directories.
func (rules) ConfigNames() []string { return c.OwnRules().ConfigNames() }

// IsBuiltin: calls that resolve to nothing are dropped anyway.
func (rules) IsBuiltin(string) bool { return false }

// BindImports: Organize did the work, as includes need every file.
func (rules) BindImports(*lang.Program, *lang.File) {}

// Link: every C++ base is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// isCPlusPlus reports whether a file is C++ (not C).
func isCPlusPlus(f *lang.File) bool { return f.Facts.Language == "cpp" }

// Lookup resolves a simple name that is not a local or parameter. A C
// file's names are C's (with the C++ symbols a C compiler cannot see left
// out). In a C++ file: a template parameter of an enclosing template is
// a type of nothing known; then the members of the enclosing classes and
// their bases; then the enclosing namespaces, innermost first.
func (r rules) Lookup(p *lang.Program, cx *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := cx.File
	st := stateOf(p)
	if !isCPlusPlus(f) || st == nil {
		v, why := c.OwnRules().Lookup(p, cx, name)
		if v.Kind == lang.ValSym && !seenFromC(p.Sym(v.Sym)) {
			return lang.None(), ""
		}
		return v, why
	}
	if isTypeParam(f, cx.Scope, name) {
		return lang.External(), ""
	}
	for t := p.EnclosingType(f, cx.Scope); t != lang.NoSym; t = outerType(p, t) {
		if p.Sym(t).Name == name && (cx.TypesOnly() || cx.Called()) {
			return lang.SymValue(t), graph.ReasonSameFile // the injected class name
		}
		ids, depth := p.FindMember(t, name)
		var found []lang.SymID
		for _, id := range ids {
			s := p.Sym(id)
			if s.Kind == graph.KindConstructor || cx.TypesOnly() && !s.Kind.IsType() {
				continue
			}
			if cx.Called() && s.Kind == graph.KindTypeAlias {
				return lang.External(), "" // a conversion to an alias (`size_type(n)`)
			}
			found = append(found, id)
		}
		if len(found) > 0 {
			if depth > 0 {
				return lang.SymsValue(found), graph.ReasonInherited
			}
			return lang.SymsValue(found), graph.ReasonSelfReceiver
		}
	}
	return st.lookupInNamespaces(p, cx, name)
}

// seenFromC reports whether a C file may name a symbol: a C one, or a
// free C++ function or variable of the global namespace (`extern "C"`).
func seenFromC(s *lang.Sym) bool {
	if !isCPlusPlus(s.File) {
		return true
	}
	return s.Parent < 0 && s.Receiver == "" && !strings.Contains(s.Qual, ".")
}

// isTypeParam reports whether name is a template parameter of the scope
// symbol or of a symbol around it.
func isTypeParam(f *lang.File, scope int, name string) bool {
	for scope >= 0 {
		s := &f.Facts.Symbols[scope]
		for _, tp := range s.TypeParams {
			if tp.Name == name {
				return true
			}
		}
		scope = s.Parent
	}
	return false
}

// outerType is the class a nested class is declared in, or NoSym.
func outerType(p *lang.Program, t lang.SymID) lang.SymID {
	s := p.Sym(t)
	if s.Parent < 0 {
		return lang.NoSym
	}
	return p.EnclosingType(s.File, s.Parent)
}

// Export returns what namespace m declares under name: its symbols of
// that name, else the nested namespace.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	st := stateOf(p)
	ns, ok := st.namespaceOf[m]
	if !ok {
		return lang.None()
	}
	if ids := st.visibleDefs(p, nil, st.names[ns][name]); len(ids) > 0 {
		return lang.SymsValue(ids)
	}
	if sub := st.namespace(join(ns, name)); sub != nil {
		return lang.ModuleValue(sub)
	}
	return lang.External()
}

// join appends a name to a dotted namespace.
func join(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "." + name
}

// parentNamespace is the namespace around ns ("" around a top-level one).
func parentNamespace(ns string) string {
	if i := strings.LastIndexByte(ns, '.'); i >= 0 {
		return ns[:i]
	}
	return ""
}
