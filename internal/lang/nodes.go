package lang

import ts "github.com/tree-sitter/go-tree-sitter"

// FirstNamed returns the first named child of n of one of the kinds, or
// nil.
func FirstNamed(n *ts.Node, kinds ...string) *ts.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		for _, k := range kinds {
			if c.Kind() == k {
				return c
			}
		}
	}
	return nil
}

// ChildrenByField returns the children of n under a field name.
func ChildrenByField(n *ts.Node, field string) []*ts.Node {
	var out []*ts.Node
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.FieldNameForChild(uint32(i)) == field {
			out = append(out, n.Child(i))
		}
	}
	return out
}

// LineStarts returns the byte offset at which each line of src starts, so
// that sort.SearchInts(lines, off+1) is the 1-based line of offset off.
func LineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}
