package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
)

func sampleGraph() *graph.Graph {
	g := graph.New()
	g.AddNode(graph.Node{ID: "File:svc/user.go", Kind: graph.KindFile, Name: "user.go", FilePath: "svc/user.go", Language: "go"})
	g.AddNode(graph.Node{ID: "Function:svc/user.go:getUserById", Kind: graph.KindFunction, Name: "getUserById",
		QualifiedName: "svc.getUserById", FilePath: "svc/user.go", StartLine: 3, EndLine: 9,
		Signature: "func getUserById(id int) *User", Doc: "Loads one account.", Language: "go",
		Content: "func getUserById(id int) *User { return db.Find(id) }"})
	g.AddNode(graph.Node{ID: "Function:svc/user.go:main", Kind: graph.KindFunction, Name: "main", QualifiedName: "svc.main",
		FilePath: "svc/user.go", StartLine: 11, EndLine: 13, Signature: "func main()", Language: "go", Exported: false})
	g.AddEdge(graph.Edge{Src: "File:svc/user.go", Dst: "Function:svc/user.go:getUserById", Type: graph.EdgeDefines, Confidence: 1, Reason: graph.ReasonSyntax})
	g.AddEdge(graph.Edge{Src: "Function:svc/user.go:main", Dst: "Function:svc/user.go:getUserById", Type: graph.EdgeCalls,
		Confidence: 0.95, Reason: graph.ReasonSameFile, Line: 12})
	g.AddEdge(graph.Edge{Src: "Function:svc/user.go:main", Dst: "Function:svc/user.go:getUserById", Type: graph.EdgeCalls,
		Confidence: 0.95, Reason: graph.ReasonSameFile, Line: 13})
	return g
}

