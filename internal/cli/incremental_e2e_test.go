package cli_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/embed/embedtest"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// TestIncrementalEqualsRebuild applies the same random edits (functions and
// calls added and removed, files added, deleted and renamed, imports
// changed, some steps committed) to two copies of a repository in each
// language. After each step one copy is re-indexed with `analyze` (which
// reuses what it can) and the other rebuilt with `analyze --force`; the two
// indexes must hold the same nodes, edges (with confidence and reason),
// search results, communities, processes and history. Answers whose order
// is the graph's (Cypher without ORDER BY, the overview, search with ties)
// must come in the same order too, although an index changed in place
// numbers its rows differently. Most re-indexes must change the index in
// place (store.Save), or the comparison would check only full writes.
func TestIncrementalEqualsRebuild(t *testing.T) {
	for _, l := range append(modelLanguages, rustLanguage, cLanguage, rubyLanguage, phpLanguage, csharpLanguage, kotlinLanguage, scalaLanguage, cppLanguage) {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewSource(int64(len(l.name)) * 7919))
			m := newCodeModel(rng)
			home := t.TempDir()
			inc := filepath.Join(t.TempDir(), "repo")
			full := filepath.Join(t.TempDir(), "repo")
			steps := 6
			reused, unread, inPlace, local, carried, carriedCommit, partial, kept := 0, 0, 0, 0, 0, 0, 0, 0
			var before map[string]string
			// Two more steps, saved and not committed, add a function and
			// calls: what an editor's saves do, and what carries the
			// history over (store/carry.go) in every language. Then
			// whatever is left is committed, and a last committed step
			// adds a function and a call, which links only its commit on
			// top of the history carried over.
			for step := 0; step <= steps+4; step++ {
				switch {
				case step == steps+3:
				case step > steps:
					m.addFunc(m.files[step%len(m.files)])
					m.addCall(rng)
				case step > 0:
					m.edit(rng)
				}
				files := m.render(l)
				commit := step == 0 || step <= steps && rng.Intn(2) == 0 || step > steps+2
				for _, root := range []string{inc, full} {
					syncFiles(t, root, files)
					if commit {
						commitAll(t, root, step)
					}
				}
				rep, lc := reindexAndCompare(t, home, inc, full, step, before, renderListing(files))
				reused += rep.Summary.FilesReused
				unread += rep.Summary.FilesUnread
				if step > 0 && rep.Status == "indexed" && rep.Summary.FilesResolved < rep.Summary.SourceFiles {
					partial++
				}
				if rep.Summary.Update != nil {
					inPlace++
				} else if step > 0 && rep.Status == "indexed" {
					t.Errorf("step %d: the index was written anew: %s", step, rep.Summary.Rewritten)
				}
				if step == 0 && crossFileCalls(dumpIndex(t, full)["edges"]) == 0 {
					t.Fatalf("the rendered %s code has no call from one file to another resolved: it tests little\n%s",
						l.name, renderListing(files))
				}
				if lc {
					local++
				}
				if h := rep.Summary.History; h != nil && h.Carried {
					carried++
					if commit && step > 0 {
						carriedCommit++
					}
					if h.List == "index" {
						kept++
					}
				}
				before = memberships(t, inc)
			}
			t.Logf("%d re-indexes carried the history over, %d of them after a commit; %d resolved only the files the edit could affect; "+
				"%d files were taken from the cache unread", carried, carriedCommit, partial, unread)
			if partial == 0 {
				t.Errorf("no re-index resolved only some files: ingest/resolve.go is not checked")
			}
			if kept == 0 {
				t.Errorf("no re-index kept the index's history records undecoded: ingest.UnchangedHistory is not checked")
			}
			if carried == 0 {
				t.Errorf("no re-index carried the history over: store/carry.go is not checked")
			}
			if carriedCommit == 0 {
				t.Errorf("no re-index after a commit carried the history over: history.LinkNewer is not checked")
			}
			if local == 0 {
				t.Errorf("no re-index updated communities locally: the local rule is not checked")
			}
			if reused == 0 {
				t.Errorf("no re-index reused a file's facts: the comparison checks nothing")
			}
			if inPlace == 0 {
				t.Errorf("no re-index changed the index in place: the comparison checks only full writes")
			}
		})
	}
}

// TestUnreadFilesEqualRebuild: files settled long enough before a run get
// their signature recorded in the extraction cache, and the next runs take
// them from it without reading them (ingest/filesig.go); the index must
// still be the rebuild's, through edits of other files and an edit of one
// of them.
func TestUnreadFilesEqualRebuild(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(11))
	m := newCodeModel(rng)
	l := modelLanguages[0]
	home, inc, full := modelRepos(t, m, l)
	mustRun(t, home, inc, "analyze", "-q")
	time.Sleep(3100 * time.Millisecond) // past the racy window: the files are settled
	unread := 0
	var files map[string]string
	for step := 1; step <= 3; step++ {
		if step == 3 {
			// A file the last run took unread, edited.
			m.addCall(rng)
			m.addFunc(m.files[0])
		} else {
			m.addFunc(m.files[step%len(m.files)])
		}
		files = m.render(l)
		for _, root := range []string{inc, full} {
			syncFiles(t, root, files)
		}
		rep, _ := reindexAndCompare(t, home, inc, full, step, nil, renderListing(files))
		unread += rep.Summary.FilesUnread
		if step > 1 && rep.Summary.FilesUnread == 0 {
			t.Errorf("step %d: no file was taken from the cache unread", step)
		}
	}
	t.Logf("%d files taken from the cache unread", unread)
}

// modelRepos writes the model in language l into two new repositories,
// committed, and returns a GITNEXUS_HOME and the two: one to re-index,
// one to rebuild.
func modelRepos(t *testing.T, m *codeModel, l modelLanguage) (home, inc, full string) {
	t.Helper()
	home = t.TempDir()
	inc, full = filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	files := m.render(l)
	for _, root := range []string{inc, full} {
		syncFiles(t, root, files)
		commitAll(t, root, 0)
	}
	return home, inc, full
}

