package kotlin

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Kotlin overloads a name by parameter types (FunSpec.builder(String) and
// FunSpec.builder(MemberName)); choosing by argument count alone linked
// every overload of that count. The rules choose by the types of the
// arguments the extractor records: a literal's type, or the class of a
// value the engine can type. An argument of unknown type fits any
// parameter; a candidate some known argument does not fit is dropped.

// LookupMember finds the members named name on t or, breadth first, on
// its supertypes; the nearest level that declares the name wins.
// A member declared in a supertype wins over an extension of t (Kotlin
// runs an extension only when no member applies).
func (rules) LookupMember(p *lang.Program, t lang.SymID, name string) ([]lang.SymID, int) {
	ids, depth := p.NearestMembers(t, name)
	if len(ids) == 0 || !allExtensions(p, ids) {
		return ids, depth
	}
	seen := map[lang.SymID]bool{t: true}
	level := []lang.SymID{t}
	for d := 1; len(level) > 0 && d < 16; d++ {
		var next []lang.SymID
		var found []lang.SymID
		for _, cur := range level {
			for _, b := range p.Bases(cur) {
				if seen[b] {
					continue
				}
				seen[b] = true
				next = append(next, b)
				for _, m := range p.Members(b, name) {
					if p.Sym(m).Receiver == "" {
						found = append(found, m)
					}
				}
			}
		}
		if len(found) > 0 {
			return found, d
		}
		level = next
	}
	return ids, depth
}

// allExtensions reports whether every one of ids is an extension function.
func allExtensions(p *lang.Program, ids []lang.SymID) bool {
	for _, id := range ids {
		if p.Sym(id).Receiver == "" {
			return false
		}
	}
	return true
}

// SelectOverload keeps the candidates whose parameters accept the
// arguments, by count and by the types known of them. When more than one
// remains, the call is ambiguous to the index and none is kept: linking
// every overload was most of the wrong edges on kotlinpoet, and a wrong
// edge is worse than a missing one. (The engine still types the call's
// result when every candidate returns the same type.)
func (rules) SelectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr) []lang.SymID {
	cands = notSelfTyped(p, c, unique(cands))
	var fit []lang.SymID
	for _, id := range cands {
		if lang.Accepts(p.Sym(id).Symbol, len(args)) {
			fit = append(fit, id)
		}
	}
	if len(fit) <= 1 {
		return fit
	}
	types := make([]string, len(args))
	for i, a := range args {
		types[i] = argType(p, c, a)
	}
	var out, exact []lang.SymID
	for _, id := range fit {
		if acceptsTypes(p, p.Sym(id).Params, types) && spreadsFit(p.Sym(id).Params, args) {
			out = append(out, id)
			if takesExactly(p.Sym(id).Params, len(args)) {
				exact = append(exact, id)
			}
		}
	}
	// Kotlin prefers a candidate that needs no default value and no
	// vararg over one that does, of those that apply. An argument of
	// unknown type may apply to one and not the other, unless all
	// candidates take the same type at its position.
	if len(exact) > 0 && unknownsAgree(p, out, types) {
		out = exact
	}
	if len(out) > 1 {
		return nil
	}
	return out
}

