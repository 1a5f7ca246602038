package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Static types of arguments and parameters, as far as overload choice needs
// them: primitives and well-known java.lang types by name, repository types
// by symbol, type variables as such, and "unknown" when the source does not
// say (which fits every parameter).

type jkind uint8

const (
	jUnknown jkind = iota
	jPrim          // a primitive: prim
	jRef           // a reference type: sym, or name when outside the repository
	jNull          // the null literal
	jLambda        // a lambda or method reference
	jNumeric       // a number of unknown width, at least prim (an arithmetic result)
)

type jtype struct {
	kind    jkind
	prim    string
	sym     lang.SymID
	name    string // simple name of a type outside the repository, "" if not known
	dims    int
	typeVar bool // a type variable: any reference fits
}

var unknownType = jtype{kind: jUnknown, sym: lang.NoSym}

// boundsCycle reports whether the bounds of the type variable name,
// followed from one variable to the next, come back to one: `<T extends U,
// U extends T>` is not Java, but compiler test suites hold it, and typeOf
// would follow it forever.
func (r rules) boundsCycle(c lang.Ctx, name string) bool {
	seen := map[string]bool{}
	for !seen[name] {
		seen[name] = true
		tp, ok := typeParamAt(c.File, c.Scope, name)
		if !ok {
			return false
		}
		bound := r.ParseType(tp.Type).Path
		if len(bound) != 1 {
			return false
		}
		name = bound[0]
	}
	return true
}

// typeOf reads a written type in context c.
func (r rules) typeOf(p *lang.Program, c lang.Ctx, text string) jtype {
	if text == "" || text == "var" {
		return unknownType
	}
	dims := strings.Count(text, "[]") + strings.Count(text, "...")
	te := r.ParseType(text)
	if len(te.Path) == 1 && primitives[te.Path[0]] {
		return jtype{kind: jPrim, prim: te.Path[0], sym: lang.NoSym, dims: dims}
	}
	if len(te.Path) == 0 {
		return unknownType
	}
	if len(te.Path) == 1 {
		if tp, ok := typeParamAt(c.File, c.Scope, te.Path[0]); ok {
			if bound := r.ParseType(tp.Type).Path; len(bound) > 0 && bound[0] != tp.Name && !r.boundsCycle(c, tp.Name) {
				// A bounded type variable accepts what its bound accepts.
				t := r.typeOf(p, c, tp.Type)
				t.dims += dims
				return t
			}
			return jtype{kind: jRef, sym: lang.NoSym, dims: dims, typeVar: true}
		}
	}
	switch v := p.ResolveType(c, text); v.Kind {
	case lang.ValInstance:
		return jtype{kind: jRef, sym: v.Sym, dims: dims}
	case lang.ValExternal:
		return jtype{kind: jRef, sym: lang.NoSym, name: outsideName(c.File, te.Path), dims: dims}
	}
	return unknownType
}

// typeInScope reads the type text written at decl for a value used at c.
// A type variable that is in scope at c (a parameter `T item` of the
// enclosing method, a field of the enclosing generic class, a cast `(T)`)
// is, for overload choice, its bound: Object when it has none, since
// nothing narrower is known of it there (typeOf already gives a bounded
// variable its bound). A type variable seen from outside its declaration (a
// field of a generic supertype) stays one: its argument is not known.
func (r rules) typeInScope(p *lang.Program, c, decl lang.Ctx, text string) jtype {
	t := r.typeOf(p, decl, text)
	if !t.typeVar || decl.File != c.File {
		return t
	}
	te := r.ParseType(text)
	if len(te.Path) != 1 {
		return t
	}
	tp, owner, ok := typeParamOwner(decl.File, decl.Scope, te.Path[0])
	if !ok || tp.Type != "" {
		return t // not a variable, or bounds that lead back to it (broken code)
	}
	for s := c.Scope; s >= 0; s = c.File.Facts.Symbols[s].Parent {
		if s == owner {
			return jtype{kind: jRef, sym: lang.NoSym, name: "Object", dims: t.dims}
		}
	}
	return t
}

// literalType is the type of a literal expression.
func literalType(name string) jtype {
	switch name {
	case "null":
		return jtype{kind: jNull, sym: lang.NoSym}
	case "lambda":
		return jtype{kind: jLambda, sym: lang.NoSym}
	case "String", "Class":
		return jtype{kind: jRef, sym: lang.NoSym, name: name}
	}
	if primitives[name] {
		return jtype{kind: jPrim, prim: name, sym: lang.NoSym}
	}
	return unknownType
}

