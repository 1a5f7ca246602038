package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unsafe"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The snapshot is a compact binary copy of the nodes (without content and
// doc) and edges, stored as one BLOB in the same database and written in
// the same transaction as the tables it mirrors. Loading the in-memory
// graph from it takes one read and no per-row work: scanning the tables
// through database/sql measured 3.8 s per million edges on the Go standard
// library index, mostly allocation; the snapshot loads the same graph in a
// small fraction of that (see BenchmarkLoad in internal/memgraph).
//
// Layout (little endian): magic "GNXS", version u32; the next rid to give
// a new node (u32); the string table as a count u32, then each string's
// length u32, then all string bytes; node count u32, then per node in the
// graph's order (by id): id, kind, name, qualified name, file, signature,
// language (string indexes u32), start and end line (i32), exported (u8),
// its rid (u32) and the hash of its doc and content (u64); edge count u32,
// then per edge: src, dst (node index in this list, u32), type (string
// index u32), reason (string index u32), confidence (f32), line (i32), the
// count of further site lines (u32) and those lines (i32 each).
//
// A node keeps its rid across incremental writes (update.go) and a removed
// node's rid is not given again, so rids have holes and their order is not
// the nodes' order; the snapshot's order is, and readers number nodes by it.
// Version 2 had neither the next rid nor the per-node rid and hash: its
// nodes were rids 1..n in order.

const (
	snapshotMagic   = "GNXS"
	snapshotVersion = 3
)

// Snapshot is the decoded snapshot: nodes in the graph's order (each with
// its rid) and edges by node index. Strings share one backing allocation.
type Snapshot struct {
	Nodes []NodeRow
	Edges []SnapshotEdge
	// TextHashes are the hashes of the nodes' doc and content (textHash),
	// by node index; nil in a version 2 snapshot.
	TextHashes []uint64
	// NextRid is the rid the next new node gets.
	NextRid int64
}

// SnapshotEdge is one edge by node index.
type SnapshotEdge struct {
	Src, Dst   uint32
	Type       string
	Reason     string
	Confidence float32
	Line       int32
	More       []int32 // further site lines; all edges share one backing array
}

// ErrNoSnapshot means the index has no snapshot (callers scan the tables).
var ErrNoSnapshot = errors.New("no snapshot")

