package typescript

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// readModules records imports and exports: ES module statements, TS
// `import x = require()` and `export =`, CommonJS require() calls and
// assignments to module.exports / exports.x, and dynamic import() calls.
func (x *extraction) readModules(found []found) {
	for i := range found {
		f := &found[i]
		switch f.kind {
		case modImport:
			x.importStatement(&f.node)
		case modExport:
			x.exportStatement(&f.node)
		case modRequire:
			x.requireCall(&f.node, x.stringValue(f.a))
		case modDynamic:
			x.dynamicImport(&f.node, x.stringValue(f.a))
		case modAssign:
			t := lang.OneLine(x.text(f.a))
			if isExportsTarget(t) {
				x.exportAssignment(&f.node, t, f.b)
			}
		}
	}
}

func (x *extraction) addImport(imp lang.Import) {
	imp.Scope = -1
	x.facts.Imports = append(x.facts.Imports, imp)
}

func (x *extraction) importStatement(n *ts.Node) {
	line := lang.Line(n)
	if rc := childOfKind(n, "import_require_clause"); rc != nil {
		// TS `import x = require('y')`.
		id := childOfKind(rc, "identifier")
		if src := rc.ChildByFieldName("source"); src != nil && id != nil {
			x.addImport(lang.Import{Kind: lang.ImportModule, Path: x.stringValue(src), Alias: x.text(id), Line: line})
		}
		return
	}
	src := n.ChildByFieldName("source")
	if src == nil {
		return
	}
	path := x.stringValue(src)
	clause := childOfKind(n, "import_clause")
	if clause == nil {
		x.addImport(lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: line})
		return
	}
	for i := uint(0); i < clause.NamedChildCount(); i++ {
		c := clause.NamedChild(i)
		switch c.Kind() {
		case "identifier":
			x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: "default", Alias: x.text(c), Line: line})
		case "namespace_import":
			if id := childOfKind(c, "identifier"); id != nil {
				x.addImport(lang.Import{Kind: lang.ImportModule, Path: path, Alias: x.text(id), Line: line})
			}
		case "named_imports":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				spec := c.NamedChild(j)
				if spec.Kind() != "import_specifier" {
					continue
				}
				name, alias := x.specifier(spec)
				x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: name, Alias: alias, Line: line})
			}
		}
	}
}

// specifier reads `name as alias` of an import or export specifier; alias
// is "" when it is the name itself.
func (x *extraction) specifier(spec *ts.Node) (name, alias string) {
	nameOf := func(n *ts.Node) string {
		if n == nil {
			return ""
		}
		if n.Kind() == "string" {
			return x.stringValue(n)
		}
		return x.text(n)
	}
	name = nameOf(spec.ChildByFieldName("name"))
	alias = nameOf(spec.ChildByFieldName("alias"))
	if alias == name {
		alias = ""
	}
	return name, alias
}

func (x *extraction) exportStatement(n *ts.Node) {
	line := lang.Line(n)
	if src := n.ChildByFieldName("source"); src != nil {
		path := x.stringValue(src)
		switch {
		case childOfKind(n, "export_clause") != nil:
			clause := childOfKind(n, "export_clause")
			for i := uint(0); i < clause.NamedChildCount(); i++ {
				spec := clause.NamedChild(i)
				if spec.Kind() != "export_specifier" {
					continue
				}
				name, alias := x.specifier(spec)
				x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: name, Alias: alias, Line: line, Reexport: true})
			}
		case childOfKind(n, "namespace_export") != nil:
			ns := childOfKind(n, "namespace_export")
			alias := ""
			if ns.NamedChildCount() > 0 {
				alias = x.specifierName(ns.NamedChild(0))
			}
			x.addImport(lang.Import{Kind: lang.ImportModule, Path: path, Alias: alias, Line: line, Reexport: true})
		default:
			x.addImport(lang.Import{Kind: lang.ImportWildcard, Path: path, Line: line, Reexport: true})
		}
		return
	}
	if clause := childOfKind(n, "export_clause"); clause != nil {
		for i := uint(0); i < clause.NamedChildCount(); i++ {
			spec := clause.NamedChild(i)
			if spec.Kind() != "export_specifier" {
				continue
			}
			name, alias := x.specifier(spec)
			exported := name
			if alias != "" {
				exported = alias
			}
			x.facts.Exports = append(x.facts.Exports, lang.Export{Name: exported, Local: name, Line: line})
		}
		return
	}
	if decl := n.ChildByFieldName("declaration"); decl != nil {
		if hasToken(n, "default") {
			if name := x.text(decl.ChildByFieldName("name")); name != "" {
				x.facts.Exports = append(x.facts.Exports, lang.Export{Name: "default", Local: name, Line: line})
			}
		}
		return
	}
	if v := n.ChildByFieldName("value"); v != nil {
		x.exportValue("default", v, line)
		return
	}
	if hasToken(n, "=") {
		// TS `export = X`.
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if c := n.NamedChild(i); c.Kind() != "decorator" && c.Kind() != "comment" {
				x.exportValue(lang.ExportAssign, c, line)
				break
			}
		}
	}
}

