package lang

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestMentionsHashed: a file read back from the cache's form answers
// whether it mentions a name of the set from its hashes, as the facts
// themselves answer it: for names it mentions (whole, as an identifier
// run, folded for PHP), names it does not, and sets short and long enough
// to take either way through the hashes.
func TestMentionsHashed(t *testing.T) {
	full := &FileFacts{Language: "go"}
	(&filler{}).fill(reflect.ValueOf(full).Elem(), 0)
	full.Language = "go"
	// Strings with identifier runs, and names that only a case-folding
	// language finds.
	full.Symbols[0].Type = "map[pkg.Key][]*Value"
	full.Calls[0].Callee = &Expr{Kind: ExprMember, Name: "Do", X: &Expr{Kind: ExprIdent, Name: "client"},
		Args: []*Expr{{Kind: ExprIdent, Name: "argName"}}}
	full.Imports[0].Path = "net/http"
	php := &FileFacts{Language: "php", Path: "a.php",
		Symbols: []Symbol{{Name: "f", Kind: full.Symbols[0].Kind, Parent: -1, Type: `App\Models\User`}},
		Calls:   []Call{{Scope: -1, Callee: &Expr{Kind: ExprIdent, Name: "StrToUpper"}}}}
	var mentioned []string
	eachMention(full, func(s string) bool {
		if s != "" {
			mentioned = append(mentioned, s)
		}
		return false
	})
	if len(mentioned) < 40 {
		t.Fatalf("the filled facts mention only %d names", len(mentioned))
	}
	var absent []string
	for i := range 200 {
		absent = append(absent, fmt.Sprintf("absentName%d", i))
	}
	tests := []struct {
		name  string
		f     *FileFacts
		names []string
		want  bool
	}{
		{"a whole name", full, []string{mentioned[len(mentioned)/2]}, true},
		{"an identifier run of a type", full, []string{"Key"}, true},
		{"the package of a type", full, []string{"pkg"}, true},
		{"a receiver of a call", full, []string{"client"}, true},
		{"an argument of a callee", full, []string{"argName"}, true},
		{"a path run of an import", full, []string{"http"}, true},
		{"a whole type with runs", full, []string{"map[pkg.Key][]*Value"}, true},
		{"a name it does not mention", full, []string{"Missing"}, false},
		{"case matters outside PHP", full, []string{"key"}, false},
		{"many names, none mentioned", full, absent, false},
		{"many names, one mentioned", full, append(absent[:100:100], "Value"), true},
		{"PHP folds a call's name", php, []string{"strtoupper"}, true},
		{"PHP folds a namespace run", php, []string{"models"}, true},
		{"PHP, a name it does not mention", php, []string{"views"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := DecodeFactsShared(AppendFacts(nil, tc.f))
			if err != nil {
				t.Fatal(err)
			}
			if got.lazy == nil || !got.lazy.hashed {
				t.Fatal("the shared decoding kept no hashes")
			}
			a := &affectedSet{names: map[string]bool{}, fold: tc.f.Language == "php"}
			for _, n := range tc.names {
				a.add(n)
			}
			ref := eachMention(tc.f, a.has)
			if ref != tc.want {
				t.Fatalf("the facts say %v, want %v", ref, tc.want)
			}
			if got.Calls != nil {
				t.Fatal("the calls were decoded before they were asked for")
			}
			if m := a.mentionsFile(got); m != tc.want {
				t.Errorf("the hashes say %v, want %v", m, tc.want)
			}
			if got.Calls != nil {
				t.Error("answering from the hashes decoded the calls")
			}
			// Without the hashes (facts decoded whole), the facts answer.
			whole, _, err := DecodeFacts(AppendFacts(nil, tc.f))
			if err != nil {
				t.Fatal(err)
			}
			if m := a.mentionsFile(whole); m != tc.want {
				t.Errorf("the decoded facts say %v, want %v", m, tc.want)
			}
		})
	}
	// Every name the facts mention, one set each, is found through the
	// hashes, and so are its identifier runs.
	got, _, err := DecodeFactsShared(AppendFacts(nil, full))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range mentioned {
		names := []string{s}
		eachRun(s, func(r string) { names = append(names, r) })
		for _, n := range names {
			a := &affectedSet{names: map[string]bool{n: true}}
			if !a.mentionsFile(got) {
				t.Errorf("%q (of %q) is not found through the hashes", n, s)
			}
		}
	}
	if strings.Contains(fmt.Sprint(mentioned), "absentName") {
		t.Fatal("the absent names are mentioned")
	}
}
