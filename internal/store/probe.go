package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ProbeFTS5 checks that this program's SQLite has the FTS5 module, which
// every index's full-text search needs (the build tag sqlite_fts5).
func ProbeFTS5() error {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return fmt.Errorf("open SQLite: %w", err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE probe USING fts5(x)`); err != nil {
		return fmt.Errorf("SQLite has no FTS5 (%w): build gitnexus with the tag sqlite_fts5 (make build does)", err)
	}
	return nil
}

// CheckSearch runs one full-text query on the index, to show that its
// search table is there and readable.
func (r *Reader) CheckSearch(ctx context.Context) error {
	rows, err := r.q.QueryContext(ctx, `SELECT rowid FROM search WHERE search MATCH '"a"*' LIMIT 1`)
	if err != nil {
		return fmt.Errorf("full-text search of %s: %w", r.path, err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}
