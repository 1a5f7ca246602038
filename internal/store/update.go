package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// An incremental write changes the index in place, in one transaction,
// instead of building a new file: a one-file edit changes a few dozen rows,
// and rebuilding the whole file (above all its full-text index) was most of
// an incremental analyze (0.75–0.9 s of 1.4 s on a 92k-line repository).
//
// What makes it possible is that a node keeps its rid: the rows of a node
// that did not change stay as they are, a new node gets the next unused rid
// (the snapshot keeps the counter, so a removed node's rid is never given
// to another node), and readers number nodes by the snapshot's order, not
// by rid. The snapshot also keeps a hash of every node's doc and content,
// the two columns it does not hold, so the changed nodes are found without
// reading the node table.
//
// The write compares the new graph with the snapshot and changes only what
// differs: node rows and their full-text rows (a row of the contentless
// full-text index is deleted with the values it was inserted with, read
// back from the node table), edges, the communities and processes (a few
// hundred rows, replaced), the history tables (commit by commit, and only
// when the history records differ), the embedding rows whose vector
// changed and the nearest-neighbour graph, the snapshot, the common-term
// counts and meta.
// The result is the index a full write makes, up to rid numbering; the
// incremental tests in internal/cli compare the two after every step.
//
// Readers see the old index or the new one: the rollback journal makes the
// transaction atomic, and a writer killed in the middle leaves a journal
// that the next connection rolls back. A reader that loaded the graph
// before the write and queries the tables after it finds every rid it
// knows either with the same node or gone (memgraph.Graph.NodeOfRid).

// WriteOptions tune Save.
type WriteOptions struct {
	// Fresh writes a new file even when the index could be changed in
	// place (analyze --force).
	Fresh bool
	// Ahead is the index's snapshot read beforehand (Reader.SnapshotAhead):
	// an in-place write uses it when the index is still the one it was read
	// from, instead of reading and decoding it again (0.15 s on the Go
	// standard library).
	Ahead *Ahead
	// CarryHistory keeps the index's history part (carry.go): the graph
	// holds the code, and at most the commits read since (with the Commit
	// nodes of the index their edges reach), and Ahead is the snapshot
	// that Ahead.CarriesHistory approved. The write fails rather than
	// writing a new file, which would have no history.
	CarryHistory bool
}

// Ahead is an index's snapshot, read and decoded before a Save.
type Ahead struct {
	generation int64
	snap       *Snapshot
	// drop names the history nodes a write that carries the history
	// leaves out (CarriesHistory).
	drop map[string]bool
}

// SnapshotAhead reads and decodes the index's snapshot for a later Save.
func (r *Reader) SnapshotAhead(ctx context.Context) (*Ahead, error) {
	snap, err := r.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return &Ahead{generation: r.meta.Generation, snap: snap}, nil
}

// UpdateStats describe an in-place write.
type UpdateStats struct {
	NodesAdded   int `json:"nodesAdded"`
	NodesChanged int `json:"nodesChanged"`
	NodesRemoved int `json:"nodesRemoved"`
	EdgesAdded   int `json:"edgesAdded"`
	EdgesChanged int `json:"edgesChanged"`
	EdgesRemoved int `json:"edgesRemoved"`
	// SnapshotChunks is how many chunks of the snapshot were written
	// (snapshot_chunks.go): those a node or edge of changed.
	SnapshotChunks int `json:"snapshotChunks"`
	// HistoryRewritten is true when the history records differed and the
	// history tables were written again.
	HistoryRewritten bool `json:"historyRewritten"`
	// Vectors written (new or changed) and deleted.
	VectorsWritten int `json:"vectorsWritten,omitempty"`
	VectorsRemoved int `json:"vectorsRemoved,omitempty"`
}

// errNoUpdate is why an index cannot be changed in place; Save writes a new
// file instead.
type errNoUpdate struct{ why string }

func (e errNoUpdate) Error() string { return "cannot update the index in place: " + e.why }

