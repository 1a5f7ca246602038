package python

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// What extraction records for pytest's fixtures (fixtures.go resolves
// them): the parameters a `pytest.mark.parametrize` decorator supplies
// values for, which request no fixture, and the value a yield fixture
// yields, which is what its requesters receive.

// suppliedNames is what the parametrize decorators of one definition
// supply: the parameter names listed, or every parameter (all) when a
// list of names is not written as string literals.
type suppliedNames struct {
	names map[string]bool
	all   bool
}

func (s suppliedNames) has(name string) bool { return s.all || s.names[name] }

// with is s and o together.
func (s suppliedNames) with(o suppliedNames) suppliedNames {
	if len(o.names) == 0 {
		return suppliedNames{names: s.names, all: s.all || o.all}
	}
	names := make(map[string]bool, len(s.names)+len(o.names))
	for n := range s.names {
		names[n] = true
	}
	for n := range o.names {
		names[n] = true
	}
	return suppliedNames{names: names, all: s.all || o.all}
}

// supplied reads the parametrize decorators of a decorated definition:
// `@pytest.mark.parametrize("a, b", ...)`, `(("a", "b"), ...)`,
// `(argnames=[...], ...)`. A decorator with `indirect=` hands its values
// to the fixtures of those names, which then are requested: it supplies
// nothing.
func (x *extraction) supplied(decorated *ts.Node) suppliedNames {
	var out suppliedNames
	if decorated == nil {
		return out
	}
	for i := uint(0); i < decorated.NamedChildCount(); i++ {
		d := decorated.NamedChild(i)
		if d.Kind() != "decorator" || d.NamedChildCount() == 0 {
			continue
		}
		call := d.NamedChild(0)
		if call.Kind() != "call" {
			continue
		}
		fn := call.ChildByFieldName("function")
		if fn == nil || !hasDecorator([]string{lang.OneLine(x.text(fn))}, "parametrize") {
			continue
		}
		args := call.ChildByFieldName("arguments")
		if args == nil {
			continue
		}
		var names *ts.Node
		indirect := false
		for j := uint(0); j < args.NamedChildCount(); j++ {
			a := args.NamedChild(j)
			if a.Kind() == "keyword_argument" {
				switch x.text(a.ChildByFieldName("name")) {
				case "argnames":
					names = a.ChildByFieldName("value")
				case "indirect":
					indirect = x.text(a.ChildByFieldName("value")) != "False"
				}
				continue
			}
			if names == nil && j == 0 {
				names = a
			}
		}
		if indirect {
			continue
		}
		list, ok := x.stringNames(names)
		if !ok {
			out.all = true
			continue
		}
		if out.names == nil {
			out.names = map[string]bool{}
		}
		for _, n := range list {
			out.names[n] = true
		}
	}
	return out
}

// stringNames reads parametrize's argument names: one string of names
// separated by commas, or a list or tuple of strings.
func (x *extraction) stringNames(n *ts.Node) ([]string, bool) {
	if n == nil {
		return nil, false
	}
	switch n.Kind() {
	case "string":
		lit, ok := x.plainString(n)
		if !ok {
			return nil, false
		}
		var out []string
		for _, part := range strings.Split(lit, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		return out, true
	case "list", "tuple":
		var out []string
		for i := uint(0); i < n.NamedChildCount(); i++ {
			lit, ok := x.plainString(n.NamedChild(i))
			if !ok {
				return nil, false
			}
			out = append(out, strings.TrimSpace(lit))
		}
		return out, true
	}
	return nil, false
}

// plainString is the content of a string literal without interpolation.
func (x *extraction) plainString(n *ts.Node) (string, bool) {
	if n == nil || n.Kind() != "string" {
		return "", false
	}
	var b strings.Builder
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "string_start", "string_end":
		case "string_content":
			b.WriteString(x.text(c))
		default:
			return "", false // an f-string's interpolation, an escape
		}
	}
	return b.String(), true
}

// isFixture reports whether decorators make a function a pytest fixture
// (`@pytest.fixture`, `@pytest.fixture(scope=...)`, `@fixture`,
// pytest-asyncio's `@pytest_asyncio.fixture`, the old `yield_fixture`).
func isFixture(decorators []string) bool {
	return hasDecorator(decorators, "fixture") || hasDecorator(decorators, "yield_fixture")
}

// addYield records the value the first `yield` of a fixture yields as
// what the fixture gives (its requesters receive it, not a generator).
func (x *extraction) addYield(y *ts.Node, scope int) {
	s := &x.facts.Symbols[scope]
	if s.Value != nil || len(s.Returns) > 0 || !isFixture(s.Decorators) || y.NamedChildCount() == 0 {
		return
	}
	if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(x.text(y), "yield")), "from") {
		return // `yield from`: values of another iterable
	}
	if e := x.expr(y.NamedChild(0), scope); typeable(e) {
		s.Value = e
	}
}
