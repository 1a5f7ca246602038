package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The snapshot in chunks (version 4). Written as one blob, the snapshot of
// the Go standard library's index is 61 MB: an in-place write encoded all
// of it again (0.9 s of CPU) and wrote it (0.6 to 0.9 s, the rollback
// journal taking the old pages first) after a one-file edit. Now the
// nodes, in id order, are cut into chunks of consecutive ids, each a row
// of its own holding its nodes and the edges out of them, and a write
// encodes and writes only the chunks in which a node or an edge out of a
// node differs; the others' rows stay as they are.
//
// A chunk covers the ids from its lower bound (lo, "" for the first) to the
// next chunk's. It names edge destinations by rid, which a node keeps
// across writes, so that an edge into another chunk does not change when
// that chunk's nodes move; its strings are its own. A chunk grown past
// twice chunkBytes is cut when it is written again; chunks are not joined
// (a rebuild cuts them afresh).
//
// Row 1, the manifest: magic "GNXS", version 4 (u32), the next rid to
// give (u32), the next chunk row id (u32), the chunk count (u32), then per
// chunk its row id, node count and edge count (u32 each) and its lower
// bound (u32 length, bytes). A chunk row: magic "GNXC", the string table
// as in version 3, the node count (u32) and per node its id, kind, name,
// qualified name, file, signature, language (string indexes u32), start
// and end line (i32), exported (u8), rid (u32) and text hash (u64), then
// the edge count (u32) and per edge its source (the node's index in the
// chunk, u32), destination rid (u32), type and reason (string indexes),
// confidence (f32), line (i32), the count of further site lines (u32) and
// those lines (i32 each).

// chunkBytes is about how large a chunk is cut: the Go standard library's
// snapshot makes about 240 of them, and a one-file edit rewrites a
// handful. (A variable for the tests, which cut small graphs.)
var chunkBytes = 256 << 10

const (
	chunkMagic = "GNXC"
	// firstChunkRow is the row id of the first chunk; the ones below are
	// the manifest and the history blob (historyBlobID).
	firstChunkRow = 16
)

// snapChunk is one chunk of a version 4 snapshot: its row, the lower bound
// of its ids, and how many nodes and edges it holds.
type snapChunk struct {
	row          int64
	lo           string
	nodes, edges int
}

// chunkEdge is an edge as a chunk is encoded from: its ends' positions in
// the node list.
type chunkEdge struct {
	e        *graph.Edge
	src, dst int32
}

// cutChunks cuts nodes (in id order) into chunks of about chunkBytes,
// counting each node's edges (out, by node position): it returns each
// chunk's first node position and lower bound.
func cutChunks(nodes nodeSeq, out []int, from, to int, firstLo string) (starts []int, los []string) {
	size := 0
	for i := from; i < to; i++ {
		if i == from || size >= chunkBytes {
			starts = append(starts, i)
			if i == from {
				los = append(los, firstLo)
			} else {
				los = append(los, nodes.At(i).ID)
			}
			size = 0
		}
		size += nodeBytes(nodes.At(i), out[i])
	}
	if len(starts) == 0 {
		starts, los = []int{from}, []string{firstLo}
	}
	return starts, los
}

