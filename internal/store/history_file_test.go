package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
)

// TestHistoryFile: an in-place write that changes the history keeps its
// blob in a file beside the database, named by row 2, and removes the
// files the index no longer names; a file missing or not the one the row
// names reads as no blob (the tables' history); a new file keeps the blob
// in its row again and removes the files.
func TestHistoryFile(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	dir := Dir(repo)
	meta := Meta{Writer: "w", History: &graph.HistorySettings{Format: 1}}
	files := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(dir, historyFilePrefix+"*"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range names {
			names[i] = filepath.Base(names[i])
		}
		return names
	}
	row := func() []byte {
		t.Helper()
		db, err := sql.Open("sqlite3", filepath.Join(dir, DBName))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var b []byte
		if err := db.QueryRow(`SELECT data FROM snapshot WHERE id = ?`, historyBlobID).Scan(&b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	// commitOnTop saves the index's history with one more commit on top,
	// in place.
	commitOnTop := func(hash, parent string) {
		t.Helper()
		g := historyGraph()
		h := *g.History()
		c := graph.Commit{Hash: hash, Parents: []string{parent}, AuthorName: "Cy", Subject: "More " + hash, Message: "More " + hash}
		h.Commits = append([]graph.Commit{c}, h.Commits...)
		g.AddNode(graph.Node{ID: graph.CommitID(hash), Kind: graph.KindCommit, Name: hash[:4], QualifiedName: hash, Doc: c.Message})
		g.SetHistory(&h)
		res, err := Save(ctx, repo, g, nil, meta, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Update == nil || !res.Update.HistoryRewritten {
			t.Fatalf("commit %s: update %+v, rewritten %q", hash, res.Update, res.Rewritten)
		}
	}

	if _, err := Write(ctx, repo, historyGraph(), meta); err != nil {
		t.Fatal(err)
	}
	if isHistoryRef(row()) || len(files()) != 0 {
		t.Fatalf("a new file: row is a reference %v, files %v; want the blob in the row", isHistoryRef(row()), files())
	}
	commitOnTop("d4d4d4", "c3c3c3")
	first := files()
	if !isHistoryRef(row()) || len(first) != 1 {
		t.Fatalf("in place: row is a reference %v, files %v; want one file named by the row", isHistoryRef(row()), first)
	}
	tablesHistory(t, repo) // the file reads as the tables
	// A file a killed write left (written, never committed) and a
	// temporary one go with the next write that changes the history.
	for _, n := range []string{historyFilePrefix + "0123.blob", historyFilePrefix + "4567.blob.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("left"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commitOnTop("e5e5e5", "c3c3c3")
	second := files()
	if len(second) != 1 || slices.Equal(second, first) {
		t.Fatalf("after a second commit: files %v (before %v); want one other file", second, first)
	}
	want := tablesHistory(t, repo)

	read := func() *graph.History {
		t.Helper()
		r, err := OpenRepo(repo)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		blob, _, err := r.HistoryBlob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		h, err := r.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if blob != nil {
			h.Encoded = nil
		}
		return h
	}
	path := filepath.Join(dir, second[0])
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, damage := range map[string]func() error{
		"missing":   func() error { return os.Remove(path) },
		"truncated": func() error { return os.WriteFile(path, good[:len(good)/2], 0o644) },
		"changed": func() error {
			b := slices.Clone(good)
			b[len(b)/2] ^= 1
			return os.WriteFile(path, b, 0o644)
		},
	} {
		if err := damage(); err != nil {
			t.Fatal(err)
		}
		r, err := OpenRepo(repo)
		if err != nil {
			t.Fatal(err)
		}
		blob, _, err := r.HistoryBlob(ctx)
		r.Close()
		if err != nil || blob != nil {
			t.Errorf("%s file: blob of %d bytes, %v; want none", name, len(blob), err)
		}
		if got := read(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s file: history\n%+v\nwant the tables'\n%+v", name, got, want)
		}
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Write(ctx, repo, historyGraph(), meta); err != nil {
		t.Fatal(err)
	}
	if isHistoryRef(row()) || len(files()) != 0 {
		t.Errorf("a new file over it: row is a reference %v, files %v; want the blob in the row and no file", isHistoryRef(row()), files())
	}
}
