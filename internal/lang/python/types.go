package python

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// ParseType reads a type annotation: a dotted class name, seen through
// Optional, unions with None, Annotated, ClassVar, Final and awaitables;
// the element type of sequences, sets, iterators and generators; the value
// type of mappings. Quotes (forward references) are ignored. Anything else
// (unions of classes, callables, type[...], literals) names nothing.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.NewReplacer(`"`, "", `'`, "").Replace(text)
	return parseType(strings.TrimSpace(t), 0)
}

var (
	// elemTypes hold elements of their first type argument.
	elemTypes = setOf(`List list Sequence MutableSequence Iterable Iterator Collection Set set FrozenSet
		frozenset AbstractSet MutableSet Deque deque Generator AsyncIterator AsyncIterable AsyncGenerator
		Reversible KeysView ValuesView`)
	// mapTypes hold values of their second type argument.
	mapTypes = setOf(`Dict dict Mapping MutableMapping DefaultDict defaultdict OrderedDict ChainMap`)
	// wrapperTypes are their first type argument, for our purposes.
	wrapperTypes = setOf(`Optional Annotated ClassVar Final Required NotRequired ReadOnly Awaitable TypeGuard`)
	// typingPrefixes are module prefixes under which the names above are
	// written.
	typingPrefixes = []string{"typing.", "typing_extensions.", "collections.abc.", "collections."}
)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func parseType(t string, depth int) lang.TypeExpr {
	if t == "" || depth > 8 {
		return lang.TypeExpr{}
	}
	if alts := splitTop(t, '|'); len(alts) > 1 {
		return single(alts, depth)
	}
	base, args, generic := cutGeneric(t)
	if !generic {
		return dottedType(t)
	}
	name := base
	for _, prefix := range typingPrefixes {
		name = strings.TrimPrefix(name, prefix)
	}
	switch {
	case name == "Union":
		return single(args, depth)
	case wrapperTypes[name]:
		return parseType(args[0], depth+1)
	case name == "Coroutine":
		return parseType(args[len(args)-1], depth+1)
	case elemTypes[name]:
		return elemOf(parseType(args[0], depth+1))
	case name == "Tuple" || name == "tuple":
		if len(args) == 2 && args[1] == "..." {
			return elemOf(parseType(args[0], depth+1))
		}
		return lang.TypeExpr{}
	case mapTypes[name]:
		if len(args) == 2 {
			return elemOf(parseType(args[1], depth+1))
		}
		return lang.TypeExpr{}
	case name == "Type" || name == "type" || name == "Callable" || name == "Literal":
		return lang.TypeExpr{}
	}
	return dottedType(base) // a generic class of the repository: Box[int]
}

// single is the one alternative of a union that is not None, if there is
// exactly one.
func single(alts []string, depth int) lang.TypeExpr {
	var rest []string
	for _, a := range alts {
		if a != "None" {
			rest = append(rest, a)
		}
	}
	if len(rest) != 1 {
		return lang.TypeExpr{}
	}
	return parseType(rest[0], depth+1)
}

func elemOf(te lang.TypeExpr) lang.TypeExpr {
	if len(te.Path) == 0 {
		return lang.TypeExpr{}
	}
	te.Elem++
	return te
}

// dottedType is a plain dotted name, or nothing.
func dottedType(t string) lang.TypeExpr {
	if t == "None" || t == "" {
		return lang.TypeExpr{}
	}
	parts := strings.Split(t, ".")
	for _, p := range parts {
		if !lang.IsIdentifier(p, "") {
			return lang.TypeExpr{}
		}
	}
	return lang.TypeExpr{Path: parts}
}

// cutGeneric splits "Base[A, B]" into its base and top-level arguments.
func cutGeneric(t string) (base string, args []string, ok bool) {
	i := strings.IndexByte(t, '[')
	if i <= 0 || !strings.HasSuffix(t, "]") {
		return t, nil, false
	}
	args = splitTop(t[i+1:len(t)-1], ',')
	if len(args) == 0 {
		return t, nil, false
	}
	return strings.TrimSpace(t[:i]), args, true
}

// splitTop splits s at sep outside brackets and trims the parts.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(out) > 0 {
		out = append(out, last)
	}
	return out
}
