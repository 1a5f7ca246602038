package java

import (
	"slices"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Overload choice follows the Java rules closely enough for call graphs:
// candidates that take the number of arguments (variable arity included)
// are tried in javac's three phases (no boxing, boxing, variable arity);
// in the first phase that admits any, the most specific ones are kept.
// Arguments whose type is unknown fit anything and decide nothing; when
// they leave several candidates with different parameter types, none is
// kept (a wrong edge is worse than a missing one). A fit that rests on an
// unknown type (an argument of unknown type, two outside types the JDK
// table does not relate) is unsure, and a choice that an unsure fit could
// overturn is not made (settled).

// SelectOverload keeps the candidates a call with these arguments may run.
func (r rules) SelectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr) []lang.SymID {
	return r.selectOverload(p, c, cands, args, 0)
}

type fitting struct {
	id     lang.SymID
	phase  int   // 1 strict, 2 boxing, 3 variable arity
	unsure []int // argument positions whose fit rests on an unknown type
}

func (r rules) selectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr, depth int) []lang.SymID {
	n := len(args)
	var byArity []lang.SymID
	for _, id := range cands {
		s := p.Sym(id)
		if !s.Kind.IsCallable() || (isPrivate(s) && !sameTopLevel(c.File, c.Scope, s.File, s.Local)) {
			continue
		}
		np := len(s.Params)
		if n == np || (np > 0 && s.Params[np-1].Variadic && n >= np-1) {
			byArity = append(byArity, id)
		}
	}
	if len(byArity) == 0 {
		return nil
	}
	argTypes := make([]jtype, n)
	for i, a := range args {
		argTypes[i] = r.argType(p, c, a, depth)
	}
	var fits []fitting
	best := 4
	for _, id := range byArity {
		if phase, unsure := r.applicable(p, id, argTypes); phase > 0 {
			fits = append(fits, fitting{id, phase, unsure})
			best = min(best, phase)
		}
	}
	var kept []lang.SymID
	for _, f := range fits {
		if f.phase == best {
			kept = append(kept, f.id)
		}
	}
	kept = r.mostSpecific(p, kept, argTypes, best)
	if len(kept) > 1 && !r.sameSignatures(p, kept) {
		// Arguments of unknown type leave several overloads: linking them
		// all would add wrong edges, so the call stays unresolved.
		return nil
	}
	if len(kept) > 0 && !r.settled(p, kept, fits, n) {
		return nil
	}
	return kept
}

// settled reports whether the choice of kept (the most specific overloads
// of the first phase that admits any, taking every unsure fit as a fit)
// stands whatever the unknown types turn out to be. A sure winner does: the
// others of its phase lose to it either way, and later phases only count
// when no method of its phase applies. An unsure winner stands only when
// every other applicable overload takes, at each of its unsure positions,
// a subtype of its parameter: then an argument that fits the other fits it
// too, and it applies whenever the other would. Otherwise the call is left
// unresolved (no edge) rather than guessed: `isNewer(file, when)` with
// isNewer(Path, Path) and isNewer(Path, ChronoZonedDateTime, LinkOption...)
// when the type of when is not known to be or not to be a Path. When every
// candidate fits only unsurely and no other candidate competes, the choice
// is kept as before: the code compiles, so that overload is the one run.
func (r rules) settled(p *lang.Program, kept []lang.SymID, fits []fitting, n int) bool {
	var win fitting
	for _, f := range fits {
		if f.id == kept[0] {
			win = f
		}
	}
	if len(win.unsure) == 0 {
		return true
	}
	wp := r.paramsFor(p, win, n)
	for _, f := range fits {
		if slices.Contains(kept, f.id) {
			continue
		}
		fp := r.paramsFor(p, f, n)
		for _, i := range win.unsure {
			if !r.subtypeOf(p, fp[i], wp[i]) {
				return false
			}
		}
	}
	return true
}

// paramsFor are the parameter types of an applicable overload, one per
// argument (a variable arity parameter spread in phase 3).
func (r rules) paramsFor(p *lang.Program, f fitting, n int) []jtype {
	ps := r.paramTypes(p, f.id)
	if f.phase == 3 || len(ps) != n {
		ps = expandVariadic(ps, n)
	}
	return ps
}

