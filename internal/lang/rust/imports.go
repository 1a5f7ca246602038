package rust

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Module declarations, use declarations and extern crates, as the
// extraction records them (see extract.go): the resolver builds the module
// tree and resolves the paths (modules.go, lookup.go).

// addMod adds an inline module as a hidden symbol, or a `mod x;`
// declaration as an import of the file that holds the module.
func (x *extraction) addMod(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	parent := x.parentOf(n)
	scope := x.moduleAt(uint32(n.StartByte()))
	if x.inBody(parent) {
		scope = parent
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportModule, Name: name,
			Path: x.pathAttribute(n), Line: lang.Line(n), Reexport: isPub(n), Scope: scope})
		return
	}
	qual := name
	if scope >= 0 {
		qual = x.facts.Symbols[scope].Qual + "::" + name
	}
	sp := lang.SpanOf(n)
	idx := x.add(lang.Symbol{Kind: graph.KindPackage, Name: name, Qual: qual, Parent: parent, Span: sp, Hidden: true,
		Exported: isPub(n), Doc: x.doc(n), Signature: x.header(n, body)})
	x.modules = append(x.modules, idx)
}

// pathAttribute returns the value of a #[path = "..."] attribute on n.
func (x *extraction) pathAttribute(n *ts.Node) string {
	for p := n.PrevSibling(); p != nil && p.Kind() == "attribute_item"; p = p.PrevSibling() {
		a := p.NamedChild(0)
		if a == nil || a.Kind() != "attribute" || a.NamedChildCount() == 0 || x.text(a.NamedChild(0)) != "path" {
			continue
		}
		if v := a.ChildByFieldName("value"); v != nil && v.Kind() == "string_literal" {
			return strings.Trim(x.text(v), "\"")
		}
	}
	return ""
}

// importScope is where an import at n is visible: the function whose block
// declares it, else its inline module, else -1 (the file's module).
func (x *extraction) importScope(n *ts.Node) int {
	pos := uint32(n.StartByte())
	if f := x.scopes.Innermost(pos, func(s *lang.Symbol) bool { return s.Kind.IsCallable() }); f >= 0 {
		return f
	}
	return x.moduleAt(pos)
}

func (x *extraction) addUse(n *ts.Node) {
	arg := n.ChildByFieldName("argument")
	if arg == nil {
		return
	}
	scope := x.importScope(n)
	pub := isPub(n)
	line := lang.Line(n)
	x.useTree(arg, nil, func(segs []string, alias string, glob bool) {
		imp := lang.Import{Line: line, Reexport: pub, Scope: scope, Alias: alias}
		switch {
		case glob:
			imp.Kind = lang.ImportWildcard
			imp.Path = strings.Join(segs, "::")
		case len(segs) == 0:
			return
		default:
			imp.Kind = lang.ImportName
			imp.Path = strings.Join(segs[:len(segs)-1], "::")
			imp.Name = segs[len(segs)-1]
		}
		x.facts.Imports = append(x.facts.Imports, imp)
	})
}

// useTree flattens a use tree into its leaves: the path segments, the
// alias, and whether the leaf is a glob.
func (x *extraction) useTree(n *ts.Node, prefix []string, leaf func(segs []string, alias string, glob bool)) {
	join := func(segs []string) []string { return append(append([]string(nil), prefix...), segs...) }
	switch n.Kind() {
	case "use_as_clause":
		segs := join(x.pathSegments(n.ChildByFieldName("path")))
		if len(segs) > 0 && segs[len(segs)-1] == "self" {
			segs = segs[:len(segs)-1]
		}
		leaf(segs, x.name(n.ChildByFieldName("alias")), false)
	case "use_wildcard":
		var segs []string
		if n.NamedChildCount() > 0 {
			segs = x.pathSegments(n.NamedChild(0))
		}
		leaf(join(segs), "", true)
	case "scoped_use_list":
		segs := join(x.pathSegments(n.ChildByFieldName("path")))
		if list := n.ChildByFieldName("list"); list != nil {
			x.useTree(list, segs, leaf)
		}
	case "use_list":
		c := n.Walk()
		defer c.Close()
		for _, ch := range n.NamedChildren(c) {
			x.useTree(&ch, prefix, leaf)
		}
	case "identifier", "scoped_identifier", "crate", "self", "super", "metavariable":
		segs := join(x.pathSegments(n))
		if len(segs) > 0 && segs[len(segs)-1] == "self" && len(segs) > 1 {
			segs = segs[:len(segs)-1] // `use a::b::{self}` binds b
		}
		leaf(segs, "", false)
	}
}

// pathSegments splits a path node into its segments: "crate::a::b" →
// crate, a, b. Generic arguments are dropped.
func (x *extraction) pathSegments(n *ts.Node) []string {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "scoped_identifier", "scoped_type_identifier":
		segs := x.pathSegments(n.ChildByFieldName("path"))
		return append(segs, x.name(n.ChildByFieldName("name")))
	case "generic_type":
		return x.pathSegments(n.ChildByFieldName("type"))
	case "identifier", "type_identifier", "crate", "self", "super":
		return []string{x.name(n)}
	}
	return nil
}

func (x *extraction) addExternCrate(n *ts.Node) {
	name := x.name(n.ChildByFieldName("name"))
	if name == "" {
		return
	}
	alias := x.name(n.ChildByFieldName("alias"))
	x.facts.Imports = append(x.facts.Imports, lang.Import{Kind: lang.ImportName, Name: name, Alias: alias,
		Line: lang.Line(n), Scope: x.importScope(n), Reexport: isPub(n)})
}
