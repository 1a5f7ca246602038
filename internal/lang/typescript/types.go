package typescript

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// ParseType reduces a TypeScript type to the named type the resolver
// follows: `Foo`, `ns.Foo`, `Foo<T>` → Foo; `Foo[]`, `Array<Foo>`,
// `Set<Foo>`, `Iterable<Foo>` → a container of Foo; `Record<K, Foo>` → a
// container of Foo; `Promise<Foo>`, `Readonly<Foo>`, `Partial<Foo>` →
// Foo; `Foo | null | undefined` → Foo; `A | B` → the union of A and B
// when each alternative is a named type (not a container). Function types,
// object literal types, tuples, unions with other alternatives, `typeof
// x`, `keyof T` and `import('x').T` are not followed.
func (rules) ParseType(text string) lang.TypeExpr {
	t := strings.TrimSpace(text)
	var elem uint8
	for range 16 {
		t = strings.TrimSpace(strings.TrimPrefix(t, "readonly "))
		if t == "" {
			return lang.TypeExpr{}
		}
		if t[0] == '(' && matchingClose(t, 0) == len(t)-1 {
			t = t[1 : len(t)-1]
			continue
		}
		if parts := splitTop(t, '|'); len(parts) > 1 {
			var kept []string
			for _, p := range parts {
				switch p = strings.TrimSpace(p); p {
				case "", "null", "undefined", "void", "never":
				default:
					kept = append(kept, p)
				}
			}
			switch {
			case len(kept) == 0:
				return lang.TypeExpr{}
			case len(kept) > 1:
				return unionOf(kept, elem)
			}
			t = kept[0]
			continue
		}
		if len(splitTop(t, '&')) > 1 {
			return lang.TypeExpr{}
		}
		if strings.HasSuffix(t, "[]") {
			t, elem = t[:len(t)-2], elem+1
			continue
		}
		if i := strings.IndexByte(t, '<'); i > 0 && strings.HasSuffix(t, ">") && matchingClose(t, i) == len(t)-1 {
			name := strings.TrimSpace(t[:i])
			args := splitTop(t[i+1:len(t)-1], ',')
			switch name {
			case "Promise", "PromiseLike", "Awaited", "Readonly", "Required", "Partial", "NonNullable":
				t = args[0]
				continue
			case "Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "IterableIterator",
				"AsyncIterable", "AsyncIterableIterator", "Iterator", "AsyncIterator", "Generator", "AsyncGenerator":
				t, elem = args[0], elem+1
				continue
			case "Record":
				if len(args) != 2 {
					return lang.TypeExpr{}
				}
				t, elem = args[1], elem+1
				continue
			}
			t = name
		}
		parts := strings.Split(t, ".")
		for _, p := range parts {
			if !lang.IsIdentifier(p, "$") {
				return lang.TypeExpr{}
			}
		}
		return lang.TypeExpr{Path: parts, Elem: elem}
	}
	return lang.TypeExpr{}
}

// unionOf is the union of the alternatives of a type, each a named type,
// or nothing followed when one is not or when the union is inside a
// container (`(A | B)[]`).
func unionOf(alts []string, elem uint8) lang.TypeExpr {
	if elem > 0 {
		return lang.TypeExpr{}
	}
	u := lang.TypeExpr{Union: make([]lang.TypeExpr, 0, len(alts))}
	for _, a := range alts {
		te := rules{}.ParseType(a)
		if len(te.Path) == 0 || te.Elem > 0 {
			return lang.TypeExpr{}
		}
		u.Union = append(u.Union, te)
	}
	return u
}

// matchingClose returns the index of the bracket closing the one at open
// ('(' or '<', with nesting of all bracket kinds), or -1.
func matchingClose(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			if s[i] == '>' && i > 0 && s[i-1] == '=' {
				continue // an arrow in a function type
			}
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside brackets and strings.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '<' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i-1] == '=')):
			depth--
		case c == sep && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