// sameSignatures reports whether the candidates all take the same
// parameter types (one method declared by several supertypes).
func (r rules) sameSignatures(p *lang.Program, ids []lang.SymID) bool {
	first := p.Sym(ids[0]).Params
	for _, id := range ids[1:] {
		ps := p.Sym(id).Params
		if len(ps) != len(first) {
			return false
		}
		for i := range ps {
			a, _ := r.paramErasure(p, ids[0], first[i].Type, nil)
			b, _ := r.paramErasure(p, id, ps[i].Type, nil)
			if a != b {
				return false
			}
		}
	}
	return true
}

// applicable returns the phase in which method m accepts arguments of
// these types (0 when it does not) and the argument positions whose fit is
// unsure.
func (r rules) applicable(p *lang.Program, m lang.SymID, args []jtype) (phase int, unsure []int) {
	params := r.paramTypes(p, m)
	np := len(params)
	variadic := np > 0 && p.Sym(m).Params[np-1].Variadic
	if len(args) == np {
		phase = 1
		for i := range args {
			cv := r.compatible(p, args[i], params[i])
			if !cv.fit {
				phase, unsure = 0, nil
				break
			}
			if cv.boxing {
				phase = 2
			}
			if cv.unsure {
				unsure = append(unsure, i)
			}
		}
		if phase > 0 {
			return phase, unsure
		}
	}
	if !variadic || len(args) < np-1 {
		return 0, nil
	}
	expanded := expandVariadic(params, len(args))
	for i, a := range args {
		cv := r.compatible(p, a, expanded[i])
		if !cv.fit {
			return 0, nil
		}
		if cv.unsure {
			unsure = append(unsure, i)
		}
	}
	return 3, unsure
}

// mostSpecific drops every candidate that another candidate is strictly
// more specific than. Parameter lists are compared position by position
// against the arguments (variable arity ones expanded to the argument
// count in phase 3); at a position whose argument type is unknown the
// parameter types must be the same.
func (r rules) mostSpecific(p *lang.Program, cands []lang.SymID, args []jtype, phase int) []lang.SymID {
	if len(cands) < 2 {
		return cands
	}
	expanded := map[lang.SymID][]jtype{}
	for _, id := range cands {
		ps := r.paramTypes(p, id)
		if phase == 3 {
			ps = expandVariadic(ps, len(args))
		}
		expanded[id] = ps
	}
	atLeast := func(a, b lang.SymID) bool { // a at least as specific as b
		pa, pb := expanded[a], expanded[b]
		if len(pa) != len(pb) {
			return false
		}
		for i := range pa {
			if i < len(args) && args[i].kind == jUnknown {
				if pa[i] != pb[i] {
					return false
				}
				continue
			}
			if !r.subtypeOf(p, pa[i], pb[i]) {
				return false
			}
		}
		return true
	}
	var out []lang.SymID
	for _, b := range cands {
		dominated := false
		for _, a := range cands {
			if a != b && atLeast(a, b) && !atLeast(b, a) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, b)
		}
	}
	return out
}

// expandVariadic spreads a variable arity parameter list over n
// arguments: the fixed parameters, then the element type repeated.
func expandVariadic(params []jtype, n int) []jtype {
	if len(params) == 0 {
		return params
	}
	fixed := params[:len(params)-1]
	elem := params[len(params)-1]
	if elem.dims > 0 {
		elem.dims--
	}
	out := append([]jtype(nil), fixed...)
	for len(out) < n {
		out = append(out, elem)
	}
	return out
}

// subtypeOf reports whether type a is known to be a subtype of q (equal
// included), for the most-specific comparison: unlike compatible, an
// unknown relation between two outside types counts as no.
func (r rules) subtypeOf(p *lang.Program, a, q jtype) bool {
	switch {
	case q.kind == jRef && q.sym == lang.NoSym && q.name == "Object" && !q.typeVar &&
		(q.dims < a.dims || (q.dims == a.dims && a.kind == jRef)):
		return true
	case a.kind != q.kind || a.dims != q.dims:
		return false
	case a.kind == jPrim:
		return widens(a.prim, q.prim)
	case a.kind != jRef:
		return true
	case q.typeVar:
		return true
	case a.typeVar:
		return q.sym == lang.NoSym && q.name == "Object"
	case a.sym != lang.NoSym && q.sym != lang.NoSym:
		return subtypeDistance(p, a.sym, q.sym) >= 0
	case q.sym == lang.NoSym && q.name == "Object":
		return true
	case a.sym == lang.NoSym && q.sym == lang.NoSym && a.name != "":
		fits, known := outsideSubtype(a.name, q.name)
		return fits && known
	case a.sym != lang.NoSym && q.sym == lang.NoSym:
		supers, _ := r.outsideSupers(p, a.sym)
		return supers[q.name]
	}
	return false
}

