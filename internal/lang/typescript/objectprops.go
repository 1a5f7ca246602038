package typescript

// Calls through the properties of an object literal held by a variable:
//
//	const actions = {add, "update-high": updateHigh, remove: ops.remove}
//	actions.add(1); actions["update-high"](2); actions.remove(3)
//
// The callee is replaced by the property's value as written (a name or a
// member path from a name), so the call resolves as a call of that value
// would. immer's benchmark scripts dispatch all their scenarios so (38
// calls on that corpus).
//
// The rule is syntactic and conservative. Each name is looked up as
// JavaScript scopes it: the declaration seen at a node is the one whose
// block (let, const, class, function), function (var, parameters) or
// file (imports) is the innermost around it.
//
//   - the declaration of the variable seen at the call is an untyped
//     declarator (const, let or var) whose value is an object literal,
//     and nothing in the file assigns a variable of that name or one of
//     its members (`=`, `+=`, `++`, `delete`): a let or var that is never
//     reassigned holds its literal as a const does;
//   - the literal has no spread and no computed key, which could replace
//     the property; the last property of the key wins, as in JavaScript;
//   - the value's root name sees the same declaration at the call as in
//     the literal (or none in the file at both), so that it means the
//     same there; a name declared twice in one scope is not followed.
//
// Not followed: methods and function expressions written in the literal
// (`remove() {}`, `remove: () => ...`), which are not nodes; values that
// are calls or `this` paths; literals passed to functions that may change
// them (`Object.assign(actions, ...)`); and literals imported from another
// file.

import (
	ts "github.com/tree-sitter/go-tree-sitter"
)

// objectDecls is what the file declares, read once on first use.
type objectDecls struct {
	// decls lists the declarations of each name (declarators, parameters,
	// functions, classes, catch parameters and imports) with the node in
	// which each is visible (the file for imports).
	decls map[string][]declSite
	// literals holds the object literal of each untyped declarator that
	// has one as its value, by declarator.
	literals map[uintptr]*ts.Node
	// assigned holds the names assigned, or whose members are assigned.
	assigned map[string]bool
}

// declSite is one declaration of a name: the declaring node and the node
// it is visible in.
type declSite struct{ node, scope *ts.Node }

// literalProperty returns the value of the property a callee reads from a
// variable holding an object literal (`v.k`, `v["k"]`), when that value
// is a name or a member path from a name that means the same at the call;
// nil otherwise.
func (x *extraction) literalProperty(callee *ts.Node) *ts.Node {
	var obj *ts.Node
	key := ""
	switch callee.Kind() {
	case "member_expression":
		obj = callee.ChildByFieldName("object")
		p := callee.ChildByFieldName("property")
		if p == nil || p.Kind() != "property_identifier" {
			return nil
		}
		key = x.text(p)
	case "subscript_expression":
		obj = callee.ChildByFieldName("object")
		idx := callee.ChildByFieldName("index")
		if idx == nil || idx.Kind() != "string" {
			return nil
		}
		key = x.stringValue(idx)
	default:
		return nil
	}
	if obj == nil || obj.Kind() != "identifier" {
		return nil
	}
	d := x.objectDecls()
	name := x.text(obj)
	decl, ok := d.visible(name, callee)
	if !ok || decl == nil || d.assigned[name] {
		return nil
	}
	lit := d.literals[decl.Id()]
	if lit == nil {
		return nil
	}
	value := x.propertyValue(lit, key)
	if value == nil {
		return nil
	}
	root := value
	for root.Kind() == "member_expression" {
		root = root.ChildByFieldName("object")
	}
	if root == nil || (root.Kind() != "identifier" && root.Kind() != "shorthand_property_identifier") {
		return nil
	}
	r := x.text(root)
	atCall, ok1 := d.visible(r, callee)
	atLiteral, ok2 := d.visible(r, lit)
	if !ok1 || !ok2 || (atCall == nil) != (atLiteral == nil) || (atCall != nil && atCall.Id() != atLiteral.Id()) {
		return nil
	}
	return value
}