// TestHistoryCarryRules saves the edits that decide whether a re-index may
// carry the index's history over instead of linking it again
// (store/carry.go): after each, the index must equal a rebuild, and the
// history must have been carried exactly when the rule allows it.
func TestHistoryCarryRules(t *testing.T) {
	home := t.TempDir()
	inc, full := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	goFile := func(funcs ...string) string {
		var b strings.Builder
		b.WriteString("package main\n")
		for _, f := range funcs {
			fmt.Fprintf(&b, "\nfunc %s() int {\n\treturn %d\n}\n", f, len(f))
		}
		return b.String()
	}
	files := map[string]string{"go.mod": "module m\n", "a.go": goFile("A", "B"), "b.go": goFile("X"), "c.go": goFile(),
		"x.h": "int f(void) { return 1; }\nint g(void) { return 2; }\n"}
	steps := []struct {
		what          string
		edit          func(f map[string]string)
		commit, carry bool
	}{
		{"the first index", func(map[string]string) {}, true, false},
		{"B and g deleted, committed", func(f map[string]string) {
			f["a.go"], f["x.h"] = goFile("A"), "int f(void) { return 1; }\n"
		}, true, false},
		{"a new function", func(f map[string]string) { f["a.go"] = goFile("A", "C") }, false, true},
		{"a body changed", func(f map[string]string) { f["a.go"] = goFile("A", "Cc") }, false, true},
		{"B, which the history has as deleted, back", func(f map[string]string) { f["a.go"] = goFile("A", "Cc", "B") }, false, false},
		{"A, which has a history, deleted", func(f map[string]string) { f["a.go"] = goFile("Cc", "B") }, false, false},
		{"b.go, which has a history, deleted", func(f map[string]string) { delete(f, "b.go") }, false, false},
		{"b.go back", func(f map[string]string) { f["b.go"] = goFile("X") }, false, false},
		{"c.go, which has a history and no symbol, deleted", func(f map[string]string) { delete(f, "c.go") }, false, false},
		{"c.go back", func(f map[string]string) { f["c.go"] = goFile() }, false, false},
		{"x.h, whose deleted g is a HistoricalSymbol, turned C++", func(f map[string]string) {
			f["x.h"] = "int f(void) { return 1; }\nnamespace n {}\n"
		}, false, false},
		// After a commit, only its records are linked when linking them
		// all would link the older ones as the index has them
		// (history.LinkNewer).
		{"all committed: the commit deletes A, which is not in the graph", func(map[string]string) {}, true, false},
		{"D added, committed", func(f map[string]string) { f["a.go"] = goFile("Cc", "B", "D") }, true, true},
		{"d.go added, committed", func(f map[string]string) { f["d.go"] = goFile("Y") }, true, false},
		{"d.go deleted, committed", func(f map[string]string) { delete(f, "d.go") }, true, false},
		{"d.go back, saved: the older records of d.go link to it", func(f map[string]string) { f["d.go"] = goFile("Y") }, false, false},
		{"d.go committed: its older records no longer link to it", func(map[string]string) {}, true, false},
		{"a body changed, committed", func(f map[string]string) { f["a.go"] = strings.Replace(f["a.go"], "return 1", "return 7", 1) }, true, true},
		{"another body changed, committed", func(f map[string]string) { f["a.go"] = strings.Replace(f["a.go"], "return 2", "return 9", 1) }, true, true},
		{"the commit before reverted", func(f map[string]string) { f["a.go"] = strings.Replace(f["a.go"], "return 7", "return 1", 1) }, true, true},
		{"b.go renamed, committed", func(f map[string]string) { f["e.go"] = f["b.go"]; delete(f, "b.go") }, true, false},
	}
	var before map[string]string
	for step, s := range steps {
		s.edit(files)
		for _, root := range []string{inc, full} {
			syncFiles(t, root, files)
			switch {
			case strings.HasSuffix(s.what, "reverted"):
				commitMessage(t, root, step, "Revert\n\nThis reverts commit "+testrepo.Git(t, root, "rev-parse", "HEAD~1")+".")
			case s.commit:
				commitAll(t, root, step)
			}
		}
		rep, _ := reindexAndCompare(t, home, inc, full, step, before, fmt.Sprint(files))
		carried := rep.Summary.History != nil && rep.Summary.History.Carried
		if carried != s.carry {
			t.Errorf("step %d, %s: carried the history %v, want %v", step, s.what, carried, s.carry)
		}
		// The summary counts what it did not link from the index.
		if a, b := summaryCounts(t, inc), summaryCounts(t, full); a != b {
			t.Errorf("step %d, %s: the summary counts\n%s\nthe rebuild's\n%s", step, s.what, a, b)
		}
		before = memberships(t, inc)
	}
}

// TestHistoryWindowCarry re-indexes after commits with --max-commits 3:
// once the window is full, each commit drops the oldest, and the history
// is still carried over, less the dropped commits' nodes and edges and the
// HistoricalSymbols only they changed (history.Dropped). After each
// commit the index must equal a rebuild, summary counts included.
func TestHistoryWindowCarry(t *testing.T) {
	home := t.TempDir()
	inc, full := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	body := func(f string, v int) string { return fmt.Sprintf("\nfunc %s() int {\n\treturn %d\n}\n", f, v) }
	files := map[string]string{"go.mod": "module m\n", "a.go": "package main\n" + body("A", 1) + body("Z", 1), "b.go": "package main\n" + body("B", 1)}
	steps := []struct {
		what   string
		edit   func(f map[string]string)
		revert bool // the message reverts the commit before
		carry  bool
	}{
		{"the first index", func(map[string]string) {}, false, false},
		{"Z deleted", func(f map[string]string) { f["a.go"] = "package main\n" + body("A", 1) }, false, false},
		{"A changed", func(f map[string]string) { f["a.go"] = "package main\n" + body("A", 2) }, false, true},
		{"B changed, the first commit dropped", func(f map[string]string) { f["b.go"] = "package main\n" + body("B", 2) }, false, true},
		{"A changed, the commit deleting Z dropped: Z goes", func(f map[string]string) { f["a.go"] = "package main\n" + body("A", 3) }, false, true},
		{"A's change reverted", func(f map[string]string) { f["a.go"] = "package main\n" + body("A", 2) }, true, true},
		{"B changed", func(f map[string]string) { f["b.go"] = "package main\n" + body("B", 3) }, false, true},
		{"B changed again, the reverted commit dropped with the REVERTS edge", func(f map[string]string) { f["b.go"] = "package main\n" + body("B", 4) }, false, true},
	}
	var before map[string]string
	for step, s := range steps {
		s.edit(files)
		for _, root := range []string{inc, full} {
			syncFiles(t, root, files)
			msg := fmt.Sprintf("step %d", step)
			if s.revert {
				msg = "Revert\n\nThis reverts commit " + testrepo.Git(t, root, "rev-parse", "HEAD") + "."
			}
			commitMessage(t, root, step, msg)
		}
		rep, _ := reindexAndCompare(t, home, inc, full, step, before, fmt.Sprint(files), "--max-commits", "3")
		h := rep.Summary.History
		if carried := h != nil && h.Carried; carried != s.carry {
			t.Errorf("step %d, %s: carried the history %v, want %v", step, s.what, carried, s.carry)
		}
		if a, b := summaryCounts(t, inc), summaryCounts(t, full); a != b {
			t.Errorf("step %d, %s: the summary counts\n%s\nthe rebuild's\n%s", step, s.what, a, b)
		}
		before = memberships(t, inc)
		// Z is a HistoricalSymbol until the commits that changed it drop.
		historical := strings.Contains(strings.Join(dumpIndex(t, inc)["nodes"], "\n"), "HistoricalSymbol:Function:a.go:Z")
		if want := step >= 1 && step < 4; historical != want {
			t.Errorf("step %d, %s: Z is a HistoricalSymbol: %v, want %v", step, s.what, historical, want)
		}
	}
	// A narrower window and no new commit: the oldest only drop.
	rep, _ := reindexAndCompare(t, home, inc, full, len(steps), before, fmt.Sprint(files), "--max-commits", "2")
	if h := rep.Summary.History; h == nil || !h.Carried || h.Dropped != 1 {
		t.Errorf("--max-commits 2: the history was not carried over with one commit dropped: %+v", h)
	}
	if a, b := summaryCounts(t, inc), summaryCounts(t, full); a != b {
		t.Errorf("--max-commits 2: the summary counts\n%s\nthe rebuild's\n%s", a, b)
	}
}

