package python

import (
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

const sample = `"""Module docstring."""
import os
from .util import helper as h

# How many times.
MAX_RETRIES = 3
default_name = "x"


@decorate
@app.route("/x")
class Service(Base, mixins.Logged, metaclass=Meta):
    """Serves things.

    At length."""

    kind: str = "svc"

    def __init__(self, name: str, port=80, *args, key: int = 0, **options) -> None:
        self.name = name
        self._port = port

    @staticmethod
    def parse(text, strict=False):
        return text

    @classmethod
    def create(cls):
        return cls("x")

    @property
    def port(self) -> int:
        return self._port

    @port.setter
    def port(self, value):
        self._port = value

    def _private(self):
        def inner(a, b):
            return a
        return inner

    def __repr__(self):
        return self.name

    async def fetch(self, url) -> "Response":
        pass

    class Options:
        pass


def make():
    return Service("a")


def numbers():
    yield 1
    return Service("b")
`

func extractSample(t *testing.T) *lang.FileFacts {
	t.Helper()
	ex, err := Language.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ff, err := ex.Extract("svc/service.py", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	return ff
}

func TestExtractSymbols(t *testing.T) {
	ff := extractSample(t)
	byQual := map[string]*lang.Symbol{}
	for i := range ff.Symbols {
		byQual[ff.Symbols[i].Qual] = &ff.Symbols[i]
	}
	tests := []struct {
		qual  string
		check func(s *lang.Symbol) string
	}{
		{"MAX_RETRIES", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindConst && s.Doc == "How many times." && s.Parent == -1, "const with its comment", s)
		}},
		{"default_name", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindVariable && s.Value != nil && s.Value.Kind == lang.ExprLiteral, "variable with a literal value", s)
		}},
		{"Service", func(s *lang.Symbol) string {
			bases := []lang.Base{{Type: "Base"}, {Type: "mixins.Logged"}}
			return expect(s.Kind == graph.KindClass && s.Doc == "Serves things." && reflect.DeepEqual(s.Bases, bases) &&
				reflect.DeepEqual(s.Decorators, []string{"decorate", "app.route"}) &&
				s.Signature == "class Service(Base, mixins.Logged, metaclass=Meta):" && s.StartLine == 10,
				"class with bases, decorators, doc, header, span from its first decorator", s)
		}},
		{"Service.kind", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindProperty && s.Type == "str", "class attribute", s)
		}},
		{"Service.name", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindProperty && s.Signature == "self.name = name" && s.Exported, "instance attribute", s)
		}},
		{"Service._port", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindProperty && !s.Exported, "private instance attribute", s)
		}},
		{"Service.__init__", func(s *lang.Symbol) string {
			want := []lang.Param{{Name: "name", Type: "str"}, {Name: "port", Optional: true}, {Name: "args", Variadic: true},
				{Name: "key", Type: "int", Optional: true}, {Name: "options", Variadic: true}}
			return expect(s.Kind == graph.KindConstructor && reflect.DeepEqual(s.Params, want) &&
				reflect.DeepEqual(s.Returns, []string{"None"}) && s.Exported,
				"constructor without self, defaults optional, splats variadic", s)
		}},
		{"Service.parse", func(s *lang.Symbol) string {
			return expect(s.Static && len(s.Params) == 2 && s.Params[0].Name == "text" && s.Value != nil,
				"static method keeps its first parameter", s)
		}},
		{"Service.create", func(s *lang.Symbol) string {
			return expect(len(s.Params) == 0 && s.Value != nil && s.Value.Kind == lang.ExprNew && s.Value.Name == "Service",
				"class method: cls() constructs the class", s)
		}},
		{"Service.port", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindMethod && reflect.DeepEqual(s.Decorators, []string{"property"}), "property getter", s)
		}},
		{"Service.port.setter", func(s *lang.Symbol) string {
			return expect(s.Name == "port" && len(s.Params) == 1, "property setter named apart", s)
		}},
		{"Service._private", func(s *lang.Symbol) string {
			return expect(!s.Exported, "private method", s)
		}},
		{"Service._private.inner", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindFunction && len(s.Params) == 2 && s.Parent >= 0, "closure keeps all parameters", s)
		}},
		{"Service.__repr__", func(s *lang.Symbol) string {
			return expect(s.Exported, "dunder methods are exported", s)
		}},
		{"Service.fetch", func(s *lang.Symbol) string {
			return expect(s.Signature == `async def fetch(self, url) -> "Response":` && reflect.DeepEqual(s.Returns, []string{`"Response"`}),
				"async header", s)
		}},
		{"Service.Options", func(s *lang.Symbol) string {
			return expect(s.Kind == graph.KindClass, "nested class", s)
		}},
		{"make", func(s *lang.Symbol) string {
			return expect(s.Value != nil && s.Value.Kind == lang.ExprCall, "returned value recorded", s)
		}},
		{"numbers", func(s *lang.Symbol) string {
			return expect(s.Value == nil, "a generator's return value is not its result", s)
		}},
	}
	for _, tt := range tests {
		s := byQual[tt.qual]
		if s == nil {
			t.Errorf("%s: no symbol", tt.qual)
			continue
		}
		if msg := tt.check(s); msg != "" {
			t.Errorf("%s: %s", tt.qual, msg)
		}
	}
	for i, s := range ff.Symbols {
		if i > 0 && s.StartByte < ff.Symbols[i-1].StartByte {
			t.Errorf("symbol %s is out of document order", s.Qual)
		}
		if s.Parent >= i {
			t.Errorf("symbol %s comes before its parent", s.Qual)
		}
	}
}

func expect(ok bool, what string, s *lang.Symbol) string {
	if ok {
		return ""
	}
	return "want " + what + ", got " + strings.ReplaceAll(describe(s), "\n", " ")
}

func describe(s *lang.Symbol) string {
	var b strings.Builder
	b.WriteString(s.Kind.String() + " " + s.Qual + " sig=" + s.Signature + " doc=" + s.Doc)
	for _, p := range s.Params {
		b.WriteString(" param=" + p.Name + ":" + p.Type)
	}
	return b.String()
}

func TestExtractImportsAndCalls(t *testing.T) {
	ff := extractSample(t)
	wantImports := []lang.Import{
		{Kind: lang.ImportModule, Path: "os", Line: 2, Scope: -1},
		{Kind: lang.ImportName, Path: ".util", Name: "helper", Alias: "h", Line: 3, Scope: -1},
	}
	if !reflect.DeepEqual(ff.Imports, wantImports) {
		t.Errorf("imports: got %+v", ff.Imports)
	}
	have := map[string]bool{}
	for _, c := range ff.Calls {
		caller := "<file>"
		if c.Scope >= 0 {
			caller = ff.Symbols[c.Scope].Qual
		}
		have[caller+" -> "+calleeString(c.Callee)] = true
	}
	for _, want := range []string{
		"<file> -> app.route",           // a decorator call runs in the enclosing scope
		"Service.create -> new Service", // cls() in a class method constructs the class
		"make -> Service",
		"numbers -> Service",
	} {
		if !have[want] {
			t.Errorf("missing call %s; have %v", want, have)
		}
	}
}

func calleeString(e *lang.Expr) string {
	switch e.Kind {
	case lang.ExprIdent:
		return e.Name
	case lang.ExprMember:
		return calleeString(e.X) + "." + e.Name
	case lang.ExprNew:
		return "new " + e.Name
	case lang.ExprSelf:
		return "self"
	}
	return "?"
}
