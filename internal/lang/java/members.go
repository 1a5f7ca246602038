package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Java member lookup: a class has the methods of every supertype that it
// does not override, so overloads declared at several levels are all
// candidates of one call; fields and member types of a subclass hide those
// of its supertypes. Constructors are not inherited and not found here.

type memberKey struct {
	t    lang.SymID
	name string
}

type memberSet struct {
	ids   []lang.SymID
	depth int
}

// maxHierarchyDepth bounds walks up the supertypes (cycles in broken code
// are also cut by the seen set).
const maxHierarchyDepth = 16

// LookupMember returns the members named name that type t has, own or
// inherited, breadth first: the methods of every level that no nearer
// method overrides, then the fields and member types of the nearest level
// that declares any; depth is the level of the nearest member.
func (r rules) LookupMember(p *lang.Program, t lang.SymID, name string) ([]lang.SymID, int) {
	d := dataOf(p.Sym(t).File.Module)
	key := memberKey{t, name}
	if ms, ok := d.members.Cached(p, key); ok {
		return ms.ids, ms.depth
	}
	mark, ok := d.members.Enter(p, key)
	if !ok {
		return nil, 0 // a lookup that needs itself (broken hierarchies)
	}
	var methods, others []lang.SymID
	nearer := 0 // methods[:nearer] come from nearer levels
	depth := 0
	found := false
	seen := map[lang.SymID]bool{t: true}
	level := []lang.SymID{t}
	for dep := 0; len(level) > 0 && dep < maxHierarchyDepth; dep++ {
		var next, levelOthers []lang.SymID
		for _, s := range level {
			for _, id := range p.Members(s, name) {
				sym := p.Sym(id)
				switch {
				case sym.Kind == graph.KindConstructor:
					continue
				case dep > 0 && isPrivate(sym):
					continue // private members are not inherited
				case sym.Kind.IsCallable():
					if r.overridden(p, methods[:nearer], id) {
						continue
					}
					methods = append(methods, id)
				case len(others) == 0:
					levelOthers = append(levelOthers, id)
				default:
					continue
				}
				if !found {
					found, depth = true, dep
				}
			}
			for _, b := range p.Bases(s) {
				if !seen[b] {
					seen[b] = true
					next = append(next, b)
				}
			}
		}
		if len(others) == 0 {
			others = levelOthers
		}
		nearer = len(methods)
		level = next
	}
	ids := append(methods, others...)
	d.members.Leave(p, key, mark, memberSet{ids: ids, depth: depth}, d.linked)
	return ids, depth
}

// overridden reports whether method m is overridden by one of the nearer
// methods already found.
func (r rules) overridden(p *lang.Program, nearer []lang.SymID, m lang.SymID) bool {
	for _, o := range nearer {
		if r.Overrides(p, m, o) {
			return true
		}
	}
	return false
}

// Overrides reports whether method o, declared in a subtype of m's class,
// overrides (or implements) m: same name and parameter count, and the same
// erased parameter types, where the type variables of m's class stand for
// the type arguments the subtype gives them (`handle(String)` implements
// Handler<String>.handle(T)). Without such an argument (a raw supertype)
// a class type variable matches anything.
func (r rules) Overrides(p *lang.Program, m, o lang.SymID) bool {
	ms, os := p.Sym(m), p.Sym(o)
	if ms.Name != os.Name || len(ms.Params) != len(os.Params) {
		return false
	}
	mo, oo := p.Owner(m), p.Owner(o)
	if mo == oo {
		return false // overloads of one class
	}
	var bind map[string]string
	if mo != lang.NoSym && oo != lang.NoSym {
		bind, _ = r.supertypeBindings(p, oo, mo)
	}
	for i := range ms.Params {
		a, free := r.paramErasure(p, m, ms.Params[i].Type, bind)
		if free {
			continue
		}
		b, free := r.paramErasure(p, o, os.Params[i].Type, nil)
		if free {
			continue
		}
		if a != b {
			return false
		}
	}
	return true
}

