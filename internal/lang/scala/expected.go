package scala

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// parameterPrefix starts the made-up name that stands for the parameter
// of a lambda passed to the def named after it (see expectedParameter);
// a space keeps it apart from names of the program.
const parameterPrefix = "parameter expected by "

// lookupExpected types the parameter of a lambda passed to the def named
// callee: the parameter type of the function type the def's first
// parameter declares (`f: Input => Result[T]` gives Input, followed
// through type aliases where the def is declared). Defs of that name
// that disagree, or a type that is no function of one parameter, give
// nothing.
func lookupExpected(p *lang.Program, c *lang.Ctx, callee string) (lang.Value, graph.Reason) {
	v, _ := p.LookupIdent(*c, callee)
	if v.Kind != lang.ValSym {
		return lang.None(), ""
	}
	var out lang.Value
	for _, id := range symsOf(v) {
		s := p.Sym(id)
		if !s.Kind.IsCallable() || len(s.Params) == 0 {
			continue
		}
		from, _, ok := strings.Cut(s.Params[0].Type, "=>")
		from = strings.TrimSpace(from)
		if !ok || from == "" || strings.ContainsAny(from, "(),") {
			return lang.None(), ""
		}
		t := p.ResolveType(lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}, from)
		if !t.Known() || (out.Known() && (t.Kind != out.Kind || t.Sym != out.Sym || t.Elem != out.Elem)) {
			return lang.None(), ""
		}
		out = t
	}
	if !out.Known() {
		return lang.None(), ""
	}
	return out, graph.ReasonSameFile
}