// visible returns the declaration of name that n sees: the one whose
// scope is the innermost containing n (nil when none in the file does:
// a global). ok is false when two declarations share that scope
// (a var or function declared twice), whose winner is not followed.
func (d *objectDecls) visible(name string, n *ts.Node) (decl *ts.Node, ok bool) {
	var best *ts.Node
	ok = true
	for _, s := range d.decls[name] {
		if s.scope == nil {
			return nil, false
		}
		if s.scope.StartByte() > n.StartByte() || n.EndByte() > s.scope.EndByte() {
			continue
		}
		switch {
		case best == nil || s.scope.EndByte()-s.scope.StartByte() < best.EndByte()-best.StartByte():
			best, decl, ok = s.scope, s.node, true
		case s.scope.Id() == best.Id():
			ok = false
		}
	}
	return decl, ok
}

// propertyValue returns the value of key in an object literal: a
// shorthand property or a pair whose value is a name or a member path
// from a name; nil when the literal has a spread or a computed key, or
// when the key's last property is anything else.
func (x *extraction) propertyValue(lit *ts.Node, key string) *ts.Node {
	var value *ts.Node
	found := false
	for i := uint(0); i < lit.NamedChildCount(); i++ {
		c := lit.NamedChild(i)
		switch c.Kind() {
		case "shorthand_property_identifier":
			if x.text(c) == key {
				value, found = c, true
			}
		case "pair":
			k := c.ChildByFieldName("key")
			if k == nil || k.Kind() == "computed_property_name" {
				return nil
			}
			if x.propertyKey(k) == key {
				value, found = unwrap(c.ChildByFieldName("value")), true
			}
		case "method_definition":
			k := c.ChildByFieldName("name")
			if k == nil || k.Kind() == "computed_property_name" {
				return nil
			}
			if x.propertyKey(k) == key {
				value, found = nil, true
			}
		case "comment":
		default: // spread_element and anything unforeseen
			return nil
		}
	}
	if !found || value == nil || !isNamePath(value) {
		return nil
	}
	return value
}

// propertyKey is the name a key of an object literal gives its property.
func (x *extraction) propertyKey(k *ts.Node) string {
	switch k.Kind() {
	case "string":
		return x.stringValue(k)
	}
	return x.text(k)
}

// isNamePath reports a name or a member path from a name (not `this`).
func isNamePath(n *ts.Node) bool {
	switch n.Kind() {
	case "identifier", "shorthand_property_identifier":
		return true
	case "member_expression":
		o := n.ChildByFieldName("object")
		p := n.ChildByFieldName("property")
		return o != nil && p != nil && p.Kind() == "property_identifier" && isNamePath(o)
	}
	return false
}

// objectDecls reads the file's declarations and assignments on first use.
func (x *extraction) objectDecls() *objectDecls {
	if x.objects != nil {
		return x.objects
	}
	d := &objectDecls{
		decls: map[string][]declSite{}, literals: map[uintptr]*ts.Node{}, assigned: map[string]bool{},
	}
	x.objects = d
	root := x.root
	declare := func(decl, name, scope *ts.Node) {
		if name == nil {
			return
		}
		x.eachPatternName(name, func(id *ts.Node) {
			s := x.text(id)
			d.decls[s] = append(d.decls[s], declSite{node: decl, scope: scope})
		})
	}
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		switch n.Kind() {
		case "variable_declarator":
			name := n.ChildByFieldName("name")
			scope := declarationScope(n)
			declare(n, name, scope)
			// A declared type decides what the properties are, for the
			// checker as for us: only untyped declarators are followed.
			v := unwrapObject(n.ChildByFieldName("value"))
			if v != nil && name != nil && name.Kind() == "identifier" && n.ChildByFieldName("type") == nil {
				d.literals[n.Id()] = v
			}
		case "function_declaration", "generator_function_declaration", "class_declaration",
			"abstract_class_declaration", "enum_declaration":
			declare(n, n.ChildByFieldName("name"), enclosingScope(n))
		case "function_expression", "function", "generator_function", "class":
			if nm := n.ChildByFieldName("name"); nm != nil {
				declare(n, nm, n)
			}
		case "formal_parameters":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				p := n.NamedChild(i)
				if pat := p.ChildByFieldName("pattern"); pat != nil {
					p = pat
				}
				declare(p, p, n.Parent())
			}
		case "arrow_function":
			if p := n.ChildByFieldName("parameter"); p != nil {
				declare(p, p, n)
			}
		case "catch_clause":
			declare(n, n.ChildByFieldName("parameter"), n)
		case "import_specifier", "namespace_import", "import_clause":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				c := n.NamedChild(i)
				if c.Kind() == "identifier" {
					if n.Kind() == "import_specifier" && n.NamedChildCount() > 1 && i == 0 {
						continue // `a` of `a as b`
					}
					declare(c, c, root)
				}
			}
		case "assignment_expression", "augmented_assignment_expression":
			x.noteAssigned(d, n.ChildByFieldName("left"))
		case "update_expression":
			x.noteAssigned(d, n.ChildByFieldName("argument"))
		case "unary_expression":
			if op := n.ChildByFieldName("operator"); op != nil && x.text(op) == "delete" {
				x.noteAssigned(d, n.ChildByFieldName("argument"))
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(root)
	return d
}

