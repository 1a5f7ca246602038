package python

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// addImport records the imports of an `import` or `from ... import`
// statement. Path is the module as written, relative imports keeping their
// leading dots ("..pkg.mod", "."). An import inside a function or class body
// is scoped to it.
func (x *extraction) addImport(n *ts.Node) {
	scope := x.scopes.at(uint32(n.StartByte()))
	line := lang.Line(n)
	c := n.Walk()
	defer c.Close()
	names := n.ChildrenByFieldName("name", c)
	if n.Kind() == "import_statement" {
		for i := range names {
			path, alias := x.importedName(&names[i])
			if path != "" {
				x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportModule, Path: path, Alias: alias, Line: line, Scope: scope})
			}
		}
		return
	}
	module := compact(x.text(n.ChildByFieldName("module_name")))
	if module == "" {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.NamedChild(i).Kind() == "wildcard_import" {
			x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportWildcard, Path: module, Line: line, Scope: scope})
			return
		}
	}
	for i := range names {
		name, alias := x.importedName(&names[i])
		if name != "" {
			x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportName, Path: module, Name: name, Alias: alias, Line: line, Scope: scope})
		}
	}
}

// importedName reads a dotted_name or an aliased_import.
func (x *extraction) importedName(n *ts.Node) (name, alias string) {
	if n.Kind() == "aliased_import" {
		return compact(x.text(n.ChildByFieldName("name"))), x.text(n.ChildByFieldName("alias"))
	}
	return compact(x.text(n)), ""
}

// compact removes the whitespace Python allows inside dotted names and
// relative import prefixes ("from . pkg . mod import x").
func compact(s string) string { return strings.Join(strings.Fields(s), "") }
