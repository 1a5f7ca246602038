package java

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// rules resolves Java: a package is what files declare with `package`
// (wherever they live, so source roots do not matter); a qualified type
// a.b.C is the top-level type C of package a.b, and a.b.C.D its member
// type; simple names resolve the way javac does (locals, members of
// enclosing and inherited classes, member types, imports, the package,
// on-demand imports, java.lang); and overloads are chosen by argument types.
type rules struct{}

func (rules) Features() lang.Features {
	return lang.Features{UnexportedIsPrivate: true, MethodNamespace: true}
}

func (rules) ConfigNames() []string { return nil }

// objectMethods are the methods every class inherits from java.lang.Object:
// an unqualified call to one of them that the repository does not declare
// goes outside it.
var objectMethods = map[string]bool{}

func init() {
	for _, n := range strings.Fields("clone equals finalize getClass hashCode notify notifyAll toString wait") {
		objectMethods[n] = true
	}
}

func (rules) IsBuiltin(name string) bool { return objectMethods[name] }

// Link adds no relation (every Java supertype is written in the source); it
// marks the supertypes as resolved, from when member lookups are cached.
func (rules) Link(p *lang.Program, g *graph.Graph) {
	for _, m := range p.Modules {
		dataOf(m).linked = true
	}
}

// moduleData is the rules' bookkeeping on a module.
type moduleData struct {
	// imports are the resolved imports of each file of the module.
	imports map[*lang.File]*fileImports
	// members caches LookupMember for the types declared in the module,
	// once linked (all supertypes resolved).
	members lang.Memo[memberKey, memberSet]
	linked  bool
	// locals indexes each file's bindings; params caches parameter types.
	locals map[*lang.File]map[scopeName][]int
	params lang.Memo[lang.SymID, []jtype]
	// bindings caches supertypeBindings; outside caches outsideSupers.
	bindings lang.Memo[typePair, bindingSet]
	outside  lang.Memo[lang.SymID, outsideSet]
}

// bindingSet is a cached supertypeBindings.
type bindingSet struct {
	bind map[string]string
	ok   bool
}

func dataOf(m *lang.Module) *moduleData {
	if m == nil {
		return nil
	}
	if d, ok := m.Data.(*moduleData); ok {
		return d
	}
	d := &moduleData{imports: map[*lang.File]*fileImports{}}
	m.Data = d
	return d
}

// Organize groups files by their declared package, and adds prefix modules
// for the leading parts of package names.
func (rules) Organize(p *lang.Program) {
	p.GroupByPackage()
	p.AddPackagePrefixes()
	for _, m := range p.SortedModules() {
		dataOf(m) // before resolution, which reads modules from several goroutines
	}
}

func nextDot(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '.'); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// Export returns the top-level type name of package m, or the subpackage
// m.name.
func (rules) Export(p *lang.Program, m *lang.Module, name string) lang.Value {
	if t := firstType(p, m.Scope[name], nil); t != lang.NoSym {
		return lang.SymValue(t)
	}
	if m.IsPackage || m.PackagePrefix {
		return lang.Subpackage(p, m, name)
	}
	return lang.None()
}

// firstType picks a type among same-named top-level types; when several
// files declare it (copies in several source sets), the one nearest to the
// file from (sharing the longest directory prefix) wins.
func firstType(p *lang.Program, ids []lang.SymID, from *lang.File) lang.SymID {
	best, bestShared := lang.NoSym, -1
	for _, id := range ids {
		s := p.Sym(id)
		if !s.Kind.IsType() {
			continue
		}
		if from == nil {
			return id
		}
		if n := sharedPrefix(s.File.Facts.Path, from.Facts.Path); n > bestShared {
			best, bestShared = id, n
		}
	}
	return best
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// primitives are the Java primitive types and void.
var primitives = map[string]bool{"boolean": true, "byte": true, "char": true, "short": true, "int": true,
	"long": true, "float": true, "double": true, "void": true}

// ParseType reduces a Java type to its named part: "List<Foo>" → [List],
// "a.b.C.D" → [a b C D], "Foo[]" and "Foo..." → [Foo] as a container,
// "int" → [int] (which, like every name the repository does not declare,
// resolves outside it); void → nothing. Type arguments are dropped
// (generic bases such as Comparable<Foo> resolve to Comparable).
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	if strings.IndexByte(t, '@') >= 0 {
		t = strings.TrimSpace(annotationInType.ReplaceAllString(t, ""))
	}
	t = stripTypeArgs(t)
	var elem uint8
	for {
		switch {
		case strings.HasSuffix(t, "..."):
			t, elem = strings.TrimSpace(t[:len(t)-3]), elem+1
			continue
		case strings.HasSuffix(t, "[]"):
			t, elem = strings.TrimSpace(t[:len(t)-2]), elem+1
			continue
		}
		break
	}
	t = strings.Join(strings.Fields(t), "")
	if t == "" || t == "void" {
		return lang.TypeExpr{}
	}
	parts := strings.Split(t, ".")
	for _, part := range parts {
		if !lang.IsIdentifier(part, "$") {
			return lang.TypeExpr{}
		}
	}
	return lang.TypeExpr{Path: parts, Elem: elem}
}

// stripTypeArgs removes every <...> group, nested ones included.
func stripTypeArgs(t string) string {
	if strings.IndexByte(t, '<') < 0 {
		return t
	}
	var b strings.Builder
	depth := 0
	for _, r := range t {
		switch {
		case r == '<':
			depth++
		case r == '>':
			if depth > 0 {
				depth--
			}
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