// paramErasure is the erased simple name of a parameter type of method m.
// A type variable of the method erases to its bound (or Object); one of
// its class is replaced by bind, or stays as written when bind is nil;
// free is true for a class type variable bind does not cover.
func (r rules) paramErasure(p *lang.Program, m lang.SymID, t string, bind map[string]string) (name string, free bool) {
	te := r.ParseType(t)
	if len(te.Path) != 1 {
		return erasedName(t), false
	}
	s := p.Sym(m)
	tp, owner, ok := typeParamOwner(s.File, s.Local, te.Path[0])
	if !ok {
		return erasedName(t), false
	}
	dims := strings.Repeat("[]", strings.Count(t, "[]")+strings.Count(t, "..."))
	if owner == s.Local {
		bound := "Object"
		if b := r.ParseType(tp.Type).Path; len(b) > 0 && b[0] != tp.Name {
			bound = b[len(b)-1]
		}
		return bound + dims, false
	}
	if bind == nil {
		return erasedName(t), false
	}
	if arg, ok := bind[tp.Name]; ok {
		return erasedName(arg) + dims, false
	}
	return "", true
}

// typeParamOwner finds the type parameter name in scope at local symbol
// scope and the local index of the symbol declaring it.
func typeParamOwner(f *lang.File, scope int, name string) (lang.Param, int, bool) {
	for scope >= 0 {
		s := &f.Facts.Symbols[scope]
		for _, tp := range s.TypeParams {
			if tp.Name == name {
				return tp, scope, true
			}
		}
		scope = s.Parent
	}
	return lang.Param{}, -1, false
}

// erasedName is a type's simple name with its array dimensions, without
// package, type arguments or annotations: "java.util.List<Foo>[]" is
// "List[]", "Foo..." is "Foo[]".
func erasedName(t string) string {
	te := rules{}.ParseType(t)
	dims := strings.Count(t, "[]") + strings.Count(t, "...")
	if len(te.Path) == 0 {
		return strings.TrimSpace(t)
	}
	return te.Path[len(te.Path)-1] + strings.Repeat("[]", dims)
}

// typeParamAt finds the type parameter name declared by local symbol scope
// or an enclosing symbol.
func typeParamAt(f *lang.File, scope int, name string) (lang.Param, bool) {
	tp, _, ok := typeParamOwner(f, scope, name)
	return tp, ok
}

// outerType is the type that lexically encloses type t (through a method
// for local and anonymous classes), NoSym for a top-level type.
func outerType(p *lang.Program, t lang.SymID) lang.SymID {
	s := p.Sym(t)
	if s.Parent < 0 {
		return lang.NoSym
	}
	return p.EnclosingType(s.File, s.Parent)
}

// hasExternalSupertype reports whether t or one of its supertypes names a
// supertype outside the repository (whose members are unknown).
func hasExternalSupertype(p *lang.Program, t lang.SymID) bool {
	seen := map[lang.SymID]bool{}
	var walk func(t lang.SymID, depth int) bool
	walk = func(t lang.SymID, depth int) bool {
		if seen[t] || depth > maxHierarchyDepth {
			return false
		}
		seen[t] = true
		bases := p.Bases(t)
		if len(p.Sym(t).Bases) > len(bases) {
			return true
		}
		for _, b := range bases {
			if walk(b, depth+1) {
				return true
			}
		}
		return false
	}
	return walk(t, 0)
}

func isMethod(s *lang.Sym) bool { return s.Kind == graph.KindMethod }

func isField(s *lang.Sym) bool {
	return s.Kind == graph.KindProperty || s.Kind == graph.KindConst || s.Kind == graph.KindVariable
}

func isType(s *lang.Sym) bool { return s.Kind.IsType() }

// filter keeps the symbols that keep accepts.
func filter(p *lang.Program, ids []lang.SymID, keep func(*lang.Sym) bool) []lang.SymID {
	var out []lang.SymID
	for _, id := range ids {
		if keep(p.Sym(id)) {
			out = append(out, id)
		}
	}
	return out
}

// modifierWords are the keywords that may start a declaration's signature.
var modifierWords = map[string]bool{"public": true, "protected": true, "private": true, "static": true,
	"final": true, "abstract": true, "native": true, "synchronized": true, "transient": true,
	"volatile": true, "strictfp": true, "default": true, "sealed": true, "non-sealed": true}

// isPrivate reports whether a member is declared private (read off the
// modifiers at the start of its signature).
func isPrivate(s *lang.Sym) bool {
	for _, w := range strings.Fields(s.Signature) {
		if w == "private" {
			return true
		}
		if !modifierWords[w] {
			return false
		}
	}
	return false
}