// unique drops repeated candidates (an extension function is both a
// top-level function and a member of its receiver type).
func unique(ids []lang.SymID) []lang.SymID {
	var out []lang.SymID
	seen := map[lang.SymID]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// notSelfTyped drops the calling function from the candidates when its
// result type comes from its own expression body (`fun f(x: A) =
// f(x.g())`): Kotlin cannot type such a function's call to itself, so the
// call is to another overload.
func notSelfTyped(p *lang.Program, c lang.Ctx, cands []lang.SymID) []lang.SymID {
	if c.File == nil || c.Scope < 0 || len(cands) < 2 {
		return cands
	}
	self := c.File.SymOf(c.Scope)
	s := p.Sym(self)
	if !s.Kind.IsCallable() || len(s.Returns) > 0 || s.Value == nil {
		return cands
	}
	var out []lang.SymID
	for _, id := range cands {
		if id != self {
			out = append(out, id)
		}
	}
	return out
}

// spreadArgument names the literal the extractor records for `*xs`.
const spreadArgument = "spread"

// spreadsFit reports whether every spread argument (`*xs`) meets a vararg
// parameter.
func spreadsFit(params []lang.Param, args []*lang.Expr) bool {
	for i, a := range args {
		if a == nil || a.Kind != lang.ExprLiteral || a.Name != spreadArgument {
			continue
		}
		switch {
		case i < len(params) && params[i].Variadic:
		case i >= len(params) && len(params) > 0 && params[len(params)-1].Variadic:
		default:
			return false
		}
	}
	return true
}

// unknownsAgree reports whether, at each position whose argument type is
// unknown, every candidate takes the same parameter type.
func unknownsAgree(p *lang.Program, cands []lang.SymID, types []string) bool {
	for i, t := range types {
		if t != "" {
			continue
		}
		want := ""
		for j, id := range cands {
			pt := paramTypeAt(p.Sym(id).Params, i)
			if pt == "" {
				return false
			}
			if j == 0 {
				want = pt
			} else if pt != want {
				return false
			}
		}
	}
	return true
}

// paramTypeAt is the simple type of the parameter that takes argument i
// (a trailing vararg takes the rest), "" when unknown.
func paramTypeAt(params []lang.Param, i int) string {
	switch {
	case i < len(params):
		return paramType(params[i].Type)
	case len(params) > 0 && params[len(params)-1].Variadic:
		return paramType(params[len(params)-1].Type)
	}
	return ""
}

// takesExactly reports whether params take n arguments with neither
// default values nor a vararg.
func takesExactly(params []lang.Param, n int) bool {
	if len(params) != n {
		return false
	}
	for _, prm := range params {
		if prm.Variadic {
			return false
		}
	}
	return true
}

// literalTypes are the Kotlin types of the literals the extractor names.
var literalTypes = map[string]string{"string": "String", "int": "Int", "bool": "Boolean"}

// argType is the simple name of an argument's class, "" when unknown.
func argType(p *lang.Program, c lang.Ctx, e *lang.Expr) string {
	if e == nil {
		return ""
	}
	switch e.Kind {
	case lang.ExprLiteral:
		return literalTypes[e.Name]
	case lang.ExprTypeAssert:
		// A cast or a class literal: the written type, known by name
		// even when it is outside the repository.
		return paramType(e.Name)
	}
	v, _ := p.Eval(c, e)
	if v.Kind == lang.ValSym {
		// A property or variable named: the value it holds.
		switch p.Sym(v.Sym).Kind {
		case graph.KindProperty, graph.KindVariable, graph.KindConst:
			v = p.ValueOf(v.Sym)
		}
	}
	external := v.Kind == lang.ValExternal || v.Kind == lang.ValInstance && p.Sym(v.Sym).Hidden
	if e.Kind == lang.ExprIdent && external {
		// A hidden type may stand for a supertype (a MutableMap has the
		// extensions of Map): the written name is the exact one.
		if t := writtenParamType(c, e.Name); t != "" {
			return t
		}
	}
	if v.Kind == lang.ValInstance && v.Elem == 0 {
		return strings.TrimPrefix(p.Sym(v.Sym).Name, externalTypeMark)
	}
	return ""
}

// writtenParamType is the simple name of the type written for parameter
// name of the callables around c ("" when it is none of theirs): a
// parameter of a type outside the repository (`format: String`) still
// tells overloads apart by that name.
func writtenParamType(c lang.Ctx, name string) string {
	if c.File == nil {
		return ""
	}
	syms := c.File.Facts.Symbols
	for i := c.Scope; i >= 0 && i < len(syms); i = syms[i].Parent {
		if !syms[i].Kind.IsCallable() {
			continue
		}
		for _, prm := range syms[i].Params {
			if prm.Name == name {
				// A vararg is an array; a one-letter type a type
				// parameter.
				if t := paramType(prm.Type); !prm.Variadic && len(t) > 1 {
					return t
				}
				return ""
			}
		}
	}
	return ""
}

// literalSupers are supertypes of the literal types.
var literalSupers = map[string]map[string]bool{
	"String":  {"CharSequence": true, "Comparable": true},
	"Int":     {"Number": true, "Comparable": true},
	"Boolean": {"Comparable": true},
}

// intTypes are the parameter types an integer literal converts to.
var intTypes = map[string]bool{"Int": true, "Long": true, "Short": true, "Byte": true}

// acceptsTypes reports whether parameters take arguments of these types.
func acceptsTypes(p *lang.Program, params []lang.Param, types []string) bool {
	for i, t := range types {
		if t == "" || i >= len(params) {
			continue
		}
		want := paramType(params[i].Type)
		switch {
		case want == "" || want == "Any" || want == t || len(want) == 1:
			// Undeclared, Any, the same class, or a type parameter.
		case t == "Int" && intTypes[want]:
		case literalSupers[t][want], isExternalSupertype(t, want):
		case isSubtypeNamed(p, t, want):
		default:
			return false
		}
	}
	return true
}

// isExternalSupertype reports whether the standard type sub has the
// standard supertype super (a List is an Iterable).
func isExternalSupertype(sub, super string) bool {
	for _, s := range externalSupertypes[sub] {
		if s == super {
			return true
		}
	}
	return false
}

// paramType is the simple class name of a parameter type.
func paramType(written string) string {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(written), "?"))
	if t == "" || strings.ContainsAny(t, "()") {
		return ""
	}
	return lastPart(t)
}

// isSubtypeNamed reports whether a repository class named sub has a
// supertype named super: a repository supertype, a supertype outside the
// repository written with that name, or a standard supertype of one
// (externalSupertypes).
func isSubtypeNamed(p *lang.Program, sub, super string) bool {
	for _, id := range p.SymbolsNamed(sub) {
		if !p.Sym(id).Kind.IsType() {
			continue
		}
		seen := map[lang.SymID]bool{id: true}
		stack := []lang.SymID{id}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, b := range p.Sym(t).Bases {
				name := lastPart(b.Type)
				if name == super {
					return true
				}
				if isExternalSupertype(name, super) {
					return true
				}
			}
			for _, b := range p.Bases(t) {
				if !seen[b] {
					seen[b] = true
					stack = append(stack, b)
				}
			}
		}
	}
	return false
}

// Overrides reports whether o overrides m: the same parameter types.
func (rules) Overrides(p *lang.Program, m, o lang.SymID) bool {
	mp, op := p.Sym(m).Params, p.Sym(o).Params
	if len(mp) != len(op) {
		return false
	}
	for i := range mp {
		if paramType(mp[i].Type) != paramType(op[i].Type) {
			return false
		}
	}
	return true
}
