package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// modifierWords are the words of a declaration's modifiers ("private" for
// `private[pkg]` too).
func (x *extraction) modifierWords(n *ts.Node) map[string]bool {
	words := map[string]bool{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "modifiers":
			for j := uint(0); j < c.ChildCount(); j++ {
				m := c.Child(j)
				if m.Kind() == "access_modifier" {
					words[accessWord(x.text(m))] = true
				} else if m.Kind() != "annotation" {
					words[x.text(m)] = true
				}
			}
		case "access_modifier":
			// `class A private (x: Int)`: the constructor's access.
		}
	}
	return words
}

// accessWord is "private" or "protected" for an access modifier with or
// without a qualifier.
func accessWord(s string) string {
	if strings.HasPrefix(s, "protected") {
		return "protected"
	}
	return "private"
}

// hasToken reports whether n has an anonymous child spelled tok.
func hasToken(n *ts.Node, tok string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Kind() == tok {
			return true
		}
	}
	return false
}

// signature is the declaration up to its body, on one line.
func (x *extraction) signature(n *ts.Node) string {
	end := n.EndByte()
	if body := n.ChildByFieldName("body"); body != nil && body.StartByte() > n.StartByte() {
		end = body.StartByte()
	}
	sig := strings.TrimSpace(string(x.src[n.StartByte():end]))
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(sig, "="), ":"))
	return lang.OneLine(sig)
}

// doc is the first paragraph of the Scaladoc comment above a declaration.
func (x *extraction) doc(n *ts.Node) string { return lang.DocBlock(n, x.src, "block_comment") }

// typeText is a written type without spaces, "" for none.
func typeText(x *extraction, n *ts.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind() == "compound_type" && n.NamedChildCount() > 0 {
		return typeText(x, n.NamedChild(0)) // `A with B`: A
	}
	if n.Kind() == "repeated_parameter_type" || n.Kind() == "lazy_parameter_type" {
		if t := n.ChildByFieldName("type"); t != nil {
			return typeText(x, t)
		}
	}
	return strings.Join(strings.Fields(x.text(n)), "")
}

// childrenByKind returns the named children of n of the kinds.
func childrenByKind(n *ts.Node, kinds ...string) []*ts.Node {
	var out []*ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		for _, k := range kinds {
			if c.Kind() == k {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// isTypeNode reports whether n is a written type (no calls in it).
func isTypeNode(n *ts.Node) bool {
	switch n.Kind() {
	case "type_identifier", "generic_type", "stable_type_identifier", "compound_type", "function_type",
		"tuple_type", "infix_type", "projected_type", "singleton_type", "annotated_type", "structural_type":
		return true
	}
	return false
}
