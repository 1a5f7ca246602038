package store

import (
	"encoding/binary"
	"math"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The version 3 encoding (one blob), which indexes written before version
// 4 hold and readers still decode: kept here to make such snapshots.

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
