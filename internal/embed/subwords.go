package embed

import (
	"strings"
	"unicode"
)

// Subwords splits text into the units the built-in vectors know: runs of
// letters and digits, identifiers split further at case changes and
// underscores (parseHTTPRequest → parse, http, request), lowercased, with
// a plural "s" taken off (items → item, entries → entry), numbers,
// one-letter words and a few English function words dropped. Training and
// embedding split the same way.
func Subwords(text string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 1 {
			if w := normalizeSubword(string(word)); w != "" {
				out = append(out, w)
			}
		}
		word = word[:0]
	}
	rs := []rune(text)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(word) > 0 {
			prev := word[len(word)-1]
			lowerToUpper := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(r)
			// The last capital of an acronym starts the next word: HTTPServer → http, server.
			acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if lowerToUpper || acronymEnd {
				flush()
			}
		}
		word = append(word, r)
	}
	flush()
	return out
}

func normalizeSubword(w string) string {
	w = strings.ToLower(w)
	digits := true
	for _, r := range w {
		if !unicode.IsDigit(r) {
			digits = false
			break
		}
	}
	if digits || subwordStop[w] {
		return ""
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

var subwordStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`an and are as at be but by for from has have in into is it its of on or
		that the this to was were will with so than which who`) {
		subwordStop[w] = true
	}
}
