package history_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// The fixture history, commit by commit. Each step names what it checks.
const (
	mainV1 = `package main

type Server struct{}

func (s *Server) Handle() {
	greet()
}

func main() {
	greet()
	helper()
}
`
	utilV1 = `package main

func greet() {
	println("hi")
}

func helper() int {
	return 1
}

func unused() {
}
`
)

// buildFixture scripts the fixture repository and returns it with the hash
// of each commit by subject.
// pause, when set, is called after "delete unused", before the merge.
func buildFixture(t *testing.T, pause func(r *scriptRepo)) (*scriptRepo, map[string]string) {
	r := newScriptRepo(t)
	h := map[string]string{}
	r.write(map[string]string{"main.go": mainV1, "util.go": utilV1})
	h["add main and util"] = r.commit("add main and util")

	// An edit inside one function.
	r.write(map[string]string{"util.go": replace(t, utilV1, `println("hi")`, `println("hello")`)})
	h["edit greet"] = r.commit("edit greet")

	// Moving a function to another file.
	util3 := replace(t, replace(t, utilV1, `println("hi")`, `println("hello")`), "func helper() int {\n\treturn 1\n}\n\n", "")
	r.write(map[string]string{"util.go": util3, "helper.go": "package main\n\nfunc helper() int {\n\treturn 1\n}\n"})
	h["move helper to helper.go"] = r.commit("move helper to helper.go")

	// Renaming a file, then editing it.
	r.git("mv", "util.go", "greet.go")
	h["rename util.go to greet.go"] = r.commit("rename util.go to greet.go")
	greet5 := replace(t, util3, `println("hello")`, "println(\"hello\")\n\tprintln(\"again\")")
	r.write(map[string]string{"greet.go": greet5})
	h["edit greet after the rename"] = r.commit("edit greet after the rename")

	// Deleting a function.
	greet6 := replace(t, greet5, "\nfunc unused() {\n}\n", "")
	r.write(map[string]string{"greet.go": greet6})
	h["delete unused"] = r.commit("delete unused")
	if pause != nil {
		pause(r)
	}

	// A branch merged with a merge commit; the main line moves meanwhile.
	r.git("checkout", "-q", "-b", "feature")
	r.write(map[string]string{"greet.go": greet6 + "\nfunc farewell() {\n\tprintln(\"bye\")\n}\n",
		"main.go": replace(t, mainV1, "\thelper()\n", "\thelper()\n\tfarewell()\n")})
	h["add farewell"] = r.commit("add farewell")
	r.git("checkout", "-q", "main")
	r.write(map[string]string{"main.go": replace(t, mainV1, "func (s *Server) Handle() {\n\tgreet()\n", "func (s *Server) Handle() {\n\tgreet()\n\tgreet()\n")})
	h["handle twice"] = r.commit("handle twice")
	r.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	r.tick++
	h["merge feature"] = r.git("rev-parse", "HEAD")

	// A revert.
	r.git("revert", "--no-edit", h["handle twice"])
	r.tick++
	h[`Revert "handle twice"`] = r.git("rev-parse", "HEAD")

	// An empty commit.
	h["nothing"] = r.commit("nothing")

	// A binary file, beside a source edit.
	r.write(map[string]string{"logo.bin": "\x89PNG\r\n\x1a\n\x00\x00\x00\x01binary", "helper.go": "package main\n\nfunc helper() int {\n\treturn 2\n}\n"})
	h["add a logo"] = r.commit("add a logo")

	// A non-ASCII author and message.
	r.write(map[string]string{"helper.go": "package main\n\n// helper sagt Grüße.\nfunc helper() int {\n\treturn 2\n}\n"})
	h["Grüße an 世界"] = r.commit("Grüße an 世界\n\nDer Körper der Nachricht.", "GIT_AUTHOR_NAME=Zoë Ångström", "GIT_AUTHOR_EMAIL=zoe@example.org")

	// More files than the guard (3 in the tests).
	r.write(map[string]string{
		"a.go": "package main\n\nfunc a() {}\n", "b.go": "package main\n\nfunc b() {}\n",
		"c.go": "package main\n\nfunc c() {}\n", "d.go": "package main\n\nfunc d() {}\n"})
	h["add four files"] = r.commit("add four files")
	return r, h
}

