package java

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

const extractSource = `package com.ex;

import java.util.*;
import static java.lang.Math.max;

/**
 * Greets people, see {@link Printer#print(String) the printer}.
 * Uses {@code Locale}.
 *
 * <p>Second paragraph.
 * @author nobody
 */
@Deprecated
public abstract class Greeter<T extends Comparable<T>> extends Base<T> implements Runnable, java.io.Serializable {
    /** The limit. */
    public static final int MAX_SIZE = 10;
    protected static int counter, other[];
    private final List<String> names = new ArrayList<>();

    /** Runs.<p>Not this. */
    @Override
    public synchronized <U> U call(final String s, @Nullable int... rest) throws Exception { return null; }

    protected abstract void hook(Map<String, List<T>> m);

    native void raw();

    class Inner {
        void go() {
            Runnable r = new Runnable() { public void run() {} };
        }
    }

    void local() {
        class Helper {}
        Object o = new Object() {};
    }
}

interface Shape extends Comparable<Shape> {
    double area();
    default String label() { return ""; }
    static Shape unit() { return null; }
    int SIDES = 0;
}

enum Color { RED { void f() {} }, GREEN; Color() {} }

record Pair<A>(A first, int second) { Pair { } }

@interface Marker { String value() default ""; }
`

func extractFacts(t *testing.T, src string) *lang.FileFacts {
	t.Helper()
	ex, err := Language.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ff, err := ex.Extract("src/com/ex/Greeter.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return ff
}

func TestExtractSymbols(t *testing.T) {
	ff := extractFacts(t, extractSource)
	if ff.Package != "com.ex" || ff.SyntaxErrors != 0 {
		t.Fatalf("package %q, %d syntax errors", ff.Package, ff.SyntaxErrors)
	}
	byQual := map[string]*lang.Symbol{}
	for i := range ff.Symbols {
		s := &ff.Symbols[i]
		byQual[s.Kind.String()+" "+s.Qual] = s
	}
	tests := []struct {
		key   string
		check func(s *lang.Symbol) bool
		what  string
	}{
		{"Class Greeter", func(s *lang.Symbol) bool {
			return s.Doc == "Greets people, see the printer. Uses Locale." && s.Exported &&
				s.Signature == "public abstract class Greeter<T extends Comparable<T>> extends Base<T> implements Runnable, java.io.Serializable" &&
				reflect.DeepEqual(s.Decorators, []string{"Deprecated"}) &&
				reflect.DeepEqual(s.TypeParams, []lang.Param{{Name: "T", Type: "Comparable<T>"}}) &&
				reflect.DeepEqual(s.Bases, []lang.Base{{Type: "Base<T>", Kind: lang.BaseExtends},
					{Type: "Runnable", Kind: lang.BaseImplements}, {Type: "java.io.Serializable", Kind: lang.BaseImplements}})
		}, "doc, signature, annotations, type parameters, bases"},
		{"Const Greeter.MAX_SIZE", func(s *lang.Symbol) bool {
			return s.Static && s.Exported && s.Type == "int" && s.Doc == "The limit." &&
				s.Signature == "public static final int MAX_SIZE"
		}, "static final UPPER_CASE field is a Const"},
		{"Property Greeter.counter", func(s *lang.Symbol) bool { return s.Static && s.Exported && s.Type == "int" }, "static field"},
		{"Property Greeter.other", func(s *lang.Symbol) bool { return s.Type == "int[]" }, "array declarator"},
		{"Property Greeter.names", func(s *lang.Symbol) bool {
			return !s.Exported && s.Type == "List<String>" && s.Value != nil && s.Value.Kind == lang.ExprNew
		}, "private field with initializer"},
		{"Method Greeter.call", func(s *lang.Symbol) bool {
			return s.Doc == "Runs." && s.Exported && !s.Abstract &&
				s.Signature == "public synchronized <U> U call(final String s, @Nullable int... rest) throws Exception" &&
				reflect.DeepEqual(s.Params, []lang.Param{{Name: "s", Type: "String"}, {Name: "rest", Type: "int...", Variadic: true}}) &&
				reflect.DeepEqual(s.Returns, []string{"U"}) && reflect.DeepEqual(s.TypeParams, []lang.Param{{Name: "U"}}) &&
				reflect.DeepEqual(s.Decorators, []string{"Override"})
		}, "method header, params, varargs, returns"},
		{"Method Greeter.hook", func(s *lang.Symbol) bool {
			return s.Abstract && s.Exported && s.Params[0].Type == "Map<String, List<T>>"
		}, "abstract method"},
		{"Method Greeter.raw", func(s *lang.Symbol) bool { return !s.Abstract && !s.Exported }, "native is not abstract"},
		{"Class Greeter.Inner", func(s *lang.Symbol) bool { return !s.Static && !s.Exported }, "inner class"},
		{"Class Greeter.Inner.$1", func(s *lang.Symbol) bool {
			return s.Name == "Greeter$Inner$1" && s.Signature == "new Runnable()" &&
				reflect.DeepEqual(s.Bases, []lang.Base{{Type: "Runnable", Kind: lang.BaseExtends}})
		}, "anonymous class in an inner class"},
		{"Method Greeter.Inner.$1.run", func(s *lang.Symbol) bool { return s.Exported }, "anonymous class method"},
		{"Class Greeter.local.Helper", func(s *lang.Symbol) bool { return s.Name == "Helper" }, "local class"},
		{"Class Greeter.$1", func(s *lang.Symbol) bool { return s.Name == "Greeter$1" }, "anonymous class numbered per enclosing class"},
		{"Interface Shape", func(s *lang.Symbol) bool {
			return reflect.DeepEqual(s.Bases, []lang.Base{{Type: "Comparable<Shape>", Kind: lang.BaseExtends}})
		}, "interface extends"},
		{"Method Shape.area", func(s *lang.Symbol) bool { return s.Abstract && s.Exported }, "interface method"},
		{"Method Shape.label", func(s *lang.Symbol) bool { return !s.Abstract }, "default method"},
		{"Method Shape.unit", func(s *lang.Symbol) bool { return !s.Abstract && s.Static }, "static interface method"},
		{"Const Shape.SIDES", func(s *lang.Symbol) bool { return s.Static && s.Exported }, "interface constant"},
		{"Enum Color", func(s *lang.Symbol) bool { return s.Kind == graph.KindEnum }, "enum"},
		{"Const Color.RED", func(s *lang.Symbol) bool { return s.Type == "Color" && s.Static }, "enum constant"},
		{"Class Color.$1", func(s *lang.Symbol) bool {
			return s.Name == "Color$1" && reflect.DeepEqual(s.Bases, []lang.Base{{Type: "Color", Kind: lang.BaseExtends}})
		}, "enum constant body"},
		{"Constructor Color.Color", func(s *lang.Symbol) bool { return s.Name == "Color" }, "enum constructor"},
		{"Class Pair", func(s *lang.Symbol) bool { return s.Static == false && len(s.TypeParams) == 1 }, "record"},
		{"Property Pair.first", func(s *lang.Symbol) bool { return s.Type == "A" }, "record component"},
		{"Constructor Pair.Pair", func(s *lang.Symbol) bool {
			return reflect.DeepEqual(s.Params, []lang.Param{{Name: "first", Type: "A"}, {Name: "second", Type: "int"}})
		}, "compact constructor takes the components"},
		{"Interface Marker", func(s *lang.Symbol) bool { return true }, "annotation type"},
		{"Method Marker.value", func(s *lang.Symbol) bool { return s.Abstract && s.Returns[0] == "String" }, "annotation element"},
	}
	for _, tt := range tests {
		s := byQual[tt.key]
		if s == nil {
			t.Errorf("%s: no symbol %q", tt.what, tt.key)
			continue
		}
		if !tt.check(s) {
			t.Errorf("%s: symbol %q is %+v", tt.what, tt.key, *s)
		}
	}
	for i, s := range ff.Symbols {
		if i > 0 && s.StartByte < ff.Symbols[i-1].StartByte {
			t.Errorf("symbol %s starts before the previous one: symbols must be in document order", s.Qual)
		}
		if s.Parent >= i {
			t.Errorf("symbol %s has parent %d after it", s.Qual, s.Parent)
		}
	}
	wantImports := []lang.Import{
		{Kind: lang.ImportWildcard, Path: "java.util", Line: 3, Scope: -1},
		{Kind: lang.ImportName, Path: "java.lang.Math", Name: "max", Static: true, Line: 4, Scope: -1},
	}
	if !reflect.DeepEqual(ff.Imports, wantImports) {
		t.Errorf("imports = %+v, want %+v", ff.Imports, wantImports)
	}
}

func TestJavadocSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/** One line. */", "One line."},
		{"/**\n * First {@code x} and {@link Foo#bar}.\n * More.\n *\n * Next.\n */", "First x and Foo.bar. More."},
		{"/** Summary.<p>Body.</p> */", "Summary."},
		{"/**\n * @param x nothing\n */", ""},
		{"/** A &lt;b&gt; <b>bold</b> {@inheritDoc} */", "A <b> bold"},
	}
	for _, tt := range tests {
		if got := javadocSummary(tt.in); got != tt.want {
			t.Errorf("javadocSummary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		in   string
		want lang.TypeExpr
	}{
		{"List<Foo>", lang.TypeExpr{Path: []string{"List"}}},
		{"java.util.Map.Entry<K, V>", lang.TypeExpr{Path: []string{"java", "util", "Map", "Entry"}}},
		{"Outer<String>.Inner", lang.TypeExpr{Path: []string{"Outer", "Inner"}}},
		{"Foo[]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"Foo...", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"@Nullable Foo", lang.TypeExpr{Path: []string{"Foo"}}},
		{"int", lang.TypeExpr{Path: []string{"int"}}},
		{"int[]", lang.TypeExpr{Path: []string{"int"}, Elem: 1}},
		{"Foo[][]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 2}},
		{"void", lang.TypeExpr{}},
		{"? extends Foo", lang.TypeExpr{}},
	}
	for _, tt := range tests {
		if got := (rules{}).ParseType(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseType(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
