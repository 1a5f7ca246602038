package lang

import "strings"

// ParseDottedType reads a type written as a dotted name, each "[]" after
// it making a sequence of what it follows ("a.b.C[]" is a sequence of
// a.b.C).
func ParseDottedType(text string) TypeExpr {
	t := strings.TrimSpace(text)
	var elem uint8
	for strings.HasSuffix(t, "[]") {
		t, elem = t[:len(t)-2], elem+1
	}
	if t == "" {
		return TypeExpr{}
	}
	return TypeExpr{Path: strings.Split(t, "."), Elem: elem}
}

// IsIdentifier reports whether s is an identifier: letters, '_', the
// characters of also ("$" for Java, Scala and JavaScript), any non-ASCII
// character, and digits after the first character.
func IsIdentifier(s, also string) bool {
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127 || (i > 0 && r >= '0' && r <= '9') || strings.ContainsRune(also, r) {
			continue
		}
		return false
	}
	return s != ""
}