// textHash hashes a node's doc and content, the two columns the snapshot
// does not hold: an incremental write compares it to find the nodes whose
// row changed. It is two CRC-32s of the doc, a byte that is in no UTF-8
// text (so that doc "ab" + "" differs from "a" + "b") and the content, one
// Castagnoli and one IEEE, in the high and low halves: both run in
// hardware, at 8 GB/s against 0.6 for the FNV-1a it replaced
// (BenchmarkTextHash), which took a tenth of a second for the Go standard
// library's 100 MB of code.
func textHash(doc, content string) uint64 {
	sep := []byte{0xff}
	c := crc32.Update(crc32.Update(crc32.Update(0, castagnoli, bytesOf(doc)), castagnoli, sep), castagnoli, bytesOf(content))
	i := crc32.Update(crc32.Update(crc32.Update(0, crc32.IEEETable, bytesOf(doc)), crc32.IEEETable, sep), crc32.IEEETable, bytesOf(content))
	return uint64(c)<<32 | uint64(i)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// bytesOf is s's bytes, not copied: for reading only.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// encodeSnapshot encodes nodes (in order) with their rids and text hashes,
// and edges by node position (ends, graph.Graph.EdgeEnds).
func encodeSnapshot(nodes []graph.Node, edges []graph.Edge, ends [][2]int32, rid map[string]int64, hashes []uint64, nextRid int64) []byte {
	return encodeSnapshotFrom(nodes, hashes, rid, nextRid, len(edges), func(yield func(*graph.Edge, [2]int32) bool) {
		for i := range edges {
			if !yield(&edges[i], ends[i]) {
				return
			}
		}
	})
}

// encodeSnapshotFrom is encodeSnapshot with the edges given in order by
// each, n of them, with the positions of their ends in nodes: an in-place
// write that carries the history merges the index's history edges into
// the new graph's as it encodes them, rather than copy every edge into one
// list first (on the Go standard library: 85 MB less at the peak; the
// time is the same, the copy having overlapped other work).
func encodeSnapshotFrom(nodes []graph.Node, hashes []uint64, rid map[string]int64, nextRid int64, n int,
	each func(yield func(e *graph.Edge, ends [2]int32) bool)) []byte {
	strIdx := make(map[string]uint32, len(nodes))
	strs := make([]string, 0, 2*len(nodes))
	intern := func(s string) uint32 {
		if i, ok := strIdx[s]; ok {
			return i
		}
		i := uint32(len(strs))
		strIdx[s] = i
		strs = append(strs, s)
		return i
	}
	type nodeRec struct {
		id, kind, name, qn, file, sig, lang uint32
		start, end                          int32
		exported                            uint8
	}
	nrecs := make([]nodeRec, len(nodes))
	// A node's kind, file and language are most often the previous
	// node's (ids start with the kind, then the path).
	var last struct {
		kind            graph.NodeKind
		file, language  string
		kindI, fileI, l uint32
	}
	for i := range nodes {
		n := &nodes[i]
		exp := uint8(0)
		if n.Exported {
			exp = 1
		}
		// Ids are unique: they go into the table without the lookup.
		id := uint32(len(strs))
		strs = append(strs, n.ID)
		if i == 0 || n.Kind != last.kind {
			last.kind, last.kindI = n.Kind, intern(n.Kind.String())
		}
		if i == 0 || n.FilePath != last.file {
			last.file, last.fileI = n.FilePath, intern(n.FilePath)
		}
		if i == 0 || n.Language != last.language {
			last.language, last.l = n.Language, intern(n.Language)
		}
		nrecs[i] = nodeRec{id, last.kindI, intern(n.Name), intern(n.QualifiedName),
			last.fileI, intern(n.Signature), last.l, int32(n.StartLine), int32(n.EndLine), exp}
	}
	type edgeRec struct {
		src, dst, typ, reason uint32
		conf                  float32
		line                  int32
		more                  []int
	}
	erecs := make([]edgeRec, 0, n)
	typeIdx := map[graph.EdgeType]uint32{}
	for e, ends := range each {
		ti, ok := typeIdx[e.Type]
		if !ok {
			ti = intern(e.Type.String())
			typeIdx[e.Type] = ti
		}
		erecs = append(erecs, edgeRec{uint32(ends[0]), uint32(ends[1]), ti, intern(string(e.Reason)), float32(e.Confidence), int32(e.Line), e.More})
	}
	size := 20 + len(strs)*4 + len(nrecs)*snapshotNodeBytes + len(erecs)*28
	for _, s := range strs {
		size += len(s)
	}
	buf := make([]byte, 0, size)
	u32 := func(v uint32) { buf = binary.LittleEndian.AppendUint32(buf, v) }
	buf = append(buf, snapshotMagic...)
	u32(snapshotVersion)
	u32(uint32(nextRid))
	u32(uint32(len(strs)))
	for _, s := range strs {
		u32(uint32(len(s)))
	}
	for _, s := range strs {
		buf = append(buf, s...)
	}
	u32(uint32(len(nrecs)))
	for i, n := range nrecs {
		for _, v := range []uint32{n.id, n.kind, n.name, n.qn, n.file, n.sig, n.lang, uint32(n.start), uint32(n.end)} {
			u32(v)
		}
		buf = append(buf, n.exported)
		u32(uint32(rid[nodes[i].ID]))
		buf = binary.LittleEndian.AppendUint64(buf, hashes[i])
	}
	u32(uint32(len(erecs)))
	for _, e := range erecs {
		for _, v := range []uint32{e.src, e.dst, e.typ, e.reason, math.Float32bits(e.conf), uint32(e.line), uint32(len(e.more))} {
			u32(v)
		}
		for _, l := range e.more {
			u32(uint32(int32(l)))
		}
	}
	return buf
}

// snapshotNodeBytes is the size of one node record (version 3).
const snapshotNodeBytes = 9*4 + 1 + 4 + 8

// snapshotReader decodes with bounds checks: a damaged blob is an error,
// never a panic.
type snapshotReader struct {
	b   []byte
	off int
	err error
}

func (r *snapshotReader) u32() uint32 {
	if r.err != nil {
		return 0
	}
	if r.off+4 > len(r.b) {
		r.err = errors.New("snapshot is truncated")
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *snapshotReader) u8() uint8 {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errors.New("snapshot is truncated")
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *snapshotReader) u64() uint64 {
	lo := r.u32()
	return uint64(lo) | uint64(r.u32())<<32
}

func decodeSnapshot(b []byte) (*Snapshot, error) {
	if len(b) < 8 || string(b[:4]) != snapshotMagic {
		return nil, errors.New("not a snapshot")
	}
	r := &snapshotReader{b: b, off: 4}
	version := r.u32()
	if version != snapshotVersion && version != 2 {
		return nil, fmt.Errorf("snapshot version %d, want %d", version, snapshotVersion)
	}
	var nextRid int64
	if version >= 3 {
		nextRid = int64(r.u32())
	}
	nStr := int(r.u32())
	if r.err != nil || nStr > len(b)/4 {
		return nil, errors.New("snapshot string table is damaged")
	}
	lens := make([]uint32, nStr)
	total := 0
	for i := range lens {
		lens[i] = r.u32()
		total += int(lens[i])
	}
	if r.err != nil || r.off+total > len(b) {
		return nil, errors.New("snapshot string table is damaged")
	}
	all := string(b[r.off : r.off+total]) // one allocation for every string
	r.off += total
	strs := make([]string, nStr)
	pos := 0
	for i, l := range lens {
		strs[i] = all[pos : pos+int(l)]
		pos += int(l)
	}
	str := func() string {
		i := r.u32()
		if int(i) >= len(strs) {
			if r.err == nil {
				r.err = errors.New("snapshot string index out of range")
			}
			return ""
		}
		return strs[i]
	}
	nNodes := int(r.u32())
	if r.err != nil || nNodes > len(b)/37 {
		return nil, errors.New("snapshot node table is damaged")
	}
	s := &Snapshot{Nodes: make([]NodeRow, nNodes), NextRid: nextRid}
	if version >= 3 {
		s.TextHashes = make([]uint64, nNodes)
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		n.Rid = int64(i + 1)
		n.ID, n.Kind, n.Name, n.QualifiedName, n.FilePath, n.Signature, n.Language = str(), str(), str(), str(), str(), str(), str()
		n.StartLine, n.EndLine = int(int32(r.u32())), int(int32(r.u32()))
		n.Exported = r.u8() == 1
		if version >= 3 {
			n.Rid = int64(r.u32())
			s.TextHashes[i] = r.u64()
			if r.err == nil && (n.Rid < 1 || n.Rid >= nextRid) {
				r.err = errors.New("snapshot node rid is out of range")
			}
		}
	}
	if version < 3 {
		s.NextRid = int64(nNodes) + 1
	}
	nEdges := int(r.u32())
	if r.err != nil || nEdges > len(b)/28 {
		return nil, errors.New("snapshot edge table is damaged")
	}
	s.Edges = make([]SnapshotEdge, nEdges)
	var more []int32
	var moreAt [][3]int // edge, start, count
	for i := range s.Edges {
		e := &s.Edges[i]
		e.Src, e.Dst = r.u32(), r.u32()
		e.Type, e.Reason = str(), str()
		e.Confidence = math.Float32frombits(r.u32())
		e.Line = int32(r.u32())
		nMore := int(r.u32())
		if r.err == nil && nMore > (len(r.b)-r.off)/4 {
			r.err = errors.New("snapshot site lines are damaged")
		}
		if nMore > 0 && r.err == nil {
			start := len(more)
			for j := 0; j < nMore; j++ {
				more = append(more, int32(r.u32()))
			}
			moreAt = append(moreAt, [3]int{i, start, nMore})
		}
		if r.err == nil && (int(e.Src) >= nNodes || int(e.Dst) >= nNodes) {
			r.err = errors.New("snapshot edge points outside the nodes")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	for _, m := range moreAt { // slice only now: appending moved the array
		s.Edges[m[0]].More = more[m[1] : m[1]+m[2] : m[1]+m[2]]
	}
	return s, nil
}

// Snapshot reads and decodes the index's snapshot.
func (r *Reader) Snapshot(ctx context.Context) (*Snapshot, error) {
	var b []byte
	err := r.q.QueryRowContext(ctx, `SELECT data FROM snapshot WHERE id = 1`).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoSnapshot
	}
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	s, err := decodeSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("read snapshot of %s: %w (run `gitnexus analyze --force`)", r.path, err)
	}
	return s, nil
}
