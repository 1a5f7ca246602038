//go:build sqlite_fts5

package main

import (
	"strings"
	"unicode"
)

// countWords counts the words of text that say something: the parts of its
// identifiers as the baseline splits them (identParts: sendRequest is two
// words, and so is HTTPServer), of two characters or more, leaving out
// numbers and a few English function words. Commit messages with fewer
// than four are not questions, and a doc comment with fewer than three is
// too short to time a search with.
func countWords(text string) int {
	n := 0
	for _, id := range strings.FieldsFunc(text, func(r rune) bool { return !isIdentRune(r) }) {
		for _, w := range identParts([]rune(id)) {
			if len([]rune(w)) > 1 && !allDigits([]rune(w)) && !functionWord[w] {
				n++
			}
		}
	}
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
