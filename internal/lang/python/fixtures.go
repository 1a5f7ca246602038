package python

import (
	"path"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// pytest's fixtures. pytest calls each test (a `test*` function of a test
// module, or a `test*` method of a `Test*` class) and each fixture it
// needs with the parameters filled in by name: a parameter named like a
// fixture visible from the requester holds what that fixture returns, or
// what it first yields (the yielded expression, else the element of a
// declared `Iterator[T]` or `Generator[T, ...]` result). A requests test calls its `httpbin` parameter,
// which the `httpbin` fixture of tests/conftest.py fills with a nested
// function of a helper: the call runs that function.
//
// Visible, nearest first (pytest's own order): the fixtures of the classes
// around the requester (their own and inherited ones), the names of the
// requester's module (definitions and imports: pytest collects fixtures
// from the module's namespace), then conftest.py of the module's directory
// and of each directory above it up to the repository root. A fixture's
// parameter named like the fixture itself requests the fixture it
// overrides, further up. Test modules are pytest's default ones,
// test_*.py and *_test.py.
//
// Left out: parameters with a default, variadic or annotated ones (the
// annotation types them), those a parametrize decorator supplies values
// for (Param.Supplied), fixtures renamed by `@pytest.fixture(name=...)`,
// fixtures of plugins and of `pytest_plugins` modules (outside the
// repository, or loaded by a string: the parameter stays unknown), and
// test modules named otherwise by a pytest configuration.

// InjectedParam is the value of the fixture parameter prm of local symbol
// scope requests, when the repository declares that fixture.
func (r rules) InjectedParam(p *lang.Program, f *lang.File, scope int, prm lang.Param) (lang.Value, graph.Reason) {
	if prm.Optional || prm.Variadic || prm.Supplied || prm.Name == "request" {
		return lang.None(), ""
	}
	syms := f.Facts.Symbols
	if !syms[scope].Kind.IsCallable() || !isFixture(syms[scope].Decorators) && !isTest(f, scope) {
		return lang.None(), ""
	}
	fix := r.findFixture(p, f, scope, prm.Name)
	if fix == lang.NoSym {
		return lang.None(), ""
	}
	fs := p.Sym(fix)
	v := p.CallResult(lang.Ctx{File: fs.File, Scope: fs.Parent, Pos: fs.StartByte}, lang.SymValue(fix), 0)
	if len(fs.Returns) == 1 && yieldsAnnotated(fs.Returns[0]) && v.Elem > 0 {
		// `-> Iterator[Server]`: the fixture yields a Server.
		v.Elem--
	}
	if fs.File == f {
		return v, graph.ReasonSameFile
	}
	return v, graph.ReasonImportResolved
}

// yieldsAnnotated reports whether a result annotation declares a
// generator (Iterator, Generator and their async forms), whose first
// yielded value a fixture gives.
func yieldsAnnotated(text string) bool {
	base, _, ok := strings.Cut(text, "[")
	if !ok {
		return false
	}
	for _, prefix := range typingPrefixes {
		base = strings.TrimPrefix(base, prefix)
	}
	switch strings.TrimSpace(base) {
	case "Iterator", "Generator", "AsyncIterator", "AsyncGenerator":
		return true
	}
	return false
}

// isTest reports whether local symbol scope of f is a test pytest
// collects by default: a function named test* at the top of a test
// module, or a method named so of a class named Test* (nested in such
// classes only).
func isTest(f *lang.File, scope int) bool {
	syms := f.Facts.Symbols
	if !strings.HasPrefix(syms[scope].Name, "test") {
		return false
	}
	base := path.Base(f.Facts.Path)
	if !(strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")) || !strings.HasSuffix(base, ".py") {
		return false
	}
	for a := syms[scope].Parent; a >= 0; a = syms[a].Parent {
		if !syms[a].Kind.IsType() || !strings.HasPrefix(syms[a].Name, "Test") {
			return false
		}
	}
	return true
}

// findFixture is the fixture named name that the requester, local symbol
// scope of f, sees first; NoSym when the repository declares none.
func (r rules) findFixture(p *lang.Program, f *lang.File, scope int, name string) lang.SymID {
	syms := f.Facts.Symbols
	self := f.SymOf(scope)
	for a := syms[scope].Parent; a >= 0; a = syms[a].Parent {
		if !syms[a].Kind.IsType() {
			continue
		}
		ids, _ := p.FindMember(f.SymOf(a), name)
		if id := fixtureOf(p, ids, self); id != lang.NoSym {
			return id
		}
	}
	for _, m := range fixtureModules(p, f) {
		v, _ := r.moduleName(p, m, name)
		if v.Kind != lang.ValSym {
			continue
		}
		if id := fixtureOf(p, append([]lang.SymID{v.Sym}, v.Alts...), self); id != lang.NoSym {
			return id
		}
	}
	return lang.NoSym
}

// fixtureOf is the first of ids that is a fixture other than the
// requester itself (which requests the fixture it overrides).
func fixtureOf(p *lang.Program, ids []lang.SymID, self lang.SymID) lang.SymID {
	for _, id := range ids {
		if s := p.Sym(id); id != self && s.Kind.IsCallable() && isFixture(s.Decorators) {
			return id
		}
	}
	return lang.NoSym
}

// fixtureModules are the files whose fixtures a module sees, nearest
// first: itself, then conftest.py of its directory and of each one above.
func fixtureModules(p *lang.Program, f *lang.File) []*lang.File {
	out := []*lang.File{f}
	for dir := path.Dir(f.Facts.Path); ; dir = path.Dir(dir) {
		name := "conftest.py"
		if dir != "." && dir != "/" {
			name = dir + "/conftest.py"
		}
		if c := p.File(name); c != nil && c != f {
			out = append(out, c)
		}
		if dir == "." || dir == "/" {
			return out
		}
	}
}
