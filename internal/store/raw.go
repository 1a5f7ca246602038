package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// An index copied row by row to another store and written back (team
// mode, internal/teamstore): RawDump reads every table of an index as
// SQLite holds it, RawRestore writes a new index from what it read. The
// copy is exact: the schema's own statements, every row with its rowid and
// each value with its storage class, and the full-text index's shadow
// tables as they are (the index is contentless: its words cannot be read
// back through the virtual table, and re-tokenising would be a second way
// to build it). The history blob that row 2 of snapshot may name as a file
// beside the database is read into the row, so a dump is self-contained.

// RawObject is one entry of the schema: a table, an index, a view or a
// trigger, with the statement that creates it.
type RawObject struct {
	Type string // table, index, view, trigger
	Name string
	SQL  string
}

// RawTable is a table whose rows a dump holds.
type RawTable struct {
	Name string
	// Rowid: the first value of each row is its rowid (a table WITHOUT
	// ROWID has none).
	Rowid   bool
	Columns []RawColumn
}

// RawColumn is a column of a table and its declared type ("" for none).
type RawColumn struct {
	Name string
	Type string
}

// RawSchema is the schema of a dump: the objects in the order SQLite
// lists them, and the tables whose rows follow, in order.
type RawSchema struct {
	Objects []RawObject
	Tables  []RawTable
}

// RawRows receives a dump's rows, one table after another: Row's values
// are nil, int64, float64, string or []byte, as SQLite stores them, and
// belong to the caller only during the call.
type RawRows interface {
	Schema(s RawSchema) error
	Row(table int, values []any) error
}

// RawDump reads the index in dir (a repository's .gitnexus directory) in
// one read transaction and hands its schema and rows to out. It returns
// the index's meta.
func RawDump(ctx context.Context, dir string, out RawRows) (Meta, error) {
	path := filepath.Join(dir, DBName)
	r, err := Open(path)
	if err != nil {
		return Meta{}, err
	}
	defer r.Close()
	var schema RawSchema
	meta, err := r.Consistent(ctx, func(v *Reader) error {
		tx := v.q
		schema, err = rawSchema(ctx, tx)
		if err != nil {
			return err
		}
		if err := out.Schema(schema); err != nil {
			return err
		}
		for i, t := range schema.Tables {
			if err := dumpTable(ctx, tx, dir, i, t, out); err != nil {
				return fmt.Errorf("read table %s: %w", t.Name, err)
			}
		}
		return nil
	})
	return meta, err
}

// rawSchema reads the schema: every object but SQLite's own (the
// statistics table excepted, whose rows the planner uses), and the tables
// with rows (all but virtual ones, whose rows live in their shadow tables).
func rawSchema(ctx context.Context, q queryer) (RawSchema, error) {
	var s RawSchema
	rows, err := q.QueryContext(ctx, `SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY rowid`)
	if err != nil {
		return s, err
	}
	for rows.Next() {
		var o RawObject
		if err := rows.Scan(&o.Type, &o.Name, &o.SQL); err != nil {
			rows.Close()
			return s, err
		}
		if strings.HasPrefix(o.Name, "sqlite_autoindex_") || (strings.HasPrefix(o.Name, "sqlite_") && o.Name != "sqlite_stat1") {
			continue
		}
		s.Objects = append(s.Objects, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s, err
	}
	for _, o := range s.Objects {
		if o.Type != "table" || isVirtual(o.SQL) {
			continue
		}
		t := RawTable{Name: o.Name, Rowid: !strings.Contains(strings.ToUpper(o.SQL), "WITHOUT ROWID")}
		cols, err := q.QueryContext(ctx, `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`, o.Name)
		if err != nil {
			return s, err
		}
		for cols.Next() {
			var c RawColumn
			if err := cols.Scan(&c.Name, &c.Type); err != nil {
				cols.Close()
				return s, err
			}
			t.Columns = append(t.Columns, c)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return s, err
		}
		s.Tables = append(s.Tables, t)
	}
	return s, nil
}

func isVirtual(sql string) bool {
	return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(sql)), "CREATE VIRTUAL TABLE")
}