func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("fixture: %q not in %q", old, s)
	}
	return strings.Replace(s, old, new, 1)
}

// wantFixture is the history of the fixture, worked out by hand from the
// script above (line counts included).
const wantFixture = `CHANGES "Revert \"handle twice\"" -> Method:main.go:Server.Handle modified +0 -1
CHANGES "add a logo" -> Function:helper.go:helper modified +1 -1
CHANGES "add main and util" -> Function:greet.go:greet added +3 -0
CHANGES "add main and util" -> Function:main.go:main added +4 -0
CHANGES "add main and util" -> HistoricalSymbol:Function:greet.go:helper added +3 -0
CHANGES "add main and util" -> HistoricalSymbol:Function:greet.go:unused added +2 -0
CHANGES "add main and util" -> Method:main.go:Server.Handle added +3 -0
CHANGES "add main and util" -> Struct:main.go:Server added +1 -0
CHANGES "delete unused" -> HistoricalSymbol:Function:greet.go:unused deleted +0 -2
CHANGES "edit greet after the rename" -> Function:greet.go:greet modified +1 -0
CHANGES "edit greet" -> Function:greet.go:greet modified +1 -1
CHANGES "handle twice" -> Method:main.go:Server.Handle modified +1 -0
CHANGES "merge feature" -> Function:greet.go:farewell added +3 -0
CHANGES "merge feature" -> Function:main.go:main modified +1 -0
CHANGES "move helper to helper.go" -> Function:helper.go:helper added +3 -0
CHANGES "move helper to helper.go" -> HistoricalSymbol:Function:greet.go:helper deleted +0 -3
MODIFIES "Grüße an 世界" -> File:helper.go M +1 -0
MODIFIES "Revert \"handle twice\"" -> File:main.go M +0 -1
MODIFIES "add a logo" -> File:helper.go M +1 -1
MODIFIES "add four files" -> File:a.go A +-1 --1
MODIFIES "add four files" -> File:b.go A +-1 --1
MODIFIES "add four files" -> File:c.go A +-1 --1
MODIFIES "add four files" -> File:d.go A +-1 --1
MODIFIES "add main and util" -> File:greet.go A +12 -0
MODIFIES "add main and util" -> File:main.go A +12 -0
MODIFIES "delete unused" -> File:greet.go M +0 -3
MODIFIES "edit greet after the rename" -> File:greet.go M +1 -0
MODIFIES "edit greet" -> File:greet.go M +1 -1
MODIFIES "handle twice" -> File:main.go M +1 -0
MODIFIES "merge feature" -> File:greet.go M +4 -0
MODIFIES "merge feature" -> File:main.go M +1 -0
MODIFIES "move helper to helper.go" -> File:greet.go M +0 -4
MODIFIES "move helper to helper.go" -> File:helper.go A +5 -0
MODIFIES "rename util.go to greet.go" -> File:greet.go R +0 -0 from util.go
PARENT_OF "Grüße an 世界" -> "add four files"
PARENT_OF "Revert \"handle twice\"" -> "nothing"
PARENT_OF "add a logo" -> "Grüße an 世界"
PARENT_OF "add main and util" -> "edit greet"
PARENT_OF "delete unused" -> "handle twice"
PARENT_OF "edit greet after the rename" -> "delete unused"
PARENT_OF "edit greet" -> "move helper to helper.go"
PARENT_OF "handle twice" -> "merge feature"
PARENT_OF "merge feature" -> "Revert \"handle twice\""
PARENT_OF "move helper to helper.go" -> "rename util.go to greet.go"
PARENT_OF "nothing" -> "add a logo"
PARENT_OF "rename util.go to greet.go" -> "edit greet after the rename"
REVERTS "Revert \"handle twice\"" -> "handle twice"
commit "Grüße an 世界" parents=["add a logo"] merge=false
commit "Revert \"handle twice\"" parents=["merge feature"] merge=false
commit "add a logo" parents=["nothing"] merge=false
commit "add four files" parents=["Grüße an 世界"] merge=false symbols-skipped=too-many-files
commit "add main and util" parents=[] merge=false
commit "delete unused" parents=["edit greet after the rename"] merge=false
commit "edit greet after the rename" parents=["rename util.go to greet.go"] merge=false
commit "edit greet" parents=["add main and util"] merge=false
commit "handle twice" parents=["delete unused"] merge=false
commit "merge feature" parents=["handle twice" (not indexed)] merge=true
commit "move helper to helper.go" parents=["edit greet"] merge=false
commit "nothing" parents=["Revert \"handle twice\""] merge=false
commit "rename util.go to greet.go" parents=["move helper to helper.go"] merge=false
historical HistoricalSymbol:Function:greet.go:helper kind=Function name=helper deletedIn="move helper to helper.go"
historical HistoricalSymbol:Function:greet.go:unused kind=Function name=unused deletedIn="delete unused"
unlinked "add a logo" logo.bin A +-1 --1 binary
`

