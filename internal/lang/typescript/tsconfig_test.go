package typescript

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a":1}`},
		{"{\n // comment\n \"a\": 1, // trailing\n}", `{"a":1}`},
		{`{"a": [1, 2,], /* c */ "b": "x // not a comment",}`, `{"a":[1,2],"b":"x // not a comment"}`},
		{`{"a": "quote \" /* still */ string"}`, `{"a":"quote \" /* still */ string"}`},
		{"{\"a\": {\"b\": 1,\n /* last */ },\n}", `{"a":{"b":1}}`},
	} {
		var v any
		if err := json.Unmarshal(stripJSONC([]byte(tc.in)), &v); err != nil {
			t.Errorf("stripJSONC(%q): %v", tc.in, err)
			continue
		}
		got, _ := json.Marshal(v)
		var w any
		_ = json.Unmarshal([]byte(tc.want), &w)
		want, _ := json.Marshal(w)
		if string(got) != string(want) {
			t.Errorf("stripJSONC(%q) = %s, want %s", tc.in, got, want)
		}
	}
}

func TestPathRules(t *testing.T) {
	rules := pathRules(map[string][]string{
		"@app/*":      {"app/*", "fallback/*"},
		"@app/core/*": {"core/*"},
		"@lib":        {"lib/index.ts"},
		"*":           {"types/*"},
	}, "src")
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{"@lib", []string{"src/lib/index.ts"}},
		{"@app/core/x", []string{"src/core/x"}},
		{"@app/y", []string{"src/app/y", "src/fallback/y"}},
		{"other", []string{"src/types/other"}},
	} {
		var got []string
		for _, r := range rules {
			if c, ok := r.match(tc.spec); ok {
				got = c
				break
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.spec, got, tc.want)
		}
	}
}

func TestSplitPackageSpecifier(t *testing.T) {
	for _, tc := range []struct{ in, name, sub string }{
		{"react", "react", ""},
		{"react-dom/client", "react-dom", "client"},
		{"@acme/util", "@acme/util", ""},
		{"@acme/util/strings/case", "@acme/util", "strings/case"},
		{"@acme", "@acme", ""},
	} {
		name, sub := splitPackageSpecifier(tc.in)
		if name != tc.name || sub != tc.sub {
			t.Errorf("splitPackageSpecifier(%q) = %q, %q; want %q, %q", tc.in, name, sub, tc.name, tc.sub)
		}
	}
}
