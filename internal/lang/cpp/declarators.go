package cpp

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// functionDeclarator follows a declarator through pointers, references
// and parentheses to the function declarator it wraps, nil when it
// declares no function.
func functionDeclarator(d *ts.Node) *ts.Node {
	for d != nil {
		switch d.Kind() {
		case "function_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner != nil && (inner.Kind() == "parenthesized_declarator" || inner.Kind() == "pointer_declarator") {
				return nil // a pointer to a function: a variable
			}
			return d
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator":
			if next := d.ChildByFieldName("declarator"); next != nil {
				d = next
			} else if d.NamedChildCount() > 0 {
				d = d.NamedChild(d.NamedChildCount() - 1)
			} else {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// variableName follows a declarator to the name of the variable or field
// it declares.
func variableName(d *ts.Node) *ts.Node {
	for depth := 0; d != nil && depth < 16; depth++ {
		switch d.Kind() {
		case "identifier", "field_identifier", "type_identifier":
			return d
		case "init_declarator", "pointer_declarator", "array_declarator", "attributed_declarator", "bitfield_clause":
			if next := d.ChildByFieldName("declarator"); next != nil {
				d = next
				continue
			}
			if d.NamedChildCount() == 0 {
				return nil
			}
			d = d.NamedChild(0)
		case "reference_declarator", "parenthesized_declarator":
			if d.NamedChildCount() == 0 {
				return nil
			}
			d = d.NamedChild(d.NamedChildCount() - 1)
		default:
			return nil
		}
	}
	return nil
}

// functionName reads the name a function declarator declares and, for a
// qualified one (`A::run`, `a::b::A::run`), the qualifier's parts.
func (x *extraction) functionName(n *ts.Node) (name string, qualifier []string) {
	for depth := 0; n != nil && depth < 16; depth++ {
		switch n.Kind() {
		case "identifier", "field_identifier":
			return x.text(n), qualifier
		case "destructor_name":
			return strings.ReplaceAll(x.text(n), " ", ""), qualifier
		case "operator_name", "operator_cast":
			return strings.Join(strings.Fields(x.text(n)), ""), qualifier
		case "template_function":
			n = n.ChildByFieldName("name")
		case "qualified_identifier":
			if scope := n.ChildByFieldName("scope"); scope != nil {
				if s := x.scopeName(scope); s != "" {
					qualifier = append(qualifier, s)
				}
			}
			n = n.ChildByFieldName("name")
		default:
			return "", nil
		}
	}
	return "", nil
}

// scopeName is the name of a qualifier part without template arguments:
// `Box<T>` in `Box<T>::get` is Box.
func (x *extraction) scopeName(n *ts.Node) string {
	switch n.Kind() {
	case "template_type":
		if name := n.ChildByFieldName("name"); name != nil {
			return x.text(name)
		}
	case "namespace_identifier", "type_identifier", "identifier":
		return x.text(n)
	}
	return ""
}

// params reads a parameter list; `(void)` is no parameter.
func (x *extraction) params(list *ts.Node) []lang.Param {
	if list == nil {
		return nil
	}
	var out []lang.Param
	for i := uint(0); i < list.NamedChildCount(); i++ {
		c := list.NamedChild(i)
		switch c.Kind() {
		case "variadic_parameter":
			out = append(out, lang.Param{Name: "...", Variadic: true})
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
			typ, d := c.ChildByFieldName("type"), c.ChildByFieldName("declarator")
			if d == nil && typ != nil && x.text(typ) == "void" && list.NamedChildCount() == 1 {
				return nil
			}
			prm := lang.Param{Type: x.typeText(c, typ, d), Optional: c.Kind() == "optional_parameter_declaration",
				Variadic: c.Kind() == "variadic_parameter_declaration"}
			if name := variableName(d); name != nil {
				prm.Name = x.text(name)
			} else if d != nil && d.Kind() == "variadic_declarator" && d.NamedChildCount() > 0 {
				prm.Name = x.text(d.NamedChild(0))
			}
			out = append(out, prm)
		}
	}
	// A C-style variadic `...` is a token of the list, not a node.
	for i := uint(0); i < list.ChildCount(); i++ {
		if c := list.Child(i); !c.IsNamed() && c.Kind() == "..." {
			out = append(out, lang.Param{Name: "...", Variadic: true})
		}
	}
	return out
}

// typeText is a declaration's type as written, with `const` and the
// declarator's pointer and reference marks: `const std::string&`.
func (x *extraction) typeText(decl, typ, d *ts.Node) string {
	if typ == nil {
		return ""
	}
	t := x.text(typ)
	if x.isConst(decl) {
		t = "const " + t
	}
	for depth := 0; d != nil && depth < 16; depth++ {
		switch d.Kind() {
		case "pointer_declarator", "abstract_pointer_declarator":
			t += "*"
		case "reference_declarator", "abstract_reference_declarator":
			if strings.HasPrefix(x.text(d), "&&") {
				t += "&&"
			} else {
				t += "&"
			}
		case "init_declarator", "attributed_declarator", "parenthesized_declarator", "array_declarator":
		default:
			return lang.OneLine(t)
		}
		if next := d.ChildByFieldName("declarator"); next != nil {
			d = next
		} else if d.NamedChildCount() > 0 && d.Kind() == "reference_declarator" {
			d = d.NamedChild(0)
		} else {
			break
		}
	}
	return lang.OneLine(t)
}

// hasOverride reports whether a function declarator is marked `override`
// or `final`.
func (x *extraction) hasOverride(fd *ts.Node) bool {
	for i := uint(0); i < fd.NamedChildCount(); i++ {
		if c := fd.NamedChild(i); c.Kind() == "virtual_specifier" {
			return true
		}
	}
	return false
}
