package c

import (
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Lookup resolves a name the way C links it. The file's own definitions
// come first (a `static f` hides every other f). A function-like macro
// of that name in the file or a header it includes makes the call a macro
// invocation: nothing. Otherwise the candidates are the repository's
// external definitions of the name, and the static ones of the headers
// the file includes. One candidate is the answer; of several, the one
// preferred: defined in a header the file includes, or whose file includes
// a header that declares the name and that the calling file includes too.
// Several candidates and none or several preferred: nothing (two programs
// of the repository each define their own f). Definitions for another
// platform (platform.go) are candidates for calls from such code only.
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	foreignCaller := c.Scope >= 0 && isForPlatform(&f.Facts.Symbols[c.Scope])
	var own []lang.SymID
	for _, id := range f.Top[name] {
		if s := p.Sym(id); !s.Hidden && s.Parent < 0 && (foreignCaller || !isForPlatform(s.Symbol)) {
			own = append(own, id)
		}
	}
	if len(own) > 0 {
		return lang.SymsValue(own), graph.ReasonSameFile
	}
	st := stateOf(f)
	if st == nil {
		return lang.None(), ""
	}
	seen := st.sees(f)
	var defs []lang.SymID
	var declaring []*lang.File
	for _, id := range p.SymbolsNamed(name) {
		s := p.Sym(id)
		if s.Parent >= 0 || s.File == f {
			continue
		}
		if s.Hidden {
			if !seen[s.File] {
				continue
			}
			if isMacro(s) {
				return lang.None(), ""
			}
			declaring = append(declaring, s.File)
			continue
		}
		if c.Called() && !s.Kind.IsCallable() || !foreignCaller && isForPlatform(s.Symbol) {
			continue
		}
		if s.Static && !seen[s.File] {
			continue
		}
		defs = append(defs, id)
	}
	var preferred []lang.SymID
	for _, id := range defs {
		d := p.Sym(id).File
		if seen[d] {
			preferred = append(preferred, id)
			continue
		}
		defSees := st.sees(d)
		for _, h := range declaring {
			if defSees[h] {
				preferred = append(preferred, id)
				break
			}
		}
	}
	switch {
	case len(preferred) == 1:
		return lang.SymValue(preferred[0]), graph.ReasonImportResolved
	case len(defs) == 1 && len(preferred) == 0:
		return lang.SymValue(defs[0]), graph.ReasonSamePackage
	}
	return lang.None(), ""
}

// isForPlatform reports whether a definition is compiled for another
// platform only (platform.go).
func isForPlatform(s *lang.Symbol) bool {
	return len(s.Decorators) == 1 && s.Decorators[0] == platformDecorator
}

// isMacro reports whether a hidden symbol is a function-like macro.
func isMacro(s *lang.Sym) bool {
	return len(s.Decorators) == 1 && s.Decorators[0] == "define"
}

// Export: a C file exports nothing by name; includes make names visible
// through Lookup.
func (rules) Export(*lang.Program, *lang.Module, string) lang.Value { return lang.None() }
