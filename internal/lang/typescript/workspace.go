package typescript

import (
	"encoding/json"
	"sort"
	"strings"
)

// A workspace package is a package.json with a name, anywhere in the
// repository (node_modules is never indexed). `import {x} from
// '@acme/util'` resolves to the package's entry: the "." export, then
// "source", "module", "main", "types"; an entry that points at build
// output absent from the repository (dist/index.js) is mapped back to the
// source tree (src/index.ts); failing all that, src/index or index.
// Subpaths (`@acme/util/strings`) go through the "exports" map, then the
// package directory and its src directory.

type workspacePackage struct {
	name    string
	dir     string
	entries []string
	// exports maps subpaths ("." or "./x", possibly with one `*`) to
	// targets in preference order.
	exports map[string][]string
}

func parsePackageJSON(p string, content []byte) *workspacePackage {
	var raw struct {
		Name    string          `json:"name"`
		Source  string          `json:"source"`
		Module  string          `json:"module"`
		Main    string          `json:"main"`
		Types   string          `json:"types"`
		Typings string          `json:"typings"`
		Exports json.RawMessage `json:"exports"`
	}
	if err := json.Unmarshal(content, &raw); err != nil {
		return nil
	}
	pkg := &workspacePackage{name: raw.Name, dir: dirOf(p), exports: map[string][]string{}}
	for _, e := range []string{raw.Source, raw.Module, raw.Main, raw.Types, raw.Typings} {
		if e != "" {
			pkg.entries = append(pkg.entries, e)
		}
	}
	var exports any
	if len(raw.Exports) > 0 && json.Unmarshal(raw.Exports, &exports) == nil {
		switch v := exports.(type) {
		case string, []any:
			pkg.exports["."] = conditionTargets(v)
		case map[string]any:
			subpaths := false
			for k := range v {
				if strings.HasPrefix(k, ".") {
					subpaths = true
				}
			}
			if !subpaths {
				pkg.exports["."] = conditionTargets(v)
				break
			}
			for k, t := range v {
				if strings.HasPrefix(k, ".") {
					pkg.exports[k] = conditionTargets(t)
				}
			}
		}
	}
	return pkg
}

// conditionOrder is the order in which export conditions are tried: the
// source and ES module forms first, type declarations last.
var conditionOrder = []string{"source", "development", "import", "module", "require", "node", "default", "types"}

// conditionTargets flattens an export target (a string, an array of
// fallbacks, or an object of conditions) into paths in preference order.
func conditionTargets(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, conditionTargets(e)...)
		}
		return out
	case map[string]any:
		var out []string
		seen := map[string]bool{}
		for _, k := range conditionOrder {
			if e, ok := t[k]; ok {
				out = append(out, conditionTargets(e)...)
				seen[k] = true
			}
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			if !seen[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, conditionTargets(t[k])...)
		}
		return out
	}
	return nil
}

// splitPackageSpecifier splits "@scope/name/sub/path" into the package name
// and the subpath ("" for the package itself).
func splitPackageSpecifier(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return spec, ""
		}
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
		return name, sub
	}
	name = parts[0]
	if i := strings.IndexByte(spec, '/'); i >= 0 {
		sub = spec[i+1:]
	}
	return name, sub
}
