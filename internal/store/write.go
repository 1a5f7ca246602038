package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers "sqlite3"

	"gitnexus.dev/gitnexus/internal/graph"
)

// File names inside a repository's .gitnexus directory.
const (
	DirName      = ".gitnexus"
	DBName       = "graph.db"
	MetaName     = "meta.json"
	LockName     = "analyze.lock"
	tmpDBPrefix  = "graph.db.tmp-"
	metaKey      = "meta"
	gitignoreTxt = "# Written by gitnexus: the index is local state, not source.\n*\n"
)

// Meta describes an index. It is stored in the database (the source of
// truth) and copied to meta.json for outside tools.
type Meta struct {
	Format        string `json:"format"` // always "gitnexus-go"
	SchemaVersion int    `json:"schemaVersion"`
	ToolVersion   string `json:"toolVersion"`
	Generation    int64  `json:"generation"`
	RepoPath      string `json:"repoPath"`
	IndexedCommit string `json:"indexedCommit,omitempty"`
	Branch        string `json:"branch,omitempty"`
	Dirty         bool   `json:"dirty"`
	// DirtyPaths are the files git saw changed or untracked when the index
	// was built (up to MaxDirtyPaths; nil when there were more): one of
	// them that git no longer lists is not what the index holds.
	DirtyPaths []string `json:"dirtyPaths,omitempty"`
	// DirtyHashes are the SHA-256 (hex) of the content indexed of the
	// DirtyPaths that are source files (at most MaxDirtyHashes): a file
	// touched since with the same content is still what the index holds
	// (git stash && git stash pop).
	DirtyHashes map[string]string `json:"dirtyHashes,omitempty"`
	IndexedAt   time.Time         `json:"indexedAt"`
	// History is what the git history was read with; nil when the index
	// has no history.
	History *graph.HistorySettings `json:"history,omitempty"`
	// Embeddings describes the index's vectors; nil when it has none.
	Embeddings *EmbeddingMeta `json:"embeddings,omitempty"`
	// Communities says how far the communities are from their last
	// detection (graph.CommunityDetection); nil when the index has none or
	// its writer did not say.
	Communities *graph.CommunityDetection `json:"communities,omitempty"`
	// Writer identifies the build of gitnexus that wrote the index (its
	// version and Go build id); only the same build changes an index in
	// place (update.go). Empty for writers that do not say.
	Writer string `json:"writer,omitempty"`
	// ExtractCache is the token of the extraction cache written with the
	// index (.gitnexus/extract.cache): a re-index trusts that cache to
	// tell which files changed since the index only when they match.
	ExtractCache string `json:"extractCache,omitempty"`
	// Stats is the pipeline's summary, kept as written.
	Stats json.RawMessage `json:"stats,omitempty"`
}

// MetaFormat identifies meta.json files written by this program.
const MetaFormat = "gitnexus-go"

// fromGraph sets what meta says of the graph itself: its history's
// settings and its communities' detection.
func fromGraph(meta *Meta, g *graph.Graph) {
	meta.History, meta.Communities = nil, nil
	if h := g.History(); h != nil {
		settings := h.Settings
		meta.History = &settings
	}
	if f := g.Flows(); f != nil && len(f.Communities) > 0 {
		d := f.Detection
		meta.Communities = &d
	}
}

// MaxDirtyPaths is how many DirtyPaths an index keeps at most, and
// MaxDirtyHashes how many DirtyHashes.
const (
	MaxDirtyPaths  = 10000
	MaxDirtyHashes = 1000
)

// Dir returns the index directory of a repository.
func Dir(repo string) string { return filepath.Join(repo, DirName) }

// WriteResult reports what a write produced.
type WriteResult struct {
	Path  string
	Bytes int64
	Meta  Meta
	// Update describes an in-place write (Save); nil when a new file was
	// written.
	Update *UpdateStats
	// Rewritten says why Save wrote a new file; "" otherwise.
	Rewritten string
}

// Write replaces the index of the repository at repo with graph g. The new
// database is built beside the old one and renamed over it; the generation
// is one more than the previous index's. On error or cancellation the
// previous index is untouched and the partial file removed.
func Write(ctx context.Context, repo string, g *graph.Graph, meta Meta) (*WriteResult, error) {
	return WriteWithVectors(ctx, repo, g, nil, meta)
}

