package kotlin

import (
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Extension functions are often declared on types outside the repository
// (`fun KClass<*>.asClassName()`, `fun Collection<T>.toImmutableList()`).
// The extractor adds a hidden type named externalTypeMark + the receiver's
// simple name next to each extension; Organize makes the extensions whose
// receiver is no repository type members of the first hidden type of that
// name, and Lookup gives a written type that names no repository type
// that hidden type. A value declared `KClass<*>` then finds the
// repository's extensions of KClass, and their result types type the
// calls. Only the simple name is compared: the index does not know the
// external type itself.

// externalTypeMark starts the names of the hidden receiver types; no
// Kotlin identifier contains ':', so no name in code finds them directly.
const externalTypeMark = "ext:"

// externalSupertypes are supertypes of types of Kotlin's standard
// library, nearest first, whose extensions a value of the type also has.
var externalSupertypes = map[string][]string{
	"List":              {"Collection", "Iterable"},
	"Set":               {"Collection", "Iterable"},
	"MutableList":       {"List", "MutableCollection", "Collection", "Iterable"},
	"MutableSet":        {"Set", "MutableCollection", "Collection", "Iterable"},
	"MutableCollection": {"Collection", "Iterable"},
	"Collection":        {"Iterable"},
	"MutableMap":        {"Map"},
	"String":            {"CharSequence"},
}

// externalType is the hidden type standing for the external type named
// name, or NoSym when no extension of the repository is declared on it.
func externalType(p *lang.Program, name string) lang.SymID {
	for _, id := range p.SymbolsNamed(externalTypeMark + name) {
		if p.Sym(id).Hidden {
			return id
		}
	}
	return lang.NoSym
}

// externalTypeFor is the hidden type of name or else of its nearest
// standard supertype with extensions in the repository.
func externalTypeFor(p *lang.Program, name string) lang.SymID {
	if id := externalType(p, name); id != lang.NoSym {
		return id
	}
	for _, super := range externalSupertypes[name] {
		if id := externalType(p, super); id != lang.NoSym {
			return id
		}
	}
	return lang.NoSym
}

// attachExternalExtension makes the extension at id a member of the
// hidden type of its receiver's name; it reports whether it did.
func attachExternalExtension(p *lang.Program, id lang.SymID) bool {
	h := externalType(p, lastPart(p.Sym(id).Receiver))
	if h == lang.NoSym {
		return false
	}
	p.AddMember(h, id)
	return true
}

// inheritExternalExtensions gives each hidden type the extensions of the
// hidden types of its standard supertypes that it does not declare
// itself (a List has the extensions of Collection); the extensions keep
// their own receiver type as owner.
func inheritExternalExtensions(p *lang.Program) {
	subs := make([]string, 0, len(externalSupertypes))
	for sub := range externalSupertypes {
		subs = append(subs, sub)
	}
	sort.Strings(subs)
	for _, sub := range subs {
		h := externalType(p, sub)
		if h == lang.NoSym {
			continue
		}
		for _, super := range externalSupertypes[sub] {
			sh := externalType(p, super)
			if sh == lang.NoSym {
				continue
			}
			members := p.AllMembers(sh)
			names := make([]string, 0, len(members))
			for name := range members {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				if len(p.Members(h, name)) > 0 {
					// Its own, or one of a nearer supertype.
					continue
				}
				for _, m := range members[name] {
					if p.Sym(m).Kind != graph.KindFunction {
						continue
					}
					p.AddMember(h, m)
					p.SetOwner(m, sh)
				}
			}
		}
	}
}