func TestWriteAndRead(t *testing.T) {
	repo := t.TempDir()
	ctx := context.Background()
	res, err := Write(ctx, repo, sampleGraph(), Meta{ToolVersion: "test", IndexedCommit: "abc", IndexedAt: time.Unix(100, 0).UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Meta.Generation != 1 {
		t.Errorf("generation = %d, want 1", res.Meta.Generation)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if m := r.Meta(); m.IndexedCommit != "abc" || m.SchemaVersion != SchemaVersion || m.Format != MetaFormat {
		t.Errorf("meta = %+v", m)
	}
	// The public views, as an outside tool reads them.
	var src, dst, typ, reason string
	var conf float64
	var line int
	var more string
	err = r.DB().QueryRow(`SELECT src, dst, type, confidence, reason, line, more_lines FROM edges WHERE type = 'CALLS'`).
		Scan(&src, &dst, &typ, &conf, &reason, &line, &more)
	if err != nil {
		t.Fatal(err)
	}
	if src != "Function:svc/user.go:main" || dst != "Function:svc/user.go:getUserById" || conf != 0.95 || reason != "same-file" || line != 12 || more != "13" {
		t.Errorf("edge = %s %s %s %v %s %d %q", src, dst, typ, conf, reason, line, more)
	}
	var name, qn, file string
	var start, end, exported int
	err = r.DB().QueryRow(`SELECT name, qualified_name, file_path, start_line, end_line, is_exported FROM nodes WHERE id = ?`,
		"Function:svc/user.go:getUserById").Scan(&name, &qn, &file, &start, &end, &exported)
	if err != nil || name != "getUserById" || qn != "svc.getUserById" || start != 3 || end != 9 {
		t.Errorf("node = %v %s %s %s %d %d", err, name, qn, file, start, end)
	}
	// Full-text search splits identifiers: "user" finds getUserById, the
	// file by its path, and main by its file's path.
	hits, err := r.Search(ctx, "user", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 {
		t.Fatalf("search user: %d hits, want 3 (function, file, main)", len(hits))
	}
	mainHit := false
	for _, h := range hits {
		var id string
		if r.DB().QueryRow(`SELECT id FROM node WHERE rid = ?`, h.Rid).Scan(&id); id == "Function:svc/user.go:main" {
			mainHit = true
		}
	}
	if !mainHit {
		t.Errorf("search user: main is not found by its file's path")
	}
	hits, err = r.Search(ctx, "account", 10)
	if err != nil || len(hits) != 1 {
		t.Errorf("search by doc: %v %v", hits, err)
	}
	content, doc, err := r.NodeText(ctx, hits[0].Rid)
	if err != nil || !strings.Contains(content, "db.Find") || doc != "Loads one account." {
		t.Errorf("text = %q %q %v", content, doc, err)
	}
	// meta.json mirrors the database and .gitignore keeps the index out of git.
	b, err := os.ReadFile(filepath.Join(Dir(repo), MetaName))
	if err != nil || !strings.Contains(string(b), `"indexedCommit": "abc"`) {
		t.Errorf("meta.json: %s %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(Dir(repo), ".gitignore")); err != nil || !strings.Contains(string(b), "*") {
		t.Errorf(".gitignore: %q %v", b, err)
	}
}

func TestRewriteIsAtomicAndCountsGenerations(t *testing.T) {
	repo := t.TempDir()
	ctx := context.Background()
	if _, err := Write(ctx, repo, sampleGraph(), Meta{ToolVersion: "one"}); err != nil {
		t.Fatal(err)
	}
	// A reader holding the first index keeps reading it while the second
	// is written and installed.
	old, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	g := sampleGraph()
	g.AddNode(graph.Node{ID: "Function:svc/user.go:extra", Kind: graph.KindFunction, Name: "extra", FilePath: "svc/user.go"})
	res, err := Write(ctx, repo, g, Meta{ToolVersion: "two"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Meta.Generation != 2 {
		t.Errorf("generation = %d, want 2", res.Meta.Generation)
	}
	if n, _, err := old.Counts(ctx); err != nil || n != 3 {
		t.Errorf("old reader sees %d nodes (%v), want 3", n, err)
	}
	cur, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close()
	if n, _, _ := cur.Counts(ctx); n != 4 || cur.Meta().ToolVersion != "two" {
		t.Errorf("new reader sees %d nodes, tool %s", n, cur.Meta().ToolVersion)
	}
}

func TestCancelledWriteKeepsPreviousIndex(t *testing.T) {
	repo := t.TempDir()
	if _, err := Write(context.Background(), repo, sampleGraph(), Meta{ToolVersion: "one"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := sampleGraph()
	for i := 0; i < 5000; i++ {
		id := "Function:f.go:f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('0'+i%10)) + string(rune(i))
		big.AddNode(graph.Node{ID: id, Kind: graph.KindFunction, Name: "f", FilePath: "f.go"})
	}
	if _, err := Write(ctx, repo, big, Meta{ToolVersion: "two"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Meta().ToolVersion != "one" {
		t.Errorf("previous index replaced: %+v", r.Meta())
	}
	left, _ := filepath.Glob(filepath.Join(Dir(repo), tmpDBPrefix+"*"))
	if len(left) != 0 {
		t.Errorf("partial files left: %v", left)
	}
}

func TestOpenErrors(t *testing.T) {
	repo := t.TempDir()
	if _, err := OpenRepo(repo); !errors.Is(err, ErrNoIndex) || !strings.Contains(err.Error(), "gitnexus analyze") {
		t.Errorf("missing index: %v", err)
	}
	if err := os.MkdirAll(Dir(repo), 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(Dir(repo), DBName)
	if err := os.WriteFile(db, []byte("this is not sqlite at all, just text of some length........"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRepo(repo); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("corrupt index: %v", err)
	}
	// A SQLite file written by another program.
	os.Remove(db)
	foreign, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := foreign.Exec(`CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES ('meta', '{"format":"other"}')`); err != nil {
		t.Fatal(err)
	}
	foreign.Close()
	if _, err := OpenRepo(repo); err == nil || !strings.Contains(err.Error(), "not written by this program") {
		t.Errorf("foreign index: %v", err)
	}
	// And a write replaces it.
	if _, err := Write(context.Background(), repo, sampleGraph(), Meta{}); err != nil {
		t.Fatal(err)
	}
	if r, err := OpenRepo(repo); err != nil {
		t.Errorf("after rewrite: %v", err)
	} else {
		r.Close()
	}
}

func TestLock(t *testing.T) {
	repo := t.TempDir()
	unlock, err := Lock(repo, 0)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks are per open file description: a second Lock in the same
	// process conflicts like another process would.
	if _, err := Lock(repo, 0); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "pid") {
		t.Errorf("second lock: %v", err)
	}
	done := make(chan error)
	go func() {
		u, err := Lock(repo, 5*time.Second)
		if err == nil {
			u()
		}
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	unlock()
	if err := <-done; err != nil {
		t.Errorf("waiting lock: %v", err)
	}
}

func TestIdentifierWords(t *testing.T) {
	cases := map[string]string{
		"getUserById":         "get user by id",
		"HTTPServer":          "http server",
		"parse_json_v2":       "parse json v 2",
		"api/user_service.go": "api user service go",
		"utf8Decode":          "utf 8 decode",
		"Ünïcode":             "ünïcode",
	}
	for in, want := range cases {
		if got := identifierWords(in); got != want {
			t.Errorf("identifierWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	g := sampleGraph()
	nodes := g.Nodes()
	rid := map[string]int64{}
	for i, n := range nodes {
		rid[n.ID] = int64(i + 1)
	}
	f.Add(encodeSnapshot(nodes, g.Edges(), g.EdgeEnds(), rid, textHashes(nodes), int64(len(nodes))+1))
	f.Add([]byte("GNXS\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeSnapshot(b)
		if err != nil {
			return
		}
		for _, e := range s.Edges {
			if int(e.Src) >= len(s.Nodes) || int(e.Dst) >= len(s.Nodes) {
				t.Fatalf("edge out of range accepted")
			}
		}
	})
}

func TestFTSQuery(t *testing.T) {
	// 100,000 documents: "func" and "const" are held by more than a tenth,
	// "int"-like prefixes add up, "alpha", "beta" and "gamma" are held by
	// less than a tenth each but fill the budget together (13,350 rows
	// times 4 phrases is more than 50,000); words not listed are held by
	// at most 100 documents.
	common := commonTerms{docs: 100000, terms: []termCount{{"alpha", 4000}, {"beta", 4750}, {"const", 15000},
		{"func", 70000}, {"gamma", 4500}, {"get", 2000}, {"int", 6000}, {"integer", 5000}}}
	cases := []struct {
		in, want string
		dropped  []string
	}{
		{"parse config file", `"parse"* OR "config"* OR "file"*`, nil},
		{"rewrite value ppc 64 op lsh x 32", `"rewrite"* OR "value"* OR "ppc"* OR "64" OR "op" OR "lsh"* OR "32"`, nil},
		{"x", `"x"`, nil},
		{"a b", `"a" OR "b"`, nil},
		{"getBuffer get", `"get"* OR "buffer"* OR "getbuffer"*`, nil},
		{`say "hi"`, `"say"* OR "hi"`, nil},
		{"", "", nil},
		// Common words go while a rarer one stays.
		{"write func syms", `"write"* OR "syms"*`, []string{"func"}},
		{"const addr", `"addr"*`, []string{"const"}},
		// A prefix counts the listed terms it starts: int* is 11,000 of 100,000.
		{"load int slice", `"load"* OR "slice"*`, []string{"int"}},
		// Exact words count only themselves: "in" is not listed.
		{"in func", `"in"`, []string{"func"}},
		// Nothing rarer: the rarest common word stays, the budget drops the other.
		{"func const", `"const"*`, []string{"func"}},
		// Words that fill the budget together: the most common goes.
		{"beta alpha delta gamma", `"alpha"* OR "delta"* OR "gamma"*`, []string{"beta"}},
		// One word stays whatever it holds.
		{"func", `"func"*`, nil},
	}
	for _, c := range cases {
		got, dropped := ftsQuery(c.in, common, true)
		if got != c.want || !reflect.DeepEqual(dropped, c.dropped) {
			t.Errorf("ftsQuery(%q) = %s, dropped %v; want %s, dropped %v", c.in, got, dropped, c.want, c.dropped)
		}
	}
	// Without the table (an index written before it), nothing is dropped;
	// nor in a small index, where a tenth of the documents is a handful.
	small := commonTerms{docs: 300, terms: []termCount{{"func", 200}}}
	for _, c := range []commonTerms{{}, small} {
		if got, dropped := ftsQuery("write func syms", c, true); got != `"write"* OR "func"* OR "syms"*` || dropped != nil {
			t.Errorf("with %+v: %s, %v", c, got, dropped)
		}
	}
}

// TestPrefixHitsRankAfterWholeWords: prefix matches come only when whole
// words find too few, after every whole-word hit, in their own order;
// alone, they keep their scores.
func TestPrefixHitsRankAfterWholeWords(t *testing.T) {
	g := graph.New()
	for i, n := range []struct{ name, content string }{
		{"parseArgs", "func parseArgs() { parse(os.Args) }"},
		{"parserNew", "func parserNew() *parser { return new(parser) }"},
		{"parsingHelp", "func parsingHelp() string { return help }"},
	} {
		g.AddNode(graph.Node{ID: "Function:p.go:" + n.name, Kind: graph.KindFunction, Name: n.name, QualifiedName: "p." + n.name,
			FilePath: "p.go", StartLine: 1 + 10*i, EndLine: 5 + 10*i, Language: "go", Content: n.content})
	}
	repo := t.TempDir()
	if _, err := Write(context.Background(), repo, g, Meta{IndexedAt: time.Unix(100, 0).UTC()}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	descending := func(hits []SearchHit) bool {
		for i := 1; i < len(hits); i++ {
			if !(hits[i].Score < hits[i-1].Score) || hits[i].Score <= 0 {
				return false
			}
		}
		return len(hits) > 0 && hits[0].Score > 0
	}
	// No whole word: the prefix ranking as it is.
	if hits, err := r.Search(context.Background(), "pars", 10); err != nil || len(hits) != 3 || !descending(hits) {
		t.Errorf("pars: %v %+v", err, hits)
	}
	// One whole-word hit (parse), then the prefix-only one (parser) at half
	// its score or below; parsing does not start with parse.
	hits, err := r.Search(context.Background(), "parse", 10)
	if err != nil || len(hits) != 2 || !descending(hits) || hits[1].Score > hits[0].Score*prefixDiscount {
		t.Errorf("parse: %v %+v", err, hits)
	}
}

// TestFTSQueryWholeWords: without prefixes every word matches whole, and a
// compound identifier matches its words and itself.
func TestFTSQueryWholeWords(t *testing.T) {
	for in, want := range map[string]string{
		"parse config file":       `"parse" OR "config" OR "file"`,
		"fix loadConfigFile leak": `"fix" OR "load" OR "config" OR "file" OR "leak" OR "loadconfigfile"`,
		"send_request retries":    `"send" OR "request" OR "retries" OR "send_request"`,
	} {
		if got, _ := ftsQuery(in, commonTerms{}, false); got != want {
			t.Errorf("ftsQuery(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestCommonTerms: the index lists the document count of terms held by
// more than a thousandth of its documents (and 20 of them), and the
// number of documents; a query then leaves out a word most of a large
// index holds.
func TestCommonTerms(t *testing.T) {
	repo := t.TempDir()
	g := graph.New()
	const n = 12000
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("widget%d", i)
		sig := "func " + name + "()"
		if i%500 == 0 {
			name = fmt.Sprintf("parseToken%d", i)
			sig = "func " + name + "()"
		}
		g.AddNode(graph.Node{ID: "Function:f.go:" + name, Kind: graph.KindFunction, Name: name, FilePath: "f.go",
			Signature: sig, StartLine: 1, EndLine: 1})
	}
	if _, err := Write(context.Background(), repo, g, Meta{ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.common.docs != n || r.common.count("func", false) != n {
		t.Fatalf("common terms: %d documents, func in %d; want %d and %d", r.common.docs, r.common.count("func", false), n, n)
	}
	// Terms held by more than 20 documents (a thousandth of 12,000 is
	// less) are listed with their counts; others count as 20.
	for _, c := range []struct {
		word   string
		prefix bool
		want   int
	}{{"parse", false, n / 500}, {"pars", true, n / 500}, {"zebra", false, 20}, {"zeb", true, 20}} {
		if got := r.common.count(c.word, c.prefix); got != c.want {
			t.Errorf("count(%q, prefix %v) = %d, want %d", c.word, c.prefix, got, c.want)
		}
	}
	if got := r.CommonWords("parse func"); !reflect.DeepEqual(got, []string{"func"}) {
		t.Errorf("CommonWords(parse func) = %v, want [func]", got)
	}
	hits, err := r.Search(context.Background(), "parse func", 100)
	if err != nil || len(hits) != n/500 {
		t.Errorf("search parse func: %d hits, %v; want the %d parse functions", len(hits), err, n/500)
	}
}

// BenchmarkTextHash hashes a node's text as an incremental write does for
// every node.
func BenchmarkTextHash(b *testing.B) {
	content := strings.Repeat("func foo() { return bar(x, y) }\n", 100)
	b.SetBytes(int64(len(content)))
	var sink uint64
	for range b.N {
		sink += textHash("doc", content)
	}
	_ = sink
}

// TestTextHashSeparates: the doc and content are hashed apart, and a change
// of either changes the hash.
func TestTextHashSeparates(t *testing.T) {
	seen := map[uint64]string{}
	for _, dc := range [][2]string{{"ab", ""}, {"a", "b"}, {"", "ab"}, {"ab", "c"}, {"ab", "d"}, {"", ""}, {"x", "func f() {}"}, {"x", "func f() {} "}} {
		h := textHash(dc[0], dc[1])
		if prev, ok := seen[h]; ok {
			t.Errorf("%q and %s hash the same", dc, prev)
		}
		seen[h] = fmt.Sprintf("%q", dc)
	}
}

// TestLockLeavesNothingWhenNoIndexWasWritten: a run that created the
// index directory and let go of the lock without writing an index (it
// failed or was interrupted) leaves no directory behind; one that wrote
// an index, or found the directory there, leaves it.
func TestLockLeavesNothingWhenNoIndexWasWritten(t *testing.T) {
	t.Run("nothing written", func(t *testing.T) {
		repo := t.TempDir()
		unlock, err := Lock(repo, 0)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(Dir(repo), tmpDBPrefix+"1"), []byte("partial"), 0o644)
		unlock()
		if _, err := os.Stat(Dir(repo)); !errors.Is(err, os.ErrNotExist) {
			entries, _ := os.ReadDir(Dir(repo))
			t.Errorf("the index directory is left with %v", entries)
		}
	})
	t.Run("something else there", func(t *testing.T) {
		repo := t.TempDir()
		unlock, err := Lock(repo, 0)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(Dir(repo), "extract.cache"), []byte("facts"), 0o644)
		unlock()
		entries, _ := os.ReadDir(Dir(repo))
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != ".gitignore extract.cache" {
			t.Errorf("left %v, want the file and the .gitignore that keeps it out of git", names)
		}
	})
	t.Run("index written", func(t *testing.T) {
		repo := t.TempDir()
		unlock, err := Lock(repo, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Write(context.Background(), repo, sampleGraph(), Meta{}); err != nil {
			t.Fatal(err)
		}
		unlock()
		if _, err := OpenRepo(repo); err != nil {
			t.Errorf("the index is gone: %v", err)
		}
	})
	t.Run("directory there before", func(t *testing.T) {
		repo := t.TempDir()
		os.MkdirAll(Dir(repo), 0o755)
		unlock, err := Lock(repo, 0)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
		if _, err := os.Stat(filepath.Join(Dir(repo), ".gitignore")); err != nil {
			t.Errorf("the directory that was there was emptied: %v", err)
		}
	})
	t.Run("a waiter takes over", func(t *testing.T) {
		// The first run gives up and removes its lock file while a second
		// waits on it: the second must hold a lock on the file at the
		// path, so that a third waits for it.
		repo := t.TempDir()
		unlock, err := Lock(repo, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan func())
		go func() {
			u, err := Lock(repo, 5*time.Second)
			if err != nil {
				t.Error(err)
				u = func() {}
			}
			got <- u
		}()
		time.Sleep(200 * time.Millisecond)
		unlock()
		second := <-got
		if _, err := Lock(repo, 0); !errors.Is(err, ErrLocked) {
			t.Errorf("a third run got the lock beside the second: %v", err)
		}
		if _, err := os.Stat(filepath.Join(Dir(repo), ".gitignore")); err != nil {
			t.Errorf("the second run holds the lock in a directory without its .gitignore: %v", err)
		}
		second()
	})
}

// TestOpenRemovesDeadWritersLeftovers: opening the index removes the
// partial database of a writer whose process is gone, not that of one
// still running.
func TestOpenRemovesDeadWritersLeftovers(t *testing.T) {
	repo := t.TempDir()
	if _, err := Write(context.Background(), repo, sampleGraph(), Meta{}); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(Dir(repo), tmpDBPrefix+strconv.Itoa(gone.Process.Pid))
	alive := filepath.Join(Dir(repo), tmpDBPrefix+strconv.Itoa(os.Getpid()))
	for _, p := range []string{dead, dead + "-journal", alive} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	for p, want := range map[string]bool{dead: false, dead + "-journal": false, alive: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