// WriteWithVectors is Write with the embeddings of the graph's nodes (nil
// for none).
func WriteWithVectors(ctx context.Context, repo string, g *graph.Graph, vecs *Vectors, meta Meta) (*WriteResult, error) {
	dir := Dir(repo)
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	removeLeftovers(dir)
	meta.Format = MetaFormat
	meta.SchemaVersion = SchemaVersion
	meta.Generation = previousGeneration(filepath.Join(dir, DBName)) + 1
	fromGraph(&meta, g)
	meta.Embeddings = nil
	if vecs != nil {
		em := vecs.Meta
		meta.Embeddings = &em
	}
	tmp := filepath.Join(dir, tmpDBPrefix+strconv.Itoa(os.Getpid()))
	_ = os.Remove(tmp)
	if err := build(ctx, tmp, g, vecs, meta); err != nil {
		_ = os.Remove(tmp)
		return nil, err
	}
	final := filepath.Join(dir, DBName)
	if err := syncFile(tmp); err != nil {
		_ = os.Remove(tmp)
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		_ = os.Remove(tmp)
		return nil, err
	}
	// A journal an in-place write left when it was killed belongs to the
	// file being replaced: SQLite would play it back onto the new one. It
	// is rolled back (the old file stays whole until the rename), and gone
	// before the rename either way.
	rollBackKilledWrite(final)
	if err := os.Remove(final + "-journal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("remove the old index's journal: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("install index: %w", err)
	}
	_ = syncFile(dir)
	// A new file keeps the history blob in its row: the files the old
	// one's rows named go (history_file.go).
	removeHistoryFiles(dir, "")
	if err := writeMetaJSON(dir, meta); err != nil {
		return nil, err
	}
	fi, err := os.Stat(final)
	if err != nil {
		return nil, err
	}
	return &WriteResult{Path: final, Bytes: fi.Size(), Meta: meta}, nil
}

// ensureDir creates the index directory with a .gitignore that keeps it
// out of git.
func ensureDir(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory: move it away, then run gitnexus analyze again", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create index directory: %w", err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte(gitignoreTxt), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return nil
}

// removeLeftovers deletes partial databases left by killed runs. Writers
// hold the analyze lock, so no other writer is using them.
func removeLeftovers(dir string) {
	leftovers, _ := filepath.Glob(filepath.Join(dir, tmpDBPrefix+"*"))
	for _, l := range leftovers {
		_ = os.Remove(l)
	}
}

// removeDeadLeftovers deletes the partial databases of writers whose
// process is gone (a run killed with -9 leaves graph.db.tmp-<pid>). Any
// command that opens the index calls it; it takes no lock, so the partial
// database of a writer still running, whose pid is alive, is left alone.
func removeDeadLeftovers(dir string) {
	leftovers, _ := filepath.Glob(filepath.Join(dir, tmpDBPrefix+"*"))
	for _, l := range leftovers {
		pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(l), tmpDBPrefix), "-journal"))
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		_ = os.Remove(l)
	}
}

// previousGeneration reads the generation of the current index, 0 when
// there is none or it cannot be read.
func previousGeneration(path string) int64 {
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	r, err := Open(path)
	if err != nil {
		return 0
	}
	defer r.Close()
	return r.Meta().Generation
}

func build(ctx context.Context, path string, g *graph.Graph, vecs *Vectors, meta Meta) error {
	// No journal and no syncs while building: the file is not visible to
	// anyone until it is complete, synced and renamed.
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=OFF&_synchronous=OFF&_locking_mode=EXCLUSIVE")
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
	if _, err := db.ExecContext(ctx, createTables+createFlowTables+createVectorTables); err != nil {
		if strings.Contains(err.Error(), "fts5") {
			return fmt.Errorf("create index: SQLite was built without FTS5; build gitnexus with `make` (go build -tags sqlite_fts5): %w", err)
		}
		return fmt.Errorf("create index: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if err := load(ctx, tx, g, vecs, meta); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit index: %w", err)
	}
	if err := writeCommonTerms(ctx, db); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, createIndexes+createFlowViews); err != nil {
		return fmt.Errorf("index tables: %w", err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
		return fmt.Errorf("analyze tables: %w", err)
	}
	// Readers open the finished file in rollback-journal mode.
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		return fmt.Errorf("finish index: %w", err)
	}
	return db.Close()
}

