package typescript

import (
	"slices"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// The patterns the extractor reads are single nodes (a call, an
// assignment, a member expression), found without a query (patterns.go,
// lang.Kinds): compiling a tree-sitter query walks the grammar's parse
// table, more so for patterns with children (`(call_expression function:
// (_) @callee)`), 13–25 ms for TypeScript's, paid by every process that
// extracts a file, a re-index of one file among them. The children such
// patterns captured are read here instead, and the matches put back in the
// order tree-sitter gives those patterns' matches: it reports a match when
// its last node is reached in a walk of the tree, so an assignment comes
// after the uses on its left side, once its right side starts.

// shapes are the node kinds and fields of one grammar that the matches are
// completed with; a kind the grammar lacks is 0, which no node has.
type shapes struct {
	identifier, propertyIdentifier, memberExpression, arguments, str, imp symbol
	accessibility, readonly                                               symbol
	requiredParameter, optionalParameter                                  symbol

	function, constructor, name, left, right, parameter, object, property, args uint16
}

type symbol = uint16

func newShapes(l *ts.Language) *shapes {
	kind := func(name string, named bool) symbol { return l.IdForNodeKind(name, named) }
	field := l.FieldIdForName
	return &shapes{
		identifier: kind("identifier", true), propertyIdentifier: kind("property_identifier", true),
		memberExpression: kind("member_expression", true), arguments: kind("arguments", true),
		str: kind("string", true), imp: kind("import", true),
		accessibility: kind("accessibility_modifier", true), readonly: kind("readonly", false),
		requiredParameter: kind("required_parameter", true), optionalParameter: kind("optional_parameter", true),
		function: field("function"), constructor: field("constructor"), name: field("name"), left: field("left"),
		right: field("right"), parameter: field("parameter"), object: field("object"), property: field("property"),
		args: field("arguments"),
	}
}

// is reports whether n is of kind k (0: a kind the grammar lacks).
func is(n *ts.Node, k symbol) bool { return n != nil && k != 0 && n.KindId() == k }

// wildcard reports whether n matches `(_)`: a named node that is not an
// error.
func wildcard(n *ts.Node) bool { return n != nil && n.IsNamed() && !n.IsError() }

// useKind tells what a use or module statement is.
type useKind uint8

const (
	useCall useKind = iota
	useNew
	useDeclarator
	useAssign
	useFor
	useCatch
	useLambda
	useIdent
	useMember
	modImport
	modExport
	modRequire
	modDynamic
	modAssign
)

// found is one use or module statement with the children its handler
// reads: a and b are the callee, the name, the left and right sides, the
// qualifier and field, the path string, the target and value. at is where
// tree-sitter would report it: the start of the child its pattern ended
// with (order).
type found struct {
	kind useKind
	node ts.Node
	a, b *ts.Node
	at   uint
}

// uses completes the matches of uses.scm, in tree-sitter's order; nodes
// without the children a pattern asked for are left out, as tree-sitter
// would.
func (g *grammar) uses(matches []lang.Match) []found {
	q, s := g.all, g.shapes
	var (
		cCall       = q.Capture("call")
		cNew        = q.Capture("new")
		cDeclarator = q.Capture("declarator")
		cAssign     = q.Capture("assign")
		cFor        = q.Capture("for")
		cCatch      = q.Capture("catch")
		cLambda     = q.Capture("lambda")
		cIdent      = q.Capture("ident")
		cMember     = q.Capture("member")
	)
	out := make([]found, 0, len(matches))
	for i := range matches {
		c := &matches[i].Captures[0]
		n := c.Node
		f := found{node: n, at: n.StartByte()}
		one := func(k useKind, field uint16) bool {
			f.kind, f.a = k, n.ChildByFieldId(field)
			if !wildcard(f.a) {
				return false
			}
			f.at = f.a.StartByte()
			return true
		}
		two := func(k useKind) bool {
			f.kind, f.a, f.b = k, n.ChildByFieldId(s.left), n.ChildByFieldId(s.right)
			if !wildcard(f.a) || !wildcard(f.b) {
				return false
			}
			f.at = f.b.StartByte()
			return true
		}
		ok := true
		switch c.Index {
		case cCall:
			ok = one(useCall, s.function)
		case cNew:
			ok = one(useNew, s.constructor)
		case cDeclarator:
			ok = one(useDeclarator, s.name)
		case cAssign:
			ok = two(useAssign)
		case cFor:
			ok = two(useFor)
		case cCatch:
			ok = one(useCatch, s.parameter)
		case cLambda:
			f.kind = useLambda
		case cIdent:
			f.kind = useIdent
		case cMember:
			f.kind, f.a, f.b = useMember, n.ChildByFieldId(s.object), n.ChildByFieldId(s.property)
			if ok = is(f.a, s.identifier) && is(f.b, s.propertyIdentifier); ok {
				f.at = f.b.StartByte()
			}
		default:
			ok = false
		}
		if ok {
			out = append(out, f)
		}
	}
	return order(out)
}

// modules completes the matches of modules.scm, in tree-sitter's order:
// the calls are those of require('x') and import('x') with one string
// argument, the assignments those to a member.
func (g *grammar) modules(matches []lang.Match, src []byte) []found {
	q, s := g.all, g.shapes
	cImport, cExport, cCall, cAssign := q.Capture("import"), q.Capture("export"), q.Capture("call"), q.Capture("assign")
	out := make([]found, 0, len(matches))
	for i := range matches {
		c := &matches[i].Captures[0]
		n := c.Node
		f := found{node: n, at: n.StartByte()}
		ok := true
		switch c.Index {
		case cImport:
			f.kind = modImport
		case cExport:
			f.kind = modExport
		case cCall:
			fn := n.ChildByFieldId(s.function)
			switch {
			case is(fn, s.identifier) && string(src[fn.StartByte():fn.EndByte()]) == "require":
				f.kind = modRequire
			case is(fn, s.imp):
				f.kind = modDynamic
			default:
				ok = false
			}
			if ok {
				// `arguments: (arguments . (string) .)`: one named child, a
				// string.
				args := n.ChildByFieldId(s.args)
				if ok = is(args, s.arguments) && args.NamedChildCount() == 1; ok {
					f.a = args.NamedChild(0)
					if ok = is(f.a, s.str); ok {
						f.at = f.a.StartByte()
					}
				}
			}
		case cAssign:
			f.kind, f.a, f.b = modAssign, n.ChildByFieldId(s.left), n.ChildByFieldId(s.right)
			if ok = is(f.a, s.memberExpression) && wildcard(f.b); ok {
				f.at = f.b.StartByte()
			}
		default:
			ok = false
		}
		if ok {
			out = append(out, f)
		}
	}
	return order(out)
}

// order puts the found uses (in the walk's order of their own nodes) in
// the order tree-sitter reports the patterns they stand for: each when the
// walk reaches the node its pattern ends with (at), and of several there
// the one that started higher up first. A use waits until the walk reaches
// a node at or after its at; the walk's nodes come in order of their start.
func order(items []found) []found {
	out := make([]found, 0, len(items))
	var held []found // by at, in arrival order among equals
	for _, it := range items {
		start := it.node.StartByte()
		k := 0
		for k < len(held) && held[k].at <= start {
			k++
		}
		out = append(out, held[:k]...)
		held = held[k:]
		if len(held) == 0 && it.at <= start {
			out = append(out, it)
			continue
		}
		j := len(held)
		for j > 0 && held[j-1].at > it.at {
			j--
		}
		held = slices.Insert(held, j, it)
	}
	return append(out, held...)
}

// paramProperties keeps, of the parameter matches of ts_defs.scm, those
// with an accessibility modifier or readonly among their children (the
// other declarations are single nodes as they are).
func (g *grammar) paramProperties(q *lang.Kinds, matches []lang.Match) []lang.Match {
	if !g.typed {
		return matches
	}
	s := g.shapes
	cParam := q.Capture("param.property")
	out := matches[:0]
	for _, m := range matches {
		if m.Captures[0].Index == cParam && !s.modifies(&m.Captures[0].Node) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// modifies reports whether a parameter has an accessibility modifier or
// readonly.
func (s *shapes) modifies(n *ts.Node) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if k := c.KindId(); (k == s.accessibility && c.IsNamed()) || (k == s.readonly && !c.IsNamed()) {
			return true
		}
	}
	return false
}