// argType is the static type of an argument expression at c.
func (r rules) argType(p *lang.Program, c lang.Ctx, e *lang.Expr, depth int) jtype {
	if e == nil || depth > 8 {
		return unknownType
	}
	switch e.Kind {
	case lang.ExprLiteral:
		if strings.HasPrefix(e.Name, "op") {
			return r.operatorType(p, c, e, depth)
		}
		return literalType(e.Name)
	case lang.ExprNew, lang.ExprTypeAssert:
		return r.typeInScope(p, c, c, e.Name)
	case lang.ExprIndex:
		if t := r.argType(p, c, e.X, depth+1); t.dims > 0 {
			t.dims--
			return t
		}
		return unknownType
	case lang.ExprIdent:
		if d, ok := r.declared(p, c, e.Name); ok {
			if d.text != "" {
				return r.typeInScope(p, c, d.ctx, d.text)
			}
			if d.value != nil {
				return r.argType(p, d.ctx, d.value, depth+1)
			}
			return unknownType
		}
	case lang.ExprMember:
		base, _ := p.Eval(c, e.X)
		v, _ := p.Member(c, base, e.Name, false)
		if fs := filter(p, symsOf(v), isField); len(fs) > 0 {
			s := p.Sym(fs[0])
			return r.typeOf(p, lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}, s.Type)
		}
		if base.Kind == lang.ValExternal {
			if e.X.Kind == lang.ExprIdent {
				if t, ok := staticLibraryFields[e.X.Name+"."+e.Name]; ok {
					return r.typeOf(p, c, t)
				}
				if t, ok := constantHolders[e.X.Name]; ok && isConstantName(e.Name) {
					return r.typeOf(p, c, t)
				}
			}
			return unknownType
		}
	case lang.ExprCall:
		m, outside := r.calledMethod(p, c, e, depth)
		if m != lang.NoSym {
			s := p.Sym(m)
			if len(s.Returns) == 0 {
				return unknownType
			}
			ret := s.Returns[0]
			if te := r.ParseType(ret); len(te.Path) == 1 {
				if _, ok := typeParamAt(s.File, s.Local, te.Path[0]); ok {
					// A result typed by a type variable is whatever the call
					// infers it to be (`<T> T get(Class<T>)`), not its bound.
					return jtype{kind: jRef, sym: lang.NoSym, typeVar: true,
						dims: strings.Count(ret, "[]") + strings.Count(ret, "...")}
				}
			}
			return r.typeOf(p, lang.Ctx{File: s.File, Scope: s.Local, Pos: s.StartByte}, ret)
		}
		if outside == sameAsFirstArgument && len(e.Args) > 0 {
			return r.argType(p, c, e.Args[0], depth+1)
		}
		if outside != "" && outside != sameAsFirstArgument {
			return r.typeOf(p, c, outside)
		}
		return unknownType
	}
	v, _ := p.Eval(c, e)
	if v.Kind == lang.ValInstance {
		return jtype{kind: jRef, sym: v.Sym, dims: int(v.Elem)}
	}
	return unknownType
}

// calledMethod resolves the method a call expression runs, choosing among
// overloads by its arguments; NoSym when it is not known or not unique. For
// a common library method on a receiver outside the repository it returns
// the written result type instead (outside).
func (r rules) calledMethod(p *lang.Program, c lang.Ctx, e *lang.Expr, depth int) (m lang.SymID, outside string) {
	var cands []lang.SymID
	switch e.X.Kind {
	case lang.ExprIdent:
		v, _ := r.lookupMethod(p, &c, e.X.Name)
		cands = symsOf(v)
	case lang.ExprMember:
		base, _ := p.Eval(c, e.X.X)
		v, _ := p.Member(c, base, e.X.Name, false)
		cands = filter(p, symsOf(v), isMethod)
		if len(cands) == 0 && base.Kind != lang.ValInstance {
			return lang.NoSym, r.libraryResult(p, c, base, e.X, depth)
		}
	default:
		return lang.NoSym, ""
	}
	if len(cands) == 0 {
		return lang.NoSym, ""
	}
	picked := r.selectOverload(p, c, cands, e.Args, depth+1)
	if len(picked) != 1 {
		return lang.NoSym, ""
	}
	return picked[0], ""
}

// operatorType types an arithmetic or bitwise expression (a literal named
// "op" plus the operator, with the operands as Args): binary numeric
// promotion when the operand types are known, String for `+` with a
// String, boolean for bitwise operators on booleans, and a number of
// unknown width when an operand is unknown.
func (r rules) operatorType(p *lang.Program, c lang.Ctx, e *lang.Expr, depth int) jtype {
	op := strings.TrimPrefix(e.Name, "op")
	widest, unknown := "", false
	for _, a := range e.Args {
		t := r.argType(p, c, a, depth+1)
		prim := t.prim
		switch {
		case t.kind == jRef && t.dims == 0 && t.name == "String" && op == "+":
			return jtype{kind: jRef, sym: lang.NoSym, name: "String"}
		case t.kind == jRef && t.dims == 0 && unboxOf[t.name] != "":
			prim = unboxOf[t.name]
		case (t.kind == jPrim || t.kind == jNumeric) && t.dims == 0:
		default:
			unknown = true
			continue
		}
		if prim == "boolean" && (op == "&" || op == "|" || op == "^") {
			return jtype{kind: jPrim, prim: "boolean", sym: lang.NoSym}
		}
		if t.kind == jNumeric {
			unknown = true
		}
		if widest == "" || numericRank[prim] > numericRank[widest] {
			widest = prim
		}
		if op == "<<" || op == ">>" || op == ">>>" {
			break // a shift has the type of its left operand
		}
	}
	if widest == "" || numericRank[widest] < numericRank["int"] {
		widest = "int"
	}
	switch {
	case !unknown:
		return jtype{kind: jPrim, prim: widest, sym: lang.NoSym}
	case op == "+":
		return unknownType // a number, or a String
	}
	return jtype{kind: jNumeric, prim: widest, sym: lang.NoSym}
}

