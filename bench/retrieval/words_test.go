//go:build sqlite_fts5

package main

import "testing"

func TestCountWords(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"parseHTTPRequest", 3},          // parse, HTTP, Request
		{"get_user_by_id", 3},            // get, user, id
		{"Fix the race in the cache", 3}, // fix, race, cache
		{"utf8 x 42 base64Encode", 3},    // utf8, base64, Encode
		{"Bump version to 1.2.3", 2},     // bump, version
		{"Ünïcode straße", 2},
	}
	for _, tc := range cases {
		if got := countWords(tc.text); got != tc.want {
			t.Errorf("countWords(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
