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
		elem uint8
	}{
		{"Foo", []string{"Foo"}, 0},
		{"ns.Foo", []string{"ns", "Foo"}, 0},
		{"Foo<Bar, Baz>", []string{"Foo"}, 0},
		{"Foo[]", []string{"Foo"}, 1},
		{"readonly Foo[]", []string{"Foo"}, 1},
		{"Array<Foo>", []string{"Foo"}, 1},
		{"ReadonlySet<ns.Foo>", []string{"ns", "Foo"}, 1},
		{"Record<string, Foo>", []string{"Foo"}, 1},
		{"Promise<Foo>", []string{"Foo"}, 0},
		{"Promise<Foo[]>", []string{"Foo"}, 1},
		{"Promise<Foo | undefined>", []string{"Foo"}, 0},
		{"Foo | null", []string{"Foo"}, 0},
		{"| Foo | undefined", []string{"Foo"}, 0},
		{"(Foo)", []string{"Foo"}, 0},
		{"Partial<Foo>", []string{"Foo"}, 0},
		{"Map<string, Foo>", []string{"Map"}, 0},
		{"Foo & Bar", nil, 0},
		{"Foo[][]", []string{"Foo"}, 2},
		{"(x: Foo) => Bar", nil, 0},
		{"{ a: Foo }", nil, 0},
		{"[Foo, Bar]", nil, 0},
		{"typeof foo", nil, 0},
		{"keyof Foo", nil, 0},
		{"import('./x').Foo", nil, 0},
		{"'a' | 'b'", nil, 0},
		{"", nil, 0},
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

func TestParseUnionType(t *testing.T) {
	foo, bar := lang.TypeExpr{Path: []string{"Foo"}}, lang.TypeExpr{Path: []string{"ns", "Bar"}}
	for _, tc := range []struct {
		in   string
		want []lang.TypeExpr
	}{
		{"Foo | ns.Bar", []lang.TypeExpr{foo, bar}},
		{"Foo<T> | ns.Bar | null | undefined", []lang.TypeExpr{foo, bar}},
		{"Promise<Foo | ns.Bar>", []lang.TypeExpr{foo, bar}},
		{"| Foo\n| ns.Bar", []lang.TypeExpr{foo, bar}},
		{"(Foo | ns.Bar)[]", nil},
		{"Foo | ns.Bar[]", nil},
		{"Foo | 'a'", nil},
		{"Foo | (() => void)", nil},
	} {
		got := rules{}.ParseType(tc.in)
		want := lang.TypeExpr{Union: tc.want}
		if tc.want == nil {
			want = lang.TypeExpr{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParseType(%q) = %+v, want %+v", tc.in, got, want)
		}
	}
}