var (
	boxOf   = map[string]string{"boolean": "Boolean", "byte": "Byte", "char": "Character", "short": "Short", "int": "Integer", "long": "Long", "float": "Float", "double": "Double"}
	unboxOf = map[string]string{"Boolean": "boolean", "Byte": "byte", "Character": "char", "Short": "short", "Integer": "int", "Long": "long", "Float": "float", "Double": "double"}
	// widensTo lists the primitive widening conversions.
	widensTo = map[string][]string{
		"byte":  {"short", "int", "long", "float", "double"},
		"short": {"int", "long", "float", "double"},
		"char":  {"int", "long", "float", "double"},
		"int":   {"long", "float", "double"},
		"long":  {"float", "double"},
		"float": {"double"},
	}
	// functionalJDK are JDK interfaces of the supertype table that a lambda
	// may implement; the other types there are classes or not functional.
	functionalJDK = map[string]bool{"Runnable": true, "Comparable": true, "Iterable": true,
		"AutoCloseable": true, "Closeable": true, "Readable": true, "Supplier": true, "Function": true,
		"Consumer": true, "Predicate": true, "BiFunction": true, "BiConsumer": true, "BiPredicate": true,
		"UnaryOperator": true, "BinaryOperator": true, "IntFunction": true, "IntPredicate": true,
		"IntConsumer": true, "IntSupplier": true, "IntUnaryOperator": true, "IntBinaryOperator": true,
		"ToIntFunction": true, "ToLongFunction": true, "ToDoubleFunction": true, "LongSupplier": true,
		"DoubleSupplier": true, "BooleanSupplier": true, "Callable": true, "Comparator": true,
		"FileFilter": true, "FilenameFilter": true}
)

func widens(from, to string) bool {
	if from == to {
		return true
	}
	for _, t := range widensTo[from] {
		if t == to {
			return true
		}
	}
	return false
}

// conversion is how an argument of one type is passed as a parameter of
// another.
type conversion struct {
	fit    bool // the argument may be passed
	boxing bool // it takes boxing or unboxing (phase 2)
	// unsure: the argument fits only because a type involved is not known
	// (an argument of unknown type, an outside type the JDK table does not
	// relate, a repository type with supertypes outside it).
	unsure bool
}

var (
	noFit    = conversion{}
	sureFit  = conversion{fit: true}
	maybeFit = conversion{fit: true, unsure: true}
	boxedFit = conversion{fit: true, boxing: true}
	boxedMay = conversion{fit: true, boxing: true, unsure: true}
)

// fitIf is sureFit when ok, noFit otherwise.
func fitIf(ok bool) conversion {
	if ok {
		return sureFit
	}
	return noFit
}