// selectList is the column list a dump reads and a restore writes.
func (t RawTable) selectList() string {
	var cols []string
	if t.Rowid {
		cols = append(cols, "rowid")
	}
	for _, c := range t.Columns {
		cols = append(cols, quoteIdent(c.Name))
	}
	return strings.Join(cols, ", ")
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func dumpTable(ctx context.Context, q queryer, dir string, ti int, t RawTable, out RawRows) error {
	order := ""
	if t.Rowid {
		order = " ORDER BY rowid"
	}
	rows, err := q.QueryContext(ctx, "SELECT "+t.selectList()+" FROM "+quoteIdent(t.Name)+order)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := len(t.Columns)
	if t.Rowid {
		n++
	}
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if t.Name == "snapshot" && t.Rowid && len(vals) == 3 && vals[0] == int64(2) {
			if b, ok := vals[2].([]byte); ok && isHistoryRef(b) {
				blob := resolveHistoryRow(dir, b)
				if blob == nil {
					return fmt.Errorf("the history file the index names is missing or damaged: run `gitnexus analyze`")
				}
				vals[2] = blob
			}
		}
		if err := out.Row(ti, vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// RawRestore writes a new index into dir (a .gitnexus directory, created
// when missing) from a dump's schema and rows: rows(table, emit) must
// emit the rows of each table of schema.Tables. The database is built
// beside the current one and renamed over it when complete: a reader of dir
// sees the old index or the new one. The restored index must be of the
// schema version this program reads (Open checks it).
func RawRestore(ctx context.Context, dir string, schema RawSchema, rows func(table int, emit func(values []any) error) error) error {
	if err := checkRawSchema(schema); err != nil {
		return err
	}
	if err := ensureDir(dir); err != nil {
		return err
	}
	removeDeadLeftovers(dir)
	tmp := filepath.Join(dir, tmpDBPrefix+strconv.Itoa(os.Getpid()))
	_ = os.Remove(tmp)
	if err := restore(ctx, tmp, schema, rows); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := syncFile(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	path := filepath.Join(dir, DBName)
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("install index: %w", err)
	}
	r, err := Open(path)
	if err != nil {
		return err
	}
	return r.Close()
}

// ownSchema is the schema this build writes: every object of a new index,
// by name (sqlite_stat1 as ANALYZE creates it).
var ownSchema = sync.OnceValues(func() (map[string]RawObject, error) {
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, stmt := range []string{createTables + createFlowTables + createVectorTables, createCommonTerms,
		createIndexes + createFlowViews, "ANALYZE sqlite_master"} {
		if _, err := db.Exec(stmt); err != nil {
			return nil, fmt.Errorf("the schema of a new index: %w", err)
		}
	}
	s, err := rawSchema(context.Background(), db)
	if err != nil {
		return nil, err
	}
	out := map[string]RawObject{}
	for _, o := range s.Objects {
		out[o.Name] = o
	}
	return out, nil
})

// checkRawSchema refuses a schema with an object this build does not
// write, or writes otherwise: the statements of a dump are executed as they
// come (a dump read from a shared store must not run statements of its
// own, such as an ATTACH hidden after a CREATE).
func checkRawSchema(schema RawSchema) error {
	own, err := ownSchema()
	if err != nil {
		return err
	}
	tables := map[string]bool{}
	for _, o := range schema.Objects {
		want, ok := own[o.Name]
		if !ok || want.Type != o.Type || want.SQL != o.SQL {
			return fmt.Errorf("the index to restore has %s %q as this build of gitnexus does not write it (schema version %d): write it again with this build", o.Type, o.Name, SchemaVersion)
		}
		if o.Type == "table" {
			tables[o.Name] = true
		}
	}
	for _, t := range schema.Tables {
		if !tables[t.Name] {
			return fmt.Errorf("the index to restore has rows for %q, which is not one of its tables", t.Name)
		}
	}
	return nil
}

func restore(ctx context.Context, path string, schema RawSchema, rows func(int, func([]any) error) error) error {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_journal_mode=OFF&_synchronous=OFF&_locking_mode=EXCLUSIVE")
	if err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, pragma := range []string{"PRAGMA cache_size=-65536", "PRAGMA temp_store=MEMORY", "PRAGMA page_size=8192"} {
		if _, err := db.ExecContext(ctx, pragma); err != nil {
			return fmt.Errorf("create index: %w", err)
		}
	}
	// Tables first (a virtual table creates its shadow tables), rows,
	// then indexes, views and triggers, and the planner's statistics.
	hasStats := false
	// In the schema's order, where a virtual table comes before the
	// shadow tables it creates.
	for _, o := range schema.Objects {
		if o.Type != "table" {
			continue
		}
		if o.Name == "sqlite_stat1" {
			hasStats = true
			continue
		}
		var exists int
		_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = ?`, o.Name).Scan(&exists)
		if exists > 0 { // a shadow table of a virtual table created before it
			if _, err := db.ExecContext(ctx, "DELETE FROM "+quoteIdent(o.Name)); err != nil {
				return fmt.Errorf("create index: %w", err)
			}
			continue
		}
		if _, err := db.ExecContext(ctx, o.SQL); err != nil {
			return fmt.Errorf("create table %s: %w", o.Name, err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	for i, t := range schema.Tables {
		if t.Name == "sqlite_stat1" {
			continue
		}
		if err := restoreTable(ctx, tx, i, t, rows); err != nil {
			return fmt.Errorf("write table %s: %w", t.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit index: %w", err)
	}
	for _, o := range schema.Objects {
		if o.Type == "table" || o.SQL == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, o.SQL); err != nil {
			return fmt.Errorf("create %s %s: %w", o.Type, o.Name, err)
		}
	}
	if hasStats {
		if _, err := db.ExecContext(ctx, "ANALYZE sqlite_master; DELETE FROM sqlite_stat1"); err != nil {
			return fmt.Errorf("write statistics: %w", err)
		}
		for i, t := range schema.Tables {
			if t.Name == "sqlite_stat1" {
				if err := restoreTable(ctx, db, i, t, rows); err != nil {
					return fmt.Errorf("write statistics: %w", err)
				}
			}
		}
	}
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		return fmt.Errorf("finish index: %w", err)
	}
	return db.Close()
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// restoreBatch is how many rows one INSERT of a restore carries.
const restoreBatch = 128

func restoreTable(ctx context.Context, db execer, ti int, t RawTable, rows func(int, func([]any) error) error) error {
	n := len(t.Columns)
	if t.Rowid {
		n++
	}
	batch := max(1, min(restoreBatch, 30000/n)) // SQLite's limit on variables
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
	head := "INSERT INTO " + quoteIdent(t.Name) + " (" + t.selectList() + ") VALUES "
	var full *sql.Stmt // prepared once: parsing the statement per batch costs as much as the rows
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	args := make([]any, 0, n*batch)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		var err error
		if len(args) == n*batch {
			if full == nil {
				if full, err = db.PrepareContext(ctx, head+strings.TrimSuffix(strings.Repeat(one+",", batch), ",")); err != nil {
					return err
				}
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = db.ExecContext(ctx, head+strings.TrimSuffix(strings.Repeat(one+",", len(args)/n), ","), args...)
		}
		args = args[:0]
		return err
	}
	err := rows(ti, func(values []any) error {
		if len(values) != n {
			return fmt.Errorf("a row of %d values, the table has %d", len(values), n)
		}
		for _, v := range values {
			if b, ok := v.([]byte); ok { // the caller may reuse it
				v = append([]byte{}, b...)
			}
			args = append(args, v)
		}
		if len(args) == n*batch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}
