package typescript

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// tsconfig.json and jsconfig.json are JSON with comments and trailing
// commas. A file's configuration is the tsconfig.json (else jsconfig.json)
// in its directory or the nearest one above; `extends` with a relative path
// is followed (packages named in `extends` are outside the repository).
// Only compilerOptions.baseUrl and compilerOptions.paths matter here.

// tsconfigFile is one configuration file as written.
type tsconfigFile struct {
	path    string
	dir     string
	extends []string
	baseURL *string
	paths   map[string][]string
}

// compilerPaths is the effective module resolution configuration of a
// tsconfig, with directories relative to the repository root.
type compilerPaths struct {
	hasBaseURL bool
	baseURL    string
	rules      []pathRule
}

// pathRule is one `paths` entry: a pattern with at most one `*` and the
// targets it maps to (repository-relative, `*` kept).
type pathRule struct {
	prefix, suffix string
	wildcard       bool
	targets        []string
}

func parseTsconfig(p string, content []byte) *tsconfigFile {
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(content), &raw); err != nil {
		return nil
	}
	cfg := &tsconfigFile{path: p, dir: dirOf(p), baseURL: raw.CompilerOptions.BaseURL, paths: raw.CompilerOptions.Paths}
	var one string
	var many []string
	switch {
	case json.Unmarshal(raw.Extends, &one) == nil && one != "":
		cfg.extends = []string{one}
	case json.Unmarshal(raw.Extends, &many) == nil:
		cfg.extends = many
	}
	return cfg
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// joinRel joins repository-relative paths, "" being the root; it returns
// "" with ok false when the result leaves the repository.
func joinRel(elem ...string) (string, bool) {
	j := path.Join(elem...)
	if j == "." || j == "" {
		return "", true
	}
	if j == ".." || strings.HasPrefix(j, "../") || strings.HasPrefix(j, "/") {
		return "", false
	}
	return j, true
}

// effectiveConfig merges a tsconfig with the ones it extends: the
// extending file's baseUrl and paths replace those it inherits. Relative
// directories are resolved against the file that declares them; `paths`
// targets against baseUrl when there is one, else against the file that
// declares `paths`. Only whole results (depth 0) are cached: a chain of
// extends that comes back to a file is followed to the depth limit, which
// gives each file the same result whichever file was asked for first.
func (proj *project) effectiveConfig(p string, depth int) *compilerPaths {
	if depth == 0 {
		if cp, ok := proj.effective[p]; ok {
			return cp
		}
	}
	cfg := proj.configs[p]
	if cfg == nil || depth > 8 {
		return nil
	}
	out := &compilerPaths{}
	var pathsDir string
	var paths map[string][]string
	for _, ext := range cfg.extends {
		if !strings.HasPrefix(ext, ".") {
			continue
		}
		target, ok := joinRel(cfg.dir, ext)
		if !ok {
			continue
		}
		if proj.configs[target] == nil && proj.configs[target+".json"] != nil {
			target += ".json"
		}
		if base := proj.effectiveConfig(target, depth+1); base != nil {
			out.hasBaseURL, out.baseURL = base.hasBaseURL, base.baseURL
			out.rules = base.rules
		}
	}
	if cfg.baseURL != nil {
		if b, ok := joinRel(cfg.dir, *cfg.baseURL); ok {
			out.hasBaseURL, out.baseURL = true, b
		}
	}
	if cfg.paths != nil {
		paths, pathsDir = cfg.paths, cfg.dir
		base := pathsDir
		if out.hasBaseURL {
			base = out.baseURL
		}
		out.rules = pathRules(paths, base)
	}
	if depth == 0 {
		proj.effective[p] = out
	}
	return out
}

// pathRules compiles `paths`: exact patterns first, then wildcard patterns
// by decreasing prefix length, as TypeScript matches them.
func pathRules(paths map[string][]string, base string) []pathRule {
	var rules []pathRule
	for pattern, targets := range paths {
		r := pathRule{prefix: pattern}
		if i := strings.IndexByte(pattern, '*'); i >= 0 {
			r.prefix, r.suffix, r.wildcard = pattern[:i], pattern[i+1:], true
		}
		for _, t := range targets {
			if j, ok := joinRel(base, t); ok {
				r.targets = append(r.targets, j)
			}
		}
		rules = append(rules, r)
	}
	sort.Slice(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if a.wildcard != b.wildcard {
			return !a.wildcard
		}
		if len(a.prefix) != len(b.prefix) {
			return len(a.prefix) > len(b.prefix)
		}
		return a.prefix+"*"+a.suffix < b.prefix+"*"+b.suffix
	})
	return rules
}

// match returns the candidate paths a specifier maps to under the rule.
func (r pathRule) match(spec string) ([]string, bool) {
	if !r.wildcard {
		if spec != r.prefix {
			return nil, false
		}
		return r.targets, true
	}
	if len(spec) < len(r.prefix)+len(r.suffix) || !strings.HasPrefix(spec, r.prefix) || !strings.HasSuffix(spec, r.suffix) {
		return nil, false
	}
	star := spec[len(r.prefix) : len(spec)-len(r.suffix)]
	out := make([]string, len(r.targets))
	for i, t := range r.targets {
		out[i] = strings.Replace(t, "*", star, 1)
	}
	return out, true
}

// configFor returns the effective configuration of the nearest tsconfig.json
// (else jsconfig.json) at or above dir, or nil.
func (proj *project) configFor(dir string) *compilerPaths {
	if cp, ok := proj.nearest[dir]; ok {
		return cp
	}
	var cp *compilerPaths
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		if proj.configs[p] != nil {
			cp = proj.effectiveConfig(p, 0)
			break
		}
	}
	if cp == nil && dir != "" {
		cp = proj.configFor(dirOf(dir))
	}
	proj.nearest[dir] = cp
	return cp
}

// stripJSONC removes comments and trailing commas from JSON with comments.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				out = append(out, b[i+1])
				i++
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
			out = append(out, ' ')
		case c == ',':
			// Drop a comma followed (after blanks and comments) by } or ].
			j := i + 1
			for j < len(b) {
				switch {
				case b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r':
					j++
					continue
				case b[j] == '/' && j+1 < len(b) && b[j+1] == '/':
					for j < len(b) && b[j] != '\n' {
						j++
					}
					continue
				case b[j] == '/' && j+1 < len(b) && b[j+1] == '*':
					j += 2
					for j+1 < len(b) && !(b[j] == '*' && b[j+1] == '/') {
						j++
					}
					j += 2
					continue
				}
				break
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
