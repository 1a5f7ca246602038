package scala

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Scala overloads a name by parameter types; linking every overload of
// the right count was wrong in most samples read by hand (os-lib's
// `posix(String)`, `posix(java.nio.file.Path)`, `posix(os.Path)`). The
// rules choose by what the extractor records of each argument: a
// literal's type, a lambda, the class of a value the engine can type,
// the declared type of a val, parameter or parameterless def, or a value
// known to come from outside the repository. An argument of unknown type
// fits any parameter, and a single candidate is kept whatever the
// arguments (implicit conversions make many of them fit).

// SelectOverload keeps the callables whose parameters accept the
// arguments, by count and by the types known of them. args is nil for a
// name written without an argument list (`x.rep`), which means the
// alternative without one when there is one, and empty for `f()`, which
// means one that declares a list.
func (rules) SelectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr) []lang.SymID {
	var fit, getters []lang.SymID
	for _, id := range cands {
		if s := p.Sym(id); s.Kind.IsCallable() && lang.Accepts(s.Symbol, len(args)) {
			fit = append(fit, id)
			if s.Getter {
				getters = append(getters, id)
			}
		}
	}
	switch {
	case args == nil && len(getters) > 0:
		fit = getters
	case args != nil && len(getters) > 0 && len(getters) < len(fit):
		// An argument list goes to an alternative that declares one
		// (`x.rep(sep = ",")`), not to one with implicit parameters only.
		var explicit []lang.SymID
		for _, id := range fit {
			if !p.Sym(id).Getter {
				explicit = append(explicit, id)
			}
		}
		fit = explicit
	}
	if len(fit) == 0 && len(args) > 0 {
		// `x.reads(arg)` with `def reads: String => A`: the def is
		// called, then its result applied.
		for _, id := range cands {
			if s := p.Sym(id); s.Kind.IsCallable() && s.Getter && len(s.Params) == 0 {
				fit = append(fit, id)
			}
		}
	}
	if len(fit) == 0 {
		return nil
	}
	if len(fit) == 1 && !companionApply(p, fit[0]) {
		// One candidate: an implicit conversion may make an argument of
		// another type fit (`path / "a"` converts the String).
		return fit
	}
	types := make([]string, len(args))
	for i, a := range args {
		types[i] = argType(p, c, a)
	}
	var out, exact []lang.SymID
	caller := c.File.SymOf(c.Scope)
	callerFits := false
	for _, id := range fit {
		if acceptsTypes(p, p.Sym(id).Params, types) {
			if id == caller {
				callerFits = true
				continue
			}
			out = append(out, id)
			if takesExactly(p.Sym(id).Params, len(args)) {
				exact = append(exact, id)
			}
		}
	}
	// Scala discards the alternatives that need default arguments when
	// some need none.
	if len(exact) > 0 {
		out = exact
	}
	// An overload that calls its own name with arguments that fit
	// another overload as well delegates to it far more often than it
	// recurses.
	if callerFits && len(out) == 0 {
		out = append(out, caller)
	}
	return out
}

// takesExactly reports whether params take n arguments without using a
// default value or a repeated parameter.
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

// companionApply reports whether id is the apply of a class's companion,
// which `C(x)` runs only when it fits the arguments (else C's
// constructor).
func companionApply(p *lang.Program, id lang.SymID) bool {
	s := p.Sym(id)
	owner := p.Owner(id)
	return s.Name == "apply" && s.Static && owner != lang.NoSym && p.Sym(owner).Kind == graph.KindClass &&
		len(p.Members(owner, p.Sym(owner).Name)) > 0
}

// literalTypes are the Scala types of the literals the extractor names.
var literalTypes = map[string]string{"string": "String", "int": "Int", "float": "Double", "bool": "Boolean",
	"char": "Char", functionLiteral: functionType}

// functionType stands for the type of a function literal.
const functionType = "=>"

// functionTypes are the named types a function literal converts to.
var functionTypes = map[string]bool{"PartialFunction": true, "Function": true, "Function0": true, "Function1": true,
	"Function2": true, "Function3": true}

// argType is the simple name of an argument's class, "" when unknown.
func argType(p *lang.Program, c lang.Ctx, e *lang.Expr) string {
	if e == nil {
		return ""
	}
	if e.Kind == lang.ExprLiteral {
		return literalTypes[e.Name]
	}
	v, _ := p.Eval(c, e)
	if v.Kind == lang.ValSym {
		// A val or a parameterless def read: its value's class, else its
		// declared type (String, Int... are outside the repository).
		s := p.Sym(v.Sym)
		switch {
		case s.Kind == graph.KindProperty || s.Kind == graph.KindVariable || s.Kind == graph.KindConst:
			if iv := p.ValueOf(v.Sym); iv.Kind == lang.ValInstance && iv.Elem == 0 {
				return p.Sym(iv.Sym).Name
			}
			return paramType(s.Type)
		case s.Getter && len(s.Returns) == 1:
			return paramType(s.Returns[0])
		}
	}
	if v.Kind == lang.ValInstance && v.Elem == 0 {
		return p.Sym(v.Sym).Name
	}
	if v.Kind == lang.ValExternal && e.Kind != lang.ExprIdent {
		return externalType
	}
	if v.Kind == lang.ValExternal && e.Kind == lang.ExprIdent {
		// A parameter of a type outside the repository.
		f := c.File
		for scope := c.Scope; scope >= 0; scope = f.Facts.Symbols[scope].Parent {
			for _, prm := range f.Facts.Symbols[scope].Params {
				if prm.Name == e.Name {
					if libraryQualified(prm.Type) {
						return libraryType + lastPartKeepingPath(prm.Type)
					}
					return paramType(prm.Type)
				}
			}
		}
		return externalType
	}
	return ""
}