// encodeChunk encodes the nodes [from, to) of nodes, with their rids and
// text hashes, and the edges out of them (in order, ends by position).
func encodeChunk(nodes nodeSeq, hashes []uint64, rid ridsByID, from, to int, edges []chunkEdge) []byte {
	strIdx := map[string]uint32{}
	var strs []string
	intern := func(s string) uint32 {
		if i, ok := strIdx[s]; ok {
			return i
		}
		i := uint32(len(strs))
		strIdx[s] = i
		strs = append(strs, s)
		return i
	}
	type nodeRec struct{ f [9]uint32 }
	recs := make([]nodeRec, to-from)
	for i := from; i < to; i++ {
		n := nodes.At(i)
		recs[i-from] = nodeRec{[9]uint32{intern(n.ID), intern(n.Kind.String()), intern(n.Name), intern(n.QualifiedName),
			intern(n.FilePath), intern(n.Signature), intern(n.Language), uint32(int32(n.StartLine)), uint32(int32(n.EndLine))}}
	}
	type edgeRec struct{ typ, reason uint32 }
	erecs := make([]edgeRec, len(edges))
	for k, ce := range edges {
		erecs[k] = edgeRec{intern(ce.e.Type.String()), intern(string(ce.e.Reason))}
	}
	size := 12 + 4*len(strs) + len(recs)*snapshotNodeBytes + len(edges)*28
	for _, s := range strs {
		size += len(s)
	}
	buf := make([]byte, 0, size)
	u32 := func(v uint32) { buf = binary.LittleEndian.AppendUint32(buf, v) }
	buf = append(buf, chunkMagic...)
	u32(uint32(len(strs)))
	for _, s := range strs {
		u32(uint32(len(s)))
	}
	for _, s := range strs {
		buf = append(buf, s...)
	}
	u32(uint32(len(recs)))
	for k, r := range recs {
		for _, v := range r.f {
			u32(v)
		}
		n := nodes.At(from + k)
		exp := byte(0)
		if n.Exported {
			exp = 1
		}
		buf = append(buf, exp)
		u32(uint32(ridOf(rid, n.ID)))
		buf = binary.LittleEndian.AppendUint64(buf, hashes[from+k])
	}
	u32(uint32(len(edges)))
	for k, ce := range edges {
		e := ce.e
		for _, v := range []uint32{uint32(int(ce.src) - from), uint32(ridOf(rid, nodes.At(int(ce.dst)).ID)), erecs[k].typ, erecs[k].reason,
			math.Float32bits(float32(e.Confidence)), uint32(int32(e.Line)), uint32(len(e.More))} {
			u32(v)
		}
		for _, l := range e.More {
			u32(uint32(int32(l)))
		}
	}
	return buf
}

// encodeManifest encodes row 1 of a version 4 snapshot.
func encodeManifest(nextRid, nextRow int64, chunks []snapChunk) []byte {
	buf := make([]byte, 0, 20+len(chunks)*48)
	u32 := func(v uint32) { buf = binary.LittleEndian.AppendUint32(buf, v) }
	buf = append(buf, snapshotMagic...)
	u32(4)
	u32(uint32(nextRid))
	u32(uint32(nextRow))
	u32(uint32(len(chunks)))
	for _, c := range chunks {
		u32(uint32(c.row))
		u32(uint32(c.nodes))
		u32(uint32(c.edges))
		u32(uint32(len(c.lo)))
		buf = append(buf, c.lo...)
	}
	return buf
}

// chunkRows is the snapshot a write stores: the manifest and the chunk
// rows to write (by row id); rows to delete.
type chunkRows struct {
	manifest []byte
	write    map[int64][]byte
	remove   []int64
}

// nodeSeq is the nodes a snapshot is encoded from, in id order.
type nodeSeq interface {
	Len() int
	At(i int) *graph.Node
}

// nodeSlice is a graph's nodes.
type nodeSlice []graph.Node

func (s nodeSlice) Len() int             { return len(s) }
func (s nodeSlice) At(i int) *graph.Node { return &s[i] }

// mergedNodes is the new graph's nodes and the index's history nodes kept
// with the history (carry.go), merged in id order without copying the
// graph's: at is fresh's position for each, or -k-1 for kept's k-th.
// Copying the graph's nodes into one slice took 100 ms of a Go standard
// library save.
type mergedNodes struct {
	fresh, kept []graph.Node
	at          []int32
}

func (m *mergedNodes) Len() int { return len(m.at) }

func (m *mergedNodes) At(i int) *graph.Node {
	k := m.at[i]
	if k >= 0 {
		return &m.fresh[k]
	}
	return &m.kept[-k-1]
}