func symsOf(v lang.Value) []lang.SymID {
	if v.Kind != lang.ValSym {
		return nil
	}
	return append([]lang.SymID{v.Sym}, v.Alts...)
}

// declaration is where a name's type is written: a local binding, a
// parameter or a field.
type declaration struct {
	text  string // declared type, "" when not declared
	value *lang.Expr
	ctx   lang.Ctx // where text or value is read
}

// declared finds the declaration of a simple name used as a value at c:
// the innermost visible local binding or parameter, else a field.
func (r rules) declared(p *lang.Program, c lang.Ctx, name string) (declaration, bool) {
	f := c.File
	idx := localIndex(f)
	for scope := c.Scope; ; {
		best := -1
		for _, i := range idx[scopeName{scope, name}] {
			b := &f.Facts.Bindings[i]
			if b.Byte > c.Pos || (b.End != 0 && c.Pos >= b.End) {
				continue
			}
			if best < 0 || b.Byte >= f.Facts.Bindings[best].Byte {
				best = i
			}
		}
		if best >= 0 {
			b := &f.Facts.Bindings[best]
			return declaration{text: b.Type, value: b.Value,
				ctx: lang.Ctx{File: f, Scope: b.Scope, Pos: b.Byte}}, true
		}
		if scope < 0 {
			break
		}
		s := &f.Facts.Symbols[scope]
		for _, prm := range s.Params {
			if prm.Name == name {
				t := prm.Type
				if prm.Variadic {
					t = strings.TrimSuffix(t, "...") + "[]"
				}
				return declaration{text: t, ctx: lang.Ctx{File: f, Scope: scope, Pos: s.StartByte}}, true
			}
		}
		scope = s.Parent
	}
	v, _ := r.lookupField(p, &c, name)
	if fs := filter(p, symsOf(v), isField); len(fs) > 0 {
		s := p.Sym(fs[0])
		return declaration{text: s.Type, value: s.Value,
			ctx: lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}}, true
	}
	return declaration{}, false
}

type scopeName struct {
	scope int
	name  string
}

// localIndex indexes the bindings of f by scope and name (built once per
// file, kept with the module's data).
func localIndex(f *lang.File) map[scopeName][]int {
	d := dataOf(f.Module)
	if d.locals == nil {
		d.locals = map[*lang.File]map[scopeName][]int{}
	}
	if idx, ok := d.locals[f]; ok {
		return idx
	}
	idx := map[scopeName][]int{}
	for i, b := range f.Facts.Bindings {
		if !b.Field {
			k := scopeName{b.Scope, b.Name}
			idx[k] = append(idx[k], i)
		}
	}
	d.locals[f] = idx
	return idx
}

// paramTypes are the parameter types of a callable, read once.
func (r rules) paramTypes(p *lang.Program, m lang.SymID) []jtype {
	s := p.Sym(m)
	d := dataOf(s.File.Module)
	if ts, ok := d.params.Cached(p, m); ok {
		return ts
	}
	ts := make([]jtype, len(s.Params))
	mark, ok := d.params.Enter(p, m)
	if !ok {
		return ts // parameter types that name the method's own parameters
	}
	c := lang.Ctx{File: s.File, Scope: s.Local, Pos: s.StartByte}
	for i, prm := range s.Params {
		ts[i] = r.typeOf(p, c, prm.Type)
	}
	d.params.Leave(p, m, mark, ts, true)
	return ts
}

// subtypeDistance is the number of steps from a up to its supertype q, -1
// when q is not a supertype of a.
func subtypeDistance(p *lang.Program, a, q lang.SymID) int {
	seen := map[lang.SymID]bool{a: true}
	level := []lang.SymID{a}
	for d := 0; len(level) > 0 && d < maxHierarchyDepth; d++ {
		var next []lang.SymID
		for _, t := range level {
			if t == q {
				return d
			}
			for _, b := range p.Bases(t) {
				if !seen[b] {
					seen[b] = true
					next = append(next, b)
				}
			}
		}
		level = next
	}
	return -1
}

func isInterface(p *lang.Program, t lang.SymID) bool { return p.Sym(t).Kind == graph.KindInterface }
