//go:build sqlite_fts5

package main

import (
	"strings"
	"unicode"
)

// countWords counts the words of text that say something: runs of letters
// and digits, split where a lower-case letter or digit meets a capital
// (sendRequest is two words, and so is HTTPServer: the last capital of an
// acronym starts the next one), of two characters or more, leaving out
// numbers and a few English function words. Commit messages with fewer
// than four are not questions, and a doc comment with fewer than three is
// too short to time a search with.
func countWords(text string) int {
	n := 0
	var word []rune
	end := func() {
		if len(word) > 1 && !allDigits(word) && !functionWord[strings.ToLower(string(word))] {
			n++
		}
		word = word[:0]
	}
	rs := []rune(text)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			end()
			continue
		}
		if len(word) > 0 {
			last := word[len(word)-1]
			camel := (unicode.IsLower(last) || unicode.IsDigit(last)) && unicode.IsUpper(r)
			acronym := unicode.IsUpper(last) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if camel || acronym {
				end()
			}
		}
		word = append(word, r)
	}
	end()
	return n
}

func allDigits(w []rune) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// functionWord holds the English words that carry no subject.
var functionWord = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an and are as at be but by for from has have in into is it its of on or so than that the this to was were which who will with") {
		functionWord[w] = true
	}
}
