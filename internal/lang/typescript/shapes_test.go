package typescript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// The patterns with children that shapes.go stands in for, as the query
// had them: the reference the completed matches and their order are
// checked against.
const (
	childModules = `
(import_statement) @import
(export_statement) @export
(call_expression
  function: (identifier) @require.fn
  arguments: (arguments . (string) @require.path .)
  (#eq? @require.fn "require")) @require
(call_expression
  function: (import)
  arguments: (arguments . (string) @require.path .)) @dynamic
(assignment_expression
  left: (member_expression) @assign.target
  right: (_) @assign.value) @assign
`
	childUses = `
(call_expression function: (_) @callee) @call
(new_expression constructor: (_) @callee) @new
(variable_declarator name: (_) @name) @declarator
(assignment_expression left: (_) @left right: (_) @right) @assign
(for_in_statement left: (_) @left right: (_) @right) @for
(catch_clause parameter: (_) @name) @catch
(arrow_function) @lambda
(function_expression) @lambda
(generator_function) @lambda
(method_definition) @lambda
(function_declaration) @lambda
(generator_function_declaration) @lambda
(identifier) @ident
(shorthand_property_identifier) @ident
(member_expression
  object: (identifier) @qualifier
  property: (property_identifier) @field) @member
`
	childParams = `
(required_parameter (accessibility_modifier)) @param.property
(optional_parameter (accessibility_modifier)) @param.property
(required_parameter "readonly") @param.property
(optional_parameter "readonly") @param.property
`
)

// shapeSources are the edge cases of the patterns: anchors around a
// comment, nested and chained assignments, members of members, parameters
// with both modifiers, and broken syntax.
var shapeSources = []string{
	"const a = require('a'), b = require(/* c */ 'b'), c = require('c' /* c */), d = require('d', 'e'), e = require(x)\n" +
		"import('f'); import(/* c */ 'g'); const h = await import(`h`); require.resolve('i')\n",
	"module.exports = require('./x'); exports.y = module.exports.z = function () { return q.r.s }\n" +
		"require('./z').w = 1; exports[k] = 2; a = b = c; x[a = f()] = g(h = 1)\n",
	"for (const [k, v] of Object.entries(o)) { k.v = v } for (k in o) {} for (var i = 0; i < n; i++) {}\n" +
		"try { f() } catch { g() } try {} catch ({ message }) { log(message) } try {} catch (e) { e.x }\n",
	"f()(); new Foo; new (getClass())(); new a.B(c); tag`x${y}z`; this.x = y.z; obj.#p; a?.b; a?.b.c(d)\n",
	"class K extends require('y').Z { constructor(private readonly a: A, readonly b?: B, public c = 1, d) { super(); this.e = d } }\n" +
		"function p(private x) {} const o = { m() { n() }, q: () => r(), s }\n",
	"foo(\nconst = 3\na = \nnew\nrequire(\ncatch {}\nx.\nexport default class { m() { super.m() } }\n",
	"const el = <A onClick={() => f(a.b)} {...p}>{g()}</A>; const [x = h(), ...rest] = arr\n",
}

// TestShapesMatchTheQuery checks that the nodes lang.Kinds finds,
// completed in Go, give the matches, and in the order, that a tree-sitter
// query of the patterns with children gives, over the fixtures and the edge
// cases, in each grammar.
func TestShapesMatchTheQuery(t *testing.T) {
	sources := append([]string(nil), shapeSources...)
	fixtures, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("fixtures: %v (%d)", err, len(fixtures))
	}
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "\n-- ")[1:] {
			if _, body, ok := strings.Cut(part, " --\n"); ok {
				sources = append(sources, body)
			}
		}
	}
	for name, g := range map[string]*grammar{"typescript": tsGrammar(), "tsx": tsxGrammar(), "javascript": jsGrammar()} {
		params := childParams
		if !g.typed {
			params = "(class) @param.property" // JavaScript has no parameter properties; a stand-in part
		}
		ref, bounds := lang.NewQueryParts(g.lang, "reference", params, childModules, childUses)
		defer ref.Close()
		tp, err := lang.NewTreeParser(g.lang)
		if err != nil {
			t.Fatal(err)
		}
		defer tp.Close()
		matched := 0
		for i, src := range sources {
			tree, err := tp.Parse("x", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			root := tree.RootNode()
			want := ref.CollectParts(tp.Cursor, root, []byte(src), bounds...)
			got := g.all.CollectParts(root)
			where := fmt.Sprintf("%s, source %d", name, i)
			if g.typed {
				compareFound(t, "params "+where, refParams(ref, want[0]), g.params(got[0]))
			}
			compareFound(t, "modules "+where, refModules(ref, want[1]), g.modules(got[1], []byte(src)))
			compareFound(t, "uses "+where, refUses(ref, want[2]), g.uses(got[2]))
			matched += len(want[1]) + len(want[2])
			tree.Close()
		}
		if matched == 0 {
			t.Fatal("the reference query matched nothing")
		}
	}
}

