package python

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A small Python tokenizer for reading names: it knows identifiers,
// bracket depth, logical line ends, assignment operators, and skips
// comments, strings (all prefixes and quotes; f-string expressions are
// skipped with the string) and numbers. It never fails: odd bytes become
// punctuation.

type tokKind uint8

const (
	tokNone      tokKind = iota
	tokName              // identifier or keyword
	tokPunct             // one byte of punctuation, in ch
	tokOp                // a multi-byte operator that is not an assignment (==, <=, ->, ...)
	tokAugAssign         // +=, -=, ...
	tokNewline           // end of a logical line at depth 0, or ';'
	tokLiteral           // a string or a number
)

type pyToken struct {
	kind  tokKind
	text  string // for tokName
	ch    byte   // for tokPunct
	off   int
	depth int // bracket depth where the token starts
}

func (t pyToken) is(c byte) bool { return t.kind == tokPunct && t.ch == c }

var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`False None True and as assert async await break class continue def del elif else
		except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield
		match case type self cls`) {
		keywords[k] = true
	}
}

func tokenize(src []byte) []pyToken {
	var out []pyToken
	depth := 0
	add := func(t pyToken) { t.depth = depth; out = append(out, t) }
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '\n':
			if depth == 0 {
				add(pyToken{kind: tokNewline, off: i})
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\'' || c == '"':
			start := i
			i = skipString(src, i)
			add(pyToken{kind: tokLiteral, off: start})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			start := i
			for i < len(src) && (isNamePart(src[i]) || src[i] == '.') {
				i++
			}
			add(pyToken{kind: tokLiteral, off: start})
		case isNameStart(src, i):
			start := i
			for i < len(src) {
				r, size := utf8.DecodeRune(src[i:])
				if r == utf8.RuneError && size <= 1 && src[i] >= 0x80 {
					break
				}
				if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
					break
				}
				i += size
			}
			word := string(src[start:i])
			if i < len(src) && (src[i] == '\'' || src[i] == '"') && isStringPrefix(word) {
				i = skipString(src, i)
				add(pyToken{kind: tokLiteral, off: start})
				continue
			}
			add(pyToken{kind: tokName, text: word, off: start})
		default:
			start := i
			switch c {
			case '(', '[', '{':
				add(pyToken{kind: tokPunct, ch: c, off: i})
				depth++
				i++
				continue
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
				add(pyToken{kind: tokPunct, ch: c, off: i})
				i++
				continue
			case ';':
				add(pyToken{kind: tokNewline, off: i})
				i++
				continue
			}
			// Operators: the longest of 3, 2 or 1 bytes.
			if i+2 < len(src) && src[i+2] == '=' && isAugPrefix3(src[i:i+2]) {
				add(pyToken{kind: tokAugAssign, off: start})
				i += 3
				continue
			}
			if i+1 < len(src) {
				two := string(src[i : i+2])
				switch two {
				case "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=":
					add(pyToken{kind: tokAugAssign, off: start})
					i += 2
					continue
				case "==", "!=", "<=", ">=", "->", ":=", "**", "//", "<<", ">>":
					add(pyToken{kind: tokOp, off: start})
					i += 2
					continue
				}
			}
			add(pyToken{kind: tokPunct, ch: c, off: i})
			i++
		}
	}
	return out
}

func isAugPrefix3(b []byte) bool {
	switch string(b) {
	case "**", "//", "<<", ">>":
		return true
	}
	return false
}

func isNamePart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isNameStart(src []byte, i int) bool {
	c := src[i]
	if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return true
	}
	if c < 0x80 {
		return false
	}
	r, size := utf8.DecodeRune(src[i:])
	return size > 1 && unicode.IsLetter(r)
}

func isStringPrefix(w string) bool {
	if len(w) > 2 {
		return false
	}
	for _, r := range strings.ToLower(w) {
		if !strings.ContainsRune("rbuf", r) {
			return false
		}
	}
	return true
}

// skipString returns the offset after the string literal starting with the
// quote at i (single or triple quoted). A backslash keeps the next byte
// from ending the string even in raw strings, as in Python.
func skipString(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			i += 2
			continue
		case c == '\n' && !triple:
			return i // unterminated single-quoted string
		case c == q:
			if !triple {
				return i + 1
			}
			if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
				return i + 3
			}
		}
		i++
	}
	return len(src)
}
