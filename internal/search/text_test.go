package search

import (
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	cases := []struct{ in, want string }{
		{"parseHTTPRequest", "parse http request"},
		{"Fix the order_service: retry on 503", "fix order service retry 503"},
		{"a I x", ""},
		{"Zoë Ünal's café", "zoë ünal café"},
		{"HTTPServer.ServeHTTP", "http server serve http"},
	}
	for _, c := range cases {
		if got := strings.Join(Words(c.in), " "); got != c.want {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCorpusSearch(t *testing.T) {
	docs := [][]string{
		Words("order: retry payment on timeout"),
		Words("docs: typo"),
		Words("payment: refund orders twice refund"),
		Words("order service cleanup"),
	}
	c := NewCorpus(docs)
	got := c.Search(Words("refund payment"), 10)
	var order []int
	for _, s := range got {
		order = append(order, s.Doc)
	}
	if !reflect.DeepEqual(order, []int{2, 0}) {
		t.Errorf("ranking %v, want [2 0] (%v)", order, got)
	}
	if got := c.Search(Words("nothing matches"), 10); len(got) != 0 {
		t.Errorf("unexpected hits %v", got)
	}
	if got := c.Search(Words("order"), 1); len(got) != 1 {
		t.Errorf("k not applied: %v", got)
	}
}

func TestClusterTexts(t *testing.T) {
	msgs := []string{
		"payment: retry refund on timeout",
		"docs: fix typo in readme",
		"payment: refund twice bug",
		"docs: readme install section",
		"payment refund logging",
		"docs: typo",
	}
	docs := make([][]string, len(msgs))
	for i, m := range msgs {
		docs[i] = Words(m)
	}
	groups := ClusterTexts(docs)
	var got [][]int
	for _, g := range groups {
		got = append(got, g.Members)
	}
	want := [][]int{{0, 2, 4}, {1, 3, 5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("groups %v, want %v", got, want)
	}
	if groups[0].Terms[0] != "payment" && groups[0].Terms[0] != "refund" {
		t.Errorf("label of the payment group: %q", groups[0].Label)
	}
	if again := ClusterTexts(docs); !reflect.DeepEqual(again, groups) {
		t.Error("two runs differ")
	}
	if one := ClusterTexts(docs[:2]); len(one) != 1 || len(one[0].Members) != 2 {
		t.Errorf("two documents: %v", one)
	}
	if none := ClusterTexts(nil); none != nil {
		t.Errorf("no documents: %v", none)
	}
}

func TestTerms(t *testing.T) {
	cases := []struct{ in, want string }{
		{"fix loadConfigFile", "fix load config file loadconfigfile"},
		{"retry send_request twice", "retry send request twice send_request"},
		{"HTTPServer.ServeHTTP", "http server serve http httpserver servehttp"},
		{"plain words only", "plain words only"},
		{"__init__ runs", "init runs"},
	}
	for _, c := range cases {
		if got := strings.Join(Terms(c.in), " "); got != c.want {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A question naming the identifier finds the commit that names it
	// before one that only shares its words.
	docs := [][]string{Terms("config: load the file from the user's home"), Terms("fix loadConfigFile on an empty path")}
	if hits := NewCorpus(docs).Search(Terms("loadConfigFile fails"), 2); len(hits) != 2 || hits[0].Doc != 1 {
		t.Errorf("hits %+v, want the commit naming loadConfigFile first", hits)
	}
}