// params is paramProperties as found values, to compare with the
// reference's.
func (g *grammar) params(matches []lang.Match) []found {
	cParam := g.all.Capture("param.property")
	var out []found
	for _, m := range g.paramProperties(g.all, matches) {
		if m.Captures[0].Index == cParam {
			out = append(out, found{node: m.Captures[0].Node})
		}
	}
	return out
}

func refParams(q *lang.Query, matches []lang.Match) []found {
	var out []found
	for i := range matches {
		n := matches[i].Node(q.Capture("param.property"))
		if len(out) > 0 && out[len(out)-1].node.Id() == n.Id() {
			continue // both modifiers: one node, as readDefs keeps it
		}
		out = append(out, found{node: *n})
	}
	return out
}

func refModules(q *lang.Query, matches []lang.Match) []found {
	var out []found
	for i := range matches {
		m := &matches[i]
		switch {
		case m.Node(q.Capture("import")) != nil:
			out = append(out, found{kind: modImport, node: *m.Node(q.Capture("import"))})
		case m.Node(q.Capture("export")) != nil:
			out = append(out, found{kind: modExport, node: *m.Node(q.Capture("export"))})
		case m.Node(q.Capture("require")) != nil:
			out = append(out, found{kind: modRequire, node: *m.Node(q.Capture("require")), a: m.Node(q.Capture("require.path"))})
		case m.Node(q.Capture("dynamic")) != nil:
			out = append(out, found{kind: modDynamic, node: *m.Node(q.Capture("dynamic")), a: m.Node(q.Capture("require.path"))})
		case m.Node(q.Capture("assign")) != nil:
			out = append(out, found{kind: modAssign, node: *m.Node(q.Capture("assign")), a: m.Node(q.Capture("assign.target")), b: m.Node(q.Capture("assign.value"))})
		}
	}
	return out
}

func refUses(q *lang.Query, matches []lang.Match) []found {
	var out []found
	c := q.Capture
	for i := range matches {
		m := &matches[i]
		one := func(k useKind, root, a string) found { return found{kind: k, node: *m.Node(c(root)), a: m.Node(c(a))} }
		two := func(k useKind, root, a, b string) found {
			return found{kind: k, node: *m.Node(c(root)), a: m.Node(c(a)), b: m.Node(c(b))}
		}
		switch {
		case m.Node(c("call")) != nil:
			out = append(out, one(useCall, "call", "callee"))
		case m.Node(c("new")) != nil:
			out = append(out, one(useNew, "new", "callee"))
		case m.Node(c("declarator")) != nil:
			out = append(out, one(useDeclarator, "declarator", "name"))
		case m.Node(c("assign")) != nil:
			out = append(out, two(useAssign, "assign", "left", "right"))
		case m.Node(c("for")) != nil:
			out = append(out, two(useFor, "for", "left", "right"))
		case m.Node(c("catch")) != nil:
			out = append(out, one(useCatch, "catch", "name"))
		case m.Node(c("lambda")) != nil:
			out = append(out, found{kind: useLambda, node: *m.Node(c("lambda"))})
		case m.Node(c("member")) != nil:
			out = append(out, two(useMember, "member", "qualifier", "field"))
		case m.Node(c("ident")) != nil:
			out = append(out, found{kind: useIdent, node: *m.Node(c("ident"))})
		}
	}
	return out
}

func compareFound(t *testing.T, where string, want, got []found) {
	t.Helper()
	id := func(n *ts.Node) string {
		if n == nil {
			return "-"
		}
		return fmt.Sprintf("%s@%d-%d", n.Kind(), n.StartByte(), n.EndByte())
	}
	show := func(fs []found) []string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%d %s %s %s", f.kind, id(&f.node), id(f.a), id(f.b)))
		}
		return out
	}
	w, g := show(want), show(got)
	if strings.Join(w, "\n") != strings.Join(g, "\n") {
		t.Errorf("%s: the completed matches differ from the query's\nwant:\n%s\ngot:\n%s", where, strings.Join(w, "\n"), strings.Join(g, "\n"))
	}
}
