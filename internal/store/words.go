package store

import (
	"path"
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

// compoundWords is, for every compound identifier in text (one the
// full-text tokenizer keeps whole: loadConfigFile, HTTPServer, utf8Len),
// its words, each occurrence again, after a newline: indexed beside the
// text, "config" finds loadConfigFile in a body as it finds it in a name,
// and the whole identifier still counts. Empty when text has none.
func compoundWords(text string) string {
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		tok := text[start:end]
		start = -1
		if words := identifierWords(tok); strings.IndexByte(words, ' ') >= 0 {
			if b.Len() == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(words)
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return b.String()
}

// pathWords are the words of a file's path without its extension
// (internal/store/lock.go → internal store lock).
func pathWords(p string) string {
	if p == "" {
		return ""
	}
	return identifierWords(strings.TrimSuffix(p, path.Ext(p)))
}

// wholeCompounds lists the compound identifiers of text lower-cased and
// whole (loadconfigfile), as the full-text tokenizer holds them.
func wholeCompounds(text string) string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if strings.IndexByte(identifierWords(tok), ' ') >= 0 {
			out = append(out, strings.ToLower(tok))
		}
	}
	return strings.Join(out, " ")
}
