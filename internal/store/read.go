package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// ErrNoIndex means the repository has no index.
var ErrNoIndex = errors.New("no index")

// Reader is a read-only handle on one index. It is safe for concurrent use.
type Reader struct {
	db     *sql.DB
	q      queryer // db, or the transaction of a Consistent view
	path   string
	meta   Meta
	common commonTerms
}

// queryer is what the read methods query: the pool, or one transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Consistent calls fn with a view of r whose reads all see one state of
// the index, and returns that state's meta. Without it, an index changed
// in place (update.go) between two reads is seen before the change by the
// first and after it by the second: loading a graph reads the snapshot,
// the flows and the history one after the other. The view holds a read
// transaction until fn returns (a writer's commit waits for it); it is not
// for use after that.
func (r *Reader) Consistent(ctx context.Context, fn func(*Reader) error) (Meta, error) {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return Meta{}, fmt.Errorf("read index %s: %w", r.path, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to commit
	v := *r
	v.q = tx
	var raw string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaKey).Scan(&raw); err != nil {
		return Meta{}, fmt.Errorf("read index %s: %w", r.path, err)
	}
	if err := json.Unmarshal([]byte(raw), &v.meta); err != nil {
		return Meta{}, fmt.Errorf("read index %s: %w", r.path, err)
	}
	if err := fn(&v); err != nil {
		return Meta{}, err
	}
	return v.meta, nil
}

// OpenRepo opens the index of the repository at repo.
func OpenRepo(repo string) (*Reader, error) {
	return Open(filepath.Join(Dir(repo), DBName))
}

// Open opens an index database read-only and checks that it is ours and of
// a schema this program reads. Every error says what to run next.
func Open(path string) (*Reader, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s: run `gitnexus analyze %s`", ErrNoIndex, filepath.Dir(filepath.Dir(path)), filepath.Dir(filepath.Dir(path)))
		}
		return nil, fmt.Errorf("open index: %w", err)
	}
	rollBackKilledWrite(path)
	removeDeadLeftovers(filepath.Dir(path))
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_busy_timeout=10000"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	r := &Reader{db: db, q: db, path: path}
	var raw string
	err = db.QueryRow(`SELECT value FROM meta WHERE key = ?`, metaKey).Scan(&raw)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("index %s is unreadable or not a gitnexus index (%v): run `gitnexus analyze --force`", path, err)
	}
	if err := json.Unmarshal([]byte(raw), &r.meta); err != nil || r.meta.Format != MetaFormat {
		db.Close()
		return nil, fmt.Errorf("index %s was not written by this program: run `gitnexus analyze --force`", path)
	}
	if r.meta.SchemaVersion != SchemaVersion {
		db.Close()
		return nil, fmt.Errorf("index %s has schema version %d, this gitnexus reads version %d: run `gitnexus analyze` to rebuild it",
			path, r.meta.SchemaVersion, SchemaVersion)
	}
	r.common = loadCommonTerms(db)
	return r, nil
}

// rollBackKilledWrite undoes what a writer killed in the middle of an
// in-place write (update.go) left: its rollback journal. A read-only
// connection cannot roll a journal back and fails instead, so when one
// exists the index is first opened for writing and read, which rolls it
// back; a journal of a writer still running is not touched (the read
// waits for its commit). Errors are left to the read-only open to report.
func rollBackKilledWrite(path string) {
	if _, err := os.Stat(path + "-journal"); err != nil {
		return
	}
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=rw&_busy_timeout=10000")
	if err != nil {
		return
	}
	defer db.Close()
	var n int
	_ = db.QueryRow(`SELECT count(*) FROM meta`).Scan(&n)
}

// Meta returns the index's metadata.
func (r *Reader) Meta() Meta { return r.meta }

// Close releases the handle.
func (r *Reader) Close() error { return r.db.Close() }

// DB exposes the database for read-only queries by packages that own a
// feature's SQL (search); callers must not write.
func (r *Reader) DB() *sql.DB { return r.db }

// NodeRow is a node without its large text fields (content, doc), as the
// in-memory graph loads it. Rid is dense from 1.
type NodeRow struct {
	Rid           int64
	ID            string
	Kind          string
	Name          string
	QualifiedName string
	FilePath      string
	StartLine     int
	EndLine       int
	Signature     string
	Exported      bool
	Language      string
}

