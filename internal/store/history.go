package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The git history is kept in four tables beside the graph: the attributes
// of Commit nodes (git_commit; the message is the node's doc), the files
// and the symbols each commit changed (git_file_change, git_symbol_change,
// linked to the File and symbol nodes by rid, 0 when not linked), and the
// kind and deleting commit of HistoricalSymbol nodes (git_removed_symbol).
// They keep the records as read from git, so that the next analyze can
// reuse them and link them afresh.

// writeHistory stores h; rid maps node ids to rids.
func writeHistory(ctx context.Context, tx *sql.Tx, h *graph.History, rid ridsByID) error {
	if h == nil {
		return nil
	}
	return writeHistoryRows(ctx, tx, rid, h.Commits, nil, h.Files, h.Symbols, h.Removed)
}

// writeHistoryRows inserts history rows: commits[i] with seq seqs[i] (i
// when seqs is nil), and the given changes and removed symbols.
func writeHistoryRows(ctx context.Context, tx *sql.Tx, rid ridsByID, commits []graph.Commit, seqs []int,
	files []graph.FileChange, symbols []graph.SymbolChange, removed []graph.RemovedSymbol) error {
	commitsIns, err := newBatchInsert(ctx, tx, "git_commit", []string{"rid", "seq", "hash", "parents", "author_name",
		"author_email", "authored_at", "author_zone", "committed_at", "commit_zone", "subject", "symbols_skip"})
	if err != nil {
		return err
	}
	for i := range commits {
		c := &commits[i]
		r, ok := rid.lookup(graph.CommitID(c.Hash))
		if !ok {
			return fmt.Errorf("store history: commit %s has no node", c.Hash)
		}
		seq := i
		if seqs != nil {
			seq = seqs[i]
		}
		if err := commitsIns.add(r, seq, c.Hash, strings.Join(c.Parents, " "), c.AuthorName, c.AuthorEmail,
			c.AuthoredAt, c.AuthorZone, c.CommittedAt, c.CommitZone, c.Subject, c.SymbolsSkip); err != nil {
			return fmt.Errorf("store commits: %w", err)
		}
	}
	if err := commitsIns.flush(); err != nil {
		return fmt.Errorf("store commits: %w", err)
	}
	filesIns, err := newBatchInsert(ctx, tx, "git_file_change", []string{"commit_rid", "path", "old_path", "status",
		"additions", "deletions", "binary", "old_blob", "new_blob", "file_rid"})
	if err != nil {
		return err
	}
	for i := range files {
		f := &files[i]
		binary := 0
		if f.Binary {
			binary = 1
		}
		if err := filesIns.add(ridOf(rid, graph.CommitID(f.Commit)), f.Path, f.OldPath, string(f.Status), f.Additions,
			f.Deletions, binary, f.OldBlob, f.NewBlob, ridOf(rid, f.FileID)); err != nil {
			return fmt.Errorf("store file changes: %w", err)
		}
	}
	if err := filesIns.flush(); err != nil {
		return fmt.Errorf("store file changes: %w", err)
	}
	syms, err := newBatchInsert(ctx, tx, "git_symbol_change", []string{"commit_rid", "path", "kind", "name",
		"qualified_name", "symbol_key", "change", "additions", "deletions", "start_line", "end_line", "symbol_rid"})
	if err != nil {
		return err
	}
	for i := range symbols {
		s := &symbols[i]
		if err := syms.add(ridOf(rid, graph.CommitID(s.Commit)), s.Path, s.Kind.String(), s.Name, s.Qual, s.Key,
			string(s.Change), s.Additions, s.Deletions, s.StartLine, s.EndLine, ridOf(rid, s.NodeID)); err != nil {
			return fmt.Errorf("store symbol changes: %w", err)
		}
	}
	if err := syms.flush(); err != nil {
		return fmt.Errorf("store symbol changes: %w", err)
	}
	removedIns, err := newBatchInsert(ctx, tx, "git_removed_symbol", []string{"rid", "kind", "deleted_in"})
	if err != nil {
		return err
	}
	for _, r := range removed {
		var in int64
		if r.DeletedIn != "" {
			in = ridOf(rid, graph.CommitID(r.DeletedIn))
		}
		if err := removedIns.add(ridOf(rid, r.ID), r.Kind.String(), in); err != nil {
			return fmt.Errorf("store historical symbols: %w", err)
		}
	}
	if err := removedIns.flush(); err != nil {
		return fmt.Errorf("store historical symbols: %w", err)
	}
	return nil
}

