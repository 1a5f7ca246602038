package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
	"unsafe"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The snapshot is a compact binary copy of the nodes (without content and
// doc) and edges, stored in the same database and written in the same
// transaction as the tables it mirrors: since version 4 in chunks
// (snapshot_chunks.go), before that as one BLOB, which this file reads. Loading the in-memory
// graph from it takes one read and no per-row work: scanning the tables
// through database/sql measured 3.8 s per million edges on the Go standard
// library index, mostly allocation; the snapshot loads the same graph in a
// small fraction of that (see BenchmarkLoad in internal/memgraph).
//
// Layout of version 3 (little endian): magic "GNXS", version u32; the next rid to give
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
	snapshotMagic = "GNXS"
	// snapshotVersion is the newest version read from one BLOB; version 4
	// is chunked (snapshot_chunks.go).
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
	// chunks are the rows of a version 4 snapshot (snapshot_chunks.go),
	// and nextChunkRow the next row id one gets; nil for an older one.
	chunks       []snapChunk
	nextChunkRow int64
	// types are the edges' types, parsed once (edgeTypes).
	typesOnce sync.Once
	types     []graph.EdgeType
}

// edgeTypes returns each edge's type. The names are parsed once, and
// only when an edge's differs from the one before it (an edge's type is
// most often the last one's: edges come by source, then type): the
// store's merge of the edges parsed every snapshot edge's name two or
// three times, a map lookup each, 2.6 million on the Go standard library.
func (s *Snapshot) edgeTypes() []graph.EdgeType {
	s.typesOnce.Do(func() {
		s.types = make([]graph.EdgeType, len(s.Edges))
		last, t := "", graph.EdgeInvalid
		for k := range s.Edges {
			if name := s.Edges[k].Type; k == 0 || name != last {
				last, t = name, graph.ParseEdgeType(name)
			}
			s.types[k] = t
		}
	})
	return s.types
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
	strs, err := r.strings()
	if err != nil {
		return nil, err
	}
	str := r.strFunc(strs)
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
		if start, n := r.edgeTail(str, e, &more); n > 0 {
			moreAt = append(moreAt, [3]int{i, start, n})
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

// edgeTail reads the rest of an edge record after its two ends into e:
// type and reason (string indexes), confidence, line, and the further site
// lines, appended to more; it returns where they start in more and how
// many there are.
func (r *snapshotReader) edgeTail(str func() string, e *SnapshotEdge, more *[]int32) (start, n int) {
	e.Type, e.Reason = str(), str()
	e.Confidence = math.Float32frombits(r.u32())
	e.Line = int32(r.u32())
	n = int(r.u32())
	if r.err == nil && n > (len(r.b)-r.off)/4 {
		r.err = errors.New("snapshot site lines are damaged")
	}
	if r.err != nil {
		return 0, 0
	}
	start = len(*more)
	for j := 0; j < n; j++ {
		*more = append(*more, int32(r.u32()))
	}
	return start, n
}

// Snapshot reads and decodes the index's snapshot.
func (r *Reader) Snapshot(ctx context.Context) (*Snapshot, error) {
	s, err := readSnapshot(ctx, r.q)
	if err != nil && !errors.Is(err, ErrNoSnapshot) {
		return nil, fmt.Errorf("read snapshot of %s: %w (run `gitnexus analyze --force`)", r.path, err)
	}
	return s, err
}
