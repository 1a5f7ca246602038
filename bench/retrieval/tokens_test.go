//go:build sqlite_fts5

package main

import (
	"math"
	"reflect"
	"testing"

	"gitnexus.dev/gitnexus/internal/memgraph"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"parseHTTPRequest", []string{"parse", "http", "request", "parsehttprequest"}},
		{"get_user_by_id", []string{"get", "user", "id", "get_user_by_id"}}, // by: a stop word
		{"__init__", []string{"init"}},                                      // one part: not repeated whole
		{"_private_name", []string{"name", "private_name"}},                 // private alone is a keyword
		{"Fix the race in Raft.runSnapshots", []string{"fix", "race", "raft", "run", "snapshots", "runsnapshots"}},
		{"func (r *Raft) Apply() error { return nil }", []string{"raft", "apply", "error"}},
		{"base64Encode utf8 x 42 7", []string{"base64", "encode", "base64encode", "utf8", "42"}},
		{"HTTP2Server", []string{"http2", "server", "http2server"}},
		{"self.send(request)", []string{"send", "request"}},
		{"Ünïcode straße", []string{"ünïcode", "straße"}},
		{"", nil},
	}
	for _, tc := range cases {
		if got := tokens(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestCutNames(t *testing.T) {
	names := cutSet([]string{"send", "Client.send", "empty?"})
	cases := []struct{ text, want string }{
		{"Fix send for Client", "Fix  for "},
		{"Client.send() and client::SEND", ".() and ::"},
		{"send_request, sendRequest and resend stay", "send_request, sendRequest and resend stay"},
		{"empty? is now true", "? is now true"},
		{"nothing to cut", "nothing to cut"},
	}
	for _, tc := range cases {
		if got := cutNames(tc.text, names); got != tc.want {
			t.Errorf("cutNames(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestBM25Index(t *testing.T) {
	docs := [][]string{
		{"snapshot", "restore", "snapshot"},
		{"apply", "log"},
		{"snapshot", "install", "peer", "log", "log", "log"},
	}
	x := newBM25Index([]memgraph.NodeID{10, 11, 12}, docs)
	// N = 3, average length 11/3; snapshot: df 2, idf ln 1.6. Computed by
	// hand from the Okapi formula with k1 = 1.2, b = 0.75.
	cases := []struct {
		query []string
		want  []scoredDoc
	}{
		{[]string{"snapshot"}, []scoredDoc{{0, 0.68108}, {2, 0.37292}}},
		// A repeated query token counts once; an unknown one adds nothing.
		// The longer document wins log by holding it three times.
		{[]string{"log", "log", "nowhere"}, []scoredDoc{{2, 0.64995}, {1, 0.57736}}},
		{[]string{"snapshot", "log"}, []scoredDoc{{2, 0.37292 + 0.64995}, {0, 0.68108}, {1, 0.57736}}},
		{[]string{"nowhere"}, []scoredDoc{}},
	}
	for _, tc := range cases {
		got := x.scores(tc.query)
		if len(got) != len(tc.want) {
			t.Errorf("scores(%q) = %v, want %v", tc.query, got, tc.want)
			continue
		}
		for i := range got {
			if got[i].doc != tc.want[i].doc || math.Abs(got[i].score-tc.want[i].score) > 1e-4 {
				t.Errorf("scores(%q) = %v, want %v", tc.query, got, tc.want)
				break
			}
		}
	}
	if got := x.search([]string{"snapshot", "log"}, 2); !reflect.DeepEqual(got, []memgraph.NodeID{12, 10}) {
		t.Errorf("search(snapshot log, 2) = %v, want [12 10]", got)
	}
}
