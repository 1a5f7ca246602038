package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Type arguments written on supertypes (`class Shout implements
// Handler<String>`) bind the supertype's type variables; an override check
// substitutes them, so that handle(String) overrides Handler<T>.handle(T)
// while handle(Integer) does not.

// typeArgs splits the top-level type arguments of a written type:
// "Map<String, List<Foo>>" gives ["String", "List<Foo>"].
func typeArgs(t string) []string {
	open := strings.IndexByte(t, '<')
	if open < 0 {
		return nil
	}
	var out []string
	depth, start := 0, open+1
	for i := open; i < len(t); i++ {
		switch t[i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(t[start:i]); a != "" {
					out = append(out, a)
				}
				return out
			}
		case ',':
			if depth == 1 {
				out = append(out, strings.TrimSpace(t[start:i]))
				start = i + 1
			}
		}
	}
	return nil
}

type typePair struct{ sub, super lang.SymID }

// supertypeBindings returns what the type variables of super stand for
// when seen from its subtype sub, as written types (in terms of sub's own
// type variables when they are passed on); ok is false when super is not
// reached.
func (r rules) supertypeBindings(p *lang.Program, sub, super lang.SymID) (map[string]string, bool) {
	d := dataOf(p.Sym(sub).File.Module)
	key := typePair{sub, super}
	if b, ok := d.bindings.Cached(p, key); ok {
		return b.bind, b.ok
	}
	mark, entered := d.bindings.Enter(p, key)
	if !entered {
		return nil, false // while computing: not reached
	}
	type step struct {
		t    lang.SymID
		bind map[string]string
	}
	seen := map[lang.SymID]bool{sub: true}
	level := []step{{sub, nil}}
	var found map[string]string
	ok := false
search:
	for depth := 0; len(level) > 0 && depth < maxHierarchyDepth; depth++ {
		var next []step
		for _, st := range level {
			if st.t == super {
				found, ok = st.bind, true
				break search
			}
			s := p.Sym(st.t)
			c := lang.Ctx{File: s.File, Scope: s.Parent, Pos: s.StartByte}
			for _, b := range s.Bases {
				v := p.ResolveType(c, b.Type)
				if v.Kind != lang.ValInstance || seen[v.Sym] {
					continue
				}
				seen[v.Sym] = true
				bind := map[string]string{}
				args := typeArgs(b.Type)
				for i, tp := range p.Sym(v.Sym).TypeParams {
					if i >= len(args) {
						break
					}
					a := args[i]
					if sa, ok := st.bind[a]; ok {
						a = sa // a type variable of st.t passed on
					}
					bind[tp.Name] = a
				}
				next = append(next, step{v.Sym, bind})
			}
		}
		level = next
	}
	if ok && found == nil {
		found = map[string]string{}
	}
	d.bindings.Leave(p, key, mark, bindingSet{found, ok}, true)
	return found, ok
}
