package cpp

import (
	"regexp"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// C++ overloads a name by parameter types, and declares a member in its
// class apart from its definition. The rules choose among the candidates
// of a call: each hidden declaration stands for its out-of-line
// definition; the candidates that take the number of arguments are kept,
// then those whose parameters accept the types known of the arguments (a
// literal's type, a typed value's class); when several remain, the call
// is ambiguous to the index and gets no edge.

// LookupMember finds the members named name on t or, breadth first, on
// its bases; the nearest level that declares the name hides the others.
func (rules) LookupMember(p *lang.Program, t lang.SymID, name string) ([]lang.SymID, int) {
	return p.NearestMembers(t, name)
}

// SelectOverload keeps the candidate a call with these arguments runs.
func (rules) SelectOverload(p *lang.Program, c lang.Ctx, cands []lang.SymID, args []*lang.Expr) []lang.SymID {
	if c.File != nil && !isCPlusPlus(c.File) {
		return cands // C has no overloads; its calls record no argument expressions
	}
	st := stateOf(p)
	var uniq []lang.SymID
	seen := map[lang.SymID]bool{}
	for _, id := range cands {
		if st != nil {
			if d, ok := st.defOf[id]; ok {
				id = d
			}
		}
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	// Default arguments are written on the declaration in the class.
	declared := func(id lang.SymID) *lang.Symbol {
		if st != nil {
			if d, ok := st.declOf[id]; ok {
				return p.Sym(d).Symbol
			}
		}
		return p.Sym(id).Symbol
	}
	var fit []lang.SymID
	for _, id := range uniq {
		if s := p.Sym(id); !s.Kind.IsCallable() || lang.Accepts(declared(id), len(args)) {
			fit = append(fit, id)
		}
	}
	if len(fit) > 1 {
		types := make([]string, len(args))
		known := true
		for i, a := range args {
			types[i] = argType(p, c, a)
			known = known && types[i] != ""
		}
		var typed []lang.SymID
		for _, id := range fit {
			if isCopyOrMove(p, id, declared(id)) {
				if len(types) == 1 && types[0] == p.Sym(p.Owner(id)).Name {
					return nil // a copy: see below
				}
				// Copies and moves are left out, as the compiler runs them
				// unwritten (passing and returning by value) far more often
				// than a call names them.
				continue
			}
			if acceptsTypes(p, id, declared(id).Params, types) {
				typed = append(typed, id)
			}
		}
		if len(typed) > 1 && known {
			// Every argument's type is known: a function that takes
			// exactly those types wins over a template that could.
			var plain []lang.SymID
			for _, id := range typed {
				if len(declared(id).TypeParams) == 0 {
					plain = append(plain, id)
				}
			}
			if len(plain) == 1 {
				typed = plain
			}
		}
		if len(typed) != 1 {
			return nil
		}
		fit = typed
	}
	var out []lang.SymID
	for _, id := range fit {
		if !p.Sym(id).Hidden {
			out = append(out, id)
		}
	}
	return out
}

// argType is the category of an argument's type ("int", "float",
// "string", "char", "bool", or a class name), "" when unknown.
func argType(p *lang.Program, c lang.Ctx, e *lang.Expr) string {
	if e == nil {
		return ""
	}
	if e.Kind == lang.ExprLiteral {
		if e.Name == "null" {
			return ""
		}
		return e.Name
	}
	v, _ := p.Eval(c, e)
	written := ""
	if v.Kind == lang.ValSym && isVariable(p.Sym(v.Sym).Kind) {
		written = p.Sym(v.Sym).Type
	}
	v = heldValue(p, c, v)
	if v.Kind == lang.ValInstance && v.Elem == 0 {
		return p.Sym(v.Sym).Name
	}
	if written == "" && e.Kind == lang.ExprIdent {
		written = localType(c, e.Name)
	}
	// A builtin or standard library type as written: `std::string s`
	// is a string, `std::stringstream in` no string. A name of the
	// repository that did not resolve to a class (an alias of a builtin
	// type) says nothing.
	if cat := paramCategory(written); primitiveCategory[cat] || strings.HasPrefix(strings.TrimPrefix(bareType(written), "::"), "std::") {
		return cat
	}
	return ""
}

func isVariable(k graph.NodeKind) bool {
	return k == graph.KindVariable || k == graph.KindConst || k == graph.KindProperty
}

// localType is the type written for a local or parameter named name
// visible at c, "" when none is written.
func localType(c lang.Ctx, name string) string {
	f := c.File
	best := -1
	for i := range f.Facts.Bindings {
		b := &f.Facts.Bindings[i]
		if b.Name == name && writtenType(b) != "" && !b.Field && b.Byte <= c.Pos && (b.End == 0 || c.Pos < b.End) &&
			inScope(f, c.Scope, b.Scope) && (best < 0 || b.Byte >= f.Facts.Bindings[best].Byte) {
			best = i
		}
	}
	if best >= 0 {
		return writtenType(&f.Facts.Bindings[best])
	}
	for scope := c.Scope; scope >= 0; scope = f.Facts.Symbols[scope].Parent {
		for _, prm := range f.Facts.Symbols[scope].Params {
			if prm.Name == name {
				return prm.Type
			}
		}
	}
	return ""
}

// writtenType is the type a binding's declaration writes: its declared
// type, or the class of the object it constructs (`A a(x);`).
func writtenType(b *lang.Binding) string {
	if b.Type == "" && b.Value != nil && b.Value.Kind == lang.ExprNew {
		return b.Value.Name
	}
	return b.Type
}

// inScope reports whether scope b is scope a or encloses it.
func inScope(f *lang.File, a, b int) bool {
	for s := a; ; s = f.Facts.Symbols[s].Parent {
		if s == b {
			return true
		}
		if s < 0 {
			return false
		}
	}
}

// heldValue is the value a variable or field holds.
func heldValue(p *lang.Program, c lang.Ctx, v lang.Value) lang.Value {
	if v.Kind == lang.ValSym && !p.Sym(v.Sym).Kind.IsType() && !p.Sym(v.Sym).Kind.IsCallable() {
		return p.ValueOf(v.Sym)
	}
	return v
}

// paramCategory is the category of a parameter type, "" when it accepts
// anything the index can tell (a template parameter, an unknown type).
func paramCategory(written string) string {
	t := strings.Join(strings.Fields(written), " ")
	pointer := strings.Contains(t, "*")
	t = strings.TrimPrefix(bareType(t), "std::")
	switch {
	case t == "char" && pointer, t == "string" || t == "string_view" || t == "wchar_t" && pointer:
		return "string"
	case pointer:
		return ""
	case t == "char" || t == "signed char" || t == "unsigned char":
		return "char"
	case t == "bool":
		return "bool"
	case t == "float" || t == "double" || t == "long double":
		return "float"
	case integerTypes[t] || strings.HasSuffix(t, "int8_t") || strings.HasSuffix(t, "int16_t") ||
		strings.HasSuffix(t, "int32_t") || strings.HasSuffix(t, "int64_t"):
		return "int"
	}
	te := rules{}.ParseType(written)
	if len(te.Path) == 0 || te.Elem > 0 {
		return ""
	}
	return te.Path[len(te.Path)-1]
}

// primitiveCategory are the categories of builtin types.
var primitiveCategory = map[string]bool{"int": true, "float": true, "string": true, "char": true, "bool": true}

var integerTypes = map[string]bool{
	"int": true, "long": true, "short": true, "unsigned": true, "signed": true, "long long": true,
	"unsigned int": true, "unsigned long": true, "unsigned long long": true, "unsigned short": true,
	"long int": true, "short int": true, "long long int": true, "size_t": true, "ssize_t": true, "ptrdiff_t": true,
}

// isCopyOrMove reports whether a constructor copies or moves: its one
// parameter is a reference to its own class.
func isCopyOrMove(p *lang.Program, id lang.SymID, s *lang.Symbol) bool {
	owner := p.Owner(id)
	if s.Kind != graph.KindConstructor || owner == lang.NoSym || len(s.Params) != 1 {
		return false
	}
	t := s.Params[0].Type
	return strings.Contains(t, "&") && paramCategory(t) == p.Sym(owner).Name
}

// acceptsTypes reports whether the parameters of callable id take
// arguments of these categories: the same category, or a class and one
// of its bases. A parameter whose type is an alias of a class is that
// class.
func acceptsTypes(p *lang.Program, id lang.SymID, params []lang.Param, types []string) bool {
	for i, t := range types {
		if t == "" || i >= len(params) || params[i].Variadic {
			continue
		}
		want := paramCategory(params[i].Type)
		if want != "" && want != t && len(want) > 1 && !primitiveCategory[want] {
			s := p.Sym(id)
			v := p.ResolveType(lang.Ctx{File: s.File, Scope: s.Local, Pos: s.StartByte}, params[i].Type)
			switch v.Kind {
			case lang.ValInstance:
				want = p.Sym(v.Sym).Name
			case lang.ValExternal:
				continue // a type of outside the repository may convert
			}
		}
		switch {
		case want == "" || want == t:
		case len(want) == 1:
			// A template parameter (T) takes anything.
		case isSubtypeNamed(p, t, want):
		default:
			return false
		}
	}
	return true
}

// isSubtypeNamed reports whether a repository class named sub has a base
// named super.
func isSubtypeNamed(p *lang.Program, sub, super string) bool {
	for _, id := range p.SymbolsNamed(sub) {
		if !p.Sym(id).Kind.IsType() {
			continue
		}
		seen := map[lang.SymID]bool{}
		stack := []lang.SymID{id}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, b := range p.Bases(t) {
				if seen[b] {
					continue
				}
				seen[b] = true
				if p.Sym(b).Name == super {
					return true
				}
				stack = append(stack, b)
			}
		}
	}
	return false
}

// Overrides reports whether o, a method of a subclass, overrides m: m is
// virtual (declared so, or overriding a virtual method of a base) and o
// takes the same parameter types.
func (rules) Overrides(p *lang.Program, m, o lang.SymID) bool {
	st := stateOf(p)
	if st == nil || !st.isVirtual(p, m) {
		return false
	}
	return sameParams(p.Sym(m).Params, p.Sym(o).Params)
}

// sameParams compares parameter types as written, spaces and namespace
// qualifiers aside (`const YAML::Mark&` in a subclass outside the
// namespace is `const Mark&`).
func sameParams(a, b []lang.Param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if unqualified(a[i].Type) != unqualified(b[i].Type) {
			return false
		}
	}
	return true
}

