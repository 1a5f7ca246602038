package ingest

import "path"

// configNames recognises the configuration files the language rules ask
// for (Rules.ConfigNames): exact base names ("go.mod") and base-name
// patterns in path.Match syntax ("tsconfig*.json").
type configNames struct {
	exact    map[string]bool
	patterns []string
}

func (c *configNames) add(name string) {
	if c.exact == nil {
		c.exact = map[string]bool{}
	}
	if _, err := path.Match(name, ""); err == nil && containsMeta(name) {
		c.patterns = append(c.patterns, name)
		return
	}
	c.exact[name] = true
}

func containsMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}

// match reports whether a file (repository-relative path) is one of them.
func (c *configNames) match(rel string) bool {
	base := path.Base(rel)
	if c.exact[base] {
		return true
	}
	for _, p := range c.patterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}
