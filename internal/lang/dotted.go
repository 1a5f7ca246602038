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
