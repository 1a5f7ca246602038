package store

import (
	"bytes"
	"cmp"
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
	"sync"

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

// encodeHistoryAhead encodes the graph's history on another core while the
// rows are written, when it has records that did not come as they are from
// the index (40 ms on trpc after a commit), and returns what waits for it.
// Every node of the graph gets a row, so the graph says which links are
// stored.
func (u *updater) encodeHistoryAhead() (wait func()) {
	h := u.g.History()
	encode := func() (*graph.History, []byte) {
		st := storedHistory(u.g, h, u.stored)
		return st, encodeStored(st)
	}
	if h == nil || h.Encoded != nil || h.Unread {
		u.newHistory = encode // most likely not needed
		return func() {}
	}
	type result struct {
		h    *graph.History
		blob []byte
	}
	done := make(chan result, 1)
	go func() {
		st, b := encode()
		done <- result{st, b}
	}()
	u.newHistory = sync.OnceValues(func() (*graph.History, []byte) {
		r := <-done
		return r.h, r.blob
	})
	return func() { u.newHistory() }
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

// keptHistory reports whether the snapshot's edge k is a history edge
// that a write carrying the history keeps: neither end is dropped.
func (u *updater) keptHistory(k int) bool {
	if !u.snap.edgeTypes()[k].IsHistory() {
		return false
	}
	e := &u.snap.Edges[k]
	return len(u.drop) == 0 || !u.drop[u.snap.Nodes[e.Src].ID] && !u.drop[u.snap.Nodes[e.Dst].ID]
}

// nodes assigns rids and writes the node and full-text rows that differ.
// The snapshot's nodes and the graph's are both sorted by id, so one merge
// pairs them.
func (u *updater) nodes() error {
	old := u.snap.Nodes
	for i := 1; i < len(old); i++ {
		if old[i-1].ID >= old[i].ID {
			return fmt.Errorf("the snapshot's nodes are out of order at %s", old[i].ID)
		}
	}
	u.newNodes = u.g.Nodes()
	u.hashes = textHashes(u.newNodes)
	u.rid = &updateRids{g: u.g, at: make([]int64, len(u.newNodes))}
	if u.carry {
		u.rid.kept = map[string]int64{}
	}
	u.nextRid = u.snap.NextRid
	var gone, write []int64 // rids whose old rows go; positions in newNodes whose rows are written
	if u.carry {
		u.atNew, u.atOld = make([]int32, len(u.newNodes)), make([]int32, len(old))
		for i := range u.atOld {
			u.atOld[i] = -1
		}
		u.all = &mergedNodes{fresh: u.newNodes, at: make([]int32, 0, len(u.newNodes)+len(old)/2)}
		u.allHashes = make([]uint64, 0, cap(u.all.at))
	}
	// place puts the new node j (and the snapshot's node i it is, when i
	// is not -1) in all.
	place := func(j, i int) {
		if !u.carry {
			return
		}
		u.atNew[j] = int32(len(u.all.at))
		if i >= 0 {
			u.atOld[i] = int32(len(u.all.at))
		}
		u.all.at = append(u.all.at, int32(j))
		u.allHashes = append(u.allHashes, u.hashes[j])
	}
	// leave handles the snapshot's node i, which the new graph does not
	// have: a history node kept, or a node whose rows go.
	leave := func(i int) {
		o := &old[i]
		if u.carry && graph.ParseKind(o.Kind).IsHistory() && !u.drop[o.ID] {
			u.rid.kept[o.ID] = o.Rid
			u.atOld[i] = int32(len(u.all.at))
			u.all.kept = append(u.all.kept, graph.Node{ID: o.ID, Kind: graph.ParseKind(o.Kind), Name: o.Name,
				QualifiedName: o.QualifiedName, FilePath: o.FilePath, StartLine: o.StartLine, EndLine: o.EndLine,
				Signature: o.Signature, Exported: o.Exported, Language: o.Language})
			u.all.at = append(u.all.at, -int32(len(u.all.kept)))
			u.allHashes = append(u.allHashes, u.snap.TextHashes[i])
			return
		}
		gone = append(gone, o.Rid)
		u.stats.NodesRemoved++
		u.touch(o.ID)
	}
	i := 0
	for j := range u.newNodes {
		n := &u.newNodes[j]
		for i < len(old) && old[i].ID < n.ID {
			leave(i)
			i++
		}
		if i < len(old) && old[i].ID == n.ID {
			o := &old[i]
			u.rid.at[j] = o.Rid
			if !sameNode(o, n) || u.snap.TextHashes[i] != u.hashes[j] {
				gone = append(gone, o.Rid)
				write = append(write, int64(j))
				u.stats.NodesChanged++
				u.touch(n.ID)
			}
			place(j, i)
			i++
			continue
		}
		u.rid.at[j] = u.nextRid
		u.nextRid++
		write = append(write, int64(j))
		u.stats.NodesAdded++
		u.touch(n.ID)
		place(j, -1)
	}
	for ; i < len(old); i++ {
		leave(i)
	}
	if err := u.unsearch(gone); err != nil {
		return err
	}
	del, err := u.tx.PrepareContext(u.ctx, `DELETE FROM node WHERE rid = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, r := range gone {
		if _, err := del.ExecContext(u.ctx, r); err != nil {
			return fmt.Errorf("remove nodes: %w", err)
		}
	}
	nodesIns, err := newBatchInsert(u.ctx, u.tx, "node", nodeColumns)
	if err != nil {
		return err
	}
	searchIns, err := newBatchInsert(u.ctx, u.tx, "search", searchColumns)
	if err != nil {
		return err
	}
	for _, j := range write {
		n := &u.newNodes[j]
		r := u.rid.at[j]
		if err := nodesIns.add(nodeValues(r, n)...); err != nil {
			return fmt.Errorf("store nodes: %w", err)
		}
		if sv := searchValues(r, n.Kind, n.Name, n.QualifiedName, n.FilePath, n.Signature, n.Doc, n.Content); sv != nil {
			if err := searchIns.add(sv...); err != nil {
				return fmt.Errorf("index nodes for search: %w", err)
			}
			u.searched = append(u.searched, sv)
			u.docs++
		}
	}
	if err := nodesIns.flush(); err != nil {
		return fmt.Errorf("store nodes: %w", err)
	}
	if err := searchIns.flush(); err != nil {
		return fmt.Errorf("index nodes for search: %w", err)
	}
	return nil
}

// sameNode compares the columns the snapshot holds.
func sameNode(o *NodeRow, n *graph.Node) bool {
	return o.Kind == n.Kind.String() && o.Name == n.Name && o.QualifiedName == n.QualifiedName &&
		o.FilePath == n.FilePath && o.StartLine == n.StartLine && o.EndLine == n.EndLine &&
		o.Signature == n.Signature && o.Exported == n.Exported && o.Language == n.Language
}

// unsearch deletes the full-text rows of the nodes with these rids, with
// the values their node rows hold (what the rows were inserted with).
func (u *updater) unsearch(rids []int64) error {
	const chunk = 500
	del, err := u.tx.PrepareContext(u.ctx, `INSERT INTO search(search, rowid, name, qualified_name, words,
		signature, doc, content, path) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer del.Close()
	for start := 0; start < len(rids); start += chunk {
		part := rids[start:min(start+chunk, len(rids))]
		args := make([]any, len(part))
		for k, r := range part {
			args[k] = r
		}
		rows, err := u.tx.QueryContext(u.ctx, `SELECT rid, kind, name, qualified_name, file_path, signature, doc, content
			FROM node WHERE rid IN (`+strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, args...)
		if err != nil {
			return fmt.Errorf("read replaced nodes: %w", err)
		}
		var rowsVals [][]any
		for rows.Next() {
			var r int64
			var kind, name, qn, file, sig, doc, content string
			if err := rows.Scan(&r, &kind, &name, &qn, &file, &sig, &doc, &content); err != nil {
				rows.Close()
				return fmt.Errorf("read replaced nodes: %w", err)
			}
			if sv := searchValues(r, graph.ParseKind(kind), name, qn, file, sig, doc, content); sv != nil {
				rowsVals = append(rowsVals, sv)
			}
		}
		if err := closeRows(rows); err != nil {
			return fmt.Errorf("read replaced nodes: %w", err)
		}
		for _, sv := range rowsVals {
			if _, err := del.ExecContext(u.ctx, sv...); err != nil {
				return fmt.Errorf("unindex nodes: %w", err)
			}
			u.searched = append(u.searched, sv)
			u.docs--
		}
	}
	return nil
}

// edges writes the edges that differ. The snapshot's edges and the
// graph's are both sorted by (source id, type, destination id).
func (u *updater) edges() error {
	old := u.snap.Edges
	oldNodes := u.snap.Nodes
	u.newEdges = u.g.Edges()
	types := u.snap.edgeTypes()
	oldKey := func(k int) (string, graph.EdgeType, string) {
		e := &old[k]
		return oldNodes[e.Src].ID, types[k], oldNodes[e.Dst].ID
	}
	compare := func(s1 string, t1 graph.EdgeType, d1 string, s2 string, t2 graph.EdgeType, d2 string) int {
		return cmp.Or(strings.Compare(s1, s2), cmp.Compare(t1, t2), strings.Compare(d1, d2))
	}
	for i := 1; i < len(old); i++ {
		s1, t1, d1 := oldKey(i - 1)
		s2, t2, d2 := oldKey(i)
		if compare(s1, t1, d1, s2, t2, d2) >= 0 {
			return fmt.Errorf("the snapshot's edges are out of order at %s -> %s", s2, d2)
		}
	}
	// INDEXED BY: the planner may take edge_dst, which for a MEMBER_OF
	// edge scans every member of the community (measured: 3.7 s for 12,000
	// edges on the Go standard library).
	del, err := u.tx.PrepareContext(u.ctx, `DELETE FROM edge INDEXED BY edge_src WHERE src = ? AND dst = ? AND type = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	upd, err := u.tx.PrepareContext(u.ctx, `UPDATE edge INDEXED BY edge_src SET confidence = ?, reason = ?, line = ?,
		more_lines = ? WHERE src = ? AND dst = ? AND type = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	ins, err := newBatchInsert(u.ctx, u.tx, "edge", edgeColumns)
	if err != nil {
		return err
	}
	remove := func(e *SnapshotEdge) error {
		u.stats.EdgesRemoved++
		u.touch(oldNodes[e.Src].ID)
		_, err := del.ExecContext(u.ctx, oldNodes[e.Src].Rid, oldNodes[e.Dst].Rid, e.Type)
		return err
	}
	// kept: a history edge of the snapshot, kept as it is when the history
	// is carried.
	kept := func(k int) bool { return u.carry && u.keptHistory(k) }
	i := 0
	for j := range u.newEdges {
		n := &u.newEdges[j]
		c := 1 // old[i] compared with n; 1 when old is used up
		for i < len(old) {
			if kept(i) {
				i++
				continue
			}
			s, t, d := oldKey(i)
			if c = compare(s, t, d, n.Src, n.Type, n.Dst); c >= 0 {
				break
			}
			if err := remove(&old[i]); err != nil {
				return fmt.Errorf("remove edges: %w", err)
			}
			i++
			c = 1
		}
		if c > 0 {
			u.stats.EdgesAdded++
			u.touch(n.Src)
			if err := ins.add(edgeValues(u.rid, n)...); err != nil {
				return fmt.Errorf("store edges: %w", err)
			}
			continue
		}
		// The same relationship: rewrite it when an attribute differs.
		// Confidence is compared at the snapshot's precision (float32);
		// confidences are a handful of constants far apart.
		if o := &old[i]; o.Confidence != float32(n.Confidence) || o.Reason != string(n.Reason) ||
			int(o.Line) != n.Line || !sameLines(o.More, n.More) {
			u.stats.EdgesChanged++
			u.touch(n.Src)
			if _, err := upd.ExecContext(u.ctx, n.Confidence, string(n.Reason), n.Line, joinLines(n.More),
				ridOf(u.rid, n.Src), ridOf(u.rid, n.Dst), n.Type.String()); err != nil {
				return fmt.Errorf("update edges: %w", err)
			}
		}
		i++
	}
	for ; i < len(old); i++ {
		if kept(i) {
			continue
		}
		if err := remove(&old[i]); err != nil {
			return fmt.Errorf("remove edges: %w", err)
		}
	}
	if err := ins.flush(); err != nil {
		return fmt.Errorf("store edges: %w", err)
	}
	return nil
}

// withHistory returns what the new snapshot holds when the history is
// carried: the new graph's nodes and the kept history nodes (u.all, from
// nodes), and the new graph's edges (sorted, with their ends) merged with
// the snapshot's history edges, in order, as encodeChunked takes them:
// positions in all keep the order of positions in either graph.
func (u *updater) withHistory(edges []graph.Edge, ends [][2]int32) (nodeSeq, []uint64, edgeSource, error) {
	old, oldNodes := u.snap.Edges, u.snap.Nodes
	var kept []int // the snapshot's history edges
	for k := range old {
		e := &old[k]
		if !u.keptHistory(k) {
			continue
		}
		if u.atOld[e.Src] < 0 || u.atOld[e.Dst] < 0 {
			return nil, nil, nil, fmt.Errorf("the history edge %s -> %s lost its end", oldNodes[e.Src].ID, oldNodes[e.Dst].ID)
		}
		kept = append(kept, k)
	}
	key := func(src int32, t graph.EdgeType, dst int32) uint64 {
		return uint64(src)<<40 | uint64(t)<<32 | uint64(uint32(dst))
	}
	each := func(keep func(src int32) bool, yield func(*graph.Edge, [2]int32) bool) {
		j := 0
		newer := func() bool {
			src := u.atNew[ends[j][0]]
			return !keep(src) || yield(&edges[j], [2]int32{src, u.atNew[ends[j][1]]})
		}
		for _, k := range kept {
			e := &old[k]
			t := u.snap.edgeTypes()[k]
			src, dst := u.atOld[e.Src], u.atOld[e.Dst]
			for ; j < len(edges) && key(u.atNew[ends[j][0]], edges[j].Type, u.atNew[ends[j][1]]) < key(src, t, dst); j++ {
				if !newer() {
					return
				}
			}
			if !keep(src) {
				continue // a kept edge's chunk is written again only when something else in it changed
			}
			var more []int
			for _, l := range e.More {
				more = append(more, int(l))
			}
			h := graph.Edge{Src: oldNodes[e.Src].ID, Dst: oldNodes[e.Dst].ID, Type: t, Confidence: float64(e.Confidence),
				Reason: graph.Reason(e.Reason), Line: int(e.Line), More: more}
			if !yield(&h, [2]int32{src, dst}) {
				return
			}
		}
		for ; j < len(edges); j++ {
			if !newer() {
				return
			}
		}
	}
	return u.all, u.allHashes, each, nil
}

func sameLines(a []int32, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if int(a[k]) != b[k] {
			return false
		}
	}
	return true
}

// history replaces the history tables and blob when the records differ
// from the stored ones. The blob holds node ids, not rids, and a node
// keeps its rid, so equal blobs mean equal tables.
func (u *updater) history() error {
	h := u.g.History()
	// The stored bytes are known without reading them (5.7 MB on trpc,
	// 40 ms) when the records carry the ones read at this generation:
	// nothing has written the index since (EncodedAt).
	known := func(k *graph.History) bool {
		return k != nil && (k.Encoded != nil || k.Unread) && k.EncodedAt != 0 && k.EncodedAt == u.generation
	}
	if h != nil && h.Unread && !known(h) {
		return errors.New("the history records were not read, and the index changed since")
	}
	var oldBlob []byte
	switch {
	case known(h):
		return nil // the records are the stored ones
	case h != nil && h.Encoded == nil && known(h.Base):
		oldBlob = h.Base.Encoded
	default:
		var err error
		if oldBlob, err = readHistoryBlob(u.ctx, u.tx, u.dir); err != nil {
			return fmt.Errorf("read history blob: %w", err)
		}
	}
	if u.carry {
		// The graph has the history's newer commits at most: the records
		// carried over must be the index's, as they are (a save) or under
		// the newer commits' (Base, after a commit).
		carried := h
		if h != nil && h.Encoded == nil {
			carried = h.Base
		}
		if carried == nil || !bytes.Equal(carried.Encoded, oldBlob) {
			return errors.New("the history carried over is not the index's")
		}
	}
	var newH *graph.History
	var newBlob []byte
	if h != nil {
		// The records a re-index found the same as the ones read from
		// this index carry its bytes (graph.History.Encoded).
		if h.Encoded != nil && oldBlob != nil && bytes.Equal(h.Encoded, oldBlob) {
			return nil
		}
		newH, newBlob = u.newHistory()
		timeline.Mark("store: history encoded")
		if oldBlob != nil && bytes.Equal(oldBlob, newBlob) {
			return nil
		}
	} else if oldBlob == nil {
		var n int
		if err := u.tx.QueryRowContext(u.ctx, `SELECT count(*) FROM git_commit`).Scan(&n); err != nil {
			return fmt.Errorf("read history: %w", err)
		}
		if n == 0 {
			return nil
		}
	}
	u.stats.HistoryRewritten = true
	if h != nil && oldBlob != nil {
		if done, err := u.historyDelta(oldBlob, newH, newBlob); done || err != nil {
			return err
		}
	}
	for _, t := range []string{"git_commit", "git_file_change", "git_symbol_change", "git_removed_symbol"} {
		if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("replace history: %w", err)
		}
	}
	if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM snapshot WHERE id = ?`, historyBlobID); err != nil {
		return fmt.Errorf("replace history: %w", err)
	}
	if h == nil {
		return nil
	}
	if err := writeHistory(u.ctx, u.tx, h, u.rid); err != nil {
		return err
	}
	row, err := u.historyFile(newBlob)
	if err != nil {
		return err
	}
	if _, err := u.tx.ExecContext(u.ctx, `INSERT INTO snapshot(id, data) VALUES (?, ?)`, historyBlobID, row); err != nil {
		return fmt.Errorf("store history blob: %w", err)
	}
	return nil
}

// historyFile writes the history blob to its file beside the database
// (history_file.go) and returns the row that names it.
func (u *updater) historyFile(blob []byte) ([]byte, error) {
	row, name, err := writeHistoryFile(u.dir, blob)
	if err != nil {
		return nil, fmt.Errorf("store history blob: %w", err)
	}
	u.historyName = name
	return row, nil
}

// historyDelta changes the history tables commit by commit: the rows of
// commits that are gone or whose records (links included) differ are
// deleted, those of new and changed commits inserted, and the others keep
// their rows, renumbered when newer commits came before them. The records
// are compared as both blobs hold them, so the tables end as writeHistory
// leaves them from the new blob. It reports false, and changes nothing,
// when the stored blob does not decode (the caller rewrites everything).
func (u *updater) historyDelta(oldBlob []byte, newH *graph.History, newBlob []byte) (bool, error) {
	// The history the re-index started from is the stored one decoded,
	// when it was read from these bytes (decoding it again took 24 ms on
	// trpc's 3,343 commits).
	oldH := u.g.History().Base
	if oldH == nil || !bytes.Equal(oldH.Encoded, oldBlob) {
		var err error
		if oldH, err = decodeHistory(oldBlob); err != nil {
			return false, nil
		}
	}
	oldFiles, oldSyms := byCommit(oldH)
	newFiles, newSyms := byCommit(newH)
	timeline.Mark("store: history grouped by commit")
	oldAt := make(map[string]int, len(oldH.Commits))
	for i := range oldH.Commits {
		oldAt[oldH.Commits[i].Hash] = i
	}
	var gone []string // hashes whose rows go
	var add []int     // new commits (by index) whose rows are written
	shift, uniform, kept := 0, true, 0
	for i := range newH.Commits {
		c := &newH.Commits[i]
		j, ok := oldAt[c.Hash]
		if ok {
			delete(oldAt, c.Hash)
			if sameCommitRecords(&oldH.Commits[j], c, oldFiles[c.Hash], newFiles[c.Hash], oldSyms[c.Hash], newSyms[c.Hash]) {
				if kept == 0 {
					shift = i - j
				} else if i-j != shift {
					uniform = false
				}
				kept++
				continue
			}
			gone = append(gone, c.Hash)
		}
		add = append(add, i)
	}
	for hash := range oldAt {
		gone = append(gone, hash)
	}
	oldRid := u.oldRids()
	for _, hash := range gone {
		r := oldRid(graph.CommitID(hash))
		for _, q := range []string{`DELETE FROM git_file_change WHERE commit_rid = ?`,
			`DELETE FROM git_symbol_change WHERE commit_rid = ?`, `DELETE FROM git_commit WHERE rid = ?`} {
			if _, err := u.tx.ExecContext(u.ctx, q, r); err != nil {
				return false, fmt.Errorf("update history: %w", err)
			}
		}
	}
	// The kept commits' seq: one statement when newer commits only came
	// on top (or went), else one a commit.
	switch {
	case kept > 0 && uniform && shift != 0:
		if _, err := u.tx.ExecContext(u.ctx, `UPDATE git_commit SET seq = seq + ?`, shift); err != nil {
			return false, fmt.Errorf("update history: %w", err)
		}
	case !uniform:
		upd, err := u.tx.PrepareContext(u.ctx, `UPDATE git_commit SET seq = ? WHERE rid = ?`)
		if err != nil {
			return false, err
		}
		defer upd.Close()
		for i := range newH.Commits {
			if _, err := upd.ExecContext(u.ctx, i, ridOf(u.rid, graph.CommitID(newH.Commits[i].Hash))); err != nil {
				return false, fmt.Errorf("update history: %w", err)
			}
		}
	}
	var commits []graph.Commit
	var seqs []int
	var files []graph.FileChange
	var syms []graph.SymbolChange
	for _, i := range add {
		c := newH.Commits[i]
		commits, seqs = append(commits, c), append(seqs, i)
		files = append(files, newFiles[c.Hash]...)
		syms = append(syms, newSyms[c.Hash]...)
	}
	// Removed symbols, by id.
	oldRemoved := make(map[string]graph.RemovedSymbol, len(oldH.Removed))
	for _, r := range oldH.Removed {
		oldRemoved[r.ID] = r
	}
	var removed []graph.RemovedSymbol
	for _, r := range newH.Removed {
		if o, ok := oldRemoved[r.ID]; ok {
			delete(oldRemoved, r.ID)
			if o == r {
				continue
			}
			if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM git_removed_symbol WHERE rid = ?`, oldRid(r.ID)); err != nil {
				return false, fmt.Errorf("update history: %w", err)
			}
		}
		removed = append(removed, r)
	}
	for id := range oldRemoved {
		if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM git_removed_symbol WHERE rid = ?`, oldRid(id)); err != nil {
			return false, fmt.Errorf("update history: %w", err)
		}
	}
	if err := writeHistoryRows(u.ctx, u.tx, u.rid, commits, seqs, files, syms, removed); err != nil {
		return false, err
	}
	timeline.Mark("store: history rows changed")
	row, err := u.historyFile(newBlob)
	if err != nil {
		return false, err
	}
	if _, err := u.tx.ExecContext(u.ctx, `UPDATE snapshot SET data = ? WHERE id = ?`, row, historyBlobID); err != nil {
		return false, fmt.Errorf("store history blob: %w", err)
	}
	return true, nil
}

// byCommit slices a decoded history's changes by commit (they are in
// commit order).
func byCommit(h *graph.History) (map[string][]graph.FileChange, map[string][]graph.SymbolChange) {
	return runsBy(h.Files, func(f *graph.FileChange) string { return f.Commit }),
		runsBy(h.Symbols, func(c *graph.SymbolChange) string { return c.Commit })
}

// runsBy maps each key to the run of consecutive records that have it.
func runsBy[T any](recs []T, key func(*T) string) map[string][]T {
	out := map[string][]T{}
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && key(&recs[j]) == key(&recs[i]) {
			j++
		}
		out[key(&recs[i])] = recs[i:j:j]
		i = j
	}
	return out
}

// sameCommitRecords compares what the tables hold of one commit.
func sameCommitRecords(a, b *graph.Commit, af, bf []graph.FileChange, as, bs []graph.SymbolChange) bool {
	one := &graph.History{Commits: []graph.Commit{*a}, Files: af, Symbols: as}
	other := &graph.History{Commits: []graph.Commit{*b}, Files: bf, Symbols: bs}
	return one.SameRecords(other)
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

// commonTerms brings search_common (common_terms.go) up to date. Only the
// terms of the rows deleted and inserted can have changed their counts;
// they are found by tokenizing those rows in a temporary full-text table
// with the index's tokenizer, and counted again in the index. When the
// number of documents moves the listing threshold, every term is counted
// again.
func (u *updater) commonTerms() error {
	var oldDocs int
	err := u.tx.QueryRowContext(u.ctx, `SELECT doc FROM search_common WHERE term = ''`).Scan(&oldDocs)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("count search terms: %w", err)
	}
	newDocs := oldDocs + u.docs
	// Without the document count (an index that did not keep it), every
	// term is counted.
	if err != nil || listedAbove(oldDocs) != listedAbove(newDocs) {
		if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM search_common`); err != nil {
			return fmt.Errorf("count search terms: %w", err)
		}
		return countCommonTerms(u.ctx, u.tx)
	}
	if _, err := u.tx.ExecContext(u.ctx, `UPDATE search_common SET doc = ? WHERE term = ''`, newDocs); err != nil {
		return fmt.Errorf("count search terms: %w", err)
	}
	if len(u.searched) == 0 {
		return nil
	}
	for _, q := range []string{
		`CREATE VIRTUAL TABLE temp.changed_docs USING fts5(name, qualified_name, words, signature, doc, content, path,
			tokenize="unicode61 remove_diacritics 2 tokenchars '_'")`,
		`CREATE VIRTUAL TABLE temp.changed_vocab USING fts5vocab(temp, changed_docs, 'row')`,
		`CREATE VIRTUAL TABLE temp.search_vocab USING fts5vocab(main, search, 'row')`,
	} {
		if _, err := u.tx.ExecContext(u.ctx, q); err != nil {
			return fmt.Errorf("count search terms: %w", err)
		}
	}
	defer func() {
		for _, t := range []string{"search_vocab", "changed_vocab", "changed_docs"} {
			_, _ = u.tx.ExecContext(u.ctx, `DROP TABLE temp.`+t)
		}
	}()
	ins, err := u.tx.PrepareContext(u.ctx, `INSERT INTO temp.changed_docs(name, qualified_name, words, signature, doc,
		content, path) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, sv := range u.searched {
		if _, err := ins.ExecContext(u.ctx, sv[1:]...); err != nil {
			return fmt.Errorf("count search terms: %w", err)
		}
	}
	// The terms' counts in the index: fts5vocab looks a term up by its
	// equality constraint. A term no longer held, or held by too few
	// documents, leaves the list.
	for _, q := range []string{
		`DELETE FROM search_common WHERE term IN (SELECT term FROM temp.changed_vocab)`,
		fmt.Sprintf(`INSERT INTO search_common SELECT v.term, v.doc FROM temp.changed_vocab c
			JOIN temp.search_vocab v ON v.term = c.term WHERE v.doc > %d`, listedAbove(newDocs)),
	} {
		if _, err := u.tx.ExecContext(u.ctx, q); err != nil {
			return fmt.Errorf("count search terms: %w", err)
		}
	}
	return nil
}

// vectors makes the embedding rows those of v (none when v is nil): rows
// whose hash, scale and codes are the same stay, the others are written or
// deleted, and the nearest-neighbour graph (built over all symbols, in node
// order) is replaced.
func (u *updater) vectors(v *Vectors) error {
	want := map[int64]*VectorItem{}
	if v != nil {
		for i := range v.Items {
			if r, ok := u.rid.lookup(v.Items[i].NodeID); ok {
				want[r] = &v.Items[i]
			}
		}
	}
	rows, err := u.tx.QueryContext(u.ctx, `SELECT rid, hash, scale, vec FROM embedding`)
	if err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	var gone []int64
	same := map[int64]bool{}
	for rows.Next() {
		var rid int64
		var hash, vec []byte
		var scale float64
		if err := rows.Scan(&rid, &hash, &scale, &vec); err != nil {
			rows.Close()
			return fmt.Errorf("read embeddings: %w", err)
		}
		it, ok := want[rid]
		switch {
		case !ok:
			gone = append(gone, rid)
		case bytes.Equal(hash, it.Hash) && scale == float64(it.Scale) && bytes.Equal(vec, codesBytes(it.Codes)):
			same[rid] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	for _, r := range gone {
		if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM embedding WHERE rid = ?`, r); err != nil {
			return fmt.Errorf("delete embeddings: %w", err)
		}
	}
	changed := make([]int64, 0, len(want)-len(same))
	for r := range want {
		if !same[r] {
			changed = append(changed, r)
		}
	}
	slices.Sort(changed)
	for _, r := range changed {
		it := want[r]
		if _, err := u.tx.ExecContext(u.ctx, `INSERT OR REPLACE INTO embedding(rid, hash, scale, vec) VALUES (?, ?, ?, ?)`,
			r, it.Hash, float64(it.Scale), codesBytes(it.Codes)); err != nil {
			return fmt.Errorf("store embeddings: %w", err)
		}
	}
	u.stats.VectorsWritten, u.stats.VectorsRemoved = len(changed), len(gone)
	if _, err := u.tx.ExecContext(u.ctx, `DELETE FROM vector_index`); err != nil {
		return fmt.Errorf("store the vector index: %w", err)
	}
	if v != nil && v.Index != nil {
		if _, err := u.tx.ExecContext(u.ctx, `INSERT INTO vector_index(name, data) VALUES (?, ?)`, SymbolVectorIndex, v.Index); err != nil {
			return fmt.Errorf("store the vector index: %w", err)
		}
	}
	return nil
}
