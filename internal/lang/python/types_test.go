package python

import (
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/lang"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		text string
		want lang.TypeExpr
	}{
		{"Foo", lang.TypeExpr{Path: []string{"Foo"}}},
		{"pkg.mod.Foo", lang.TypeExpr{Path: []string{"pkg", "mod", "Foo"}}},
		{`"Foo"`, lang.TypeExpr{Path: []string{"Foo"}}},
		{"Optional[Foo]", lang.TypeExpr{Path: []string{"Foo"}}},
		{"typing.Optional['Foo']", lang.TypeExpr{Path: []string{"Foo"}}},
		{"Foo | None", lang.TypeExpr{Path: []string{"Foo"}}},
		{"None | Foo", lang.TypeExpr{Path: []string{"Foo"}}},
		{"Union[Foo, None]", lang.TypeExpr{Path: []string{"Foo"}}},
		{"Union[Foo, Bar]", lang.TypeExpr{}},
		{"Foo | Bar", lang.TypeExpr{}},
		{"List[Foo]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"list[Foo]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"Sequence[m.Foo]", lang.TypeExpr{Path: []string{"m", "Foo"}, Elem: 1}},
		{"collections.abc.Iterator[Foo]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"Dict[str, Foo]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"tuple[Foo, ...]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 1}},
		{"Tuple[Foo, Bar]", lang.TypeExpr{}},
		{"List[List[Foo]]", lang.TypeExpr{Path: []string{"Foo"}, Elem: 2}},
		{"Annotated[Foo, 'meta']", lang.TypeExpr{Path: []string{"Foo"}}},
		{"ClassVar[Foo]", lang.TypeExpr{Path: []string{"Foo"}}},
		{"Coroutine[Any, Any, Foo]", lang.TypeExpr{Path: []string{"Foo"}}},
		{"Box[int]", lang.TypeExpr{Path: []string{"Box"}}},
		{"Type[Foo]", lang.TypeExpr{}},
		{"Callable[[int], Foo]", lang.TypeExpr{}},
		{"None", lang.TypeExpr{}},
		{"", lang.TypeExpr{}},
	}
	for _, tt := range tests {
		if got := (rules{}).ParseType(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseType(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}
