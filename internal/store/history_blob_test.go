package store

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// historyGraph is a graph with a history that has the corners the tables
// read back in their own way: a root commit, a merge, changes linked to
// nodes that are not stored, a symbol deleted in a commit outside the
// history, removed symbols out of id order, changes listed out of commit
// order, binary files and uncounted lines.
func historyGraph() *graph.Graph {
	g := sampleGraph()
	commits := []graph.Commit{
		{Hash: "c3c3c3", Parents: []string{"b2b2b2", "a1a1a1"}, AuthorName: "Ann", AuthorEmail: "ann@example.com",
			AuthoredAt: 1700000300, AuthorZone: 60, CommittedAt: 1700000400, CommitZone: -300, Subject: "Merge fix",
			Message: "Merge fix\n\nbody"},
		{Hash: "b2b2b2", Parents: []string{"a1a1a1"}, AuthorName: "Bob", AuthorEmail: "bob@example.com",
			AuthoredAt: 1700000200, CommittedAt: 1700000200, Subject: "Fix user loading", Message: "Fix user loading",
			SymbolsSkip: graph.SkipTooManyFiles},
		{Hash: "a1a1a1", AuthorName: "Ann", AuthorEmail: "ann@example.com", AuthoredAt: 1700000100,
			CommittedAt: 1700000100, Subject: "Start", Message: "Start"},
	}
	for i, c := range commits {
		g.AddNode(graph.Node{ID: graph.CommitID(c.Hash), Kind: graph.KindCommit, Name: c.Hash[:4+i%2],
			QualifiedName: c.Hash, Doc: c.Message})
	}
	g.AddNode(graph.Node{ID: "HistoricalSymbol:svc/old.go:gone", Kind: graph.KindHistoricalSymbol, Name: "gone"})
	g.AddNode(graph.Node{ID: "HistoricalSymbol:svc/old.go:also", Kind: graph.KindHistoricalSymbol, Name: "also"})
	g.SetHistory(&graph.History{
		Commits: commits,
		Files: []graph.FileChange{
			{Commit: "a1a1a1", Status: 'A', Path: "svc/user.go", Additions: 9, NewBlob: "n1", FileID: "File:svc/user.go"},
			{Commit: "b2b2b2", Status: 'M', Path: "svc/user.go", Additions: 2, Deletions: 1, OldBlob: "n1", NewBlob: "n2",
				FileID: "File:svc/user.go"},
			{Commit: "b2b2b2", Status: 'R', Path: "svc/new.go", OldPath: "svc/old.go", Additions: -1, Deletions: -1,
				Binary: true, OldBlob: "o", NewBlob: "p", FileID: "File:svc/new.go"}, // not stored
			{Commit: "ffffff", Status: 'M', Path: "lost.go"}, // its commit has no row
		},
		Symbols: []graph.SymbolChange{
			{Commit: "b2b2b2", Path: "svc/user.go", Kind: graph.KindFunction, Name: "getUserById", Qual: "getUserById",
				Key: "getUserById", Change: graph.ChangeModified, Additions: 2, Deletions: 1, StartLine: 3, EndLine: 9,
				NodeID: "Function:svc/user.go:getUserById"},
			{Commit: "a1a1a1", Path: "svc/old.go", Kind: graph.KindFunction, Name: "gone", Qual: "gone", Key: "gone",
				Change: graph.ChangeAdded, Additions: 4, StartLine: 1, EndLine: 4, NodeID: "HistoricalSymbol:svc/old.go:gone"},
			{Commit: "a1a1a1", Path: "svc/x.go", Kind: graph.KindMethod, Name: "m", Qual: "T.m", Key: "T.m",
				Change: graph.ChangeAdded, NodeID: "Method:svc/x.go:T.m"}, // not stored
		},
		Removed: []graph.RemovedSymbol{
			{ID: "HistoricalSymbol:svc/old.go:gone", Kind: graph.KindFunction, DeletedIn: "b2b2b2"},
			{ID: "HistoricalSymbol:svc/old.go:also", Kind: graph.KindMethod, DeletedIn: "0000000"}, // outside the history
			{ID: "HistoricalSymbol:nowhere", Kind: graph.KindFunction},                             // not stored
		},
	})
	return g
}