func (x *extraction) specifierName(n *ts.Node) string {
	if n.Kind() == "string" {
		return x.stringValue(n)
	}
	return x.text(n)
}

// exportValue records that the module exports value v under name.
func (x *extraction) exportValue(name string, v *ts.Node, line int) {
	v = unwrap(v)
	e := lang.Export{Name: name, Line: line}
	switch {
	case v == nil:
	case v.Kind() == "identifier":
		e.Local = x.text(v)
	case v.Kind() == "class":
		e.Local = x.text(v.ChildByFieldName("name"))
		if e.Local == "" {
			e.Local = "default"
		}
	case isFunctionValue(v), v.Kind() == "object":
		// Not a node, or not a value the resolver follows.
	default:
		e.Value = x.valueExpr(v)
	}
	x.facts.Exports = append(x.facts.Exports, e)
}

// exportAssignment handles `module.exports = v`, `module.exports.name = v`
// and `exports.name = v`.
func (x *extraction) exportAssignment(n *ts.Node, target string, value *ts.Node) {
	line := lang.Line(n)
	v := unwrap(value)
	if v == nil {
		return
	}
	if target == "module.exports" {
		switch {
		case x.requirePath(v) != "":
			path := x.requirePath(v)
			alias := "require:" + path
			x.addImport(lang.Import{Kind: lang.ImportWildcard, Path: path, Line: line, Reexport: true})
			x.addRequireAlias(alias, path, line)
			x.facts.Exports = append(x.facts.Exports, lang.Export{Name: lang.ExportAssign, Local: alias, Line: line})
		case v.Kind() == "object":
			x.exportObject(v, line)
		default:
			x.exportValue(lang.ExportAssign, v, line)
		}
		return
	}
	name := strings.TrimPrefix(strings.TrimPrefix(target, "module."), "exports.")
	if strings.Contains(name, ".") || name == "" {
		return
	}
	if path := x.requirePath(v); path != "" {
		x.addImport(lang.Import{Kind: lang.ImportModule, Path: path, Alias: name, Line: line, Reexport: true})
		return
	}
	x.exportValue(name, v, line)
}

// exportObject handles `module.exports = {a, b: c, d: require('./d'),
// ...require('./e')}`.
func (x *extraction) exportObject(obj *ts.Node, line int) {
	for i := uint(0); i < obj.NamedChildCount(); i++ {
		c := obj.NamedChild(i)
		switch c.Kind() {
		case "shorthand_property_identifier":
			name := x.text(c)
			x.facts.Exports = append(x.facts.Exports, lang.Export{Name: name, Local: name, Line: line})
		case "pair":
			key := x.memberName(c.ChildByFieldName("key"))
			v := unwrap(c.ChildByFieldName("value"))
			if v == nil || key == "" {
				continue
			}
			if path := x.requirePath(v); path != "" {
				x.addImport(lang.Import{Kind: lang.ImportModule, Path: path, Alias: key, Line: line, Reexport: true})
				continue
			}
			x.exportValue(key, v, line)
		case "spread_element":
			if c.NamedChildCount() > 0 {
				if path := x.requirePath(unwrap(c.NamedChild(0))); path != "" {
					x.addImport(lang.Import{Kind: lang.ImportWildcard, Path: path, Line: line, Reexport: true})
				}
			}
		case "method_definition":
			x.facts.Exports = append(x.facts.Exports, lang.Export{Name: x.memberName(c.ChildByFieldName("name")), Line: line})
		}
	}
}

// outer climbs from an expression through wrappers that do not change its
// value (parentheses, non-null and type assertions).
func outer(n *ts.Node) (*ts.Node, *ts.Node) {
	child, p := n, n.Parent()
	for p != nil && isValueWrapper(p.Kind()) {
		child, p = p, p.Parent()
	}
	return child, p
}

func isValueWrapper(kind string) bool {
	switch kind {
	case "parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression":
		return true
	}
	return false
}

