package cli

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseParamValue(t *testing.T) {
	cases := []struct {
		raw  string
		want any
	}{
		{"3", json.Number("3")},
		{"1.5", json.Number("1.5")},
		{"true", true},
		{"null", nil},
		{`["a", 2]`, []any{"a", json.Number("2")}},
		{`{"k": [1]}`, map[string]any{"k": []any{json.Number("1")}}},
		{`"quoted"`, "quoted"},
		{"Place", "Place"},
		{"3 4", "3 4"},
		{"[1", "[1"},
		{"", ""},
	}
	for _, c := range cases {
		if got := parseParamValue(c.raw); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseParamValue(%q) = %#v, want %#v", c.raw, got, c.want)
		}
	}
	if _, err := parseParams([]string{"=1"}); err == nil {
		t.Error("a parameter without a name must be refused")
	}
	if p, err := parseParams([]string{"$n=1", "s=a=b"}); err != nil || p["n"] != json.Number("1") || p["s"] != "a=b" {
		t.Errorf("parseParams = %v, %v", p, err)
	}
}