// qualifierPart matches one `name::` of a qualified type.
var qualifierPart = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\s*::\s*`)

// unqualified is a written type without spaces and qualifiers.
func unqualified(t string) string {
	return strings.Join(strings.Fields(qualifierPart.ReplaceAllString(t, "")), "")
}

// isVirtual reports whether method m is virtual: marked virtual,
// override or final (on it or on its declaration in the class), or
// overriding a virtual method of a base class.
func (st *state) isVirtual(p *lang.Program, m lang.SymID) bool {
	if v, ok := st.virtual.Cached(p, m); ok {
		return v
	}
	mark, ok := st.virtual.Enter(p, m)
	if !ok {
		return false // classes that derive from each other
	}
	v := st.computeVirtual(p, m)
	st.virtual.Leave(p, m, mark, v, true)
	return v
}

func (st *state) computeVirtual(p *lang.Program, m lang.SymID) bool {
	s := p.Sym(m)
	marked := func(id lang.SymID) bool {
		d := p.Sym(id).Symbol
		return hasDecorator(d, decoVirtual) || hasDecorator(d, decoOverride)
	}
	if marked(m) {
		return true
	}
	if d, ok := st.declOf[m]; ok && marked(d) {
		return true
	}
	owner := p.Owner(m)
	if owner == lang.NoSym {
		return false
	}
	for _, b := range p.Bases(owner) {
		for _, bm := range p.Members(b, s.Name) {
			if p.Sym(bm).Kind.IsCallable() && sameParams(p.Sym(bm).Params, s.Params) && st.isVirtual(p, bm) {
				return true
			}
		}
		ids, _ := rules{}.LookupMember(p, b, s.Name)
		for _, bm := range ids {
			if p.Sym(bm).Kind.IsCallable() && sameParams(p.Sym(bm).Params, s.Params) && st.isVirtual(p, bm) {
				return true
			}
		}
	}
	return false
}