// noteAssigned marks the root name of an assignment's target.
func (x *extraction) noteAssigned(d *objectDecls, t *ts.Node) {
	for t != nil {
		switch t.Kind() {
		case "member_expression", "subscript_expression":
			t = t.ChildByFieldName("object")
		case "parenthesized_expression", "non_null_expression":
			t = t.NamedChild(0)
		case "identifier":
			d.assigned[x.text(t)] = true
			return
		default:
			// Destructuring assignments: every name in the pattern.
			x.eachPatternName(t, func(id *ts.Node) { d.assigned[x.text(id)] = true })
			return
		}
	}
}

// eachPatternName calls f with each name a binding pattern declares.
func (x *extraction) eachPatternName(n *ts.Node, f func(*ts.Node)) {
	switch n.Kind() {
	case "identifier", "shorthand_property_identifier_pattern", "shorthand_property_identifier":
		f(n)
	case "object_pattern", "array_pattern", "object", "array":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			x.eachPatternName(n.NamedChild(i), f)
		}
	case "pair_pattern", "pair":
		if v := n.ChildByFieldName("value"); v != nil {
			x.eachPatternName(v, f)
		}
	case "assignment_pattern", "object_assignment_pattern":
		if l := n.ChildByFieldName("left"); l != nil {
			x.eachPatternName(l, f)
		}
	case "rest_pattern", "spread_element":
		if n.NamedChildCount() > 0 {
			x.eachPatternName(n.NamedChild(0), f)
		}
	case "required_parameter", "optional_parameter":
		if p := n.ChildByFieldName("pattern"); p != nil {
			x.eachPatternName(p, f)
		}
	}
}

// unwrapObject returns the object literal a declarator's value is, seen
// through parentheses, `as const` and `satisfies`; nil for other values.
func unwrapObject(v *ts.Node) *ts.Node {
	for v != nil {
		switch v.Kind() {
		case "object":
			return v
		case "parenthesized_expression", "satisfies_expression", "non_null_expression", "as_expression":
			if v.NamedChildCount() == 0 {
				return nil
			}
			v = v.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}

// declarationScope is where a declarator's names are visible: the
// enclosing function for var, the enclosing block for let and const
// (the file at top level).
func declarationScope(declarator *ts.Node) *ts.Node {
	decl := declarator.Parent()
	if decl != nil && decl.Kind() == "variable_declaration" {
		for p := decl.Parent(); p != nil; p = p.Parent() {
			if isFunctionNode(p) || p.Kind() == "program" {
				return p
			}
		}
		return nil
	}
	if decl == nil {
		return nil
	}
	return enclosingScope(decl)
}

// enclosingScope is the block, loop, function or file a declaration
// statement is in.
func enclosingScope(n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "statement_block", "program", "switch_body", "for_statement", "for_in_statement",
			"class_static_block":
			return p
		}
		if isFunctionNode(p) {
			return p
		}
	}
	return nil
}
