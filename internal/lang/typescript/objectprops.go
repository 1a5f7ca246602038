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
// The rule is syntactic and conservative, with no scope analysis beyond
// counting declarations:
//
//   - the variable is declared once in the file (const, let or var) with
//     an object literal as its value, the call lies where that declaration
//     is visible, and nothing in the file assigns the variable or one of
//     its members (`=`, `+=`, `++`, `delete`): a let or var that is never
//     reassigned holds its literal like a const does;
//   - the literal has no spread and no computed key, which could replace
//     the property; the last property of the key wins, as in JavaScript;
//   - the value's root name is declared at most once in the file and, when
//     it is, the call lies where that declaration is visible, so the name
//     means the same at the call as in the literal.
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
	// declared counts the declarations of each name: declarators,
	// parameters, functions, classes, catch parameters and imports.
	declared map[string]int
	// scopeOf is the node in which the single declaration of a name is
	// visible (the file for imports).
	scopeOf map[string]*ts.Node
	// literals holds, for names declared by a declarator whose value is an
	// object literal, that literal.
	literals map[string]*ts.Node
	// assigned holds the names assigned, or whose members are assigned.
	assigned map[string]bool
}

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
	lit := d.literals[name]
	if lit == nil || d.assigned[name] || !d.visible(name, callee) {
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
	if r := x.text(root); d.declared[r] > 1 || (d.declared[r] == 1 && !d.visible(r, callee)) {
		return nil
	}
	return value
}

// visible reports whether the single declaration of name is visible at n.
func (d *objectDecls) visible(name string, n *ts.Node) bool {
	if d.declared[name] != 1 {
		return false
	}
	s := d.scopeOf[name]
	return s != nil && s.StartByte() <= n.StartByte() && n.EndByte() <= s.EndByte()
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
		declared: map[string]int{}, scopeOf: map[string]*ts.Node{},
		literals: map[string]*ts.Node{}, assigned: map[string]bool{},
	}
	x.objects = d
	root := x.root
	declare := func(name *ts.Node, scope *ts.Node) {
		if name == nil {
			return
		}
		x.eachPatternName(name, func(id *ts.Node) {
			s := x.text(id)
			d.declared[s]++
			d.scopeOf[s] = scope
		})
	}
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		switch n.Kind() {
		case "variable_declarator":
			name := n.ChildByFieldName("name")
			scope := declarationScope(n)
			declare(name, scope)
			// A declared type decides what the properties are, for the
			// checker as for us: only untyped declarators are followed.
			v := unwrapObject(n.ChildByFieldName("value"))
			if v != nil && name != nil && name.Kind() == "identifier" && n.ChildByFieldName("type") == nil {
				d.literals[x.text(name)] = v
			}
		case "function_declaration", "generator_function_declaration", "class_declaration",
			"abstract_class_declaration", "enum_declaration":
			declare(n.ChildByFieldName("name"), enclosingScope(n))
		case "function_expression", "function", "generator_function", "class":
			if nm := n.ChildByFieldName("name"); nm != nil {
				declare(nm, n)
			}
		case "formal_parameters":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				p := n.NamedChild(i)
				if pat := p.ChildByFieldName("pattern"); pat != nil {
					p = pat
				}
				declare(p, n.Parent())
			}
		case "arrow_function":
			if p := n.ChildByFieldName("parameter"); p != nil {
				declare(p, n)
			}
		case "catch_clause":
			declare(n.ChildByFieldName("parameter"), n)
		case "import_specifier", "namespace_import", "import_clause":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				c := n.NamedChild(i)
				if c.Kind() == "identifier" {
					if n.Kind() == "import_specifier" && n.NamedChildCount() > 1 && i == 0 {
						continue // `a` of `a as b`
					}
					declare(c, root)
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