// TestHistoryFixture reads the fixture's history and checks every commit,
// edge and symbol link; what the commits record of their authors; and
// that the code graph at HEAD is the same with and without history.
func TestHistoryFixture(t *testing.T) {
	r, hashes := buildFixture(t, nil)
	res := analyze(t, r.dir, history.Options{MaxCommitFiles: 3}, false)
	if got := describeHistory(res.Graph); got != wantFixture {
		t.Errorf("history:\n%s", lineDiff(wantFixture, got))
	}
	h := res.Graph.History()
	var intl *graph.Commit
	for i := range h.Commits {
		if h.Commits[i].Hash == hashes["Grüße an 世界"] {
			intl = &h.Commits[i]
		}
	}
	if intl == nil {
		t.Fatal("the non-ASCII commit is missing")
	}
	want := graph.Commit{Hash: hashes["Grüße an 世界"], Parents: []string{hashes["add a logo"]},
		AuthorName: "Zoë Ångström", AuthorEmail: "zoe@example.org", AuthoredAt: 1700000000 + 3600*12, AuthorZone: 60,
		CommittedAt: 1700000000 + 3600*12, CommitZone: 60, Subject: "Grüße an 世界",
		Message: "Grüße an 世界\n\nDer Körper der Nachricht.", ShortHashLen: 7}
	if !reflect.DeepEqual(*intl, want) {
		t.Errorf("non-ASCII commit:\n got %+v\nwant %+v", *intl, want)
	}
	if len(h.Commits) != 13 || h.Commits[0].Hash != hashes["add four files"] || h.Settings.Head != hashes["add four files"] {
		t.Errorf("commits are not newest first from HEAD: %d commits, first %s", len(h.Commits), h.Commits[0].Subject)
	}
	st := res.Stats.History
	if st.Commits != 13 || st.Read != 13 || st.Reused != 0 || st.Guarded != 1 || st.Reverts != 1 || st.HistoricalSymbols != 2 {
		t.Errorf("stats: %+v", st)
	}

	bare := analyze(t, r.dir, history.Options{MaxCommitFiles: 3}, false)
	plain, err := ingest.Run(context.Background(), ingest.Options{Root: r.dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := codeGraph(bare.Graph), codeGraph(plain.Graph); got != want {
		t.Errorf("the history changed the code graph:\n%s", lineDiff(want, got))
	}
}

// codeGraph renders the nodes and edges that are not history.
func codeGraph(g *graph.Graph) string {
	var lines []string
	for _, n := range g.Nodes() {
		if !n.Kind.IsHistory() {
			lines = append(lines, n.ID)
		}
	}
	for _, e := range g.Edges() {
		if !e.Type.IsHistory() {
			lines = append(lines, fmt.Sprintf("%s %s %s %s", e.Src, e.Type, e.Dst, e.Reason))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
