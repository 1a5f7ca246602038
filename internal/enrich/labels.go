package enrich

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"unicode"
)

// A community is named after where its members live, then told apart by
// what they do:
//
//   - the base is the last segment that says something (not src, lib,
//     internal, pkg, utils, ...) of the folder holding most members; when a
//     second folder holds at least a third of them and the first less than
//     two thirds, both, as "api + jobs". With no such folder (all at the
//     root, or only generic segments), the base is the stem of the file
//     holding most members (not index, main, __init__, ...), else the
//     community's most distinctive word, else "code".
//   - equal bases are told apart by the stem of the community's main file
//     when the others do not share it, else by its most distinctive word,
//     else by a number, largest community first.
//
// A community's words are its members' name words of at least three
// letters that are no stop word; a word is distinctive for a community as
// tf·log(1+N/df): frequent in it and rare in the N-1 others. A label never
// is a one- or two-letter word or a stop word.

// genericSegments are folder names that say nothing about what code does.
var genericSegments = map[string]bool{
	"src": true, "lib": true, "libs": true, "internal": true, "pkg": true, "utils": true, "util": true,
	"common": true, "shared": true, "helpers": true, "helper": true, "misc": true, "main": true,
	"java": true, "kotlin": true, "scala": true, "impl": true, "source": true, "sources": true, "app": true, "com": true,
	"org": true, "net": true, "io": true, "dist": true, "build": true, "cmd": true, "packages": true, "modules": true,
}

// genericStems are file names that say nothing about what code does.
var genericStems = map[string]bool{
	"index": true, "main": true, "mod": true, "lib": true, "init": true, "__init__": true, "__main__": true,
	"utils": true, "util": true, "helpers": true, "helper": true, "common": true, "types": true, "misc": true,
	"base": true, "core": true, "app": true, "setup": true, "conftest": true, "doc": true,
}

// stopWords are identifier words too common to describe an area.
var stopWords = map[string]bool{
	"get": true, "set": true, "new": true, "is": true, "has": true, "to": true, "the": true, "and": true,
	"for": true, "of": true, "with": true, "from": true, "in": true, "on": true, "by": true, "at": true,
	"init": true, "string": true, "str": true, "test": true, "tests": true, "do": true, "make": true, "add": true,
	"error": true, "err": true, "self": true, "this": true, "value": true, "func": true, "main": true,
	"impl": true, "default": true, "create": true, "run": true, "len": true, "as": true, "or": true,
	"not": true, "non": true, "all": true, "any": true, "can": true, "should": true, "will": true,
	"pre": true, "post": true, "int": true, "bool": true, "obj": true, "object": true, "data": true,
	"item": true, "items": true, "type": true, "types": true, "val": true, "var": true, "tmp": true,
	"foo": true, "bar": true, "baz": true, "call": true, "use": true, "when": true, "if": true, "else": true,
	"java": true, "util": true, "lang": true, "class": true, "method": true, "function": true,
	"async": true, "sync": true, "handle": true, "check": true, "next": true, "one": true, "two": true,
	// Python's special methods: every class has some.
	"getitem": true, "setitem": true, "delitem": true, "enter": true, "exit": true, "aenter": true,
	"aexit": true, "iter": true, "aiter": true, "anext": true, "repr": true, "hash": true, "contains": true,
	"getattr": true, "setattr": true,
}

type communityLabel struct {
	label    string
	base     string // before disambiguation
	stem     string // the main file's stem, "" when generic
	language string
	keywords []string
}

// maxKeywords is how many keywords a community lists.
const maxKeywords = 5

