package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// addImport reads an import clause: `import a.b.C`, `import a.b._`,
// `import a.b.*`, `import a.b.{C, D => E, F as G, _}` and several
// comma-separated clauses. Path is the dotted name (the package or object
// for a wildcard), Name the name bound.
func (x *extraction) addImport(n *ts.Node) {
	if x.symbolsOnly {
		return
	}
	var path []string
	flush := func(last *ts.Node) {
		defer func() { path = nil }()
		base := strings.Join(path, ".")
		switch {
		case last == nil:
			if len(path) < 2 {
				return
			}
			base = strings.Join(path[:len(path)-1], ".")
			x.importName(n, base, path[len(path)-1], "")
		case last.Kind() == "as_renamed_identifier" || last.Kind() == "arrow_renamed_identifier":
			name, alias := last.ChildByFieldName("name"), last.ChildByFieldName("alias")
			if name != nil && alias != nil && x.text(alias) != "_" {
				x.importName(n, base, x.text(name), x.text(alias))
			}
		case last.Kind() == "namespace_wildcard" && x.text(last) == "given":
			// `import a.O.given`: the given instances only.
		case last.Kind() == "namespace_wildcard":
			x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard, Path: base,
				Line: lang.Line(n), Scope: -1})
		case last.Kind() == "namespace_selectors":
			for i := uint(0); i < last.NamedChildCount(); i++ {
				sel := last.NamedChild(i)
				switch sel.Kind() {
				case "identifier":
					x.importName(n, base, x.text(sel), "")
				case "arrow_renamed_identifier", "as_renamed_identifier":
					name, alias := sel.ChildByFieldName("name"), sel.ChildByFieldName("alias")
					if name != nil && alias != nil && x.text(alias) != "_" {
						x.importName(n, base, x.text(name), x.text(alias))
					}
				case "namespace_wildcard":
					if x.text(sel) == "given" {
						continue
					}
					x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard, Path: base,
						Line: lang.Line(n), Scope: -1})
				}
			}
		}
	}
	var last *ts.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch {
		case !c.IsNamed() && c.Kind() == ",":
			flush(last)
			last = nil
		case c.Kind() == "identifier" && n.FieldNameForChild(uint32(i)) == "path":
			path = append(path, x.text(c))
		case c.Kind() == "namespace_wildcard" || c.Kind() == "namespace_selectors" ||
			c.Kind() == "as_renamed_identifier" || c.Kind() == "arrow_renamed_identifier":
			last = c
		}
	}
	flush(last)
}

// importName records the import of one name of base under alias.
func (x *extraction) importName(n *ts.Node, base, name, alias string) {
	if base == "" || name == "" {
		return
	}
	imp := lang.Import{Kind: lang.ImportName, Path: base + "." + name, Name: name, Line: lang.Line(n), Scope: -1}
	if alias != "" {
		imp.Alias, imp.Name = alias, alias
	}
	x.facts.Imports = append(x.facts.Imports, imp)
}