// summaryCounts renders the counts of the summary an index keeps in its
// meta.json: nodes and edges by kind, type and reason, and the history's
// link counts.
func summaryCounts(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".gitnexus", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Stats struct {
			Nodes, Edges, Symbols, Functions int
			NodesByKind, EdgesByType         map[string]int
			EdgesByReason                    map[string]map[string]int
			History                          struct {
				FileChangesLinked, SymbolChangesLinked, HistoricalSymbols, Reverts int
			}
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(m.Stats, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// resolveCounts renders the call counts of the summary an index keeps in
// its meta (the database's: meta.json is a copy written after the commit).
func resolveCounts(t *testing.T, root string) string {
	t.Helper()
	var m struct {
		Stats struct{ Resolve map[string]int }
	}
	return metaStats(t, root, &m, &m.Stats.Resolve)
}

// metaStats decodes the index's stored meta into m and renders part, a
// part of m, as JSON.
func metaStats(t *testing.T, root string, m, part any) string {
	t.Helper()
	if err := json.Unmarshal([]byte(indexMeta(t, root)), m); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(part)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// historyCounts renders the counts of the history records in the summary
// an index keeps in its meta (what a rebuild, reading them all, counts).
func historyCounts(t *testing.T, root string) string {
	t.Helper()
	var m struct {
		Stats struct {
			History *struct {
				Commits, FileChanges, SymbolChanges, Guarded                       int
				FileChangesLinked, SymbolChangesLinked, HistoricalSymbols, Reverts int
			}
		}
	}
	return metaStats(t, root, &m, &m.Stats.History)
}

// indexMeta is the meta the index's database holds, as stored.
func indexMeta(t *testing.T, root string) string {
	t.Helper()
	db := openIndex(t, root)
	defer db.Close()
	var v string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'meta'`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestIncrementalEmbeddingsEqualRebuild is TestIncrementalEqualsRebuild
// with embeddings (an OpenAI-protocol endpoint on 127.0.0.1): a re-index
// changes the embedding rows in place, and they and the answers that fuse
// vector search must be the rebuild's. (The repository is too small for a
// nearest-neighbour graph; search.TestVectorsInPlace covers that.)
func TestIncrementalEmbeddingsEqualRebuild(t *testing.T) {
	srv := embedtest.Start(t, 32)
	for k, v := range map[string]string{embed.EnvProvider: "openai", embed.EnvURL: srv.URL, embed.EnvModel: "bag-of-words",
		embed.EnvConfig: "", embed.EnvRetries: ""} {
		t.Setenv(k, v)
	}
	rng := rand.New(rand.NewSource(17))
	m := newCodeModel(rng)
	for i := 0; i < 6; i++ { // enough symbols for the nearest-neighbour graph
		m.addFile(rng)
		m.addCall(rng)
	}
	l := modelLanguages[0]
	home := t.TempDir()
	inc, full := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	inPlace := 0
	var before map[string]string
	for step := 0; step <= 8; step++ {
		if step > 0 {
			m.edit(rng)
		}
		files := m.render(l)
		for _, root := range []string{inc, full} {
			syncFiles(t, root, files)
			if step%2 == 0 {
				commitAll(t, root, step)
			}
		}
		rep, lc := reindexAndCompare(t, home, inc, full, step, before, renderListing(files), "--embeddings")
		if u := rep.Summary.Update; u != nil {
			inPlace++
			if u.VectorsWritten == 0 && u.VectorsRemoved == 0 {
				t.Errorf("step %d: no vector changed", step)
			}
		} else if step > 0 {
			t.Errorf("step %d: the index was written anew: %s", step, rep.Summary.Rewritten)
		}
		if rows := dumpIndex(t, inc)["embeddings"]; len(rows) == 0 {
			t.Fatalf("step %d: the index has no embeddings: it checks little", step)
		}
		for _, root := range []string{inc, full} {
			if out := mustRun(t, home, root, "query", "does its part", "--repo", root).stdout; !strings.Contains(out, "bm25+vector") {
				t.Fatalf("the query did not use the vectors:\n%s", out)
			}
		}
		// Processes rank by their community's cohesion too: after a local
		// update, only the symbols found are compared.
		answer := func(root string) string {
			var a map[string]any
			if err := json.Unmarshal([]byte(mustRun(t, home, root, "query", "does its part", "--json", "--repo", root).stdout), &a); err != nil {
				t.Fatal(err)
			}
			delete(a, "index")
			if lc {
				delete(a, "processes")
			}
			b, _ := json.MarshalIndent(a, "", " ")
			return string(b)
		}
		if a, b := answer(inc), answer(full); a != b {
			t.Fatalf("step %d: a query fusing vectors answers otherwise\nincremental:\n%s\nrebuild:\n%s", step, a, b)
		}
		before = memberships(t, inc)
	}
	if inPlace == 0 {
		t.Error("no re-index changed the index in place")
	}
}

// reindexReport is what the equality tests read of `analyze --json`.
type reindexReport struct {
	Status  string
	Summary struct {
		FilesReused   int
		FilesUnread   int
		SourceFiles   int
		FilesResolved int
		ResolveAllWhy string
		Update        *struct{ VectorsWritten, VectorsRemoved int }
		Rewritten     string
		History       *struct {
			Carried bool
			Dropped int
			List    string
		}
	}
}

// reindexAndCompare re-indexes inc with `analyze` and rebuilds full with
// `analyze --force` (both with args), then requires the two indexes to be
// the same (sameAsRebuild, given inc's memberships before) and answers
// whose order is the graph's to come in the same order. It returns inc's
// report and whether its communities were updated locally; listing (the
// files) goes into the failure message.
func reindexAndCompare(t *testing.T, home, inc, full string, step int, before map[string]string, listing string,
	args ...string) (reindexReport, bool) {
	t.Helper()
	var rep reindexReport
	if err := json.Unmarshal([]byte(mustRun(t, home, inc, append([]string{"analyze", "--json", "-q"}, args...)...).stdout), &rep); err != nil {
		t.Fatal(err)
	}
	mustRun(t, home, full, append([]string{"analyze", "--force", "-q"}, args...)...)
	if msg := sameAsRebuild(t, inc, full, before); msg != "" {
		t.Fatalf("step %d: %s\nfiles:\n%s", step, msg, listing)
	}
	lc := communitiesLocal(t, inc)
	if oa, ob := orderedAnswers(t, home, inc, lc), orderedAnswers(t, home, full, lc); oa != ob {
		t.Fatalf("step %d: answers come in another order\nincremental:\n%s\nrebuild:\n%s", step, oa, ob)
	}
	return rep, lc
}

// crossFileCalls counts the CALLS rows of an edges dump whose two ends are
// in different files (ids are Kind:path:name).
func crossFileCalls(edges []string) int {
	n := 0
	for _, e := range edges {
		f := strings.Fields(strings.Trim(e, "[]"))
		if len(f) < 3 || f[2] != "CALLS" {
			continue
		}
		src, dst := strings.SplitN(f[0], ":", 3), strings.SplitN(f[1], ":", 3)
		if len(src) == 3 && len(dst) == 3 && src[1] != dst[1] {
			n++
		}
	}
	return n
}

func mapsKeys(m map[string][]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// diffRows lists the rows of a that b lacks (at most 10).
func diffRows(a, b []string) []string {
	in := map[string]int{}
	for _, r := range b {
		in[r]++
	}
	var out []string
	for _, r := range a {
		if in[r] > 0 {
			in[r]--
			continue
		}
		if out = append(out, r); len(out) == 10 {
			break
		}
	}
	return out
}

func renderListing(files map[string]string) string {
	var b strings.Builder
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "-- %s --\n%s", p, files[p])
	}
	return b.String()
}

// syncFiles makes the work tree under root hold exactly files (besides
// .git and .gitnexus).
func syncFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		git(t, root, "init", "-q", "-b", "main")
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == ".git" || rel == ".gitnexus" {
				return filepath.SkipDir
			}
			return nil
		}
		if _, keep := files[filepath.ToSlash(rel)]; !keep {
			os.Remove(p)
		}
		return nil
	})
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if old, err := os.ReadFile(p); err == nil && string(old) == content {
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commitAll commits the work tree with a date fixed by the step, so that
// both copies get the same commits.
func commitAll(t *testing.T, root string, step int) {
	t.Helper()
	commitMessage(t, root, step, fmt.Sprintf("step %d", step))
}

// commitMessage is commitAll with a message.
func commitMessage(t *testing.T, root string, step int, message string) {
	t.Helper()
	date := fmt.Sprintf("2026-01-%02dT12:00:00Z", step+1)
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "--allow-empty", "-m", message}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// orderedAnswers are answers whose order is the in-memory graph's: every
// node id from Cypher without ORDER BY, the overview, and a search whose
// hits tie.
// After a local update of communities, only the answers that do not show
// them are compared.
func orderedAnswers(t *testing.T, home, root string, localCommunities bool) string {
	t.Helper()
	var b strings.Builder
	queries := [][]string{
		{"cypher", "MATCH (n) RETURN n.id"},
		{"cypher", "MATCH (c:Community) RETURN c.id, c.label"},
		{"overview", "--repo", root},
		{"query", "f", "--repo", root, "--limit", "50"},
	}
	if localCommunities {
		queries = [][]string{{"cypher", "MATCH (n) WHERE n.kind <> 'Community' RETURN n.id"}}
	}
	for _, args := range queries {
		if args[0] == "cypher" {
			args = append(args, "--repo", root)
		}
		b.WriteString(strings.ReplaceAll(mustRun(t, home, root, args...).stdout, root, "<root>"))
	}
	// The two copies are registered under different ids.
	out := regexp.MustCompile(`Repository \S+:`).ReplaceAllString(b.String(), "Repository <id>:")
	return regexp.MustCompile(`(?m)^Repository: \S+$`).ReplaceAllString(out, "Repository: <id>")
}

// dumpIndex reads what an index answers with, as sorted rows per view,
// and the search results for every name in it. Without communities, it
// leaves out Community nodes, MEMBER_OF edges, the communities and the
// process types (which follow from the communities): what a local update
// of communities may have made otherwise than a rebuild
// (checkLocalCommunities checks those).
func dumpIndex(t *testing.T, root string, withCommunities ...bool) map[string][]string {
	t.Helper()
	all := len(withCommunities) == 0 || withCommunities[0]
	db := openIndex(t, root)
	defer db.Close()
	out := map[string][]string{}
	for _, view := range []string{"nodes", "edges", "commits", "file_changes", "symbol_changes",
		"communities", "processes", "process_steps"} {
		q := "SELECT * FROM " + view
		if !all {
			switch view {
			case "nodes":
				q += " WHERE kind <> 'Community'"
			case "edges":
				q += " WHERE type <> 'MEMBER_OF'"
			case "communities":
				continue
			case "processes":
				q = "SELECT id, label, step_count, entry_id, terminal_id, rank FROM processes"
			}
		}
		out[view] = queryRows(t, db, q)
	}
	out["embeddings"] = queryRows(t, db, "SELECT coalesce(n.id, 'no node'), hex(e.hash), e.scale, hex(e.vec) FROM embedding e LEFT JOIN node n ON n.rid = e.rid")
	out["vector_index"] = queryRows(t, db, "SELECT name, hex(data) FROM vector_index")
	names := queryRows(t, db, "SELECT DISTINCT name FROM node WHERE kind IN ('Function', 'Method', 'Class')")
	for _, n := range names {
		rows := queryRows(t, db, "SELECT n.id FROM search JOIN node n ON n.rid = search.rowid WHERE search MATCH ?"+
			map[bool]string{true: "", false: " AND n.kind <> 'Community'"}[all], `"`+strings.Trim(n, "[]")+`"`)
		out["search"] = append(out["search"], n+" -> "+strings.Join(rows, " "))
	}
	sort.Strings(out["search"])
	return out
}

func openIndex(t *testing.T, root string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(root, ".gitnexus", "graph.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// sameAsRebuild compares the index at inc, just re-indexed, with the one
// rebuilt at full and returns the first difference ("" when none). When
// inc's communities were updated locally, they are checked against the
// local-update rule instead, given the memberships inc had before (nil:
// unknown).
func sameAsRebuild(t *testing.T, inc, full string, before map[string]string) string {
	t.Helper()
	local := communitiesLocal(t, inc)
	if local {
		if msg := checkLocalCommunities(t, inc, before); msg != "" {
			return "communities updated locally: " + msg
		}
	}
	if a, b := resolveCounts(t, inc), resolveCounts(t, full); a != b {
		return fmt.Sprintf("call counts differ\nincremental: %s\n    rebuild: %s", a, b)
	}
	if a, b := historyCounts(t, inc), historyCounts(t, full); a != b {
		return fmt.Sprintf("history counts differ\nincremental: %s\n    rebuild: %s", a, b)
	}
	a, b := dumpIndex(t, inc, !local), dumpIndex(t, full, !local)
	for _, k := range slices.Sorted(mapsKeys(a)) {
		if !reflect.DeepEqual(a[k], b[k]) {
			return fmt.Sprintf("%s differ\nincremental: %v\n    rebuild: %v", k, diffRows(a[k], b[k]), diffRows(b[k], a[k]))
		}
	}
	return ""
}

// communitiesLocal tells whether the last analyze of root updated its
// communities locally rather than detecting them.
func communitiesLocal(t *testing.T, root string) bool {
	t.Helper()
	db := openIndex(t, root)
	defer db.Close()
	var raw string
	if err := db.QueryRow("SELECT value FROM meta WHERE key = 'meta'").Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Stats struct {
			Flows struct{ CommunityUpdate string }
		}
	}
	if err := json.Unmarshal([]byte(raw), &meta); err != nil {
		t.Fatal(err)
	}
	switch u := meta.Stats.Flows.CommunityUpdate; u {
	case "local", "detected":
		return u == "local"
	default:
		t.Fatalf("the summary says communities were %q", u)
	}
	return false
}

// memberships maps each member symbol of root's index to its community.
func memberships(t *testing.T, root string) map[string]string {
	t.Helper()
	db := openIndex(t, root)
	defer db.Close()
	out := map[string]string{}
	for _, r := range pairs(t, db, "SELECT src, dst FROM edges WHERE type = 'MEMBER_OF'") {
		out[r[0]] = r[1]
	}
	return out
}

// pairs runs a query of two text columns.
func pairs(t *testing.T, db *sql.DB, q string) [][2]string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var p [2]string
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// checkLocalCommunities checks root's communities against the rule of
// their local update (internal/enrich/communities.go), given the
// memberships before it:
//   - a member stays in its community while that community exists, and
//     is in none once it is dissolved;
//   - a symbol that joined a community has a detection edge (a call not
//     guessed by name, EXTENDS or IMPLEMENTS) to another of its members;
//   - a community has at least two members and counts them right;
//   - a process is intra-community exactly when all its steps are in the
//     entry's community.
func checkLocalCommunities(t *testing.T, root string, before map[string]string) string {
	t.Helper()
	db := openIndex(t, root)
	defer db.Close()
	of := memberships(t, root)
	size := map[string]int{}
	for _, c := range of {
		size[c]++
	}
	counted := map[string]string{}
	for _, r := range pairs(t, db, "SELECT id, CAST(symbol_count AS TEXT) FROM communities") {
		counted[r[0]] = r[1]
		if n := size[r[0]]; n < 2 || strconv.Itoa(n) != r[1] {
			return fmt.Sprintf("%s has %d members and says %s", r[0], n, r[1])
		}
	}
	if len(counted) != len(size) {
		return fmt.Sprintf("%d communities have members, %d are listed", len(size), len(counted))
	}
	exists := map[string]bool{}
	for _, r := range pairs(t, db, "SELECT id, kind FROM nodes") {
		exists[r[0]] = true
	}
	for s, c := range before {
		if !exists[s] {
			continue
		}
		if now, ok := of[s]; size[c] > 0 && now != c || size[c] == 0 && ok {
			return fmt.Sprintf("%s moved from %s to %q", s, c, now)
		}
	}
	linked := map[[2]string]bool{}
	for _, r := range pairs(t, db, `SELECT src, dst FROM edges WHERE type IN ('EXTENDS', 'IMPLEMENTS')
		OR type = 'CALLS' AND reason <> 'name-only'`) {
		if of[r[0]] != "" && of[r[0]] == of[r[1]] && r[0] != r[1] {
			linked[[2]string{r[0], of[r[0]]}] = true
			linked[[2]string{r[1], of[r[1]]}] = true
		}
	}
	for s, c := range of {
		if before != nil && before[s] != c && !linked[[2]string{s, c}] {
			return fmt.Sprintf("%s joined %s without an edge to another member", s, c)
		}
	}
	steps := map[string][]string{}
	for _, r := range pairs(t, db, "SELECT process_id, symbol_id FROM process_steps ORDER BY process_id, step") {
		steps[r[0]] = append(steps[r[0]], r[1])
	}
	for _, r := range pairs(t, db, "SELECT id, process_type FROM processes") {
		s := steps[r[0]]
		intra := of[s[0]] != ""
		for _, x := range s {
			intra = intra && of[x] == of[s[0]]
		}
		if want := map[bool]string{true: "intra_community", false: "cross_community"}[intra]; r[1] != want {
			return fmt.Sprintf("%s is %s, its steps make it %s", r[0], r[1], want)
		}
	}
	return ""
}

func queryRows(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	return testrepo.Rows(t, db, q, args...)
}

// A code model: files of functions that call each other, rendered in each
// language. Function names are unique across the model.
type codeModel struct {
	files []*modelFile
	next  int // the next function or file number
}

type modelFile struct {
	dir, name string
	funcs     []*modelFunc
}

type modelFunc struct {
	name  string
	calls []*modelFunc
}

func newCodeModel(rng *rand.Rand) *codeModel {
	m := &codeModel{}
	for i := 0; i < 4; i++ {
		m.addFile(rng)
	}
	for i := 0; i < 8; i++ {
		m.addCall(rng)
	}
	return m
}

func (m *codeModel) addFile(rng *rand.Rand) {
	m.next++
	f := &modelFile{dir: fmt.Sprintf("d%d", rng.Intn(2)), name: fmt.Sprintf("m%d", m.next)}
	m.files = append(m.files, f)
	for i := 0; i < 1+rng.Intn(3); i++ {
		m.addFunc(f)
	}
}

func (m *codeModel) addFunc(f *modelFile) {
	m.next++
	f.funcs = append(f.funcs, &modelFunc{name: fmt.Sprintf("f%d", m.next)})
}

func (m *codeModel) allFuncs() []*modelFunc {
	var out []*modelFunc
	for _, f := range m.files {
		out = append(out, f.funcs...)
	}
	return out
}

func (m *codeModel) addCall(rng *rand.Rand) {
	fs := m.allFuncs()
	if len(fs) < 2 {
		return
	}
	from, to := fs[rng.Intn(len(fs))], fs[rng.Intn(len(fs))]
	if from != to && !slices.Contains(from.calls, to) {
		from.calls = append(from.calls, to)
	}
}

// edit makes one random change.
func (m *codeModel) edit(rng *rand.Rand) {
	switch op := rng.Intn(7); {
	case op == 0:
		m.addFile(rng)
	case op == 1 && len(m.files) > 2: // delete a file; calls to it stay, unresolved
		i := rng.Intn(len(m.files))
		gone := m.files[i]
		m.files = append(m.files[:i], m.files[i+1:]...)
		for _, fn := range m.allFuncs() {
			fn.calls = slices.DeleteFunc(fn.calls, func(c *modelFunc) bool { return slices.Contains(gone.funcs, c) })
		}
	case op == 2: // rename (and perhaps move) a file
		m.next++
		f := m.files[rng.Intn(len(m.files))]
		f.name, f.dir = fmt.Sprintf("m%d", m.next), fmt.Sprintf("d%d", rng.Intn(2))
	case op == 3:
		m.addFunc(m.files[rng.Intn(len(m.files))])
	case op == 4: // remove a function, and the calls to it
		f := m.files[rng.Intn(len(m.files))]
		if len(f.funcs) > 1 {
			i := rng.Intn(len(f.funcs))
			gone := f.funcs[i]
			f.funcs = append(f.funcs[:i], f.funcs[i+1:]...)
			for _, fn := range m.allFuncs() {
				fn.calls = slices.DeleteFunc(fn.calls, func(c *modelFunc) bool { return c == gone })
			}
		}
	case op == 5: // remove a call
		fs := m.allFuncs()
		fn := fs[rng.Intn(len(fs))]
		if len(fn.calls) > 0 {
			fn.calls = fn.calls[1:]
		}
	default:
		m.addCall(rng)
		m.addCall(rng)
	}
}

// fileOf returns the file defining fn.
func (m *codeModel) fileOf(fn *modelFunc) *modelFile {
	for _, f := range m.files {
		if slices.Contains(f.funcs, fn) {
			return f
		}
	}
	return nil
}

// modelLanguage renders a model file: its path, and its text given the
// files it calls into.
type modelLanguage struct {
	name   string
	extra  map[string]string
	path   func(f *modelFile) string
	render func(m *codeModel, f *modelFile) string
	// layout, when set, adds the files the model's files need around them
	// (Rust's module declarations).
	layout func(m *codeModel) map[string]string
}

func (m *codeModel) render(l modelLanguage) map[string]string {
	out := map[string]string{}
	for p, c := range l.extra {
		out[p] = c
	}
	for _, f := range m.files {
		out[l.path(f)] = l.render(m, f)
	}
	if l.layout != nil {
		for p, c := range l.layout(m) {
			out[p] = c
		}
	}
	return out
}

// callees lists the files a file calls into (not itself), in order.
func (m *codeModel) callees(f *modelFile) []*modelFile {
	var out []*modelFile
	for _, fn := range f.funcs {
		for _, c := range fn.calls {
			if cf := m.fileOf(c); cf != nil && cf != f && !slices.Contains(out, cf) {
				out = append(out, cf)
			}
		}
	}
	return out
}

// namesFrom lists the functions of cf that f calls, in order.
func (m *codeModel) namesFrom(f, cf *modelFile) []string {
	var names []string
	for _, fn := range f.funcs {
		for _, c := range fn.calls {
			if m.fileOf(c) == cf && !slices.Contains(names, c.name) {
				names = append(names, c.name)
			}
		}
	}
	return names
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

var modelLanguages = []modelLanguage{
	{
		name:  "go",
		extra: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"},
		path:  func(f *modelFile) string { return f.dir + "/" + f.name + ".go" },
		render: func(m *codeModel, f *modelFile) string {
			var b strings.Builder
			fmt.Fprintf(&b, "package %s\n\n", f.dir)
			var imports []string
			for _, cf := range m.callees(f) {
				if cf.dir != f.dir && !slices.Contains(imports, cf.dir) {
					imports = append(imports, cf.dir)
				}
			}
			for _, d := range imports {
				fmt.Fprintf(&b, "import %q\n", "example.com/m/"+d)
			}
			for _, fn := range f.funcs {
				fmt.Fprintf(&b, "\n// %s does its part.\nfunc %s() {\n", title(fn.name), title(fn.name))
				for _, c := range fn.calls {
					cf := m.fileOf(c)
					if cf.dir == f.dir {
						fmt.Fprintf(&b, "\t%s()\n", title(c.name))
					} else {
						fmt.Fprintf(&b, "\t%s.%s()\n", cf.dir, title(c.name))
					}
				}
				b.WriteString("}\n")
			}
			return b.String()
		},
	},
	{
		name: "python",
		path: func(f *modelFile) string { return f.dir + "/" + f.name + ".py" },
		render: func(m *codeModel, f *modelFile) string {
			var b strings.Builder
			for _, cf := range m.callees(f) {
				fmt.Fprintf(&b, "from %s.%s import %s\n", cf.dir, cf.name, strings.Join(m.namesFrom(f, cf), ", "))
			}
			for _, fn := range f.funcs {
				fmt.Fprintf(&b, "\n\ndef %s():\n    \"\"\"%s does its part.\"\"\"\n", fn.name, fn.name)
				for _, c := range fn.calls {
					fmt.Fprintf(&b, "    %s()\n", c.name)
				}
			}
			return b.String()
		},
	},
	{
		name:   "typescript",
		extra:  map[string]string{"tsconfig.json": "{\"compilerOptions\": {\"strict\": true}}\n"},
		path:   func(f *modelFile) string { return f.dir + "/" + f.name + ".ts" },
		render: func(m *codeModel, f *modelFile) string { return renderJS(m, f, "") },
	},
	{
		name:   "javascript",
		extra:  map[string]string{"package.json": "{\"name\": \"m\", \"type\": \"module\"}\n"},
		path:   func(f *modelFile) string { return f.dir + "/" + f.name + ".js" },
		render: func(m *codeModel, f *modelFile) string { return renderJS(m, f, ".js") },
	},
	{
		name: "java",
		path: func(f *modelFile) string { return "src/" + f.dir + "/" + title(f.name) + ".java" },
		render: func(m *codeModel, f *modelFile) string {
			var b strings.Builder
			fmt.Fprintf(&b, "package %s;\n\n", f.dir)
			for _, cf := range m.callees(f) {
				if cf.dir != f.dir {
					fmt.Fprintf(&b, "import %s.%s;\n", cf.dir, title(cf.name))
				}
			}
			fmt.Fprintf(&b, "\n/** %s holds functions. */\npublic class %s {\n", title(f.name), title(f.name))
			for _, fn := range f.funcs {
				fmt.Fprintf(&b, "    public static void %s() {\n", fn.name)
				for _, c := range fn.calls {
					if cf := m.fileOf(c); cf == f {
						fmt.Fprintf(&b, "        %s();\n", c.name)
					} else {
						fmt.Fprintf(&b, "        %s.%s();\n", title(cf.name), c.name)
					}
				}
				b.WriteString("    }\n")
			}
			b.WriteString("}\n")
			return b.String()
		},
	},
}

// rustLanguage renders a crate: src/lib.rs declares the directories as
// modules, each directory's mod.rs its files; calls into other files go
// through use declarations.
var rustLanguage = modelLanguage{
	name:  "rust",
	extra: map[string]string{"Cargo.toml": "[package]\nname = \"m\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"},
	path:  func(f *modelFile) string { return "src/" + f.dir + "/" + f.name + ".rs" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		for _, cf := range m.callees(f) {
			for _, n := range m.namesFrom(f, cf) {
				fmt.Fprintf(&b, "use crate::%s::%s::%s;\n", cf.dir, cf.name, n)
			}
		}
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "\n/// %s does its part.\npub fn %s() {\n", fn.name, fn.name)
			for _, c := range fn.calls {
				fmt.Fprintf(&b, "    %s();\n", c.name)
			}
			b.WriteString("}\n")
		}
		return b.String()
	},
	layout: func(m *codeModel) map[string]string {
		mods := map[string][]string{}
		for _, f := range m.files {
			mods[f.dir] = append(mods[f.dir], f.name)
		}
		out := map[string]string{}
		var lib strings.Builder
		for _, d := range slices.Sorted(func(yield func(string) bool) {
			for d := range mods {
				if !yield(d) {
					return
				}
			}
		}) {
			fmt.Fprintf(&lib, "pub mod %s;\n", d)
			var mod strings.Builder
			names := mods[d]
			slices.Sort(names)
			for _, n := range names {
				fmt.Fprintf(&mod, "pub mod %s;\n", n)
			}
			out["src/"+d+"/mod.rs"] = mod.String()
		}
		out["src/lib.rs"] = lib.String()
		return out
	},
}

// cLanguage renders each file with a header declaring its functions;
// calls into other files include those headers (next to the file, or
// through the include/ layout: dir/name.h is found from the root).
var cLanguage = modelLanguage{
	name: "c",
	path: func(f *modelFile) string { return f.dir + "/" + f.name + ".c" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		fmt.Fprintf(&b, "#include \"%s.h\"\n", f.name)
		for _, cf := range m.callees(f) {
			if cf.dir == f.dir {
				fmt.Fprintf(&b, "#include \"%s.h\"\n", cf.name)
			} else {
				fmt.Fprintf(&b, "#include <%s/%s.h>\n", cf.dir, cf.name)
			}
		}
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "\n/* %s does its part. */\nvoid %s(void) {\n", fn.name, fn.name)
			for _, c := range fn.calls {
				fmt.Fprintf(&b, "    %s();\n", c.name)
			}
			b.WriteString("}\n")
		}
		return b.String()
	},
	layout: func(m *codeModel) map[string]string {
		out := map[string]string{}
		for _, f := range m.files {
			var h strings.Builder
			for _, fn := range f.funcs {
				fmt.Fprintf(&h, "void %s(void);\n", fn.name)
			}
			out[f.dir+"/"+f.name+".h"] = h.String()
		}
		return out
	},
}

// rubyLanguage renders each file as a class of class methods in a module
// named after its directory, autoloaded the Zeitwerk way from app/models:
// calls into the same directory require_relative the file, calls into
// another directory name the constant (D1::M7.f9) and load it by its path.
var rubyLanguage = modelLanguage{
	name: "ruby",
	path: func(f *modelFile) string { return "app/models/" + f.dir + "/" + f.name + ".rb" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		for _, cf := range m.callees(f) {
			if cf.dir == f.dir {
				fmt.Fprintf(&b, "require_relative %q\n", cf.name)
			}
		}
		fmt.Fprintf(&b, "\nmodule %s\n  # %s holds functions.\n  class %s\n", title(f.dir), title(f.name), title(f.name))
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "    def self.%s\n", fn.name)
			for _, c := range fn.calls {
				switch cf := m.fileOf(c); {
				case cf == f:
					fmt.Fprintf(&b, "      %s\n", c.name)
				case cf.dir == f.dir:
					fmt.Fprintf(&b, "      %s.%s\n", title(cf.name), c.name)
				default:
					fmt.Fprintf(&b, "      %s::%s.%s\n", title(cf.dir), title(cf.name), c.name)
				}
			}
			b.WriteString("    end\n")
		}
		b.WriteString("  end\nend\n")
		return b.String()
	},
}

// phpLanguage renders each file as a class of static methods in the
// namespace of its directory, where Composer's PSR-4 map puts it; calls
// into other files go through `use` of the class, calls inside the file
// through self::.
var phpLanguage = modelLanguage{
	name:  "php",
	extra: map[string]string{"composer.json": `{"autoload": {"psr-4": {"M\\": "src/"}}}` + "\n"},
	path:  func(f *modelFile) string { return "src/" + f.dir + "/" + f.name + ".php" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<?php\nnamespace M\\%s;\n\n", f.dir)
		for _, cf := range m.callees(f) {
			fmt.Fprintf(&b, "use M\\%s\\%s;\n", cf.dir, cf.name)
		}
		fmt.Fprintf(&b, "\nfinal class %s\n{\n", f.name)
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "    /** %s does its part. */\n    public static function %s(): void\n    {\n", fn.name, fn.name)
			for _, c := range fn.calls {
				if cf := m.fileOf(c); cf == f {
					fmt.Fprintf(&b, "        self::%s();\n", c.name)
				} else if cf != nil {
					fmt.Fprintf(&b, "        %s::%s();\n", cf.name, c.name)
				}
			}
			b.WriteString("    }\n")
		}
		b.WriteString("}\n")
		return b.String()
	},
}

// csharpLanguage renders each file as a static class in the namespace of
// its directory (file-scoped); calls inside the directory name the class,
// calls into another directory its fully qualified name, and the file
// imports each such namespace with `using`.
var csharpLanguage = modelLanguage{
	name: "csharp",
	path: func(f *modelFile) string { return "src/" + f.dir + "/" + f.name + ".cs" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		seen := map[string]bool{}
		for _, cf := range m.callees(f) {
			if cf.dir != f.dir && !seen[cf.dir] {
				seen[cf.dir] = true
				fmt.Fprintf(&b, "using M.%s;\n", cf.dir)
			}
		}
		fmt.Fprintf(&b, "\nnamespace M.%s;\n\npublic static class %s\n{\n", f.dir, f.name)
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "    /// <summary>%s does its part.</summary>\n    public static void %s()\n    {\n", fn.name, fn.name)
			for _, c := range fn.calls {
				switch cf := m.fileOf(c); {
				case cf == f:
					fmt.Fprintf(&b, "        %s();\n", c.name)
				case cf == nil:
				case cf.dir == f.dir:
					fmt.Fprintf(&b, "        %s.%s();\n", cf.name, c.name)
				default:
					fmt.Fprintf(&b, "        M.%s.%s.%s();\n", cf.dir, cf.name, c.name)
				}
			}
			b.WriteString("    }\n")
		}
		b.WriteString("}\n")
		return b.String()
	},
}

// kotlinLanguage renders each file as an object of functions in the
// package of its directory; calls into another package import the
// object, calls into the same package name it without import, calls
// inside the file are bare.
var kotlinLanguage = modelLanguage{
	name: "kotlin",
	path: func(f *modelFile) string { return "src/" + f.dir + "/" + title(f.name) + ".kt" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		fmt.Fprintf(&b, "package m.%s\n\n", f.dir)
		for _, cf := range m.callees(f) {
			if cf.dir != f.dir {
				fmt.Fprintf(&b, "import m.%s.%s\n", cf.dir, title(cf.name))
			}
		}
		fmt.Fprintf(&b, "\nobject %s {\n", title(f.name))
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "    /** %s does its part. */\n    fun %s() {\n", fn.name, fn.name)
			for _, c := range fn.calls {
				if cf := m.fileOf(c); cf == f {
					fmt.Fprintf(&b, "        %s()\n", c.name)
				} else if cf != nil {
					fmt.Fprintf(&b, "        %s.%s()\n", title(cf.name), c.name)
				}
			}
			b.WriteString("    }\n")
		}
		b.WriteString("}\n")
		return b.String()
	},
}

// scalaLanguage renders each file as an object of defs in the package of
// its directory, in Scala 3's indentation syntax; calls into another
// package import the object in braces, calls into the same package name
// it without import, calls inside the file are bare.
var scalaLanguage = modelLanguage{
	name: "scala",
	path: func(f *modelFile) string { return "src/" + f.dir + "/" + title(f.name) + ".scala" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		fmt.Fprintf(&b, "package m.%s\n\n", f.dir)
		for _, cf := range m.callees(f) {
			if cf.dir != f.dir {
				fmt.Fprintf(&b, "import m.%s.{%s}\n", cf.dir, title(cf.name))
			}
		}
		fmt.Fprintf(&b, "\nobject %s:\n", title(f.name))
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "  /** %s does its part. */\n  def %s(): Unit =\n", fn.name, fn.name)
			for _, c := range fn.calls {
				if cf := m.fileOf(c); cf == f {
					fmt.Fprintf(&b, "    %s()\n", c.name)
				} else if cf != nil {
					fmt.Fprintf(&b, "    %s.%s()\n", title(cf.name), c.name)
				}
			}
			b.WriteString("    ()\n")
		}
		return b.String()
	},
}

// cppLanguage renders each file as a class of static member functions in
// the namespace of its directory: the header declares them, the source
// file defines them out of line (`void M1::f2() {...}`). Calls inside the
// file are bare, calls into the same directory name the class, calls
// into another directory the namespace too (d1::M3::f7()), each through
// an include of the callee's header.
var cppLanguage = modelLanguage{
	name: "cpp",
	path: func(f *modelFile) string { return f.dir + "/" + f.name + ".cpp" },
	render: func(m *codeModel, f *modelFile) string {
		var b strings.Builder
		fmt.Fprintf(&b, "#include \"%s.hpp\"\n", f.name)
		for _, cf := range m.callees(f) {
			if cf.dir == f.dir {
				fmt.Fprintf(&b, "#include \"%s.hpp\"\n", cf.name)
			} else {
				fmt.Fprintf(&b, "#include <%s/%s.hpp>\n", cf.dir, cf.name)
			}
		}
		fmt.Fprintf(&b, "\nnamespace %s {\n", f.dir)
		for _, fn := range f.funcs {
			fmt.Fprintf(&b, "\n// %s does its part.\nvoid %s::%s() {\n", fn.name, title(f.name), fn.name)
			for _, c := range fn.calls {
				switch cf := m.fileOf(c); {
				case cf == f:
					fmt.Fprintf(&b, "    %s();\n", c.name)
				case cf != nil && cf.dir == f.dir:
					fmt.Fprintf(&b, "    %s::%s();\n", title(cf.name), c.name)
				case cf != nil:
					fmt.Fprintf(&b, "    %s::%s::%s();\n", cf.dir, title(cf.name), c.name)
				}
			}
			b.WriteString("}\n")
		}
		fmt.Fprintf(&b, "\n}  // namespace %s\n", f.dir)
		return b.String()
	},
	layout: func(m *codeModel) map[string]string {
		out := map[string]string{}
		for _, f := range m.files {
			var h strings.Builder
			fmt.Fprintf(&h, "#pragma once\n\nnamespace %s {\n\nclass %s {\npublic:\n", f.dir, title(f.name))
			for _, fn := range f.funcs {
				fmt.Fprintf(&h, "    static void %s();\n", fn.name)
			}
			fmt.Fprintf(&h, "};\n\n}  // namespace %s\n", f.dir)
			out[f.dir+"/"+f.name+".hpp"] = h.String()
		}
		return out
	},
}

func renderJS(m *codeModel, f *modelFile, ext string) string {
	var b strings.Builder
	for _, cf := range m.callees(f) {
		names := m.namesFrom(f, cf)
		rel := "./" + cf.name + ext
		if cf.dir != f.dir {
			rel = "../" + cf.dir + "/" + cf.name + ext
		}
		fmt.Fprintf(&b, "import { %s } from %q;\n", strings.Join(names, ", "), rel)
	}
	for _, fn := range f.funcs {
		fmt.Fprintf(&b, "\n/** %s does its part. */\nexport function %s() {\n", fn.name, fn.name)
		for _, c := range fn.calls {
			fmt.Fprintf(&b, "  %s();\n", c.name)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// TestIncrementalAfterKill kills `analyze` at random points of a re-index
// (SIGKILL: no cleanup) and requires the next run to bring the index to
// what a rebuild makes, leaving no temporary files behind.
func TestIncrementalAfterKill(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	m := newCodeModel(rng)
	for i := 0; i < 30; i++ { // a repository big enough to be killed in the middle
		m.addFile(rng)
		m.addCall(rng)
	}
	l := modelLanguages[0]
	home := t.TempDir()
	inc := filepath.Join(t.TempDir(), "repo")
	full := filepath.Join(t.TempDir(), "repo")
	for round := 0; round < 5; round++ {
		m.edit(rng)
		m.edit(rng)
		files := m.render(l)
		for _, root := range []string{inc, full} {
			syncFiles(t, root, files)
			commitAll(t, root, round)
		}
		if round > 0 {
			cmd := exec.Command(binary, "analyze", "-q", inc)
			cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Intn(400)) * time.Millisecond)
			cmd.Process.Kill()
			cmd.Wait()
		}
		mustRun(t, home, inc, "analyze", "-q")
		mustRun(t, home, full, "analyze", "--force", "-q")
		// The killed run may have committed its own update of the
		// communities: the memberships before it are not known.
		if msg := sameAsRebuild(t, inc, full, nil); msg != "" {
			t.Fatalf("round %d, after a killed run: %s", round, msg)
		}
		if left, _ := filepath.Glob(filepath.Join(inc, ".gitnexus", "*.tmp-*")); len(left) > 0 {
			t.Errorf("round %d: temporary files left: %v", round, left)
		}
	}
}

// TestIncrementalReplay replays the last GITNEXUS_REPLAY_COMMITS (default
// 50) commits of the repository GITNEXUS_REPLAY_REPO one by one, checking
// each out in two clones: one re-indexed with `analyze`, the other rebuilt
// with `analyze --force`; the indexes must be the same at every commit.
// With GITNEXUS_REPLAY_SAVES set, each commit's changes are first saved in
// the work tree on top of the commit before it, as an editor would, and
// compared too. GITNEXUS_REPLAY_MAX_COMMITS sets --max-commits for both,
// so that each commit pushes the oldest out of the history. Run by hand on
// a real repository:
//
//	GITNEXUS_REPLAY_REPO=/path/to/clone go test -tags sqlite_fts5 -run TestIncrementalReplay -timeout 2h ./internal/cli/
func TestIncrementalReplay(t *testing.T) {
	src := os.Getenv("GITNEXUS_REPLAY_REPO")
	if src == "" {
		t.Skip("GITNEXUS_REPLAY_REPO is not set")
	}
	n := 50
	if v := os.Getenv("GITNEXUS_REPLAY_COMMITS"); v != "" {
		fmt.Sscan(v, &n)
	}
	out, err := exec.Command("git", "-C", src, "rev-list", "--first-parent", "--reverse", fmt.Sprintf("--max-count=%d", n), "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	// rev-list --reverse with --max-count takes the newest n, oldest first.
	commits := strings.Fields(string(out))
	home := t.TempDir()
	inc, full := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "repo")
	for _, dst := range []string{inc, full} {
		if out, err := exec.Command("git", "clone", "-q", "--no-checkout", src, dst).CombinedOutput(); err != nil {
			t.Fatalf("clone: %v\n%s", err, out)
		}
	}
	saves := os.Getenv("GITNEXUS_REPLAY_SAVES") != ""
	var flags []string
	if v := os.Getenv("GITNEXUS_REPLAY_MAX_COMMITS"); v != "" {
		flags = []string{"--max-commits", v}
	}
	reused, inPlace, local, carried, saved, partial := 0, 0, 0, 0, 0, 0
	var before map[string]string
	step := func(what string) {
		t.Helper()
		var rep struct {
			Status  string
			Summary struct {
				FilesReused   int
				SourceFiles   int
				FilesResolved int
				Update        *struct{ NodesAdded int }
				History       *struct{ Carried bool }
			}
		}
		json.Unmarshal([]byte(mustRun(t, home, inc, append([]string{"analyze", "--json", "-q"}, flags...)...).stdout), &rep)
		reused += rep.Summary.FilesReused
		if rep.Status == "indexed" && rep.Summary.FilesResolved < rep.Summary.SourceFiles {
			partial++
		}
		if rep.Summary.Update != nil {
			inPlace++
		}
		if h := rep.Summary.History; h != nil && h.Carried {
			carried++
		}
		mustRun(t, home, full, append([]string{"analyze", "--force", "-q"}, flags...)...)
		if msg := sameAsRebuild(t, inc, full, before); msg != "" {
			t.Fatalf("%s: %s", what, msg)
		}
		if communitiesLocal(t, inc) {
			local++
		}
		before = memberships(t, inc)
	}
	for i, c := range commits {
		if saves && i > 0 {
			for _, dst := range []string{inc, full} {
				diff := exec.Command("git", "diff", "--binary", commits[i-1], c)
				diff.Dir = dst
				patch, err := diff.Output()
				if err != nil {
					t.Fatal(err)
				}
				apply := exec.Command("git", "apply", "--whitespace=nowarn")
				apply.Dir, apply.Stdin = dst, bytes.NewReader(patch)
				if out, err := apply.CombinedOutput(); err != nil {
					t.Fatalf("git apply: %v\n%s", err, out)
				}
			}
			step(fmt.Sprintf("commit %d of %d (%s), saved", i+1, len(commits), c))
			saved++
		}
		for _, dst := range []string{inc, full} {
			git(t, dst, "checkout", "-q", "-f", "--detach", c)
			git(t, dst, "clean", "-q", "-f", "-d")
		}
		step(fmt.Sprintf("commit %d of %d (%s)", i+1, len(commits), c))
	}
	t.Logf("%d commits replayed (%d saved first), the same index at each; %d file extractions reused, %d indexes changed in place, "+
		"%d with communities updated locally, %d with the history carried over, %d resolving only the files the change could affect",
		len(commits), saved, reused, inPlace, local, carried, partial)
	if inPlace == 0 && len(commits) > 1 {
		t.Error("no re-index changed the index in place: the replay checked only full writes")
	}
}

// TestIncrementalAfterKilledWrite kills `analyze` inside its in-place write
// of the index (store.Save), just before the transaction commits and just
// after: before, a reader opening the index right then sees the index as it
// was (the rollback journal left behind is rolled back, which a read-only
// open cannot do by itself); after, it sees the new one. Either way the
// next `analyze` ends with the index a rebuild makes.
func TestIncrementalAfterKilledWrite(t *testing.T) {
	for _, point := range []string{"update-before-commit", "update-after-commit"} {
		t.Run(point, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewSource(5))
			m := newCodeModel(rng)
			l := modelLanguages[0]
			home, inc, full := modelRepos(t, m, l)
			mustRun(t, home, inc, "analyze", "-q")
			before, beforeOf := dumpIndex(t, inc), memberships(t, inc)
			m.edit(rng)
			m.edit(rng)
			files := m.render(l)
			for _, root := range []string{inc, full} {
				syncFiles(t, root, files)
			}
			cmd := exec.Command(binary, "analyze", "-q", inc)
			cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home, "GITNEXUS_FAILPOINT="+point)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("analyze was not killed at %s: %v\n%s", point, err, out)
			}
			if point == "update-before-commit" {
				if _, err := os.Stat(filepath.Join(inc, ".gitnexus", "graph.db-journal")); err != nil {
					t.Fatalf("the killed write left no journal: %v", err)
				}
			}
			// A reader first: it must roll the journal back itself.
			mustRun(t, home, inc, "cypher", "MATCH (n) RETURN count(n)", "--repo", inc)
			mustRun(t, home, full, "analyze", "--force", "-q")
			switch now := dumpIndex(t, inc); point {
			case "update-before-commit":
				if !reflect.DeepEqual(now, before) {
					t.Errorf("the index changed although the write was killed before its commit")
				}
			case "update-after-commit":
				if msg := sameAsRebuild(t, inc, full, beforeOf); msg != "" {
					t.Errorf("the committed write does not read as the rebuild: %s", msg)
				}
			}
			mustRun(t, home, inc, "analyze", "-q")
			if msg := sameAsRebuild(t, inc, full, nil); msg != "" {
				t.Fatalf("after the killed write: %s", msg)
			}
			// meta.json is the database's meta again, whether the next
			// run re-indexed or found the index fresh.
			var js, db map[string]any
			b, err := os.ReadFile(filepath.Join(inc, ".gitnexus", "meta.json"))
			if err != nil {
				t.Fatal(err)
			}
			stored := indexMeta(t, inc)
			if err := errors.Join(json.Unmarshal(b, &js), json.Unmarshal([]byte(stored), &db)); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(js, db) {
				t.Errorf("meta.json is not the index's meta after the killed write:\n%s\nindex: %s", b, stored)
			}
		})
	}
}

// TestLocalCommunitiesNeedTheirCache: communities are updated locally only
// with the extraction cache written with the index, which tells the files
// changed since; with another (an index unpacked from elsewhere, or a run
// killed before it wrote its cache), they are detected again, and the
// summary says why.
func TestLocalCommunitiesNeedTheirCache(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	m := newCodeModel(rng)
	l := modelLanguages[0]
	home := t.TempDir()
	root := filepath.Join(t.TempDir(), "repo")
	cache := filepath.Join(root, ".gitnexus", "extract.cache")
	var saved []byte
	var files map[string]string
	for step, want := range []string{"detected", "local", "detected", "local"} {
		for step > 0 && reflect.DeepEqual(files, m.render(l)) { // every step changes a file
			m.edit(rng)
		}
		files = m.render(l)
		syncFiles(t, root, files)
		commitAll(t, root, step)
		if step == 2 {
			// The cache of step 0, not of the index step 1 wrote.
			if err := os.WriteFile(cache, saved, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var rep struct {
			Summary struct {
				Flows struct{ CommunityUpdate, CommunityWhy string }
			}
		}
		if err := json.Unmarshal([]byte(mustRun(t, home, root, "analyze", "--json", "-q").stdout), &rep); err != nil {
			t.Fatal(err)
		}
		f := rep.Summary.Flows
		if f.CommunityUpdate != want {
			t.Fatalf("step %d: communities %s (%s), want %s", step, f.CommunityUpdate, f.CommunityWhy, want)
		}
		if step == 2 && f.CommunityWhy != "the extraction cache was not written with the index" {
			t.Errorf("step 2: why %q", f.CommunityWhy)
		}
		if step == 0 {
			b, err := os.ReadFile(cache)
			if err != nil {
				t.Fatal(err)
			}
			saved = b
		}
	}
}
