package store

import (
	"strings"
	"unicode"
)

// identifierWords splits identifiers into lower-case words for full-text
// search, so that "user" finds getUserById, HTTPServer, parse_user and
// api/user_service.go: case changes, digits, and every non-alphanumeric
// character separate words. Words are deduplicated, in order of appearance.
func identifierWords(texts ...string) string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		w = strings.ToLower(w)
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, text := range texts {
		rs := []rune(text)
		start := -1
		for i, r := range rs {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				if start >= 0 {
					add(string(rs[start:i]))
					start = -1
				}
				continue
			}
			if start < 0 {
				start = i
				continue
			}
			prev := rs[i-1]
			boundary := false
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				boundary = true // fooBar
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				boundary = true // HTTPServer: split before S
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				boundary = true // utf8Decode
			}
			if boundary {
				add(string(rs[start:i]))
				start = i
			}
		}
		if start >= 0 {
			add(string(rs[start:]))
		}
	}
	return strings.Join(out, " ")
}