// batchRows is how many rows one INSERT statement carries. Multi-row
// statements cut the per-statement cost of database/sql and cgo, which
// dominated the load (measured: about 6 µs per single-row insert).
const batchRows = 256

// batchInsert accumulates rows and inserts them batchRows at a time.
type batchInsert struct {
	ctx    context.Context
	tx     *sql.Tx
	prefix string // "INSERT INTO t(a, b) VALUES "
	cols   int
	full   *sql.Stmt
	args   []any
	rows   int
}

func newBatchInsert(ctx context.Context, tx *sql.Tx, table string, cols []string) (*batchInsert, error) {
	b := &batchInsert{ctx: ctx, tx: tx, cols: len(cols),
		prefix: "INSERT INTO " + table + "(" + strings.Join(cols, ", ") + ") VALUES "}
	stmt, err := tx.PrepareContext(ctx, b.statement(batchRows))
	if err != nil {
		return nil, err
	}
	b.full = stmt
	b.args = make([]any, 0, batchRows*len(cols))
	return b, nil
}

func (b *batchInsert) statement(rows int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", b.cols), ",") + ")"
	var sb strings.Builder
	sb.WriteString(b.prefix)
	for i := 0; i < rows; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(one)
	}
	return sb.String()
}

func (b *batchInsert) add(values ...any) error {
	b.args = append(b.args, values...)
	b.rows++
	if b.rows == batchRows {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		if _, err := b.full.Exec(b.args...); err != nil {
			return err
		}
		b.args, b.rows = b.args[:0], 0
	}
	return nil
}

func (b *batchInsert) flush() error {
	defer b.full.Close()
	if b.rows == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(b.ctx, b.statement(b.rows), b.args...)
	return err
}

// nodeColumns are the node table's columns in the order nodeValues gives
// them; searchColumns the full-text table's, in the order of searchValues.
var (
	nodeColumns = []string{"rid", "id", "kind", "name", "qualified_name", "file_path", "start_line", "end_line",
		"signature", "doc", "is_exported", "language", "content"}
	searchColumns = []string{"rowid", "name", "qualified_name", "words", "signature", "doc", "content", "path"}
)

func nodeValues(r int64, n *graph.Node) []any {
	exported := 0
	if n.Exported {
		exported = 1
	}
	return []any{r, n.ID, n.Kind.String(), n.Name, n.QualifiedName, n.FilePath,
		n.StartLine, n.EndLine, n.Signature, n.Doc, exported, n.Language, n.Content}
}

// searchValues are the full-text row of a node (rowid first), nil for a
// node that is not searched. A row is deleted from the contentless index
// with exactly the values it was inserted with, so both go through here.
func searchValues(r int64, kind graph.NodeKind, name, qualified, filePath, signature, doc, content string) []any {
	switch {
	case kind.IsSymbol():
		return []any{r, name, qualified, identifierWords(name, qualified), signature, doc, content + compoundWords(content), pathWords(filePath)}
	case kind == graph.KindFile:
		return []any{r, name, "", identifierWords(filePath), "", "", "", filePath}
	}
	return nil
}

// textHashes hashes every node's doc and content (textHash).
func textHashes(nodes []graph.Node) []uint64 {
	out := make([]uint64, len(nodes))
	// Shared out among the cores when there are many: 60–70 ms on one
	// core for the Go standard library's 240,000 nodes, while the other
	// waited.
	parts := 1
	if len(nodes) >= 1<<15 {
		parts = runtime.GOMAXPROCS(0)
	}
	hash := func(p int) {
		for i := p * len(nodes) / parts; i < (p+1)*len(nodes)/parts; i++ {
			out[i] = textHash(nodes[i].Doc, nodes[i].Content)
		}
	}
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hash(p)
		}()
	}
	hash(0)
	wg.Wait()
	return out
}

