package history_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// storeIndex writes an analysis as the repository's index.
func storeIndex(t *testing.T, root string, res *ingest.Result) {
	t.Helper()
	if _, err := store.Write(context.Background(), root, res.Graph, store.Meta{RepoPath: root, IndexedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
}

// sameHistory fails when two histories differ in any record (their
// stored bytes and the history they started from aside).
func sameHistory(t *testing.T, what string, got, want *graph.History) {
	t.Helper()
	g, w := *got, *want
	g.Encoded, w.Encoded = nil, nil
	g.Base, w.Base = nil, nil
	if reflect.DeepEqual(&g, &w) {
		return
	}
	t.Errorf("%s: the history differs from a full read", what)
	for i := 0; i < max(len(got.Commits), len(want.Commits)); i++ {
		if i >= len(got.Commits) || i >= len(want.Commits) {
			t.Errorf("%d commits, want %d", len(got.Commits), len(want.Commits))
			break
		}
		if !reflect.DeepEqual(got.Commits[i], want.Commits[i]) {
			t.Errorf("first differing commit %d:\n got %+v\nwant %+v", i, got.Commits[i], want.Commits[i])
			break
		}
	}
	if !reflect.DeepEqual(got.Files, want.Files) {
		t.Errorf("file records differ:\n got %+v\nwant %+v", got.Files, want.Files)
	}
	if !reflect.DeepEqual(got.Symbols, want.Symbols) {
		t.Errorf("symbol records differ:\n got %+v\nwant %+v", got.Symbols, want.Symbols)
	}
	if !reflect.DeepEqual(got.Removed, want.Removed) || got.Settings != want.Settings {
		t.Errorf("removed or settings differ:\n got %+v %+v\nwant %+v %+v", got.Removed, got.Settings, want.Removed, want.Settings)
	}
}

// TestIncrementalHistory indexes the fixture half-way, finishes it, and
// checks that a second analyze reads only the new commits and ends with
// the history a full read gives; then rewrites the history (reset, amend,
// new commit) and checks that this is noticed and read again.
func TestIncrementalHistory(t *testing.T) {
	opt := history.Options{MaxCommitFiles: 3}
	r, _ := buildFixture(t, func(r *scriptRepo) {
		storeIndex(t, r.dir, analyze(t, r.dir, opt, false))
	})
	res := analyze(t, r.dir, opt, true)
	st := res.Stats.History
	if st.Reused != 6 || st.Read != 7 || st.Dropped != 0 || st.Rewritten || st.Previous != "" || st.List != "previous+new" {
		t.Errorf("second analyze: reused %d, read %d, dropped %d, rewritten %v (%s), list %q; want 6, 7, 0, false, previous+new",
			st.Reused, st.Read, st.Dropped, st.Rewritten, st.Previous, st.List)
	}
	if got := describeHistory(res.Graph); got != wantFixture {
		t.Errorf("incremental history:\n%s", lineDiff(wantFixture, got))
	}
	sameHistory(t, "incremental", res.Graph.History(), analyze(t, r.dir, opt, false).Graph.History())
	if res.Graph.History().Encoded != nil {
		t.Error("new commits were read, yet the history says it is stored as it is")
	}
	storeIndex(t, r.dir, res)

	// Nothing new: everything is reused.
	again := analyze(t, r.dir, opt, true)
	if s := again.Stats.History; s.Reused != 13 || s.Read != 0 || s.List != "previous" {
		t.Errorf("third analyze: reused %d, read %d, list %q; want 13, 0, previous", s.Reused, s.Read, s.List)
	}
	sameHistory(t, "unchanged", again.Graph.History(), res.Graph.History())
	if again.Graph.History().Encoded == nil {
		t.Error("nothing changed, yet the history does not carry the index's stored bytes")
	}

	// Another guard: nothing can be reused, and the stats say why.
	other := analyze(t, r.dir, history.Options{MaxCommitFiles: 4}, true)
	if s := other.Stats.History; s.Reused != 0 || s.Read != 13 || !strings.Contains(s.Reason, "--max-commit-files") {
		t.Errorf("other guard: reused %d, read %d, reason %q", s.Reused, s.Read, s.Reason)
	}

	// Rewrite: drop the last commit, amend the one before, add another.
	r.git("reset", "-q", "--hard", "HEAD~1")
	r.gitEnv(r.env(), "commit", "-q", "--amend", "-m", "Grüße, amended")
	r.tick++
	r.write(map[string]string{"e.go": "package main\n\nfunc e() {\n\thelper()\n}\n"})
	r.commit("add e")
	rewritten := analyze(t, r.dir, opt, true)
	rs := rewritten.Stats.History
	if !rs.Rewritten || rs.Dropped != 2 || rs.Read != 2 || rs.Reused != 11 || rs.List != "git" {
		t.Errorf("rewritten history: rewritten %v, dropped %d, read %d, reused %d, list %q; want true, 2, 2, 11, git",
			rs.Rewritten, rs.Dropped, rs.Read, rs.Reused, rs.List)
	}
	fresh := analyze(t, r.dir, opt, false)
	sameHistory(t, "rewritten", rewritten.Graph.History(), fresh.Graph.History())
	desc := describeHistory(rewritten.Graph)
	for _, gone := range []string{`"add four files"`, `"Grüße an 世界"`} {
		if strings.Contains(desc, gone) {
			t.Errorf("the rewritten history still has %s", gone)
		}
	}
	for _, line := range []string{`CHANGES "add e" -> Function:e.go:e added +3 -0`, `MODIFIES "Grüße, amended" -> File:helper.go M +1 -0`,
		`PARENT_OF "add a logo" -> "Grüße, amended"`} {
		if !strings.Contains(desc, line+"\n") {
			t.Errorf("the rewritten history lacks %s:\n%s", line, desc)
		}
	}
}

// TestHistoryListFromPrevious moves HEAD in the ways that decide whether
// the list of commits can start from the previous index's: commits on top
// (within --max-commits), a merge that brings the indexed commit in as a
// second parent, a reset to an older commit. Each time the history must be
// the one a full read gives.
func TestHistoryListFromPrevious(t *testing.T) {
	opt := history.Options{MaxCommits: 4}
	r := newScriptRepo(t)
	for i := range 3 {
		r.write(map[string]string{"a.go": fmt.Sprintf("package main\n\nfunc a%d() {}\n", i)})
		r.commit(fmt.Sprintf("main %d", i))
	}
	r.git("checkout", "-q", "-b", "feature")
	r.write(map[string]string{"b.go": "package main\n\nfunc b() {}\n"})
	r.commit("feature")
	step := func(what, wantList string) {
		t.Helper()
		res := analyze(t, r.dir, opt, true)
		if got := res.Stats.History.List; got != wantList {
			t.Errorf("%s: the list came from %q, want %q", what, got, wantList)
		}
		sameHistory(t, what, res.Graph.History(), analyze(t, r.dir, opt, false).Graph.History())
		storeIndex(t, r.dir, res)
	}
	step("first index", "git")
	for i := range 2 {
		r.write(map[string]string{"b.go": fmt.Sprintf("package main\n\nfunc b%d() {}\n", i)})
		r.commit(fmt.Sprintf("feature %d", i))
	}
	step("two commits on top, the oldest cut by --max-commits", "previous+new")
	step("nothing new", "previous")
	r.git("checkout", "-q", "main")
	r.write(map[string]string{"c.go": "package main\n\nfunc c() {}\n"})
	r.commit("main 3")
	r.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	r.tick++
	step("the indexed commit merged as a second parent", "git")
	r.git("reset", "-q", "--hard", "HEAD~2")
	step("reset to an older commit", "git")
}

// TestLinkedCounts: the link counts of a history read back from its index
// (what a re-index that carries the history over reports) are those Link
// found; the fixture has renames, deletions, a guarded commit and a revert.
func TestLinkedCounts(t *testing.T) {
	r, _ := buildFixture(t, nil)
	res := analyze(t, r.dir, history.Options{MaxCommitFiles: 3}, false)
	want := res.Stats.History.LinkStats
	if want.Reverts == 0 || want.HistoricalSymbols == 0 || want.FilesLinked == 0 || want.SymbolsLinked == 0 {
		t.Fatalf("the fixture links too little to tell: %+v", want)
	}
	storeIndex(t, r.dir, res)
	rd, err := store.OpenRepo(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	stored, err := rd.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := history.Linked(stored); got != want {
		t.Errorf("counted from the index: %+v, Link counted %+v", got, want)
	}
	if !res.Graph.History().SameUnlinked(stored) {
		t.Error("the history read back differs from the one stored, links aside")
	}
}

// TestHistoryCypher queries the stored index across both worlds: commits
// and the call graph, with the history's node and edge properties.
func TestHistoryCypher(t *testing.T) {
	r, hashes := buildFixture(t, nil)
	res := analyze(t, r.dir, history.Options{MaxCommitFiles: 3}, false)
	storeIndex(t, r.dir, res)
	rd, err := store.OpenRepo(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	g, err := memgraph.Load(context.Background(), rd)
	if err != nil {
		t.Fatal(err)
	}
	eng := cypher.New(g, rd)
	short := func(subject string) string { return hashes[subject][:7] }
	tests := []struct {
		name, query, want string
	}{
		{"functions a merge changed on a call path from main",
			"MATCH (c:Commit {shortHash: '" + short("merge feature") + "'})-[:CHANGES]->(f:Function)<-[:CALLS*1..5]-(m:Function {name: 'main'}) RETURN DISTINCT f.name",
			"farewell"},
		{"a commit that changed a function main does not reach finds nothing",
			"MATCH (c:Commit {shortHash: '" + short("handle twice") + "'})-[:CHANGES]->(f)<-[:CALLS*1..5]-(m:Function {name: 'main'}) RETURN f.name",
			""},
		{"commit properties",
			"MATCH (c:Commit {hash: '" + hashes["Grüße an 世界"] + "'}) RETURN c.shortHash = '" + short("Grüße an 世界") + "', c.subject, c.message, c.authorName, c.authorEmail, c.authoredAt, c.committedAt, c.isMerge, size(c.parents), c.symbolsSkipped",
			"true|Grüße an 世界|Grüße an 世界\n\nDer Körper der Nachricht.|Zoë Ångström|zoe@example.org|2023-11-15T10:13:20Z|2023-11-15T10:13:20Z|false|1|null"},
		{"a merge and its parents",
			"MATCH (c:Commit {isMerge: true}) RETURN c.subject, c.parents[0] = '" + hashes["handle twice"] + "', c.parents[1] = '" + hashes["add farewell"] + "'",
			"merge feature|true|true"},
		{"the guarded commit", "MATCH (c:Commit) WHERE c.symbolsSkipped IS NOT NULL RETURN c.subject, c.symbolsSkipped, COUNT { (c)-[:MODIFIES]->() }",
			"add four files|too-many-files|4"},
		{"the history of a function, oldest first",
			"MATCH (c:Commit)-[r:CHANGES]->(f:Function {name: 'greet'}) RETURN c.subject, r.changeType, r.additions, r.deletions, r.path ORDER BY c.committedAt",
			"add main and util|added|3|0|util.go\nedit greet|modified|1|1|util.go\nedit greet after the rename|modified|1|0|greet.go"},
		{"a rename: MODIFIES properties and the file's previous paths",
			"MATCH (c:Commit)-[r:MODIFIES {changeType: 'R'}]->(f:File) RETURN c.subject, r.oldPath, r.path, r.additions, r.deletions, f.previousPaths",
			"rename util.go to greet.go|util.go|greet.go|0|0|['util.go']"},
		{"files never renamed have no previous paths",
			"MATCH (f:File {filePath: 'main.go'}) RETURN f.previousPaths, 'previousPaths' IN keys(f)", "null|false"},
		{"when was a function removed, and by whom",
			"MATCH (c:Commit)-[r:CHANGES {changeType: 'deleted'}]->(h:HistoricalSymbol) RETURN h.name, h.kind, h.filePath, h.deletedIn = c.hash, c.authorName, r.deletions ORDER BY h.name",
			"helper|Function|greet.go|true|Ann Author|3\nunused|Function|greet.go|true|Ann Author|2"},
		{"the revert", "MATCH (a:Commit)-[:REVERTS]->(b:Commit) RETURN a.subject, b.subject", "Revert \"handle twice\"|handle twice"},
		{"parents link children", "MATCH (a:Commit {subject: 'nothing'})<-[:PARENT_OF]-(p) RETURN p.subject", "Revert \"handle twice\""},
		{"history properties are null elsewhere",
			"MATCH (a:Function {name: 'main'})-[r:CALLS]->(b {name: 'greet'}) RETURN a.hash, a.kind, r.changeType, r.additions, 'changeType' IN keys(r)",
			"null|null|null|null|false"},
	}
	for _, tc := range tests {
		res, err := eng.Query(context.Background(), tc.query, cypher.Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var rows []string
		for _, row := range res.Rows {
			var cells []string
			for _, v := range row {
				if v.Kind() == cypher.KindString {
					cells = append(cells, v.Str())
				} else {
					cells = append(cells, res.Format(v))
				}
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
		if got := strings.Join(rows, "\n"); got != tc.want {
			t.Errorf("%s:\n%s\n got %q\nwant %q", tc.name, tc.query, got, tc.want)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings %v", tc.name, res.Warnings)
		}
	}
}
