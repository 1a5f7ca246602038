package typescript

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// project is the module resolution state of one program: configuration
// files, workspace packages, and memoised specifier resolutions.
type project struct {
	p             *lang.Program
	configs       map[string]*tsconfigFile
	effective     map[string]*compilerPaths
	nearest       map[string]*compilerPaths
	packages      map[string]*workspacePackage
	packagesByDir map[string]*workspacePackage
	resolved      lang.Memo[string, *lang.File]
	busy          map[string]bool
}

func newProject(p *lang.Program) *project {
	proj := &project{p: p, configs: map[string]*tsconfigFile{}, effective: map[string]*compilerPaths{},
		nearest: map[string]*compilerPaths{}, packages: map[string]*workspacePackage{},
		packagesByDir: map[string]*workspacePackage{}, busy: map[string]bool{}}
	paths := make([]string, 0, len(p.Config))
	for k := range p.Config {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	for _, cp := range paths {
		base := path.Base(cp)
		switch {
		case base == "package.json":
			pkg := parsePackageJSON(cp, p.Config[cp])
			if pkg == nil {
				continue
			}
			proj.packagesByDir[pkg.dir] = pkg
			if pkg.name == "" {
				continue
			}
			// Of packages sharing a name (fixtures, examples), the one
			// nearest the root wins.
			if prev := proj.packages[pkg.name]; prev == nil || strings.Count(pkg.dir, "/") < strings.Count(prev.dir, "/") {
				proj.packages[pkg.name] = pkg
			}
		case isConfigName(base):
			if cfg := parseTsconfig(cp, p.Config[cp]); cfg != nil {
				proj.configs[cp] = cfg
			}
		}
	}
	return proj
}

func isConfigName(base string) bool {
	return strings.HasSuffix(base, ".json") && (strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig"))
}

// probeExts are tried, in order, after a specifier without a known
// extension: implementations before declaration files, so that a .d.ts
// beside its .js never takes its place.
var probeExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".d.mts", ".d.cts"}

// sourceForOutput maps an output extension written in a specifier to the
// source extensions it may stand for (`import './x.js'` of x.ts).
var sourceForOutput = map[string][]string{
	".js":  {".ts", ".tsx", ".d.ts"},
	".jsx": {".tsx"},
	".mjs": {".mts", ".d.mts"},
	".cjs": {".cts", ".d.cts"},
}

// resolve returns the file a specifier written in file from refers to, or
// nil when it leaves the repository (packages from node_modules, Node
// builtins) or names no source file (JSON, CSS, missing files).
func (proj *project) resolve(from, spec string) *lang.File {
	dir := lang.Dir(from)
	key := dir + "\x00" + spec
	return proj.resolved.Get(proj.p, key, nil, func() *lang.File { return proj.resolveUncached(dir, spec) })
}

func isRelative(spec string) bool {
	return spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

func (proj *project) resolveUncached(dir, spec string) *lang.File {
	if i := strings.IndexAny(spec, "?#"); i > 0 {
		spec = spec[:i]
	}
	if spec == "" || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "node:") {
		return nil
	}
	if isRelative(spec) {
		p, ok := joinRel(dir, spec)
		if !ok {
			return nil
		}
		return proj.probe(p)
	}
	if cp := proj.configFor(dir); cp != nil {
		for _, r := range cp.rules {
			cands, ok := r.match(spec)
			if !ok {
				continue
			}
			for _, c := range cands {
				if f := proj.probe(c); f != nil {
					return f
				}
			}
			break // TypeScript tries the best-matching pattern only
		}
		if cp.hasBaseURL {
			if p, ok := joinRel(cp.baseURL, spec); ok {
				if f := proj.probe(p); f != nil {
					return f
				}
			}
		}
	}
	name, sub := splitPackageSpecifier(spec)
	if pkg := proj.packages[name]; pkg != nil {
		return proj.resolvePackage(pkg, sub)
	}
	return nil
}

// probe finds the source file a path without extension (or with an output
// extension) stands for: the file itself, the path plus a source
// extension, a directory's package.json entry, or its index file.
func (proj *project) probe(p string) *lang.File {
	if p == "" {
		p = "."
	}
	if f := proj.p.File(p); f != nil {
		return f
	}
	ext := path.Ext(p)
	for _, e := range sourceForOutput[ext] {
		if f := proj.p.File(strings.TrimSuffix(p, ext) + e); f != nil {
			return f
		}
	}
	for _, e := range probeExts {
		if f := proj.p.File(p + e); f != nil {
			return f
		}
	}
	dir := p
	if dir == "." {
		dir = ""
	}
	if pkg := proj.packagesByDir[dir]; pkg != nil {
		if f := proj.resolvePackage(pkg, ""); f != nil {
			return f
		}
	}
	prefix := dir + "/index"
	if dir == "" {
		prefix = "index"
	}
	for _, e := range probeExts {
		if f := proj.p.File(prefix + e); f != nil {
			return f
		}
	}
	return nil
}

// resolvePackage resolves a workspace package's entry or one of its
// subpaths.
func (proj *project) resolvePackage(pkg *workspacePackage, sub string) *lang.File {
	key := pkg.dir + "\x00" + sub
	if proj.busy[key] {
		proj.p.Cut() // packages whose entries lead back to themselves
		return nil
	}
	proj.busy[key] = true
	defer delete(proj.busy, key)
	if sub == "" {
		for _, t := range pkg.exports["."] {
			if f := proj.probeEntry(pkg.dir, t); f != nil {
				return f
			}
		}
		for _, e := range pkg.entries {
			if f := proj.probeEntry(pkg.dir, e); f != nil {
				return f
			}
		}
		for _, c := range []string{"src/index", "index", "lib/index"} {
			if p, ok := joinRel(pkg.dir, c); ok {
				if f := proj.probe(p); f != nil {
					return f
				}
			}
		}
		return nil
	}
	for _, t := range exportTargets(pkg, "./"+sub) {
		if f := proj.probeEntry(pkg.dir, t); f != nil {
			return f
		}
	}
	for _, c := range []string{sub, "src/" + sub} {
		if p, ok := joinRel(pkg.dir, c); ok {
			if f := proj.probe(p); f != nil {
				return f
			}
		}
	}
	return proj.probeEntry(pkg.dir, sub)
}

// exportTargets matches a subpath against a package's exports map: the
// exact key, else the wildcard key with the longest prefix.
func exportTargets(pkg *workspacePackage, sub string) []string {
	if t, ok := pkg.exports[sub]; ok {
		return t
	}
	best, bestLen := "", -1
	for k := range pkg.exports {
		i := strings.IndexByte(k, '*')
		if i < 0 {
			continue
		}
		prefix, suffix := k[:i], k[i+1:]
		if strings.HasPrefix(sub, prefix) && strings.HasSuffix(sub, suffix) && len(sub) >= len(prefix)+len(suffix) &&
			(len(prefix) > bestLen || (len(prefix) == bestLen && k < best)) {
			best, bestLen = k, len(prefix)
		}
	}
	if best == "" {
		return nil
	}
	i := strings.IndexByte(best, '*')
	star := sub[i : len(sub)-len(best[i+1:])]
	var out []string
	for _, t := range pkg.exports[best] {
		out = append(out, strings.ReplaceAll(t, "*", star))
	}
	return out
}

// buildDirs are directories that usually hold build output, which a
// repository does not contain; their files map back to src/.
var buildDirs = map[string]bool{"dist": true, "lib": true, "build": true, "out": true, "esm": true,
	"cjs": true, "es": true, "types": true, "module": true, "umd": true}

// probeEntry resolves a package entry path, mapping build output absent
// from the repository back to sources: dist/esm/index.js → src/index.
func (proj *project) probeEntry(dir, rel string) *lang.File {
	p, ok := joinRel(dir, rel)
	if !ok {
		return nil
	}
	if f := proj.probe(p); f != nil {
		return f
	}
	parts := strings.Split(strings.TrimPrefix(path.Clean(rel), "./"), "/")
	i := 0
	for i < len(parts)-1 && buildDirs[parts[i]] {
		i++
	}
	if i == 0 {
		return nil
	}
	rest := stripSourceExt(strings.Join(parts[i:], "/"))
	for _, c := range []string{"src/" + rest, rest} {
		if p, ok := joinRel(dir, c); ok {
			if f := proj.probe(p); f != nil {
				return f
			}
		}
	}
	return nil
}

// stripSourceExt removes a JS/TS or declaration extension.
func stripSourceExt(p string) string {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, e) {
			return strings.TrimSuffix(p, e)
		}
	}
	return p
}