// inExportAssignment reports a require() call that is (part of) the value
// of a CommonJS export assignment, which exportAssignment handles.
func (x *extraction) inExportAssignment(n *ts.Node) bool {
	p := n.Parent()
	for i := 0; i < 4 && p != nil; i++ {
		if p.Kind() == "assignment_expression" {
			if left := p.ChildByFieldName("left"); left != nil && isExportsTarget(lang.OneLine(x.text(left))) {
				return true
			}
			return false
		}
		p = p.Parent()
	}
	return false
}

// requireCall records the import a require('path') call makes: a module
// bound to a variable, names destructured from it, one member of it, a
// side effect, or (inside an expression) a module bound to a synthetic name
// that the expression refers to.
func (x *extraction) requireCall(call *ts.Node, path string) {
	if x.inExportAssignment(call) {
		return
	}
	line := lang.Line(call)
	child, p := outer(call)
	if p != nil {
		switch p.Kind() {
		case "variable_declarator":
			if v := p.ChildByFieldName("value"); v != nil && v.Id() == child.Id() {
				x.importInto(p.ChildByFieldName("name"), path, line, lang.ImportModule)
				return
			}
		case "member_expression":
			if o := p.ChildByFieldName("object"); o != nil && o.Id() == child.Id() {
				if d := p.Parent(); d != nil && d.Kind() == "variable_declarator" {
					name := d.ChildByFieldName("name")
					if v := d.ChildByFieldName("value"); v != nil && v.Id() == p.Id() && name != nil && name.Kind() == "identifier" {
						x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Line: line,
							Name: x.memberName(p.ChildByFieldName("property")), Alias: x.text(name)})
						return
					}
				}
			}
		case "expression_statement":
			x.addImport(lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: line})
			return
		}
	}
	alias := "require:" + path
	x.addRequireAlias(alias, path, line)
	if x.requires == nil {
		x.requires = map[uintptr]string{}
	}
	x.requires[call.Id()] = alias
}

// addRequireAlias records the synthetic import a require() inside an
// expression binds, once per path.
func (x *extraction) addRequireAlias(alias, path string, line int) {
	for _, imp := range x.facts.Imports {
		if imp.Alias == alias && !imp.Reexport {
			return
		}
	}
	x.addImport(lang.Import{Kind: lang.ImportModule, Path: path, Alias: alias, Line: line})
}

// importInto records the import of a module into a declarator's name: the
// whole module for an identifier, named imports for an object pattern.
func (x *extraction) importInto(name *ts.Node, path string, line int, whole lang.ImportKind) {
	if name == nil {
		x.addImport(lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: line})
		return
	}
	switch name.Kind() {
	case "identifier":
		x.addImport(lang.Import{Kind: whole, Path: path, Alias: x.text(name), Line: line})
	case "object_pattern":
		for i := uint(0); i < name.NamedChildCount(); i++ {
			c := name.NamedChild(i)
			switch c.Kind() {
			case "shorthand_property_identifier_pattern":
				x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: x.text(c), Line: line})
			case "object_assignment_pattern":
				if l := c.ChildByFieldName("left"); l != nil {
					x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: x.text(l), Line: line})
				}
			case "pair_pattern":
				key := x.memberName(c.ChildByFieldName("key"))
				v := c.ChildByFieldName("value")
				if v != nil && v.Kind() == "assignment_pattern" {
					v = v.ChildByFieldName("left")
				}
				if v != nil && v.Kind() == "identifier" {
					alias := x.text(v)
					if alias == key {
						alias = ""
					}
					x.addImport(lang.Import{Kind: lang.ImportName, Path: path, Name: key, Alias: alias, Line: line})
				}
			case "rest_pattern":
				if id := childOfKind(c, "identifier"); id != nil {
					x.addImport(lang.Import{Kind: whole, Path: path, Alias: x.text(id), Line: line})
				}
			}
		}
	default:
		x.addImport(lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: line})
	}
}

// dynamicImport records `const m = await import('x')` as a namespace
// import, and any other import('x') as a side-effect import (an IMPORTS
// edge without bound names).
func (x *extraction) dynamicImport(call *ts.Node, path string) {
	line := lang.Line(call)
	_, p := outer(call)
	if p != nil && p.Kind() == "await_expression" {
		_, d := outer(p)
		if d != nil && d.Kind() == "variable_declarator" {
			x.importInto(d.ChildByFieldName("name"), path, line, lang.ImportModule)
			return
		}
	}
	x.addImport(lang.Import{Kind: lang.ImportSideEffect, Path: path, Line: line})
}
