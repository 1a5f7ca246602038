package scala

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Scala: a package is what files declare with `package`
// (wherever they live); a dotted name a.b.C is the top-level type C of
// package a.b (or the member C of an object a.b); a simple name is a
// member of the enclosing classes (and their supertypes), a name of the
// file, an explicit import, a name of the package, of an enclosing package
// of chained clauses, then of a wildcard-imported package or object.
// Import paths are tried as written and then relative to the file's
// package and each package enclosing it.
type rules struct{}

// Features: `C(x)` constructs a C unless its companion defines a fitting
// apply; `super.f` follows the linearization; no call is linked by name
// only (an untyped `x.save()` says nothing of which save runs).
func (rules) Features() lang.Features {
	return lang.Features{TypeCallConstructs: true, NoNameOnly: true, ApplyMember: "apply", LinearSuper: true,
		NearestLocal: true, InstanceNoStatic: true, RepeatedIsSequence: true}
}

func (rules) ConfigNames() []string { return nil }

// anyMethods are the members every Scala class inherits from Any.
var anyMethods = map[string]bool{"equals": true, "hashCode": true, "toString": true, "getClass": true}

func (rules) IsBuiltin(name string) bool { return anyMethods[name] }

// Link: every Scala supertype is written in the source.
func (rules) Link(*lang.Program, *graph.Graph) {}

// objectMembers prefixes the key of the module standing for the members
// of an object imported with a wildcard (`import O._`).
const objectMembers = "(object members) "

// Organize groups files by their declared package, adds prefix modules for
// the leading parts of package names, and makes extension methods and the
// methods of implicit classes members of the type they extend when that
// is a type of the repository without a member of the same name.
func (rules) Organize(p *lang.Program) {
	for _, f := range p.Files {
		joinEarlyCompanions(p, f)
	}
	p.GroupByPackage()
	p.AddPackagePrefixes()
	for _, f := range p.Files {
		for i, s := range f.Facts.Symbols {
			if s.Receiver == "" {
				continue
			}
			t := typeNamed(p, f, s.Receiver)
			if t == lang.NoSym {
				continue
			}
			id := f.SymOf(i)
			switch {
			case s.Kind.IsCallable():
				// An extension method.
				if !declaresMember(p, t, s.Name) {
					p.AddMember(t, id)
				}
			case s.Kind == graph.KindClass:
				// An implicit class: its methods extend t.
				for _, ids := range sortedMembers(p, id) {
					if declaresMember(p, t, p.Sym(ids[0]).Name) {
						continue
					}
					for _, m := range ids {
						if ms := p.Sym(m); ms.Kind == graph.KindMethod && !ms.Static {
							p.AddMember(t, m)
							p.SetOwner(m, id)
						}
					}
				}
			}
		}
	}
}

// declaresMember reports whether type t declares a member named name in
// its body.
func declaresMember(p *lang.Program, t lang.SymID, name string) bool {
	for _, id := range p.Members(t, name) {
		if p.Sym(id).Receiver == "" && p.Owner(id) == t {
			return true
		}
	}
	return false
}

// Export returns the top-level name of package m, a member of an object
// imported with a wildcard, or the subpackage m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if ids := m.Scope[name]; len(ids) > 0 && (m.IsPackage || strings.HasPrefix(m.Key, objectMembers)) {
		return lang.SymsValue(ids)
	}
	return lang.Subpackage(p, m, name)
}

