package scala

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// A def whose `=` starts the next line,
//
//	def parser[T](f: Input => T): Parser[T]
//	  = new Parser[T] { ... }
//
// is read by the grammar as an abstract declaration, an ERROR holding the
// `=`, and the body as a statement of the enclosing body (or, after an
// operator name, as an assignment to a missing name). Scala reads one
// def: a line cannot start with `=`, so it continues the line before.
// detachBodies finds that pattern among the children of a body and
// records the body of each such declaration (by the declaration's start)
// so that addFunction reads it as the def's; the ERROR and the body are
// then no children of their own (skipped).
func (x *extraction) detachBodies(n *ts.Node) (skipped map[uint]bool) {
	count := n.NamedChildCount()
	for i := uint(0); i < count; i++ {
		d := n.NamedChild(i)
		if d.Kind() != "function_declaration" {
			continue
		}
		j := i + 1
		for j < count && strings.HasSuffix(n.NamedChild(j).Kind(), "comment") {
			j++ // `def f: T // note` then `= body`
		}
		if j >= count {
			break
		}
		var body *ts.Node
		var last uint
		switch next := n.NamedChild(j); {
		case next.Kind() == "ERROR" && strings.TrimSpace(x.text(next)) == "=" && j+1 < count:
			body, last = n.NamedChild(j+1), j+1
		case next.Kind() == "assignment_expression" && missingLeft(next):
			// `def ~! [U](...): T` then `= body`: read as an assignment
			// to a missing name.
			body, last = next.ChildByFieldName("right"), j
		}
		if body == nil {
			continue
		}
		if x.detached == nil {
			x.detached = map[uint]*ts.Node{}
		}
		x.detached[d.StartByte()] = body
		if skipped == nil {
			skipped = map[uint]bool{}
		}
		for k := j; k <= last; k++ {
			skipped[k] = true
		}
		i = last
	}
	return skipped
}

// missingLeft reports whether an assignment's left side is a name the
// parser made up (the assignment starts with `=`).
func missingLeft(n *ts.Node) bool {
	l := n.ChildByFieldName("left")
	return l != nil && l.Kind() == "identifier" && l.StartByte() == l.EndByte()
}

// defBody is the body of a def: its own, or the one detachBodies found
// on the next line.
func (x *extraction) defBody(n *ts.Node) *ts.Node {
	if body := n.ChildByFieldName("body"); body != nil {
		return body
	}
	if n.Kind() == "function_declaration" {
		return x.detached[n.StartByte()]
	}
	return nil
}