// labelCommunities labels cs's communities, unlike the labels in used.
func labelCommunities(v *view, cs *communities, used map[string]bool) []communityLabel {
	out := make([]communityLabel, len(cs.members))
	words := make([]map[string]int, len(cs.members))
	df := map[string]int{}
	for c, members := range cs.members {
		words[c] = map[string]int{}
		for _, m := range members {
			seen := map[string]bool{}
			for _, w := range nameWords(v.nodes[m].Name) {
				if !labelWord(w) || seen[w] {
					continue
				}
				seen[w] = true
				words[c][w]++
			}
		}
		for w := range words[c] {
			df[w]++
		}
	}
	// A file's folder label and stem, read once per file.
	type fileNames struct{ folder, stem string }
	byFile := map[string]fileNames{}
	for c, members := range cs.members {
		dirs := map[string]int{}
		stems := map[string]int{}
		langs := map[string]int{}
		for _, m := range members {
			n := &v.nodes[m]
			fn, ok := byFile[n.FilePath]
			if !ok {
				fn = fileNames{folderLabel(path.Dir(n.FilePath)), fileStem(n.FilePath)}
				byFile[n.FilePath] = fn
			}
			if fn.folder != "" {
				dirs[fn.folder]++
			}
			if fn.stem != "" {
				stems[fn.stem]++
			}
			langs[n.Language]++
		}
		l := communityLabel{language: top(langs, 1)[0], keywords: distinctive(words[c], df, len(cs.members), maxKeywords)}
		if s := top(stems, 1)[0]; s != "" && stems[s]*2 >= len(members) {
			l.stem = s
		}
		switch ds := top(dirs, 2); {
		case ds[0] == "":
		case len(ds) == 2 && dirs[ds[0]]*3 < len(members)*2 && dirs[ds[1]]*3 >= len(members):
			l.base = ds[0] + " + " + ds[1]
		default:
			l.base = ds[0]
		}
		if l.base == "" {
			l.base = l.stem
		}
		if l.base == "" && len(l.keywords) > 0 {
			l.base = l.keywords[0]
		}
		if l.base == "" {
			l.base = "code"
		}
		l.keywords = slices.DeleteFunc(l.keywords, func(w string) bool { return w == l.base })
		l.label = l.base
		out[c] = l
	}
	disambiguate(out, used)
	return out
}

// labelWord reports whether an identifier word may describe an area.
func labelWord(w string) bool {
	return len(w) >= 3 && !stopWords[w]
}

// distinctive returns the at most n words of counts most distinctive
// against the df of all nc communities, best first.
func distinctive(counts map[string]int, df map[string]int, nc, n int) []string {
	score := func(w string) float64 { return float64(counts[w]) * math.Log(1+float64(nc)/float64(df[w])) }
	var ws []string
	for w := range counts {
		ws = append(ws, w)
	}
	slices.SortFunc(ws, func(a, b string) int {
		if sa, sb := score(a), score(b); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	if len(ws) > n {
		ws = ws[:n]
	}
	return ws
}

// folderLabel is the last meaningful segment of a directory, "" when none.
// A segment's punctuation and leading underscores are dropped
// ("[[...slug]]" is "slug", "_transports" "transports"); a segment
// that keeps fewer than two characters, or a version (v1), says nothing.
func folderLabel(dir string) string {
	segs := strings.Split(dir, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		s := strings.TrimLeft(cleanSegment(segs[i]), "_")
		if len(s) < 2 || genericSegments[strings.ToLower(s)] || isVersion(s) {
			continue
		}
		return s
	}
	return ""
}

// isVersion reports whether a segment is a version such as v1 or V2.
func isVersion(s string) bool {
	return len(s) > 1 && (s[0] == 'v' || s[0] == 'V') && strings.Trim(s[1:], "0123456789") == ""
}

// fileStem is a file's name without extension and leading underscores,
// "" when it says nothing (index, main, __init__, ...).
func fileStem(file string) string {
	base := path.Base(file)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if genericStems[strings.ToLower(base)] {
		return ""
	}
	s := cleanSegment(strings.TrimLeft(base, "_"))
	if len(s) < 2 || genericStems[strings.ToLower(s)] {
		return ""
	}
	return s
}

// cleanSegment drops the characters of a path segment that are not
// letters, digits, '_', '-' or '.', and dots at its ends.
func cleanSegment(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' {
			return r
		}
		return -1
	}, s)
	s = strings.Trim(s, ".")
	if strings.IndexFunc(s, unicode.IsLetter) < 0 {
		return ""
	}
	return s
}

// disambiguate makes labels unique, and unlike those in used. When
// several communities share a base, each whose main file no other of them
// shares is named "base (stem)"; of the rest, the first keeps the base, the
// next ones get a keyword of their own in parentheses, else a number.
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
		rest := idx
		if len(idx) > 1 || used[b] {
			stems := map[string]int{}
			for _, i := range idx {
				stems[ls[i].stem]++
			}
			rest = nil
			for _, i := range idx {
				s := ls[i].stem
				if cand := b + " (" + s + ")"; s != "" && stems[s] == 1 && !strings.EqualFold(s, b) && !used[cand] {
					used[cand] = true
					ls[i].label = cand
					continue
				}
				rest = append(rest, i)
			}
		}
		for _, i := range rest {
			label := b
			if used[b] {
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
