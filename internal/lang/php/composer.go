package php

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/lang"
)

// psr4Root is one entry of Composer's PSR-4 autoload map: classes of the
// namespace prefix live under the directory, one file per class, the
// namespace parts after the prefix as subdirectories.
type psr4Root struct {
	prefix string // dotted, "" for the fallback root
	dir    string // repository-relative
}

// composerFile is the part of composer.json the rules read.
type composerFile struct {
	Autoload    composerAutoload `json:"autoload"`
	AutoloadDev composerAutoload `json:"autoload-dev"`
}

type composerAutoload struct {
	PSR4 map[string]json.RawMessage `json:"psr-4"`
}

// readComposer reads the PSR-4 maps (autoload and autoload-dev) of every
// composer.json of the repository, longest prefixes first. A composer.json
// that does not parse contributes nothing.
func readComposer(config map[string][]byte) []psr4Root {
	var roots []psr4Root
	for file, data := range config {
		if path.Base(file) != "composer.json" {
			continue
		}
		var cf composerFile
		if json.Unmarshal(data, &cf) != nil {
			continue
		}
		base := path.Dir(file)
		for _, a := range []composerAutoload{cf.Autoload, cf.AutoloadDev} {
			for prefix, raw := range a.PSR4 {
				var dirs []string
				var one string
				if json.Unmarshal(raw, &one) == nil {
					dirs = []string{one}
				} else if json.Unmarshal(raw, &dirs) != nil {
					continue
				}
				p, _ := dotted(prefix)
				p = strings.TrimSuffix(p, ".")
				for _, d := range dirs {
					roots = append(roots, psr4Root{prefix: p, dir: path.Join(base, d)})
				}
			}
		}
	}
	sort.Slice(roots, func(i, j int) bool {
		if len(roots[i].prefix) != len(roots[j].prefix) {
			return len(roots[i].prefix) > len(roots[j].prefix)
		}
		if roots[i].prefix != roots[j].prefix {
			return roots[i].prefix < roots[j].prefix
		}
		return roots[i].dir < roots[j].dir
	})
	return roots
}

// autoloaded finds the file the PSR-4 map gives a dotted fully qualified
// class name, when the repository has it.
func autoloaded(p *lang.Program, roots []psr4Root, fqn string) *lang.File {
	for _, r := range roots {
		rest := fqn
		if r.prefix != "" {
			if !strings.HasPrefix(fqn, r.prefix+".") {
				continue
			}
			rest = fqn[len(r.prefix)+1:]
		}
		if f := p.File(path.Join(r.dir, strings.ReplaceAll(rest, ".", "/")+".php")); f != nil {
			return f
		}
	}
	return nil
}
