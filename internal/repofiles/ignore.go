package repofiles

import (
	"path"
	"strings"
)

// ignoreRules matches paths against gitignore-syntax patterns, as found in
// .gitnexusignore (and .gitignore when the directory is not a git work tree).
// Later patterns override earlier ones, `!` negates, a trailing `/` matches
// directories only, a pattern with a `/` before its end is anchored to the
// directory of the file it came from, and `**` spans directories.
type ignoreRules struct {
	patterns []ignorePattern
}

type ignorePattern struct {
	base     string   // directory of the ignore file, "" at the root
	segs     []string // pattern split on '/'
	anchored bool
	negate   bool
	dirOnly  bool
}

// add parses the content of an ignore file that lives in directory base.
func (r *ignoreRules) add(base, content string) {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimRight(line, "\r")
		line = trimTrailingSpaces(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := ignorePattern{base: base}
		if strings.HasPrefix(line, "!") {
			p.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			p.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		p.segs = strings.Split(line, "/")
		r.patterns = append(r.patterns, p)
	}
}

// trimTrailingSpaces removes unescaped trailing spaces.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return strings.ReplaceAll(s, `\ `, " ")
}

// ignored reports whether rel (repository-relative, '/'-separated) is
// ignored; isDir says whether it is a directory. Callers check parents
// first: a file inside an ignored directory is ignored whatever the rules
// say about the file itself, as in git.
func (r *ignoreRules) ignored(rel string, isDir bool) bool {
	result := false
	for i := range r.patterns {
		p := &r.patterns[i]
		if p.dirOnly && !isDir {
			continue
		}
		if p.match(rel) {
			result = !p.negate
		}
	}
	return result
}

func (p *ignorePattern) match(rel string) bool {
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false
		}
		rel = rel[len(p.base)+1:]
	}
	parts := strings.Split(rel, "/")
	if p.anchored {
		return matchSegs(p.segs, parts)
	}
	// An unanchored pattern matches the name at any depth.
	for i := range parts {
		if matchSegs(p.segs, parts[i:]) {
			return true
		}
	}
	return false
}

// matchSegs matches pattern segments against all path segments; `**`
// matches any number of segments.
func matchSegs(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchSegs(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, err := path.Match(pat[0], parts[0])
	if err != nil || !ok {
		return false
	}
	return matchSegs(pat[1:], parts[1:])
}
