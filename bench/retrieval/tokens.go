//go:build sqlite_fts5

package main

import (
	"strings"
	"unicode"
)

// tokens splits text for the plain BM25 baseline (baseline.go), a
// question and a function's source alike: every identifier (a run of
// letters, digits and underscores) gives its parts, split at underscores
// and case changes (parseHTTPRequest → parse, http, request; the last
// capital of an acronym starts the next part), and, when it has more than
// one part, itself whole (parsehttprequest, get_user; leading and
// trailing underscores trimmed). Everything is lower-cased; one-character
// tokens and stop words (English function words and programming
// keywords) are dropped. No stemming, no prefixes, no budget: a token
// matches only the same token.
func tokens(text string) []string {
	var out []string
	emit := func(t string) {
		if len([]rune(t)) > 1 && !stopToken[t] {
			out = append(out, t)
		}
	}
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !isIdentRune(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isIdentRune(rs[j]) {
			j++
		}
		parts := identParts(rs[i:j])
		for _, p := range parts {
			emit(p)
		}
		if len(parts) > 1 {
			emit(strings.ToLower(strings.Trim(string(rs[i:j]), "_")))
		}
		i = j
	}
	return out
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identParts splits one identifier at underscores and case changes, lower
// case, keeping one-character parts (the caller drops them) so that the
// count of parts says whether the identifier is compound.
func identParts(id []rune) []string {
	var parts []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			parts = append(parts, strings.ToLower(string(word)))
		}
		word = word[:0]
	}
	for i, r := range id {
		if r == '_' {
			flush()
			continue
		}
		if len(word) > 0 {
			prev := word[len(word)-1]
			camel := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(r)
			acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(id) && unicode.IsLower(id[i+1])
			if camel || acronymEnd {
				flush()
			}
		}
		word = append(word, r)
	}
	flush()
	return parts
}

// stopToken holds the tokens the baseline drops: English function words,
// and the reserved words of the indexed languages that declare, branch,
// loop, qualify or spell a literal. Keywords that are also the ordinary
// names of what code is about (match, type, map, range, select, string,
// error, loop, object, module, package, interface, class, struct) stay:
// in a question they name the subject.
var stopToken = map[string]bool{}

func init() {
	const english = `a an and are as at be been being but by can could did do does doing for from
		had has have he her here his how i if in into is it its itself me more most my no nor not
		of off on once only or other our out own she should so some such than that the their them
		then there these they this those through to too under until up very was we were what when
		where which while who whom why will with would you your also just any all each both few
		again further about above after before below between during over same`
	const keywords = `abstract async await begin break case catch const continue crate def default
		defer del delete dyn elif else elsif end ensure enum except export extends extern false fi
		final finally fn for func function go goto impl implements import instanceof internal let
		mut namespace new nil none null override pass private protected pub public raise readonly
		ref rescue return self sealed static super switch synchronized this throw throws true try
		typeof undefined unless unsafe use using val var void volatile yield`
	for _, w := range strings.Fields(english + " " + keywords) {
		stopToken[w] = true
	}
}
