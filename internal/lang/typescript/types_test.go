package typescript

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		path []string
		elem bool
	}{
		{"Foo", []string{"Foo"}, false},
		{"ns.Foo", []string{"ns", "Foo"}, false},
		{"Foo<Bar, Baz>", []string{"Foo"}, false},
		{"Foo[]", []string{"Foo"}, true},
		{"readonly Foo[]", []string{"Foo"}, true},
		{"Array<Foo>", []string{"Foo"}, true},
		{"ReadonlySet<ns.Foo>", []string{"ns", "Foo"}, true},
		{"Record<string, Foo>", []string{"Foo"}, true},
		{"Promise<Foo>", []string{"Foo"}, false},
		{"Promise<Foo[]>", []string{"Foo"}, true},
		{"Promise<Foo | undefined>", []string{"Foo"}, false},
		{"Foo | null", []string{"Foo"}, false},
		{"| Foo | undefined", []string{"Foo"}, false},
		{"(Foo)", []string{"Foo"}, false},
		{"Partial<Foo>", []string{"Foo"}, false},
		{"Map<string, Foo>", []string{"Map"}, false},
		{"Foo | Bar", nil, false},
		{"Foo & Bar", nil, false},
		{"Foo[][]", nil, false},
		{"(x: Foo) => Bar", nil, false},
		{"{ a: Foo }", nil, false},
		{"[Foo, Bar]", nil, false},
		{"typeof foo", nil, false},
		{"keyof Foo", nil, false},
		{"import('./x').Foo", nil, false},
		{"'a' | 'b'", nil, false},
		{"", nil, false},
	} {
		got := rules{}.ParseType(tc.in)
		want := lang.TypeExpr{Path: tc.path, Elem: tc.elem}
		if tc.path == nil {
			want = lang.TypeExpr{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParseType(%q) = %+v, want %+v", tc.in, got, want)
		}
	}
}