func load(ctx context.Context, tx *sql.Tx, g *graph.Graph, vecs *Vectors, meta Meta) error {
	nodesIns, err := newBatchInsert(ctx, tx, "node", nodeColumns)
	if err != nil {
		return err
	}
	searchIns, err := newBatchInsert(ctx, tx, "search", searchColumns)
	if err != nil {
		return err
	}
	nodes := g.Nodes()
	rid := make(ridMap, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		r := int64(i + 1)
		rid[n.ID] = r
		if err := nodesIns.add(nodeValues(r, n)...); err != nil {
			return fmt.Errorf("store nodes: %w", err)
		}
		if sv := searchValues(r, n.Kind, n.Name, n.QualifiedName, n.FilePath, n.Signature, n.Doc, n.Content); sv != nil {
			if err := searchIns.add(sv...); err != nil {
				return fmt.Errorf("index nodes for search: %w", err)
			}
		}
	}
	if err := nodesIns.flush(); err != nil {
		return fmt.Errorf("store nodes: %w", err)
	}
	if err := searchIns.flush(); err != nil {
		return fmt.Errorf("index nodes for search: %w", err)
	}
	edgesIns, err := newBatchInsert(ctx, tx, "edge", edgeColumns)
	if err != nil {
		return err
	}
	edges := g.Edges()
	for i := range edges {
		if err := edgesIns.add(edgeValues(rid, &edges[i])...); err != nil {
			return fmt.Errorf("store edges: %w", err)
		}
	}
	if err := edgesIns.flush(); err != nil {
		return fmt.Errorf("store edges: %w", err)
	}
	if err := loadFlows(ctx, tx, g, rid); err != nil {
		return err
	}
	if h := g.History(); h != nil && h.Unread {
		return errors.New("store: a new file needs the history records, which were not read")
	}
	if err := writeHistory(ctx, tx, g.History(), rid); err != nil {
		return err
	}
	if h := g.History(); h != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO snapshot(id, data) VALUES (?, ?)`, historyBlobID, encodeHistory(g, h, func(id string) bool { _, ok := rid[id]; return ok })); err != nil {
			return fmt.Errorf("store history blob: %w", err)
		}
	}
	if err := writeVectors(ctx, tx, vecs, rid); err != nil {
		return err
	}
	ends := g.EdgeEnds()
	snap := encodeChunked(nodeSlice(nodes), textHashes(nodes), rid, int64(len(nodes))+1, edgesWithEnds(edges, ends), nil, nil, 0)
	if err := snap.store(ctx, tx); err != nil {
		return err
	}
	mj, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)`, metaKey, string(mj))
	return err
}

var edgeColumns = []string{"src", "dst", "type", "confidence", "reason", "line", "more_lines"}

func edgeValues(rid ridsByID, e *graph.Edge) []any {
	return []any{ridOf(rid, e.Src), ridOf(rid, e.Dst), e.Type.String(), e.Confidence, string(e.Reason), e.Line, joinLines(e.More)}
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

// SyncMetaJSON writes meta.json again when it is not the copy of meta (the
// database's, Reader.Meta): a writer killed after its transaction
// committed and before it copied the meta leaves the old copy behind. The
// caller holds the repository's lock (Lock).
func SyncMetaJSON(repo string, meta Meta) error {
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	dir := Dir(repo)
	if have, err := os.ReadFile(filepath.Join(dir, MetaName)); err == nil && string(have) == string(b)+"\n" {
		return nil
	}
	return writeMetaJSON(dir, meta)
}

// writeMetaJSON writes meta.json atomically.
func writeMetaJSON(dir string, meta Meta) error {
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, MetaName+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write meta.json: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, MetaName)); err != nil {
		return fmt.Errorf("write meta.json: %w", err)
	}
	return nil
}

// joinLines writes site lines as the more_lines column: decimal numbers
// separated by single spaces, "" for none.
func joinLines(lines []int) string {
	if len(lines) == 0 {
		return ""
	}
	b := make([]byte, 0, len(lines)*5)
	for i, l := range lines {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(l), 10)
	}
	return string(b)
}

// ParseLines reads a more_lines column.
func ParseLines(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Fields(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("bad site line %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// Present reports whether an index's database is in its directory (the
// registry's storage path): false once it was deleted by hand.
func Present(storagePath string) bool {
	_, err := os.Stat(filepath.Join(storagePath, DBName))
	return err == nil
}