// encodeChunked encodes nodes and edges (in the graph's order, ends by
// position) into a version 4 snapshot: cut afresh when old is nil, else
// with old's chunks, of which only those dirty says are encoded again
// (and cut when they grew); nextRow is the next chunk row id.
func encodeChunked(nodes nodeSeq, hashes []uint64, rid ridsByID, nextRid int64,
	each edgeSource, old []snapChunk, dirty []bool, nextRow int64) chunkRows {
	if len(old) == 0 {
		old, dirty, nextRow = []snapChunk{{row: firstChunkRow, lo: ""}}, []bool{true}, firstChunkRow+1
	}
	// Each old chunk's node range in nodes, by its lower bound.
	starts := make([]int, len(old)+1)
	for k := range old {
		lo := old[k].lo
		starts[k] = sort.Search(nodes.Len(), func(i int) bool { return nodes.At(i).ID >= lo })
	}
	starts[len(old)] = nodes.Len()
	chunkAt := make([]int32, nodes.Len()) // the old chunk of each node
	for k := range old {
		for i := starts[k]; i < starts[k+1]; i++ {
			chunkAt[i] = int32(k)
		}
	}
	out := make([]int, nodes.Len()) // edges out of each node in dirty chunks
	edges := make([][]chunkEdge, len(old))
	each(func(src int32) bool { return dirty[chunkAt[src]] }, func(e *graph.Edge, ends [2]int32) bool {
		k := chunkAt[ends[0]]
		edges[k] = append(edges[k], chunkEdge{e, ends[0], ends[1]})
		out[ends[0]]++
		return true
	})
	rows := chunkRows{write: map[int64][]byte{}}
	var chunks []snapChunk
	for k, c := range old {
		from, to := starts[k], starts[k+1]
		if !dirty[k] {
			chunks = append(chunks, c)
			continue
		}
		if from == to && k > 0 {
			rows.remove = append(rows.remove, c.row)
			continue
		}
		cuts, los := []int{from}, []string{c.lo}
		if size := chunkSize(nodes, out, from, to); size > 2*chunkBytes {
			cuts, los = cutChunks(nodes, out, from, to, c.lo)
		}
		es := edges[k]
		for p := range cuts {
			end := to
			if p+1 < len(cuts) {
				end = cuts[p+1]
			}
			q := 0
			for q < len(es) && int(es[q].src) < end {
				q++
			}
			row := c.row
			if p > 0 {
				row, nextRow = nextRow, nextRow+1
			}
			rows.write[row] = encodeChunk(nodes, hashes, rid, cuts[p], end, es[:q])
			chunks = append(chunks, snapChunk{row: row, lo: los[p], nodes: end - cuts[p], edges: q})
			es = es[q:]
		}
	}
	rows.manifest = encodeManifest(nextRid, nextRow, chunks)
	return rows
}

// chunkSize estimates the encoded size of the nodes [from, to) with their
// out edges.
func chunkSize(nodes nodeSeq, out []int, from, to int) int {
	size := 0
	for i := from; i < to; i++ {
		size += nodeBytes(nodes.At(i), out[i])
	}
	return size
}

// nodeBytes estimates the encoded size of node n and its out edges.
func nodeBytes(n *graph.Node, out int) int {
	return 64 + len(n.ID) + len(n.Name) + len(n.QualifiedName) + len(n.Signature) + 28*out
}

// store writes the rows into the snapshot table.
func (r chunkRows) store(ctx context.Context, tx *sql.Tx) error {
	for _, row := range r.remove {
		if _, err := tx.ExecContext(ctx, `DELETE FROM snapshot WHERE id = ?`, row); err != nil {
			return fmt.Errorf("store snapshot: %w", err)
		}
	}
	for _, row := range sortedRows(r.write) {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO snapshot(id, data) VALUES (?, ?)`, row, r.write[row]); err != nil {
			return fmt.Errorf("store snapshot: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO snapshot(id, data) VALUES (1, ?)`, r.manifest); err != nil {
		return fmt.Errorf("store snapshot: %w", err)
	}
	return nil
}

func sortedRows(m map[int64][]byte) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// decodeManifest reads row 1 of a version 4 snapshot.
func decodeManifest(b []byte) (nextRid, nextRow int64, chunks []snapChunk, err error) {
	r := &snapshotReader{b: b, off: 8}
	nextRid, nextRow = int64(r.u32()), int64(r.u32())
	n := int(r.u32())
	if r.err != nil || n > len(b)/16 {
		return 0, 0, nil, errors.New("snapshot manifest is damaged")
	}
	chunks = make([]snapChunk, n)
	for k := range chunks {
		c := &chunks[k]
		c.row, c.nodes, c.edges = int64(r.u32()), int(r.u32()), int(r.u32())
		l := int(r.u32())
		if r.err != nil || r.off+l > len(b) {
			return 0, 0, nil, errors.New("snapshot manifest is damaged")
		}
		c.lo = string(b[r.off : r.off+l])
		r.off += l
		if c.row < firstChunkRow || c.row >= nextRow || k > 0 && c.lo <= chunks[k-1].lo || k == 0 && c.lo != "" {
			return 0, 0, nil, errors.New("snapshot manifest is damaged")
		}
	}
	return nextRid, nextRow, chunks, r.err
}