// Save writes g as the repository's index: in place when the current index
// allows it (same schema and writer), else as a new file
// (WriteWithVectors). WriteResult.Update says which, and
// WriteResult.Rewritten why a new file was written.
func Save(ctx context.Context, repo string, g *graph.Graph, vecs *Vectors, meta Meta, opts WriteOptions) (*WriteResult, error) {
	why := "--force"
	if opts.CarryHistory && opts.Fresh {
		return nil, errors.New("store: a new file cannot carry the history of the index it replaces")
	}
	if !opts.Fresh {
		res, err := update(ctx, repo, g, vecs, meta, opts.Ahead, opts.CarryHistory)
		if err == nil {
			return res, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if opts.CarryHistory {
			return nil, fmt.Errorf("%w (the history was carried over from the index; run analyze again)", err)
		}
		// Anything else (no index, an older format, a damaged file) is
		// mended by writing the index anew.
		why = err.Error()
		var nu errNoUpdate
		if errors.As(err, &nu) {
			why = nu.why
		}
	}
	res, err := WriteWithVectors(ctx, repo, g, vecs, meta)
	if err != nil {
		return nil, err
	}
	res.Rewritten = why
	return res, nil
}

func update(ctx context.Context, repo string, g *graph.Graph, vecs *Vectors, meta Meta, ahead *Ahead, carry bool) (*WriteResult, error) {
	if meta.Writer == "" {
		return nil, errNoUpdate{"the writer is not identified"}
	}
	dir := Dir(repo)
	path := filepath.Join(dir, DBName)
	if _, err := os.Stat(path); err != nil {
		return nil, errNoUpdate{"there is no index"}
	}
	removeLeftovers(dir)
	// BEGIN IMMEDIATE takes the write lock at once; readers go on until
	// the commit, which waits for them (busy timeout).
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("open the index for writing: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if failpointsOn() {
		if _, err := tx.ExecContext(ctx, `PRAGMA cache_size=1`); err != nil {
			return nil, err
		}
	}
	timeline.Mark("store: transaction begun")
	var mj string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaKey).Scan(&mj); err != nil {
		return nil, fmt.Errorf("read meta: %w", err)
	}
	var old Meta
	if err := json.Unmarshal([]byte(mj), &old); err != nil {
		return nil, fmt.Errorf("read meta: %w", err)
	}
	switch {
	case old.Format != MetaFormat || old.SchemaVersion != SchemaVersion:
		return nil, errNoUpdate{fmt.Sprintf("the index has format %d, this program writes %d", old.SchemaVersion, SchemaVersion)}
	case old.Writer != meta.Writer:
		return nil, errNoUpdate{"another build of gitnexus wrote the index"}
	}
	var snap *Snapshot
	if ahead != nil && ahead.generation == old.Generation {
		// Every write gives the index a new generation: this is the
		// snapshot the transaction would read.
		snap = ahead.snap
	} else if carry {
		return nil, errors.New("the index changed after its history was found the same")
	} else if snap, err = readSnapshot(ctx, tx); err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if snap.TextHashes == nil {
		return nil, errNoUpdate{"the index's snapshot has no rids"}
	}

	// Rids only grow (a removed node's is not given again) and the
	// snapshot keeps them in 32 bits; a new file numbers them from 1.
	if snap.NextRid+int64(g.NodeCount()) >= math.MaxUint32 {
		return nil, errNoUpdate{"the index has given out too many row ids"}
	}
	timeline.Mark("store: snapshot at hand")
	u := &updater{ctx: ctx, tx: tx, dir: dir, g: g, snap: snap, carry: carry, dirty: make([]bool, len(snap.chunks)), generation: old.Generation}
	if carry {
		u.drop = ahead.drop
	}
	// Sorted now, the graph is only read from here on: the history is
	// encoded on the side, and the encoding ends before the graph is
	// given back.
	g.Nodes()
	g.EdgeEnds()
	defer u.encodeHistoryAhead()()
	if err := u.nodes(); err != nil {
		return nil, err
	}
	timeline.Mark("store: nodes")
	if err := u.edges(); err != nil {
		return nil, err
	}
	timeline.Mark("store: edges")
	for _, q := range []string{`DELETE FROM community`, `DELETE FROM process`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("replace communities and processes: %w", err)
		}
	}
	if err := loadFlows(ctx, tx, g, u.rid); err != nil {
		return nil, err
	}
	timeline.Mark("store: communities and processes")
	if err := u.history(); err != nil {
		return nil, err
	}
	timeline.Mark("store: history")
	if err := u.vectors(vecs); err != nil {
		return nil, err
	}
	if err := u.commonTerms(); err != nil {
		return nil, err
	}
	timeline.Mark("store: search terms")
	// Only the snapshot's chunks in which a node or an edge out of one
	// differs are encoded and written again (snapshot_chunks.go).
	var nodes nodeSeq = nodeSlice(u.newNodes)
	hashes, edges, ends := u.hashes, g.Edges(), g.EdgeEnds()
	each := edgesWithEnds(edges, ends)
	if carry {
		if nodes, hashes, each, err = u.withHistory(edges, ends); err != nil {
			return nil, err
		}
	}
	rows := encodeChunked(nodes, hashes, u.rid, u.nextRid, each, snap.chunks, u.dirty, snap.nextChunkRow)
	if err := rows.store(ctx, tx); err != nil {
		return nil, err
	}
	u.stats.SnapshotChunks = len(rows.write)
	timeline.Mark("store: snapshot")

	meta.Format = MetaFormat
	meta.SchemaVersion = SchemaVersion
	meta.Generation = old.Generation + 1
	fromGraph(&meta, g)
	meta.Embeddings = nil
	if vecs != nil {
		em := vecs.Meta
		meta.Embeddings = &em
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = ?`, string(mb), metaKey); err != nil {
		return nil, fmt.Errorf("store meta: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	failpoint("update-before-commit")
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit index: %w", err)
	}
	timeline.Mark("store: committed")
	if u.stats.HistoryRewritten {
		// The files of the history the index no longer names go (the
		// one it names stays, when it names one).
		removeHistoryFiles(dir, u.historyName)
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	failpoint("update-after-commit")
	if err := writeMetaJSON(dir, meta); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	st := u.stats
	return &WriteResult{Path: path, Bytes: fi.Size(), Meta: meta, Update: &st}, nil
}

// updater carries one in-place write.
type updater struct {
	ctx  context.Context
	tx   *sql.Tx
	dir  string // the index's directory
	g    *graph.Graph
	snap *Snapshot
	// historyName is the file the history blob was written to, when it
	// was (history_file.go).
	historyName string

	newNodes []graph.Node
	newEdges []graph.Edge
	hashes   []uint64    // by position in newNodes
	rid      *updateRids // every new node's rid, and the kept history nodes' (rids.go)
	nextRid  int64
	stats    UpdateStats
	// carry keeps the index's history part (carry.go). all is then the
	// new graph's nodes and the history's, in id order (a view over
	// newNodes and the kept ones), allHashes their text hashes; atNew and
	// atOld place newNodes and the snapshot's nodes in all (-1: not
	// there).
	carry bool
	// drop names the index's history nodes that go even so, with their
	// edges (Ahead.CarriesHistory).
	drop         map[string]bool
	all          *mergedNodes
	allHashes    []uint64
	atNew, atOld []int32
	// searched are the full-text rows deleted and inserted (searchValues),
	// for the recount of their terms.
	searched [][]any
	docs     int // full-text rows inserted less those deleted
	// newHistory gives the new history's stored form and its bytes
	// (encodeHistoryAhead).
	newHistory func() (*graph.History, []byte)
	// dirty marks the snapshot's chunks in which a node or an edge out
	// of one changes (touch).
	dirty []bool
	// generation is the index's before the write.
	generation int64
}

// touch marks the snapshot chunk of the node with this id as changed.
func (u *updater) touch(id string) {
	if len(u.dirty) > 0 {
		u.dirty[chunkOf(u.snap.chunks, id)] = true
	}
}

// stored reports whether the node with this id has a row after the write:
// it is in the graph, or it is a history node of the index kept with the
// history (carry.go).
func (u *updater) stored(id string) bool {
	if u.g.HasNode(id) {
		return true
	}
	if !u.carry {
		return false
	}
	old := u.snap.Nodes
	k := sort.Search(len(old), func(k int) bool { return old[k].ID >= id })
	return k < len(old) && old[k].ID == id && graph.ParseKind(old[k].Kind).IsHistory() && !u.drop[id]
}

// oldRids looks a node's rid up in the index as it was before this write
// (the snapshot's nodes are sorted by id); 0 when it had none.
func (u *updater) oldRids() func(string) int64 {
	nodes := u.snap.Nodes
	return func(id string) int64 {
		i, ok := slices.BinarySearchFunc(nodes, id, func(n NodeRow, id string) int { return strings.Compare(n.ID, id) })
		if !ok {
			return 0
		}
		return nodes[i].Rid
	}
}
