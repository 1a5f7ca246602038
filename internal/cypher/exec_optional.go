package cypher

import (
	"strings"
)

// optionalNode is OPTIONAL MATCH: for each input row it runs its inner
// plan (which starts from an Argument holding the row); when the inner plan
// finds nothing, the row goes on with the pattern's new variables null.
type optionalNode struct {
	input     planNode
	inner     planNode // runs once per input row, from an Argument
	nullSlots []int
	names     []string
}

func (n *optionalNode) inputs() []planNode { return []planNode{n.inner, n.input} }
func (n *optionalNode) describe() string {
	return "Optional: per row of the second input, the first; when it finds nothing, " + strings.Join(quoteNames(n.names), ", ") + " = null"
}

func (n *optionalNode) open(ec *execCtx, arg []Value) iterator {
	return &optionalIter{n: n, in: n.input.open(ec, arg)}
}

type optionalIter struct {
	n       *optionalNode
	in      iterator
	inner   iterator
	outer   []Value
	matched bool
	row     []Value
}

func (it *optionalIter) next(ec *execCtx) ([]Value, error) {
	for {
		if it.inner != nil {
			r, err := it.inner.next(ec)
			if err != nil {
				return nil, err
			}
			if r != nil {
				it.matched = true
				return r, nil
			}
			it.inner = nil
			if !it.matched {
				if it.row == nil {
					it.row = ec.newRow()
				}
				copy(it.row, it.outer)
				for _, s := range it.n.nullSlots {
					it.row[s] = Null
				}
				return it.row, nil
			}
		}
		outer, err := it.in.next(ec)
		if outer == nil || err != nil {
			return nil, err
		}
		it.outer = outer
		it.matched = false
		it.inner = it.n.inner.open(ec, outer)
	}
}