// Counts returns the number of nodes and edges.
func (r *Reader) Counts(ctx context.Context) (nodes, edges int64, err error) {
	if err = r.q.QueryRowContext(ctx, `SELECT count(*) FROM node`).Scan(&nodes); err != nil {
		return
	}
	err = r.q.QueryRowContext(ctx, `SELECT count(*) FROM edge`).Scan(&edges)
	return
}

// ScanNodes calls fn for every node in rid order.
func (r *Reader) ScanNodes(ctx context.Context, fn func(*NodeRow) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT rid, id, kind, name, qualified_name, file_path, start_line,
		end_line, signature, is_exported, language FROM node ORDER BY rid`)
	if err != nil {
		return fmt.Errorf("read nodes: %w", err)
	}
	defer rows.Close()
	var n NodeRow
	for rows.Next() {
		if err := rows.Scan(&n.Rid, &n.ID, &n.Kind, &n.Name, &n.QualifiedName, &n.FilePath, &n.StartLine,
			&n.EndLine, &n.Signature, &n.Exported, &n.Language); err != nil {
			return fmt.Errorf("read nodes: %w", err)
		}
		if err := fn(&n); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EdgeRow is one edge by node rid.
type EdgeRow struct {
	Src, Dst   int64
	Type       string
	Confidence float64
	Reason     string
	Line       int
	More       []int // further site lines
}

// ScanEdges calls fn for every edge.
func (r *Reader) ScanEdges(ctx context.Context, fn func(*EdgeRow) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT src, dst, type, confidence, reason, line, more_lines FROM edge`)
	if err != nil {
		return fmt.Errorf("read edges: %w", err)
	}
	defer rows.Close()
	var e EdgeRow
	var more string
	for rows.Next() {
		if err := rows.Scan(&e.Src, &e.Dst, &e.Type, &e.Confidence, &e.Reason, &e.Line, &more); err != nil {
			return fmt.Errorf("read edges: %w", err)
		}
		if e.More, err = ParseLines(more); err != nil {
			return fmt.Errorf("read edges: %w", err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// NodeText returns the stored content and doc of a node.
func (r *Reader) NodeText(ctx context.Context, rid int64) (content, doc string, err error) {
	err = r.q.QueryRowContext(ctx, `SELECT content, doc FROM node WHERE rid = ?`, rid).Scan(&content, &doc)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("no node with rid %d", rid)
	}
	return
}

// ScanNodeText calls fn with the stored content and doc of every node,
// in id order: an export writes every node's text without a query per
// node.
func (r *Reader) ScanNodeText(ctx context.Context, fn func(rid int64, content, doc string) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT rid, content, doc FROM node ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read node text: %w", err)
	}
	defer rows.Close()
	var rid int64
	var content, doc string
	for rows.Next() {
		if err := rows.Scan(&rid, &content, &doc); err != nil {
			return fmt.Errorf("read node text: %w", err)
		}
		if err := fn(rid, content, doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SearchHit is one full-text match.
type SearchHit struct {
	Rid   int64
	Score float64 // BM25, lower is better as SQLite reports it; negated so higher is better
}

// Search runs a BM25 full-text query over symbol names (split on case and
// separators), qualified names, signatures, docs, content and file paths.
// Plain words are matched as prefixes and OR-ed; name matches weigh most.
func (r *Reader) Search(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	q, _ := ftsQuery(query, r.common, false)
	if q == "" {
		return nil, nil
	}
	out, err := r.search(ctx, query, q, limit)
	if err != nil || len(out) >= limit {
		return out, err
	}
	// Too few whole-word hits: words as prefixes (parse finds parser),
	// ranked after every whole-word hit.
	pq, _ := ftsQuery(query, r.common, true)
	if pq == q {
		return out, nil
	}
	more, err := r.search(ctx, query, pq, limit)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return more, nil
	}
	seen := make(map[int64]bool, len(out))
	for _, h := range out {
		seen[h.Rid] = true
	}
	// Below the last whole-word hit, scaled so that the prefix ranking's
	// order and proportions stay.
	scale := 0.0
	for _, h := range more {
		if len(out) == limit {
			break
		}
		if seen[h.Rid] {
			continue
		}
		if scale == 0 {
			scale = out[len(out)-1].Score * prefixDiscount / max(h.Score, 1e-9)
		}
		h.Score *= scale
		out = append(out, h)
	}
	return out, nil
}

// prefixDiscount scales a prefix-only hit's score below the hits before
// it.
const prefixDiscount = 0.5

// searchWeights are the full-text columns' weights in BM25 (name,
// qualified_name, words, signature, doc, content, path): measured on
// bench/retrieval, a symbol's whole text counts as much as its name.
const searchWeights = "1.0, 0.5, 1.0, 0.5, 0.5, 1.0, 0.5"

func (r *Reader) search(ctx context.Context, query, q string, limit int) ([]SearchHit, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT rowid, bm25(search, `+searchWeights+`) AS s
		FROM search WHERE search MATCH ? ORDER BY s LIMIT ?`, q, limit)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	defer rows.Close()
	var out []SearchHit
	for rows.Next() {
		var h SearchHit
		if err := rows.Scan(&h.Rid, &h.Score); err != nil {
			return nil, err
		}
		h.Score = -h.Score
		out = append(out, h)
	}
	return out, rows.Err()
}

// ftsQuery turns free text into an FTS5 query: each word (split like
// identifiers, and each compound identifier whole) becomes a quoted term,
// OR-ed together. With prefix, words of three or more characters match
// as prefixes (parse finds parser); shorter ones match whole words only,
// and one-character words are left out when the
// text has longer ones: as prefixes they match a large part of the index
// ("x*", "a*") and cost more than the rest of the query while ranking
// nothing. For the same reason the most common words are left out once
// the rarer ones fill the query's budget (common_terms.go);
// dropped lists them, in the order of the text.
func ftsQuery(text string, counts commonTerms, prefix bool) (q string, dropped []string) {
	words := strings.Fields(identifierWords(text) + " " + wholeCompounds(text))
	long := false
	for _, w := range words {
		if utf8.RuneCountInString(w) > 1 {
			long = true
			break
		}
	}
	type word struct {
		text   string
		prefix bool
		rows   int
		drop   bool
	}
	var kept []*word
	seen := map[string]bool{}
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		if (n == 1 && long) || seen[w] {
			continue
		}
		seen[w] = true
		wd := &word{text: w, prefix: prefix && n >= 3}
		if counts.docs > 0 {
			wd.rows = counts.count(wd.text, wd.prefix)
		}
		kept = append(kept, wd)
	}
	if counts.docs > 0 && len(kept) > 1 {
		byRows := append([]*word(nil), kept...)
		sort.SliceStable(byRows, func(i, j int) bool { return byRows[i].rows < byRows[j].rows })
		total := byRows[0].rows
		for k, w := range byRows[1:] {
			total += w.rows
			w.drop = total*(k+2) > queryBudget || (counts.common(w.rows) && !counts.common(byRows[0].rows))
		}
	}
	terms := make([]string, 0, len(kept))
	for _, w := range kept {
		if w.drop {
			dropped = append(dropped, w.text)
			continue
		}
		term := `"` + strings.ReplaceAll(w.text, `"`, `""`) + `"`
		if w.prefix {
			term += "*"
		}
		terms = append(terms, term)
	}
	return strings.Join(terms, " OR "), dropped
}

// CommonWords lists the words of a query the full-text search leaves out
// because too much of the index holds them (rarer words of the query
// remain).
func (r *Reader) CommonWords(query string) []string {
	_, dropped := ftsQuery(query, r.common, false)
	return dropped
}

// NamesWithPrefix returns up to limit distinct names of symbols that
// start with prefix, in order, from the name index (shell completion).
// With a qualifier ("Server."), only names whose qualified name ends with
// the qualifier and the name count.
func (r *Reader) NamesWithPrefix(ctx context.Context, qualifier, prefix string, limit int) ([]string, error) {
	// Bytes compare: no UTF-8 text holds 0xff, so prefix+"\xff" bounds
	// every name that starts with prefix.
	rows, err := r.q.QueryContext(ctx, `SELECT DISTINCT name FROM node WHERE name >= ?2 AND name < ?3 AND kind NOT IN ('File', 'Folder')
		AND (?1 = '' OR substr(qualified_name, -(length(?1) + length(name))) = ?1 || name)
		ORDER BY name LIMIT ?4`, qualifier, prefix, prefix+"\xff", limit)
	if err != nil {
		return nil, fmt.Errorf("read names: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// HasFile reports whether the index has a File node for path.
func (r *Reader) HasFile(ctx context.Context, path string) bool {
	var n int
	err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM node WHERE id = ?`, "File:"+path).Scan(&n)
	return err == nil && n > 0
}

// MissingFiles returns the indexed files that no longer exist under root.
func (r *Reader) MissingFiles(ctx context.Context, root string) ([]string, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT file_path FROM node WHERE kind = 'File' ORDER BY file_path`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); os.IsNotExist(err) {
			out = append(out, p)
		}
	}
	return out, rows.Err()
}
