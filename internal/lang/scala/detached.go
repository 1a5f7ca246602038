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
// `=`, and the body as a statement of the enclosing body. Scala reads one
// def: a line cannot start with `=`, so it continues the line before.
// detachBodies finds that pattern among the children of a body and
// records the body of each such declaration (by the declaration's start)
// so that addFunction reads it as the def's; the ERROR and the body are
// then no children of their own (skipped).
func (x *extraction) detachBodies(n *ts.Node) (skipped map[uint]bool) {
	count := n.NamedChildCount()
	for i := uint(0); i+2 < count; i++ {
		d, eq, body := n.NamedChild(i), n.NamedChild(i+1), n.NamedChild(i+2)
		if d.Kind() != "function_declaration" || eq.Kind() != "ERROR" || strings.TrimSpace(x.text(eq)) != "=" {
			continue
		}
		if x.detached == nil {
			x.detached = map[uint]*ts.Node{}
		}
		x.detached[d.StartByte()] = body
		if skipped == nil {
			skipped = map[uint]bool{}
		}
		skipped[i+1], skipped[i+2] = true, true
		i += 2
	}
	return skipped
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