// externalType stands for the type of a value known to come from outside
// the repository (the result of a library call): no type of the
// repository, though an implicit conversion may still make it one.
const externalType = "<external>"

// numericWidening are the parameter types a literal of a type converts to.
var numericWidening = map[string]map[string]bool{
	"Int":  {"Long": true, "Float": true, "Double": true, "Short": true, "Byte": true},
	"Char": {"Int": true, "Long": true},
}

// acceptsTypes reports whether parameters take arguments of these types.
func acceptsTypes(p *lang.Program, params []lang.Param, types []string) bool {
	for i, t := range types {
		if t == "" || i >= len(params) {
			continue
		}
		want := paramType(params[i].Type)
		if t == externalType {
			// Of several candidates, one taking a type of the repository
			// is not meant for a value from outside it.
			if isRepositoryType(p, want) {
				return false
			}
			continue
		}
		if q, ok := strings.CutPrefix(t, libraryType); ok {
			// A parameter declared `in: java.io.Reader`: a library class
			// written by its full name, not the repository's Reader.
			written := lastPartKeepingPath(params[i].Type)
			switch {
			case libraryQualified(written):
				if written != q {
					return false
				}
			case want == "" || want == "Any" || want == "AnyRef" || len(want) == 1:
			case isRepositoryType(p, want) || want != lastPart(q):
				return false
			}
			continue
		}
		if t == functionType {
			// A lambda fits a function type (written with =>, which
			// paramType leaves empty), a named one, or a type parameter.
			if want != "" && len(want) > 1 && !functionTypes[want] {
				return false
			}
			continue
		}
		if libraryQualified(params[i].Type) && isRepositoryType(p, t) && !isSubtypeNamed(p, t, want) {
			return false // `in: java.io.Reader` takes no class of ours
		}
		switch {
		case want == "" || want == "Any" || want == "AnyRef" || want == t || len(want) == 1 || len(t) == 1:
			// Undeclared, Any, the same class, or a type parameter.
		case numericWidening[t][want]:
		case t == "String" && (want == "CharSequence" || want == "Comparable"):
		case isRepositoryType(p, t):
			// Its supertypes are known (or some are outside: then it may
			// be one).
			if !isSubtypeNamed(p, t, want) {
				return false
			}
		case isRepositoryType(p, want):
			return false // a type from outside extends none of ours
		case valueTypes[t] && (valueTypes[want] || functionTypes[want]):
			return false // distinct final types; a value is no function
		}
	}
	return true
}

// valueTypes are Scala's final standard types, none a subtype of another.
var valueTypes = map[string]bool{"String": true, "Int": true, "Long": true, "Double": true, "Float": true,
	"Boolean": true, "Char": true, "Byte": true, "Short": true, "Unit": true}

// isRepositoryType reports whether a type of the repository is named so.
func isRepositoryType(p *lang.Program, name string) bool {
	for _, id := range p.SymbolsNamed(name) {
		if p.Sym(id).Kind.IsType() {
			return true
		}
	}
	return false
}

// libraryType prefixes the full name of a library class an argument is
// declared with.
const libraryType = "<library> "

// lastPartKeepingPath is a written type without `=>` and type arguments.
func lastPartKeepingPath(written string) string {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(written), "=>"))
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return t
}

// libraryQualified reports whether a written type names a class of the
// Java or Scala libraries by its full name (`java.io.Reader`), which no
// class of the repository named like its last part is.
func libraryQualified(written string) bool {
	t := lastPartKeepingPath(written)
	for _, prefix := range []string{"java.", "javax.", "scala."} {
		if strings.HasPrefix(t, prefix) {
			return true
		}
	}
	return false
}

// paramType is the simple class name of a parameter type.
func paramType(written string) string {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(written), "=>"))
	if t == "" || strings.ContainsAny(t, "()") || strings.Contains(t, "=>") {
		return ""
	}
	return lastPart(t)
}

// isSubtypeNamed reports whether a repository type named sub has a
// supertype named super, or a supertype outside the repository that may
// be it.
func isSubtypeNamed(p *lang.Program, sub, super string) bool {
	for _, id := range p.SymbolsNamed(sub) {
		if !p.Sym(id).Kind.IsType() {
			continue
		}
		for _, b := range linearization(p, id)[1:] {
			if p.Sym(b).Name == super {
				return true
			}
		}
		if len(p.Sym(id).Bases) > len(p.Bases(id)) {
			return true
		}
	}
	return false
}
