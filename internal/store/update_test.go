package store

import (
	"context"
	"database/sql"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
)

// TestSaveInPlace writes an index, then saves a changed graph over it: the
// second write changes it in place, keeps the rids of the nodes that stay,
// gives the new node an unused rid, and reports what it changed.
func TestSaveInPlace(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	meta := Meta{Writer: "w"}
	g := sampleGraph()
	res, err := Save(ctx, repo, g, nil, meta, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Update != nil || res.Rewritten != "there is no index" {
		t.Fatalf("first save: update %+v, rewritten %q", res.Update, res.Rewritten)
	}
	before := rids(t, repo)
	g2 := sampleGraph()
	g2.AddNode(graph.Node{ID: "Function:a/a.go:aaa", Kind: graph.KindFunction, Name: "aaa", FilePath: "a/a.go", Content: "func aaa() {}"})
	res, err = Save(ctx, repo, g2, nil, meta, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Update == nil || res.Update.NodesAdded != 1 || res.Update.NodesRemoved != 0 || res.Update.NodesChanged != 0 {
		t.Fatalf("second save: update %+v, rewritten %q", res.Update, res.Rewritten)
	}
	if res.Meta.Generation != 2 {
		t.Errorf("generation %d, want 2", res.Meta.Generation)
	}
	after := rids(t, repo)
	top := int64(0)
	for id, r := range before {
		if after[id] != r {
			t.Errorf("%s moved from rid %d to %d", id, r, after[id])
		}
		top = max(top, r)
	}
	if after["Function:a/a.go:aaa"] != top+1 {
		t.Errorf("the new node has rid %d, want %d", after["Function:a/a.go:aaa"], top+1)
	}
	// Another writer, --force, or embeddings write a new file.
	for _, c := range []struct {
		meta Meta
		opts WriteOptions
		why  string
	}{
		{Meta{Writer: "other"}, WriteOptions{}, "another build"},
		{meta, WriteOptions{Fresh: true}, "--force"},
	} {
		res, err := Save(ctx, repo, sampleGraph(), nil, c.meta, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Update != nil || !strings.Contains(res.Rewritten, c.why) {
			t.Errorf("save with %+v: update %+v, rewritten %q", c, res.Update, res.Rewritten)
		}
	}
}

// TestSaveAhead saves with a snapshot read ahead: while the index is at
// the generation it was read from, the write uses it and gives what a write
// without it gives; once another write came between, the write must not
// use it (it would diff the graph with an index that is gone).
func TestSaveAhead(t *testing.T) {
	ctx := context.Background()
	meta := Meta{Writer: "w"}
	with := graph.Node{ID: "Function:a/a.go:aaa", Kind: graph.KindFunction, Name: "aaa", FilePath: "a/a.go", Content: "func aaa() {}"}
	grown := func() *graph.Graph {
		g := sampleGraph()
		g.AddNode(with)
		return g
	}
	ahead := func(repo string) *Ahead {
		r, err := OpenRepo(repo)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		a, err := r.SnapshotAhead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	save := func(repo string, g *graph.Graph, a *Ahead) *WriteResult {
		res, err := Save(ctx, repo, g, nil, meta, WriteOptions{Ahead: a})
		if err != nil {
			t.Fatal(err)
		}
		if res.Update == nil && res.Rewritten != "there is no index" {
			t.Fatalf("not written in place: %s", res.Rewritten)
		}
		return res
	}
	// The same generation: used, and the same as without it.
	plain, early := t.TempDir(), t.TempDir()
	for _, repo := range []string{plain, early} {
		save(repo, sampleGraph(), nil)
		save(repo, sampleGraph(), nil) // in place: a snapshot with rids
	}
	res := save(early, grown(), ahead(early))
	want := save(plain, grown(), nil)
	if *res.Update != *want.Update || !reflect.DeepEqual(rids(t, early), rids(t, plain)) {
		t.Errorf("with the snapshot read ahead: %+v, rids %v; without: %+v, rids %v", res.Update, rids(t, early), want.Update, rids(t, plain))
	}
	// Stale: read, then the node added by another write; saving the
	// graph without it must remove it (a stale snapshot does not have it).
	stale := t.TempDir()
	save(stale, sampleGraph(), nil)
	save(stale, sampleGraph(), nil)
	a := ahead(stale)
	save(stale, grown(), nil)
	res = save(stale, sampleGraph(), a)
	if res.Update.NodesRemoved != 1 {
		t.Errorf("a stale snapshot was used: removed %d nodes, want 1", res.Update.NodesRemoved)
	}
	if _, ok := rids(t, stale)[with.ID]; ok {
		t.Errorf("%s is still in the index", with.ID)
	}
}

func rids(t *testing.T, repo string) map[string]int64 {
	t.Helper()
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows, err := r.DB().Query(`SELECT id, rid FROM node`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var rid int64
		if err := rows.Scan(&id, &rid); err != nil {
			t.Fatal(err)
		}
		out[id] = rid
	}
	return out
}

// TestOpenRollsBackKilledWrite leaves a hot journal the way a writer
// killed in the middle of an in-place write does (a child process changes
// the index in a transaction and exits without committing); a read-only
// open must roll it back and read the index as it was.
func TestOpenRollsBackKilledWrite(t *testing.T) {
	if path := os.Getenv("GITNEXUS_TEST_KILLED_WRITE"); path != "" {
		db, err := sql.Open("sqlite3", "file:"+path+"?_txlock=immediate")
		if err != nil {
			os.Exit(3)
		}
		db.SetMaxOpenConns(1)
		tx, err := db.Begin()
		if err != nil {
			os.Exit(4)
		}
		// A small cache makes SQLite write changed pages to the file
		// before the commit, as a large in-place write does.
		for _, q := range []string{`PRAGMA cache_size=1`, `DELETE FROM node`, `DELETE FROM search_common`} {
			if _, err := tx.Exec(q); err != nil {
				os.Exit(5)
			}
		}
		os.Exit(0) // no commit, no close: the journal stays hot
	}
	repo := t.TempDir()
	g := sampleGraph()
	for i := 0; i < 3000; i++ { // enough pages to spill
		g.AddNode(graph.Node{ID: "Function:big.go:f" + strconv.Itoa(i),
			Kind: graph.KindFunction, Name: "f", FilePath: "big.go", Content: strings.Repeat("body ", 40)})
	}
	if _, err := Write(context.Background(), repo, g, Meta{}); err != nil {
		t.Fatal(err)
	}
	want := len(rids(t, repo))
	path := filepath.Join(Dir(repo), DBName)
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenRollsBackKilledWrite$")
	cmd.Env = append(os.Environ(), "GITNEXUS_TEST_KILLED_WRITE="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if _, err := os.Stat(path + "-journal"); err != nil {
		t.Fatalf("the child left no journal: %v", err)
	}
	if got := len(rids(t, repo)); got != want {
		t.Errorf("read %d nodes after the killed write, want %d", got, want)
	}
}

// TestHistoryDeltaReadsAsTables saves histories in place one after the
// other: a new commit on top, a link that changes, a historical symbol
// that goes, a rewritten (dropped and amended) commit. After each, the
// tables must read back what the blob holds, row for row and in order, and
// what a new file written from the same graph holds.
func TestHistoryDeltaReadsAsTables(t *testing.T) {
	for _, withBase := range []bool{false, true} {
		t.Run(map[bool]string{false: "decoded", true: "base"}[withBase], func(t *testing.T) {
			testHistoryDelta(t, withBase)
		})
	}
}

// testHistoryDelta runs the steps of TestHistoryDeltaReadsAsTables; with
// base, each history carries the one read from the index before it
// (graph.History.Base), as a re-index's does.
func testHistoryDelta(t *testing.T, base bool) {
	ctx := context.Background()
	repo, fresh := t.TempDir(), t.TempDir()
	meta := Meta{Writer: "w", History: &graph.HistorySettings{Format: 1, MaxCommitFiles: 100}}
	steps := []func(h *graph.History, g *graph.Graph){
		func(h *graph.History, g *graph.Graph) {},
		func(h *graph.History, g *graph.Graph) { // a commit on top
			c := graph.Commit{Hash: "d4d4d4", Parents: []string{"c3c3c3"}, AuthorName: "Cy", Subject: "More", Message: "More"}
			h.Commits = append([]graph.Commit{c}, h.Commits...)
			h.Files = append([]graph.FileChange{{Commit: "d4d4d4", Status: 'M', Path: "svc/user.go", Additions: 1,
				FileID: "File:svc/user.go"}}, h.Files...)
			g.AddNode(graph.Node{ID: graph.CommitID(c.Hash), Kind: graph.KindCommit, Name: "d4d4", QualifiedName: c.Hash, Doc: c.Message})
		},
		func(h *graph.History, g *graph.Graph) { // a link changes, a historical symbol goes
			for i := range h.Symbols {
				if h.Symbols[i].Commit == "a1a1a1" && h.Symbols[i].Name == "gone" {
					h.Symbols[i].NodeID = "Function:svc/user.go:getUserById"
				}
			}
			h.Removed = h.Removed[1:]
		},
		func(h *graph.History, g *graph.Graph) { // the top commit dropped, the next amended
			h.Commits = h.Commits[1:]
			h.Commits[0].Subject, h.Commits[0].Message = "Merge fix, amended", "Merge fix, amended"
			h.Files = slices.DeleteFunc(h.Files, func(f graph.FileChange) bool { return f.Commit == "d4d4d4" })
		},
	}
	h := historyGraph().History()
	var extra []graph.Node
	for step, change := range steps {
		g := historyGraph()
		for _, n := range extra {
			g.AddNode(n)
		}
		change(h, g)
		if step == 1 {
			n, _ := g.Node(graph.CommitID("d4d4d4"))
			extra = append(extra, n)
		}
		if step == 3 {
			extra = nil
			g = historyGraph()
		}
		hc := *h
		hc.Commits = slices.Clone(h.Commits)
		hc.Files = slices.Clone(h.Files)
		hc.Symbols = slices.Clone(h.Symbols)
		hc.Removed = slices.Clone(h.Removed)
		if base && step > 0 {
			r, err := OpenRepo(repo)
			if err != nil {
				t.Fatal(err)
			}
			if hc.Base, err = r.History(ctx); err != nil || hc.Base == nil || hc.Base.Encoded == nil {
				t.Fatalf("the index's history: %v", err)
			}
			r.Close()
		}
		g.SetHistory(&hc)
		res, err := Save(ctx, repo, g, nil, meta, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if step > 0 && (res.Update == nil || !res.Update.HistoryRewritten) {
			t.Fatalf("step %d: update %+v, rewritten %q", step, res.Update, res.Rewritten)
		}
		if _, err := Write(ctx, fresh, g, meta); err != nil {
			t.Fatal(err)
		}
		inPlace, anew := tablesHistory(t, repo), tablesHistory(t, fresh)
		if !reflect.DeepEqual(inPlace, anew) {
			t.Errorf("step %d: the tables changed in place read\n%+v\na new file's read\n%+v", step, inPlace, anew)
		}
	}
}

// tablesHistory reads an index's history from its blob and from its
// tables, fails when the two differ, and returns the tables'.
func tablesHistory(t *testing.T, repo string) *graph.History {
	t.Helper()
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fromBlob, err := r.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fromTables, err := r.historyFromTables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fromBlob.Encoded = nil
	if !reflect.DeepEqual(fromBlob, fromTables) {
		t.Errorf("the blob reads\n%+v\nthe tables read\n%+v", fromBlob, fromTables)
	}
	return fromTables
}

// TestWriteAfterKilledWrite: a full write over an index whose in-place
// write was killed must not leave the old journal beside the new file,
// where SQLite would play it back onto it.
func TestWriteAfterKilledWrite(t *testing.T) {
	repo := t.TempDir()
	if _, err := Write(context.Background(), repo, sampleGraph(), Meta{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(Dir(repo), DBName)
	// A journal that does not match the file: what a rename without care
	// would leave beside the new index.
	if err := os.WriteFile(path+"-journal", []byte("not a journal of this file"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := sampleGraph()
	g.AddNode(graph.Node{ID: "Function:z.go:z", Kind: graph.KindFunction, Name: "z", FilePath: "z.go"})
	if _, err := Write(context.Background(), repo, g, Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-journal"); !os.IsNotExist(err) {
		t.Fatalf("the old journal is still there: %v", err)
	}
	if _, ok := rids(t, repo)["Function:z.go:z"]; !ok {
		t.Error("the new index does not read back")
	}
}

// TestConsistentView: an in-place write that starts while a Consistent view
// reads waits for it, so the view's second read sees the state its first
// read saw; once the view is done the write commits and later reads see it.
func TestConsistentView(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	meta := Meta{Writer: "w"}
	if _, err := Save(ctx, repo, sampleGraph(), nil, meta, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	nodeCount := func(v *Reader) int {
		s, err := v.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(s.Nodes)
	}
	before := nodeCount(r)
	done := make(chan error, 1)
	seen, err := r.Consistent(ctx, func(v *Reader) error {
		first := nodeCount(v)
		go func() {
			g := sampleGraph()
			g.AddNode(graph.Node{ID: "Function:a/a.go:late", Kind: graph.KindFunction, Name: "late", FilePath: "a/a.go"})
			_, err := Save(ctx, repo, g, nil, meta, WriteOptions{})
			done <- err
		}()
		time.Sleep(300 * time.Millisecond) // the write runs up to its commit meanwhile
		if second := nodeCount(v); second != first || first != before {
			t.Errorf("one view read %d nodes, then %d (before: %d)", first, second, before)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if seen.Generation != 1 {
		t.Errorf("the view's meta is generation %d, want 1", seen.Generation)
	}
	if after := nodeCount(r); after != before+1 {
		t.Errorf("after the write: %d nodes, want %d", after, before+1)
	}
}

// TestPartition reads back the communities a save kept, in and out of
// place, for a re-index to update them locally; an index whose meta does
// not say how its communities were found gives none.
func TestPartition(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	ids := []string{"Function:p/p.go:p1", "Function:p/p.go:p2", "Function:p/p.go:p3", "Function:p/p.go:p4"}
	withFlows := func(members map[string][]string, detection graph.CommunityDetection) *graph.Graph {
		g := sampleGraph()
		for _, id := range ids {
			g.AddNode(graph.Node{ID: id, Kind: graph.KindFunction, Name: id[len(id)-2:], FilePath: "p/p.go"})
		}
		f := &graph.Flows{Detection: detection}
		for _, label := range slices.Sorted(maps.Keys(members)) {
			id := "Community:" + label
			g.AddNode(graph.Node{ID: id, Kind: graph.KindCommunity, Name: label, QualifiedName: label, Language: "go"})
			for _, m := range members[label] {
				g.AddEdge(graph.Edge{Src: m, Dst: id, Type: graph.EdgeMemberOf, Confidence: 1, Reason: graph.ReasonCommunity})
			}
			f.Communities = append(f.Communities, graph.CommunityFacts{ID: id, Label: label, Cohesion: 0.5,
				SymbolCount: len(members[label]), Keywords: []string{"k1", "k2"}})
		}
		g.SetFlows(f)
		return g
	}
	for i, c := range []struct {
		members   map[string][]string
		detection graph.CommunityDetection
	}{
		{map[string][]string{"zeta": ids[:2], "alpha": ids[2:4]}, graph.CommunityDetection{Symbols: 9, Drift: 0}},
		{map[string][]string{"zeta": ids[:3]}, graph.CommunityDetection{Symbols: 9, Drift: 4}},
	} {
		res, err := Save(ctx, repo, withFlows(c.members, c.detection), nil, Meta{Writer: "w"}, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if (res.Update != nil) != (i > 0) {
			t.Fatalf("save %d: in place %v", i, res.Update != nil)
		}
		r, err := OpenRepo(repo)
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.Partition(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The same, with the members from the snapshot; a snapshot of
		// another generation gives none.
		facts, err := r.PartitionFacts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ahead, err := r.SnapshotAhead(ctx)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if fromSnapshot, ok := facts.Members(ahead); !ok || !reflect.DeepEqual(fromSnapshot, p) {
			t.Errorf("save %d: partition from the snapshot (%v)\n got %+v\nwant %+v", i, ok, fromSnapshot, p)
		}
		ahead.generation++
		if _, ok := facts.Members(ahead); ok {
			t.Errorf("save %d: members read from a snapshot of another generation", i)
		}
		want := &graph.Partition{Detection: c.detection, Of: map[string]int32{}}
		for k, label := range slices.Sorted(maps.Keys(c.members)) {
			want.Communities = append(want.Communities, graph.CommunityFacts{ID: "Community:" + label, Label: label,
				Cohesion: 0.5, SymbolCount: len(c.members[label]), Keywords: []string{"k1", "k2"}})
			want.Languages = append(want.Languages, "go")
			for _, m := range c.members[label] {
				want.Of[m] = int32(k)
			}
		}
		if !reflect.DeepEqual(p, want) {
			t.Errorf("save %d: partition\n got %+v\nwant %+v", i, p, want)
		}
	}
	if _, err := Save(ctx, repo, sampleGraph(), nil, Meta{Writer: "w"}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if p, err := r.Partition(ctx); p != nil || err != nil {
		t.Errorf("an index without communities gives the partition %+v, %v", p, err)
	}
}
