package embed

import (
	"slices"
	"testing"
)

func TestSubwords(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"parseHTTPRequest", []string{"parse", "http", "request"}},
		{"get_user_by_id", []string{"get", "user", "id"}},
		{"Entries of the cache", []string{"entry", "cache"}},
		{"items, classes, boxes, status, analysis", []string{"item", "class", "box", "status", "analysis"}},
		{"utf8 x 42 base64Encode", []string{"utf8", "base64", "encode"}},
		{"Ünïcode straße", []string{"ünïcode", "straße"}},
	}
	for _, tc := range cases {
		if got := Subwords(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Subwords(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
