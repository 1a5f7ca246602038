package cypher

import (
	"math"
	"strconv"
	"strings"
)

// literalString renders a value as a Cypher literal: null, true, 42, 1.5,
// 'text', [1, 2], {a: 1}. Graph elements, which have no literal, are shown
// by their kind and internal index.
func literalString(v Value) string {
	var b strings.Builder
	writeLiteral(&b, v, nil)
	return b.String()
}

// elementNamer names graph elements in rendered values (by their ids).
type elementNamer func(v Value) string

func writeLiteral(b *strings.Builder, v Value, name elementNamer) {
	switch v.kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		if v.i != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt:
		b.WriteString(strconv.FormatInt(v.i, 10))
	case KindFloat:
		b.WriteString(formatFloat(v.f))
	case KindString:
		b.WriteString(quoteString(v.s))
	case KindList:
		b.WriteByte('[')
		for i, e := range v.List() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, e, name)
		}
		b.WriteByte(']')
	case KindMap:
		m := v.Map()
		b.WriteByte('{')
		for i, k := range m.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteName(k) + ": ")
			writeLiteral(b, m.Vals[i], name)
		}
		b.WriteByte('}')
	default:
		if name != nil {
			b.WriteString(name(v))
		} else {
			b.WriteString("<" + v.kind.String() + " " + strconv.FormatInt(v.i, 10) + ">")
		}
	}
}

// formatFloat prints a float the way Cypher does: always with a decimal
// point or exponent (1.0, 0.5, 1e+21), NaN and Infinity by name.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// quoteString writes a string literal in single quotes with Cypher
// escapes.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				b.WriteString(`\u` + strconv.FormatInt(int64(r)+0x10000, 16)[1:])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}