// HistoryBlob reads the stored form of the index's history records and the
// index's generation, in one read; nil bytes when the index keeps none
// (no history, one written before the blob, or a file its row names that
// is missing or not the one named: History reads the tables).
func (r *Reader) HistoryBlob(ctx context.Context) (blob []byte, generation int64, err error) {
	meta, err := r.Consistent(ctx, func(v *Reader) (err error) {
		blob, err = readHistoryBlob(ctx, v.q, filepath.Dir(v.path))
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read history: %w", err)
	}
	return blob, meta.Generation, nil
}

// DecodeHistory decodes history records stored as blob (HistoryBlob) by the
// index at generation, with the settings they were read with; nil when
// they hold no commit.
func DecodeHistory(blob []byte, settings *graph.HistorySettings, generation int64) (*graph.History, error) {
	h, err := decodeHistory(blob)
	if err != nil {
		return nil, fmt.Errorf("read history: %w (run `gitnexus analyze --force`)", err)
	}
	if len(h.Commits) == 0 {
		return nil, nil
	}
	if settings != nil {
		h.Settings = *settings
	}
	h.Encoded, h.EncodedAt = blob, generation
	return h, nil
}

// readHistoryBlob reads the stored form of the history records through q,
// from its row or the file in dir the row names (history_file.go); nil
// when there is none, or the file is not the one the row names.
func readHistoryBlob(ctx context.Context, q queryer, dir string) ([]byte, error) {
	var row []byte
	err := q.QueryRowContext(ctx, `SELECT data FROM snapshot WHERE id = ?`, historyBlobID).Scan(&row)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return resolveHistoryRow(dir, row), nil
}

// History reads the git history of the index, nil when it has none. The
// records come linked as the index linked them (FileID, NodeID).
func (r *Reader) History(ctx context.Context) (*graph.History, error) {
	blob, err := readHistoryBlob(ctx, r.q, filepath.Dir(r.path))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read history: %w", err)
	case blob == nil: // no blob, or its file is missing or not the row's
		return r.historyFromTables(ctx)
	}
	h, err := DecodeHistory(blob, r.meta.History, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	return h, nil
}

// historyFromTables reads the history records from the git_* tables.
func (r *Reader) historyFromTables(ctx context.Context) (*graph.History, error) {
	h := &graph.History{}
	if r.meta.History != nil {
		h.Settings = *r.meta.History
	}
	rows, err := r.q.QueryContext(ctx, `SELECT c.hash, c.parents, c.author_name, c.author_email, c.authored_at,
		c.author_zone, c.committed_at, c.commit_zone, c.subject, c.symbols_skip, n.doc, n.name
		FROM git_commit c JOIN node n ON n.rid = c.rid ORDER BY c.seq`)
	if err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	for rows.Next() {
		var c graph.Commit
		var parents, short string
		if err := rows.Scan(&c.Hash, &parents, &c.AuthorName, &c.AuthorEmail, &c.AuthoredAt, &c.AuthorZone,
			&c.CommittedAt, &c.CommitZone, &c.Subject, &c.SymbolsSkip, &c.Message, &short); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read commits: %w", err)
		}
		if parents != "" { // a root commit keeps nil parents, as read from git
			c.Parents = strings.Fields(parents)
		}
		c.ShortHashLen = len(short)
		h.Commits = append(h.Commits, c)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	if len(h.Commits) == 0 {
		return nil, nil
	}
	rows, err = r.q.QueryContext(ctx, `SELECT c.hash, f.path, f.old_path, f.status, f.additions, f.deletions,
		f.binary, f.old_blob, f.new_blob, coalesce(n.id, '')
		FROM git_file_change f JOIN git_commit c ON c.rid = f.commit_rid LEFT JOIN node n ON n.rid = f.file_rid
		ORDER BY c.seq, f.rowid`)
	if err != nil {
		return nil, fmt.Errorf("read file changes: %w", err)
	}
	for rows.Next() {
		var f graph.FileChange
		var status string
		if err := rows.Scan(&f.Commit, &f.Path, &f.OldPath, &status, &f.Additions, &f.Deletions, &f.Binary,
			&f.OldBlob, &f.NewBlob, &f.FileID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read file changes: %w", err)
		}
		if len(status) != 1 {
			rows.Close()
			return nil, fmt.Errorf("read file changes: bad status %q", status)
		}
		f.Status = status[0]
		h.Files = append(h.Files, f)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read file changes: %w", err)
	}
	rows, err = r.q.QueryContext(ctx, `SELECT c.hash, s.path, s.kind, s.name, s.qualified_name, s.symbol_key,
		s.change, s.additions, s.deletions, s.start_line, s.end_line, coalesce(n.id, '')
		FROM git_symbol_change s JOIN git_commit c ON c.rid = s.commit_rid LEFT JOIN node n ON n.rid = s.symbol_rid
		ORDER BY c.seq, s.rowid`)
	if err != nil {
		return nil, fmt.Errorf("read symbol changes: %w", err)
	}
	for rows.Next() {
		var s graph.SymbolChange
		var kind, change string
		if err := rows.Scan(&s.Commit, &s.Path, &kind, &s.Name, &s.Qual, &s.Key, &change, &s.Additions,
			&s.Deletions, &s.StartLine, &s.EndLine, &s.NodeID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read symbol changes: %w", err)
		}
		s.Kind, s.Change = graph.ParseKind(kind), graph.ChangeType(change)
		h.Symbols = append(h.Symbols, s)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read symbol changes: %w", err)
	}
	rows, err = r.q.QueryContext(ctx, `SELECT n.id, h.kind, coalesce(c.hash, '')
		FROM git_removed_symbol h JOIN node n ON n.rid = h.rid LEFT JOIN git_commit c ON c.rid = h.deleted_in
		ORDER BY n.id`)
	if err != nil {
		return nil, fmt.Errorf("read historical symbols: %w", err)
	}
	for rows.Next() {
		var rs graph.RemovedSymbol
		var kind string
		if err := rows.Scan(&rs.ID, &kind, &rs.DeletedIn); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read historical symbols: %w", err)
		}
		rs.Kind = graph.ParseKind(kind)
		h.Removed = append(h.Removed, rs)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read historical symbols: %w", err)
	}
	return h, nil
}

func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