// decodeChunks decodes a version 4 snapshot from its manifest and chunk
// rows (by row id).
func decodeChunks(manifest []byte, rows map[int64][]byte) (*Snapshot, error) {
	nextRid, nextRow, chunks, err := decodeManifest(manifest)
	if err != nil {
		return nil, err
	}
	nNodes, nEdges := 0, 0
	for _, c := range chunks {
		nNodes += c.nodes
		nEdges += c.edges
	}
	if total := sumLen(rows); nNodes > total/snapshotNodeBytes || nEdges > total/28 {
		return nil, errors.New("snapshot manifest is damaged")
	}
	s := &Snapshot{Nodes: make([]NodeRow, 0, nNodes), TextHashes: make([]uint64, 0, nNodes), Edges: make([]SnapshotEdge, 0, nEdges),
		NextRid: nextRid, chunks: chunks, nextChunkRow: nextRow}
	// The nodes of every chunk first: edges name their destinations by rid.
	type pending struct {
		r    *snapshotReader
		strs []string
		base int
	}
	parts := make([]pending, len(chunks))
	for k, c := range chunks {
		b, ok := rows[c.row]
		if !ok {
			return nil, fmt.Errorf("snapshot chunk %d is missing", c.row)
		}
		if len(b) < 8 || string(b[:4]) != chunkMagic {
			return nil, fmt.Errorf("snapshot chunk %d is damaged", c.row)
		}
		r := &snapshotReader{b: b, off: 4}
		strs, err := r.strings()
		if err != nil {
			return nil, fmt.Errorf("snapshot chunk %d: %w", c.row, err)
		}
		str := r.strFunc(strs)
		base := len(s.Nodes)
		if n := int(r.u32()); r.err == nil && n != c.nodes {
			return nil, fmt.Errorf("snapshot chunk %d holds %d nodes, the manifest says %d", c.row, n, c.nodes)
		}
		for i := 0; i < c.nodes && r.err == nil; i++ {
			var n NodeRow
			n.ID, n.Kind, n.Name, n.QualifiedName, n.FilePath, n.Signature, n.Language = str(), str(), str(), str(), str(), str(), str()
			n.StartLine, n.EndLine = int(int32(r.u32())), int(int32(r.u32()))
			n.Exported = r.u8() == 1
			n.Rid = int64(r.u32())
			h := r.u64()
			if r.err == nil {
				switch {
				case n.Rid < 1 || n.Rid >= nextRid:
					r.err = errors.New("snapshot node rid is out of range")
				case n.ID < c.lo || k+1 < len(chunks) && n.ID >= chunks[k+1].lo:
					r.err = errors.New("snapshot node is outside its chunk")
				case len(s.Nodes) > 0 && s.Nodes[len(s.Nodes)-1].ID >= n.ID:
					r.err = errors.New("snapshot nodes are out of order")
				}
			}
			s.Nodes = append(s.Nodes, n)
			s.TextHashes = append(s.TextHashes, h)
		}
		if r.err != nil {
			return nil, fmt.Errorf("snapshot chunk %d: %w", c.row, r.err)
		}
		parts[k] = pending{r, strs, base}
	}
	// Node index by rid: an array while the rids given out are not many
	// more than the nodes (removed nodes leave holes), else a map.
	var atArray []int32
	var atMap map[uint32]int32
	if nextRid <= 4*int64(len(s.Nodes))+1024 {
		atArray = make([]int32, nextRid)
		for i := range atArray {
			atArray[i] = -1
		}
	} else {
		atMap = make(map[uint32]int32, len(s.Nodes))
	}
	at := func(rid uint32) int32 {
		if atMap != nil {
			if i, ok := atMap[rid]; ok {
				return i
			}
			return -1
		}
		if int64(rid) >= int64(len(atArray)) {
			return -1
		}
		return atArray[rid]
	}
	for i := range s.Nodes {
		rid := uint32(s.Nodes[i].Rid)
		if at(rid) >= 0 {
			return nil, errors.New("snapshot rids repeat")
		}
		if atMap != nil {
			atMap[rid] = int32(i)
		} else {
			atArray[rid] = int32(i)
		}
	}
	var more []int32
	var moreAt [][3]int // edge, start, count
	for k, c := range chunks {
		r, str, base := parts[k].r, parts[k].r.strFunc(parts[k].strs), parts[k].base
		if n := int(r.u32()); r.err == nil && n != c.edges {
			return nil, fmt.Errorf("snapshot chunk %d holds %d edges, the manifest says %d", c.row, n, c.edges)
		}
		for j := 0; j < c.edges && r.err == nil; j++ {
			var e SnapshotEdge
			src, dst := int(r.u32()), r.u32()
			if start, n := r.edgeTail(str, &e, &more); n > 0 {
				moreAt = append(moreAt, [3]int{len(s.Edges), start, n})
			}
			if r.err == nil && (src >= c.nodes || at(dst) < 0) {
				r.err = errors.New("snapshot edge points outside the nodes")
			}
			if r.err == nil {
				e.Src, e.Dst = uint32(base+src), uint32(at(dst))
				s.Edges = append(s.Edges, e)
			}
		}
		if r.err == nil && r.off != len(r.b) {
			r.err = errors.New("snapshot chunk has trailing bytes")
		}
		if r.err != nil {
			return nil, fmt.Errorf("snapshot chunk %d: %w", c.row, r.err)
		}
	}
	for _, m := range moreAt { // slice only now: appending moved the array
		s.Edges[m[0]].More = more[m[1] : m[1]+m[2] : m[1]+m[2]]
	}
	return s, nil
}