// TestHistoryBlobReadsAsTables: the history read from the blob is the
// history read from the tables written with it, field for field.
func TestHistoryBlobReadsAsTables(t *testing.T) {
	repo := t.TempDir()
	meta := Meta{ToolVersion: "test", History: &graph.HistorySettings{Format: 1, Head: "c3c3c3", MaxCommitFiles: 100}}
	if _, err := Write(context.Background(), repo, historyGraph(), meta); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	fromBlob, err := r.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fromTables, err := r.historyFromTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fromBlob == nil || len(fromBlob.Commits) != 3 || len(fromBlob.Files) != 3 || len(fromBlob.Symbols) != 3 || len(fromBlob.Removed) != 2 {
		t.Fatalf("blob history: %+v", fromBlob)
	}
	// The stored bytes come with the records, and encoding the records
	// read gives those bytes again: a re-index whose records are the same
	// as the ones read can leave them (graph.History.Encoded).
	stored := fromBlob.Encoded
	if len(stored) == 0 {
		t.Fatal("the history read carries no stored bytes")
	}
	g := historyGraph()
	rid := map[string]int64{}
	for i, n := range g.Nodes() {
		rid[n.ID] = int64(i + 1)
	}
	if again := encodeHistory(g, fromBlob, inRids(rid)); !bytes.Equal(again, stored) {
		t.Error("encoding the records read does not give the stored bytes")
	}
	fromBlob.Encoded = nil
	if !reflect.DeepEqual(fromBlob, fromTables) {
		t.Errorf("the blob reads\n%+v\nthe tables read\n%+v", fromBlob, fromTables)
	}
}

// inRids says which node ids have a rid.
func inRids(rid map[string]int64) func(string) bool {
	return func(id string) bool { _, ok := rid[id]; return ok }
}

// TestStoredHistory: the stored form of a history, which an in-place write
// compares with the index's records, is what its bytes decode to, field
// for field: links and removed symbols of nodes without a row dropped,
// changes in commit order, messages and short hashes from the nodes.
func TestStoredHistory(t *testing.T) {
	g := historyGraph()
	h := g.History()
	// Out of commit order, as no reader gives them: the stored form is in
	// commit order.
	h.Files[0], h.Files[len(h.Files)-1] = h.Files[len(h.Files)-1], h.Files[0]
	stored := inRids(map[string]int64{"File:svc/user.go": 1, "Function:svc/user.go:getUserById": 2,
		"HistoricalSymbol:svc/old.go:gone": 3})
	want, err := decodeHistory(encodeHistory(g, h, stored))
	if err != nil {
		t.Fatal(err)
	}
	got := storedHistory(g, h, stored)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored form\n%+v\ndecoded\n%+v", got, want)
	}
	dropped := 0
	for _, f := range h.Files {
		if f.FileID != "" && !stored(f.FileID) {
			dropped++
		}
	}
	for _, r := range h.Removed {
		if !stored(r.ID) {
			dropped++
		}
	}
	if dropped == 0 {
		t.Error("every link is stored: the test does not see links dropped")
	}
}

// FuzzDecodeHistory: any bytes decode to a history or an error, never a
// panic or an allocation out of proportion with the input.
func FuzzDecodeHistory(f *testing.F) {
	f.Add(encodeHistory(historyGraph(), historyGraph().History(), inRids(map[string]int64{"File:svc/user.go": 1,
		"Function:svc/user.go:getUserById": 2, "HistoricalSymbol:svc/old.go:gone": 3})))
	f.Add([]byte{2, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := decodeHistory(b)
		if err == nil && h == nil {
			t.Fatal("no history and no error")
		}
	})
}

// TestHistoryBlobMissingOrDamaged: an index without the blob (written
// before it) is read from the tables; a damaged blob is an error that
// says to rebuild, not a silent second answer.
func TestHistoryBlobMissingOrDamaged(t *testing.T) {
	repo := t.TempDir()
	meta := Meta{ToolVersion: "test", History: &graph.HistorySettings{Format: 1, Head: "c3c3c3"}}
	if _, err := Write(context.Background(), repo, historyGraph(), meta); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(Dir(repo), DBName)
	edit := func(q string) {
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(q, historyBlobID); err != nil {
			t.Fatal(err)
		}
	}
	read := func() (*graph.History, error) {
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return r.History(context.Background())
	}
	edit(`UPDATE snapshot SET data = x'02ff' WHERE id = ?`)
	if _, err := read(); err == nil || !strings.Contains(err.Error(), "analyze --force") {
		t.Errorf("damaged blob: err %v, want one saying to rebuild", err)
	}
	edit(`DELETE FROM snapshot WHERE id = ?`)
	h, err := read()
	if err != nil || h == nil || len(h.Commits) != 3 || len(h.Files) != 3 {
		t.Errorf("no blob: %+v, %v; want the tables' history", h, err)
	}
}