// compatible reports whether an argument of type a may be passed as a
// parameter of type q, whether that takes boxing or unboxing, and whether
// the answer rests on a type that is not known.
func (r rules) compatible(p *lang.Program, a, q jtype) conversion {
	switch {
	case a.kind == jUnknown || q.kind == jUnknown || (a.kind == jRef && a.typeVar && a.dims == 0):
		return maybeFit
	case a.kind == jRef && a.typeVar:
		// An array of an inferred type variable: an array of references.
		switch {
		case q.typeVar || q.kind == jUnknown:
			return conversion{fit: q.dims <= a.dims, unsure: true}
		case q.dims == a.dims:
			return conversion{fit: q.kind == jRef, unsure: true}
		case q.dims < a.dims:
			return fitIf(q.kind == jRef && q.sym == lang.NoSym &&
				(q.name == "Object" || q.name == "Cloneable" || q.name == "Serializable"))
		}
		return noFit
	case a.kind == jNull:
		return fitIf(q.kind != jPrim || q.dims > 0)
	case a.kind == jLambda:
		switch {
		case q.dims > 0 || q.kind == jPrim:
			return noFit
		case q.typeVar:
			return sureFit
		case q.sym != lang.NoSym:
			return fitIf(isInterface(p, q.sym))
		}
		if _, jdk := jdkSupers[q.name]; jdk {
			return fitIf(functionalJDK[q.name])
		}
		return maybeFit
	case a.kind == jNumeric:
		switch {
		case q.dims > 0:
			return noFit
		case q.kind == jPrim:
			return fitIf(q.prim != "boolean" && widens(a.prim, q.prim))
		case q.typeVar:
			return boxedFit
		case q.sym != lang.NoSym:
			return noFit
		case q.name == "":
			return boxedMay
		}
		if q.name == "Number" || q.name == "Object" || q.name == "Comparable" || q.name == "Serializable" ||
			unboxOf[q.name] != "" && unboxOf[q.name] != "boolean" && unboxOf[q.name] != "char" {
			return boxedFit
		}
		return noFit
	case q.typeVar:
		if q.dims > a.dims || (q.dims > 0 && q.dims == a.dims && a.kind == jPrim) {
			return noFit // T[] takes arrays of references only
		}
		return conversion{fit: true, boxing: a.kind == jPrim && a.dims == 0}
	case a.dims > 0 || q.dims > 0:
		if q.dims < a.dims && q.kind == jRef && q.sym == lang.NoSym &&
			(q.name == "Object" || q.name == "Cloneable" || q.name == "Serializable") {
			return sureFit // every array is an Object; Foo[][] is an Object[]
		}
		if a.dims != q.dims {
			return noFit
		}
		if a.kind == jPrim || q.kind == jPrim {
			return fitIf(a.kind == q.kind && a.prim == q.prim)
		}
		return r.refCompatible(p, a, q)
	case a.kind == jPrim && q.kind == jPrim:
		return fitIf(widens(a.prim, q.prim))
	case a.kind == jPrim:
		switch {
		case q.sym != lang.NoSym:
			return noFit
		case q.name == "":
			return boxedMay
		}
		if box := boxOf[a.prim]; q.name == box || jdkSupers[box][q.name] {
			return boxedFit
		}
		return noFit
	case q.kind == jPrim:
		switch {
		case a.sym != lang.NoSym:
			return noFit
		case a.name == "":
			return boxedMay
		}
		if prim, ok := unboxOf[a.name]; ok && widens(prim, q.prim) {
			return boxedFit
		}
		return noFit
	}
	return r.refCompatible(p, a, q)
}

// refCompatible compares two reference types (or their array elements).
func (r rules) refCompatible(p *lang.Program, a, q jtype) conversion {
	switch {
	case q.sym != lang.NoSym && a.sym != lang.NoSym:
		return fitIf(subtypeDistance(p, a.sym, q.sym) >= 0)
	case q.sym != lang.NoSym:
		// An outside type is never a subtype of a repository type.
		if a.name == "" {
			return maybeFit
		}
		return noFit
	case q.name == "Object":
		return sureFit
	case q.name == "":
		return maybeFit
	case a.sym != lang.NoSym:
		// A repository type fits an outside type only through the outside
		// supertypes its hierarchy names.
		supers, closed := r.outsideSupers(p, a.sym)
		switch {
		case supers[q.name]:
			return sureFit
		case !closed:
			return maybeFit
		}
		return noFit
	case a.name == "":
		return maybeFit
	}
	fits, known := outsideSubtype(a.name, q.name)
	return conversion{fit: fits, unsure: fits && !known}
}

// sameTopLevel reports whether two places (file and local symbol index) are
// inside the same top-level type, where Java lets private members be used.
func sameTopLevel(f1 *lang.File, i1 int, f2 *lang.File, i2 int) bool {
	if f1 != f2 || i1 < 0 || i2 < 0 {
		return false
	}
	root := func(i int) int {
		for f1.Facts.Symbols[i].Parent >= 0 {
			i = f1.Facts.Symbols[i].Parent
		}
		return i
	}
	return root(i1) == root(i2)
}