func sumLen(rows map[int64][]byte) int {
	n := 0
	for _, b := range rows {
		n += len(b)
	}
	return n
}

// strings reads a string table: the count, each length, then the bytes,
// in one allocation.
func (r *snapshotReader) strings() ([]string, error) {
	nStr := int(r.u32())
	if r.err != nil || nStr > (len(r.b)-r.off)/4 {
		return nil, errors.New("snapshot string table is damaged")
	}
	lens := make([]uint32, nStr)
	total := 0
	for i := range lens {
		lens[i] = r.u32()
		total += int(lens[i])
	}
	if r.err != nil || total > len(r.b)-r.off {
		return nil, errors.New("snapshot string table is damaged")
	}
	all := string(r.b[r.off : r.off+total])
	r.off += total
	strs := make([]string, nStr)
	pos := 0
	for i, l := range lens {
		strs[i] = all[pos : pos+int(l)]
		pos += int(l)
	}
	return strs, nil
}

// strFunc reads string indexes into strs.
func (r *snapshotReader) strFunc(strs []string) func() string {
	return func() string {
		i := r.u32()
		if int(i) >= len(strs) {
			if r.err == nil {
				r.err = errors.New("snapshot string index out of range")
			}
			return ""
		}
		return strs[i]
	}
}

// readSnapshot reads and decodes the snapshot through q: version 4 from
// its manifest and chunk rows, older ones from row 1.
func readSnapshot(ctx context.Context, q queryer) (*Snapshot, error) {
	var b []byte
	err := q.QueryRowContext(ctx, `SELECT data FROM snapshot WHERE id = 1`).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoSnapshot
	}
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if len(b) < 8 || string(b[:4]) != snapshotMagic || binary.LittleEndian.Uint32(b[4:]) != 4 {
		return decodeSnapshot(b)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, data FROM snapshot WHERE id >= ?`, firstChunkRow)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	chunks := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read snapshot: %w", err)
		}
		chunks[id] = data
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	return decodeChunks(b, chunks)
}

// edgeSource gives a snapshot's edges in order, with the positions of
// their ends, to yield: those whose source position keep accepts (the
// others need not be made). The edges stay valid: they are kept, not
// copied.
type edgeSource func(keep func(src int32) bool, yield func(e *graph.Edge, ends [2]int32) bool)

// edgesWithEnds gives edges in order with the positions of their ends.
func edgesWithEnds(edges []graph.Edge, ends [][2]int32) edgeSource {
	return func(keep func(int32) bool, yield func(*graph.Edge, [2]int32) bool) {
		for i := range edges {
			if keep(ends[i][0]) && !yield(&edges[i], ends[i]) {
				return
			}
		}
	}
}

// chunkOf returns the chunk of chunks whose ids include id.
func chunkOf(chunks []snapChunk, id string) int {
	return sort.Search(len(chunks), func(k int) bool { return chunks[k].lo > id }) - 1
}
