package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// memDump keeps a dump in memory.
type memDump struct {
	schema RawSchema
	rows   [][][]any
}

func (m *memDump) Schema(s RawSchema) error {
	m.schema = s
	m.rows = make([][][]any, len(s.Tables))
	return nil
}

func (m *memDump) Row(t int, vals []any) error {
	row := make([]any, len(vals))
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			v = append([]byte{}, b...)
		}
		row[i] = v
	}
	m.rows[t] = append(m.rows[t], row)
	return nil
}

func (m *memDump) emit(t int, emit func([]any) error) error {
	for _, r := range m.rows[t] {
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// sqliteDump is the sqlite3 shell's text dump of a database, the
// reference for "the same database" (schema, rows, and rowids where
// they matter: the shell writes them for tables whose rowid is not a
// column only with --preserve-rowids).
func sqliteDump(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("sqlite3", path, ".dump --preserve-rowids").CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 .dump: %v\n%s", err, out)
	}
	return string(out)
}

func TestRawDumpRestoreIsExact(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("the sqlite3 shell is not installed")
	}
	ctx := context.Background()
	repo := t.TempDir()
	if _, err := Write(ctx, repo, sampleGraph(), Meta{IndexedCommit: "abc"}); err != nil {
		t.Fatal(err)
	}
	var d memDump
	got, err := RawDump(ctx, Dir(repo), &d)
	if err != nil {
		t.Fatal(err)
	}
	if got.IndexedCommit != "abc" {
		t.Errorf("meta %+v", got)
	}
	names := map[string]bool{}
	for _, tb := range d.schema.Tables {
		names[tb.Name] = true
	}
	for _, want := range []string{"node", "edge", "snapshot", "meta", "search_data", "search_idx", "embedding"} {
		if !names[want] {
			t.Errorf("the dump has no table %s (has %v)", want, names)
		}
	}
	if names["search"] {
		t.Errorf("the dump holds the virtual table's rows")
	}
	to := filepath.Join(t.TempDir(), DirName)
	if err := RawRestore(ctx, to, d.schema, d.emit); err != nil {
		t.Fatal(err)
	}
	a, b := sqliteDump(t, filepath.Join(Dir(repo), DBName)), sqliteDump(t, filepath.Join(to, DBName))
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := 0; i < len(al) && i < len(bl); i++ {
			if al[i] != bl[i] {
				t.Fatalf("restored database differs at line %d:\n  want %.200s\n  got  %.200s", i+1, al[i], bl[i])
			}
		}
		t.Fatalf("restored database differs in length: %d lines, want %d", len(bl), len(al))
	}
	// The restored index reads as an index, and searches alike.
	r, err := Open(filepath.Join(to, DBName))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r0, err := OpenRepo(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r0.Close()
	for _, q := range []string{"user", "loads account"} {
		h0, err0 := r0.Search(ctx, q, 10)
		h1, err1 := r.Search(ctx, q, 10)
		if err0 != nil || err1 != nil || len(h0) != len(h1) {
			t.Fatalf("search %q: %v %v, %d hits against %d", q, err0, err1, len(h1), len(h0))
		}
		for i := range h0 {
			if h0[i] != h1[i] {
				t.Errorf("search %q hit %d: %+v, want %+v", q, i, h1[i], h0[i])
			}
		}
	}
	if _, err := os.Stat(filepath.Join(to, ".gitignore")); err != nil {
		t.Errorf("restored directory has no .gitignore: %v", err)
	}
}

// TestRawRestoreRefusesForeignStatements: a dump's statements are run as
// they come, so a schema this build does not write is refused before any
// is run (a dump read from a shared store could carry an ATTACH).
func TestRawRestoreRefusesForeignStatements(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	if _, err := Write(ctx, repo, sampleGraph(), Meta{IndexedCommit: "abc"}); err != nil {
		t.Fatal(err)
	}
	var d memDump
	if _, err := RawDump(ctx, Dir(repo), &d); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "attached.db")
	for name, edit := range map[string]func(s *RawSchema){
		"a statement after a CREATE": func(s *RawSchema) {
			s.Objects[0].SQL += "; ATTACH DATABASE '" + outside + "' AS x; CREATE TABLE x.t (y)"
		},
		"an object of its own": func(s *RawSchema) {
			s.Objects = append(s.Objects, RawObject{Type: "trigger", Name: "t", SQL: "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END"})
		},
		"rows of no table": func(s *RawSchema) {
			s.Tables = append(s.Tables, RawTable{Name: "sqlite_master"})
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := d.schema
			s.Objects = append([]RawObject(nil), d.schema.Objects...)
			s.Tables = append([]RawTable(nil), d.schema.Tables...)
			edit(&s)
			to := filepath.Join(t.TempDir(), DirName)
			err := RawRestore(ctx, to, s, d.emit)
			if err == nil {
				t.Fatal("restored")
			}
			if _, err := os.Stat(outside); err == nil {
				t.Error("the attached database was created")
			}
			if _, err := os.Stat(filepath.Join(to, DBName)); err == nil {
				t.Error("an index was written")
			}
		})
	}
}
