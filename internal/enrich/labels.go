package enrich

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
)

// A community is named after the folder most of its members live in, by
// the last segment of that folder that says something (not src, lib,
// internal, pkg, utils, common, ...); when no folder names it (all at the
// root, or only generic segments), after the first word most of its
// members' names share; else "cluster". Equal names are told apart by the
// community's most frequent keyword that the others do not have, else by a
// number, largest community first.

// genericSegments are folder names that say nothing about what code does.
var genericSegments = map[string]bool{
	"src": true, "lib": true, "libs": true, "internal": true, "pkg": true, "utils": true, "util": true,
	"common": true, "shared": true, "helpers": true, "helper": true, "misc": true, "main": true,
	"java": true, "kotlin": true, "scala": true, "impl": true, "source": true, "sources": true, "app": true, "com": true,
	"org": true, "dist": true, "build": true, "cmd": true,
}

// stopWords are identifier words too common to describe an area.
var stopWords = map[string]bool{
	"get": true, "set": true, "new": true, "is": true, "has": true, "to": true, "the": true, "and": true,
	"for": true, "of": true, "with": true, "from": true, "in": true, "on": true, "by": true, "at": true,
	"init": true, "string": true, "str": true, "test": true, "do": true, "make": true, "add": true,
	"error": true, "err": true, "self": true, "this": true, "value": true, "func": true, "main": true,
	"impl": true, "default": true, "create": true, "run": true, "len": true, "as": true, "or": true,
}

type communityLabel struct {
	label    string
	base     string // before disambiguation
	language string
	keywords []string
}

// maxKeywords is how many keywords a community lists.
const maxKeywords = 5

// labelCommunities labels cs's communities, unlike the labels in used.
func labelCommunities(v *view, cs *communities, used map[string]bool) []communityLabel {
	out := make([]communityLabel, len(cs.members))
	for c, members := range cs.members {
		dirs := map[string]int{}
		langs := map[string]int{}
		words := map[string]int{}
		first := map[string]int{}
		for _, m := range members {
			n := &v.nodes[m]
			dirs[path.Dir(n.FilePath)]++
			langs[n.Language]++
			ws := nameWords(n.Name)
			seen := map[string]bool{}
			for i, w := range ws {
				if i == 0 {
					first[w]++
				}
				if len(w) < 3 || stopWords[w] || seen[w] {
					continue
				}
				seen[w] = true
				words[w]++
			}
		}
		l := communityLabel{language: top(langs, 1)[0]}
		for _, dir := range top(dirs, len(dirs)) {
			if name := folderLabel(dir); name != "" {
				l.base = name
				break
			}
		}
		if l.base == "" {
			if w := top(first, 1)[0]; w != "" && first[w]*2 >= len(members) {
				l.base = w
			} else {
				l.base = "cluster"
			}
		}
		for _, w := range top(words, len(words)) {
			if w != "" && w != l.base && len(l.keywords) < maxKeywords {
				l.keywords = append(l.keywords, w)
			}
		}
		l.label = l.base
		out[c] = l
	}
	disambiguate(out, used)
	return out
}

// folderLabel is the last meaningful segment of a directory, "" when none.
func folderLabel(dir string) string {
	segs := strings.Split(dir, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		s := strings.ToLower(segs[i])
		if s == "" || s == "." || genericSegments[s] {
			continue
		}
		return segs[i]
	}
	return ""
}

// disambiguate makes labels unique, and unlike those in used: the first
// community with a label keeps it, the next ones get a keyword of their own
// in parentheses, else a number.
func disambiguate(ls []communityLabel, used map[string]bool) {
	byBase := map[string][]int{}
	var bases []string
	for i, l := range ls {
		if _, ok := byBase[l.base]; !ok {
			bases = append(bases, l.base)
		}
		byBase[l.base] = append(byBase[l.base], i)
	}
	for _, b := range bases {
		idx := byBase[b]
		for k, i := range idx {
			label := b
			if k > 0 || used[b] {
				label = ""
				for _, w := range ls[i].keywords {
					if cand := b + " (" + w + ")"; !used[cand] {
						label = cand
						break
					}
				}
			}
			for n := 2; label == "" || used[label]; n++ {
				label = fmt.Sprintf("%s %d", b, n)
			}
			used[label] = true
			ls[i].label = label
		}
	}
}

// top returns the keys of counts by count (descending) then key, at most n;
// [""] when counts is empty.
func top(counts map[string]int, n int) []string {
	if len(counts) == 0 {
		return []string{""}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// nameWords splits an identifier into lower-case words at case changes,
// digits and separators: getUserByID -> get user by id.
func nameWords(name string) []string {
	var out []string
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		if unicode.IsUpper(r) && (unicode.IsLower(prev) ||
			(unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}
