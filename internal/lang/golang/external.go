package golang

import (
	_ "embed"
	"sort"

	"gitnexus.dev/gitnexus/internal/lang"
)

// The interfaces of the standard library, for calls through interfaces
// declared outside the repository (lang/external.go): `w.WriteHeader()` on
// an http.ResponseWriter reaches the repository's types whose method sets
// have Header, Write and WriteHeader. stdlib_interfaces.txt holds every
// exported interface of the standard library whose methods are all
// exported, embedded interfaces expanded, with each method's parameter
// and result counts (170 interfaces in 7 KB with Go 1.26). To regenerate
// it after a Go upgrade:
//
//	go generate ./internal/lang/golang/

//go:generate go run ./stdifaces -o stdlib_interfaces.txt

//go:embed stdlib_interfaces.txt
var stdlibInterfacesText string

// stdlibInterfaces is the table, by qualified name ("net/http.ResponseWriter",
// "error").
var stdlibInterfaces = lang.NewExternalTable(stdlibInterfacesText)

// ExternalInterface returns the methods of a standard library interface
// (lang.ExternalInterfaces).
func (rules) ExternalInterface(name string) ([]lang.ExternalMethod, bool) {
	return stdlibInterfaces.Lookup(name)
}

// linkExternal records, for every interface of the table, the concrete
// types of the repository whose method sets have its methods with the same
// parameter and result counts (as Link does for the repository's own
// interfaces), for calls through it to dispatch to.
func linkExternal(p *lang.Program, ms *methodSets, byMethod map[string][]lang.SymID) {
	table := stdlibInterfaces.All()
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want := table[name]
		rarest := ""
		for _, m := range want {
			if rarest == "" || len(byMethod[m.Name]) < len(byMethod[rarest]) {
				rarest = m.Name
			}
		}
		cands := byMethod[rarest]
		if len(cands) == 0 {
			continue
		}
		ext := p.ExternalTypeID(name)
	candidates:
		for _, t := range cands {
			have := ms.of(t)
			for _, m := range want {
				h, ok := have[m.Name]
				if !ok || h.params != m.Params || h.results != m.Results || !stringResult(p, name, m, h) {
					continue candidates
				}
			}
			p.AddExternalSubtype(t, ext)
		}
	}
}

// stringResult checks the one result type the table implies and counts do
// not show: error's Error and fmt.Stringer's String return a string. A
// future's `Error() error` is no error (on hashicorp/raft, err.Error()
// reached three of them). Other methods pass on their counts.
func stringResult(p *lang.Program, iface string, m lang.ExternalMethod, h methodShape) bool {
	if !(iface == "error" && m.Name == "Error" || iface == "fmt.Stringer" && m.Name == "String") || h.sym == lang.NoSym {
		return true
	}
	r := p.Sym(h.sym).Returns
	return len(r) == 1 && r[0] == "string"
}

// externalMethods adds the methods of the interfaces outside the
// repository that t embeds (an interface embedding http.ResponseWriter, a
// struct embedding io.Writer) to its method set, where t has none of the
// name.
func (m *methodSets) externalMethods(t lang.SymID, set methodSet) {
	for _, ext := range m.p.ExternalBases(t) {
		for _, em := range m.p.ExternalMethods(ext) {
			if _, ok := set[em.Name]; !ok {
				set[em.Name] = methodShape{params: em.Params, results: em.Results, sym: lang.NoSym}
			}
		}
	}
}

// errorType is the predeclared error, an interface of the table.
func errorType(p *lang.Program, c *lang.Ctx, name string) (lang.Value, bool) {
	if name != "error" || !c.TypesOnly() {
		return lang.None(), false
	}
	return p.ExternalType("error"), true
}
