package lang

import (
	"fmt"
	"strings"
	"testing"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// TestDefineInterfaces checks that a defined language implements the
// optional interfaces its spec asks for and no other, and that Prepare
// compiles the queries once.
func TestDefineInterfaces(t *testing.T) {
	compiles := 0
	compile := func(*ts.Language) int { compiles++; return compiles }
	grammar := func() *ts.Language { return nil }
	claims := func(string, []byte) bool { return true }
	numberedName := func(string) bool { return true }
	tests := []struct {
		spec Spec[int]
		want string
	}{
		{Spec[int]{}, ""},
		{Spec[int]{Compile: compile}, "Preparer"},
		{Spec[int]{StandAlone: true}, "StandAlone"},
		{Spec[int]{Compile: compile, StandAlone: true}, "Preparer StandAlone"},
		{Spec[int]{Compile: compile, StandAlone: true, MemberBodies: []string{"body"}}, "Preparer StandAlone MemberBodies"},
		{Spec[int]{Compile: compile, StandAlone: true, MemberBodies: []string{"body"}, NumberedName: numberedName},
			"Preparer StandAlone MemberBodies Numbered"},
		{Spec[int]{ClaimsContent: claims}, "ContentClaimer"},
	}
	for _, tt := range tests {
		tt.spec.Name, tt.spec.Grammar = "test", grammar
		l := newDefined(tt.spec)
		if got := implemented(l); got != tt.want {
			t.Errorf("%+v: implements %q, want %q", tt.spec, got, tt.want)
		}
		if p, ok := l.(Preparer); ok {
			before := compiles
			p.Prepare("a.x")
			p.Prepare("b.x")
			if compiles != before+1 {
				t.Errorf("%q: Prepare twice compiled %d times, want once", tt.want, compiles-before)
			}
		}
	}
}

// TestDefineRejectsUnknownClaims: a combination of claims no language
// type has is a programming error.
func TestDefineRejectsUnknownClaims(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "test") {
			t.Errorf("recovered %v, want a panic naming the language", r)
		}
	}()
	newDefined(Spec[int]{Name: "test", StandAlone: true, MemberBodies: []string{"body"}})
}

func implemented(l Language) string {
	var out []string
	if _, ok := l.(Preparer); ok {
		out = append(out, "Preparer")
	}
	if _, ok := l.(StandAlone); ok {
		out = append(out, "StandAlone")
	}
	if _, ok := l.(MemberBodies); ok {
		out = append(out, "MemberBodies")
	}
	if _, ok := l.(Numbered); ok {
		out = append(out, "Numbered")
	}
	if _, ok := l.(ContentClaimer); ok {
		out = append(out, "ContentClaimer")
	}
	if _, ok := l.(StandAloneTree); ok {
		out = append(out, "StandAloneTree")
	}
	if _, ok := l.(MemberBodyChecker); ok {
		out = append(out, "MemberBodyChecker")
	}
	return strings.Join(out, " ")
}