// Lookup resolves a simple name: members of the enclosing classes and
// their supertypes, the file, explicit imports, the package, enclosing
// packages and wildcard imports, then a package named so (relative to
// the file's package first).
func (rules) Lookup(p *lang.Program, c *lang.Ctx, name string) (lang.Value, graph.Reason) {
	f := c.File
	if typ, ok := strings.CutPrefix(name, viewPrefix); ok {
		return lookupView(p, c, typ)
	}
	if callee, ok := strings.CutPrefix(name, parameterPrefix); ok {
		return lookupExpected(p, c, callee)
	}
	if !c.TypesOnly() {
		// Code in a val's initializer outside the defs declared there
		// (it belongs to the class) sees those defs.
		sf := lang.NewScopeFinder(&f.Facts.Symbols)
		if i := sf.Innermost(c.Pos, func(s *lang.Symbol) bool {
			return s.Kind == graph.KindProperty || s.Kind == graph.KindVariable
		}); i >= 0 {
			if ids := p.AllMembers(f.SymOf(i))[name]; len(ids) > 0 {
				return lang.SymsValue(nearest(p, ids, c.Pos)), graph.ReasonSameFile
			}
		}
	}
	for t := p.EnclosingType(f, c.Scope); t != lang.NoSym; t = p.DeclaringType(t) {
		// A constructor is a member named after its class, but the
		// name stands for the class.
		if ids, _ := p.FindMember(t, name); len(ids) > 0 && p.Sym(ids[0]).Kind != graph.KindConstructor {
			if ids = memberNamespace(p, c, ids); len(ids) > 0 {
				return lang.SymsValue(ids), graph.ReasonSelfReceiver
			}
		}
	}
	// A name used as a type means a type, a name called a term: `P` may
	// be both a type alias and a def.
	pick := func(ids []lang.SymID) []lang.SymID {
		var types, terms []lang.SymID
		for _, id := range ids {
			if p.Sym(id).Kind.IsType() {
				types = append(types, id)
			} else {
				terms = append(terms, id)
			}
		}
		switch {
		case c.TypesOnly() && len(types) > 0:
			return types
		case c.Called() && len(terms) > 0 && len(types) > 0:
			return append(terms, types...)
		}
		return ids
	}
	if ids := pick(f.Top[name]); len(ids) > 0 {
		return lang.SymsValue(nearestOfSameParams(p, ids, c.Pos)), graph.ReasonSameFile
	}
	if v, ok := f.Imported[name]; ok {
		if v.Kind == lang.ValSym {
			v = lang.SymsValue(pick(symsOf(v)))
		}
		return v, graph.ReasonImportResolved
	}
	if ids := pick(f.Module.Scope[name]); len(ids) > 0 {
		return lang.SymsValue(withoutDuplicates(p, ids)), graph.ReasonSamePackage
	}
	for _, m := range f.Wildcards {
		if ids := pick(m.Scope[name]); len(ids) > 0 {
			return lang.SymsValue(withoutDuplicates(p, ids)), graph.ReasonImportResolved
		}
	}
	if v := resolveDotted(p, f, []string{name}); v.Kind == lang.ValModule {
		if v.Mod.IsPackage || v.Mod.PackagePrefix {
			return v, graph.ReasonImportResolved
		}
	}
	return lang.External(), ""
}

// ParseType reduces a Scala type to its named part: "a.b.C" is [a b C],
// "=> T" and "T*" are T, "A & B" is A; type arguments are dropped, except
// that a collection or an Option of one type ("List[Foo]", "Option[Foo]")
// is a container of that type (Elem 1), so that `for (x <- xs)` types x.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	t = strings.TrimSpace(strings.TrimPrefix(t, "=>"))
	t = strings.TrimSuffix(t, "*")
	for _, sep := range []string{"&", "|"} {
		if i := strings.Index(t, sep); i > 0 && !strings.Contains(t[:i], "[") {
			t = t[:i]
		}
	}
	t = strings.Join(strings.Fields(t), "")
	for _, self := range []string{"super.", "this."} {
		// `p: super.Parser[T]`: the type as the supertypes (or the type
		// itself) declare it, found from the enclosing type.
		t = strings.TrimPrefix(t, self)
	}
	if i := strings.IndexByte(t, '['); i >= 0 {
		if elementContainers[t[strings.LastIndexByte(t[:i], '.')+1:i]] && strings.HasSuffix(t, "]") {
			if arg := t[i+1 : len(t)-1]; isOneType(arg) {
				if inner := (rules{}).ParseType(arg); len(inner.Path) > 0 {
					inner.Elem++
					return inner
				}
			}
		}
		t = t[:i]
	}
	if t == "" || t == "Unit" {
		return lang.TypeExpr{}
	}
	parts := strings.Split(t, ".")
	for _, part := range parts {
		if !lang.IsIdentifier(part, "$") && !symbolic.MatchString(part) {
			// `~` is a class name too (`case class ~[+A, +B]`).
			return lang.TypeExpr{}
		}
	}
	return lang.TypeExpr{Path: parts}
}

// isOneType reports whether a type argument list holds one type that is
// no function type: no comma outside brackets (`Def[_, C]` is one), no
// arrow.
func isOneType(args string) bool {
	depth := 0
	for _, r := range args {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		case '=':
			return false
		}
	}
	return depth == 0
}

// elementContainers are the standard types that hold values of their one
// type argument, iterated by `for`.
var elementContainers = map[string]bool{"List": true, "Seq": true, "IndexedSeq": true, "Vector": true,
	"Array": true, "Set": true, "Iterable": true, "Iterator": true, "Option": true, "ArrayBuffer": true,
	"ListBuffer": true, "Buffer": true, "LazyList": true, "Stream": true, "Chunk": true, "NonEmptyList": true}

// memberNamespace keeps the members a name can mean where it is used:
// types where a type is written (`new Parser` next to `def Parser`), else
// the terms when there are any (`Parser { ... }` calls the def), else the
// types (a class called through its companion).
func memberNamespace(p *lang.Program, c *lang.Ctx, ids []lang.SymID) []lang.SymID {
	var types, terms []lang.SymID
	for _, id := range ids {
		if p.Sym(id).Kind.IsType() {
			types = append(types, id)
		} else {
			terms = append(terms, id)
		}
	}
	if c.TypesOnly() {
		return types
	}
	if len(terms) > 0 {
		return terms
	}
	return types
}
