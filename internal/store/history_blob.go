package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// The history blob is the history records as Reader.History reads them
// back from the git_* tables, in one binary row of the snapshot table
// (id 2), written in the same transaction as the tables. Reading the
// tables through database/sql costs about 6 µs a row (0.4 s for the 3,343
// commits and 53,000 changes of a 92k-line repository), and every
// incremental analyze and every server reads them; the blob decodes in a
// small fraction of that. An index without the blob (written before it)
// is read from the tables.
//
// Layout: version (uvarint); commits: count, then per commit hash,
// parents (count, each), author name, author email, authored at, author
// zone, committed at, commit zone, subject, message, symbols-skip, short
// hash length; file changes: count, then per change the commit's index,
// status, path, old path, additions, deletions, binary, old blob, new blob,
// file id; symbol changes: count, then per change the commit's index,
// path, kind, name, qualified name, key, change, additions, deletions,
// start and end line, node id; removed symbols: count, then id, kind,
// deleted-in hash. A string is 0, a uvarint length and the bytes the first
// time it occurs, and from then on the uvarint k of its k-th first
// occurrence (paths, authors, kinds and ids repeat: this halves the blob).
// Integers are zigzag varints.

const historyBlobVersion = 2

// historyBlobID is the snapshot table's row that holds the blob.
const historyBlobID = 2

// storedHistory is h as Reader.History returns it from the tables written
// from the same h (and decodeHistory from encodeHistory's bytes): commit
// messages and short-hash lengths from the commit nodes, links to nodes
// only where the node was stored (stored), file and symbol changes in
// commit order, removed symbols with a stored node, by id; no settings.
// An in-place write compares it with the index's records as they are, so
// it need not decode the bytes it encoded (25 ms on trpc's 3,343 commits).
func storedHistory(g *graph.Graph, h *graph.History, stored func(id string) bool) *graph.History {
	link := func(id string) string {
		if id != "" && stored(id) {
			return id
		}
		return ""
	}
	out := &graph.History{Commits: make([]graph.Commit, len(h.Commits))}
	seq := make(map[string]int, len(h.Commits))
	for k := range h.Commits {
		c := h.Commits[k]
		seq[c.Hash] = k
		// A commit of a history carried over (carry.go) may have no node
		// in g: its record holds what its row holds.
		if n, ok := g.Node(graph.CommitID(c.Hash)); ok {
			c.Message, c.ShortHashLen = n.Doc, len(n.Name)
		}
		if len(c.Parents) == 0 {
			c.Parents = nil
		}
		out.Commits[k] = c
	}
	// Changes of a commit without a row are not read back from the tables
	// either (the read joins git_commit).
	files := inCommitOrder(h.Files, seq, func(f *graph.FileChange) string { return f.Commit })
	out.Files = make([]graph.FileChange, len(files))
	for k, f := range files {
		f.FileID = link(f.FileID)
		out.Files[k] = f
	}
	syms := inCommitOrder(h.Symbols, seq, func(c *graph.SymbolChange) string { return c.Commit })
	out.Symbols = make([]graph.SymbolChange, len(syms))
	for k, c := range syms {
		c.NodeID = link(c.NodeID)
		out.Symbols[k] = c
	}
	for _, r := range h.Removed {
		if stored(r.ID) {
			if _, ok := seq[r.DeletedIn]; !ok {
				r.DeletedIn = ""
			}
			out.Removed = append(out.Removed, r)
		}
	}
	slices.SortStableFunc(out.Removed, func(a, b graph.RemovedSymbol) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// encodeHistory encodes h in its stored form (storedHistory): stored says
// which node ids have a row.
func encodeHistory(g *graph.Graph, h *graph.History, stored func(id string) bool) []byte {
	return encodeStored(storedHistory(g, h, stored))
}

// encodeStored encodes a history in its stored form.
func encodeStored(h *graph.History) []byte {
	b := make([]byte, 0, 64*(len(h.Commits)+len(h.Files)+len(h.Symbols)))
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	i := func(v int64) { b = binary.AppendVarint(b, v) }
	seen := make(map[string]uint64, 2*len(h.Commits)+len(h.Files)/2+len(h.Symbols)/2)
	s := func(v string) {
		if k, ok := seen[v]; ok {
			u(k)
			return
		}
		seen[v] = uint64(len(seen)) + 1
		u(0)
		u(uint64(len(v)))
		b = append(b, v...)
	}
	u(historyBlobVersion)
	seq := make(map[string]int, len(h.Commits))
	u(uint64(len(h.Commits)))
	for k := range h.Commits {
		c := &h.Commits[k]
		seq[c.Hash] = k
		s(c.Hash)
		u(uint64(len(c.Parents)))
		for _, p := range c.Parents {
			s(p)
		}
		s(c.AuthorName)
		s(c.AuthorEmail)
		i(c.AuthoredAt)
		i(int64(c.AuthorZone))
		i(c.CommittedAt)
		i(int64(c.CommitZone))
		s(c.Subject)
		s(c.Message)
		s(c.SymbolsSkip)
		u(uint64(c.ShortHashLen))
	}
	u(uint64(len(h.Files)))
	for k := range h.Files {
		f := &h.Files[k]
		u(uint64(seq[f.Commit]))
		b = append(b, f.Status)
		s(f.Path)
		s(f.OldPath)
		i(int64(f.Additions))
		i(int64(f.Deletions))
		if f.Binary {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		s(f.OldBlob)
		s(f.NewBlob)
		s(f.FileID)
	}
	u(uint64(len(h.Symbols)))
	for k := range h.Symbols {
		c := &h.Symbols[k]
		u(uint64(seq[c.Commit]))
		s(c.Path)
		s(c.Kind.String())
		s(c.Name)
		s(c.Qual)
		s(c.Key)
		s(string(c.Change))
		i(int64(c.Additions))
		i(int64(c.Deletions))
		i(int64(c.StartLine))
		i(int64(c.EndLine))
		s(c.NodeID)
	}
	u(uint64(len(h.Removed)))
	for _, r := range h.Removed {
		s(r.ID)
		s(r.Kind.String())
		s(r.DeletedIn)
	}
	return b
}

// inCommitOrder returns the changes whose commit has a row, in commit
// order (stable): recs itself when it already is (as history.Read gives
// them), else a sorted copy.
func inCommitOrder[T any](recs []T, seq map[string]int, commit func(*T) string) []T {
	last, ok := -1, true
	for k := range recs {
		s, has := seq[commit(&recs[k])]
		if !has || s < last {
			ok = false
			break
		}
		last = s
	}
	if ok {
		return recs
	}
	out := slices.DeleteFunc(slices.Clone(recs), func(r T) bool { _, ok := seq[commit(&r)]; return !ok })
	slices.SortStableFunc(out, func(a, b T) int { return cmp.Compare(seq[commit(&a)], seq[commit(&b)]) })
	return out
}

// errHistoryBlob reports a blob that does not decode.
var errHistoryBlob = errors.New("history blob is damaged")

// decodeHistory decodes a blob encodeHistory wrote; Settings are the
// caller's (they live in the index's meta).
func decodeHistory(data []byte) (*graph.History, error) {
	d := &blobReader{b: data}
	if v := d.u(); v != historyBlobVersion || d.bad {
		return nil, fmt.Errorf("%w: version %d", errHistoryBlob, v)
	}
	h := &graph.History{}
	n := d.count()
	h.Commits = make([]graph.Commit, 0, n)
	for k := 0; k < n && !d.bad; k++ {
		var c graph.Commit
		c.Hash = d.s()
		if np := d.count(); np > 0 {
			c.Parents = make([]string, np)
			for j := range c.Parents {
				c.Parents[j] = d.s()
			}
		}
		c.AuthorName, c.AuthorEmail = d.s(), d.s()
		c.AuthoredAt, c.AuthorZone = d.i(), int(d.i())
		c.CommittedAt, c.CommitZone = d.i(), int(d.i())
		c.Subject, c.Message, c.SymbolsSkip = d.s(), d.s(), d.s()
		c.ShortHashLen = int(d.u())
		h.Commits = append(h.Commits, c)
	}
	hash := func() string {
		k := d.u()
		if k >= uint64(len(h.Commits)) {
			d.bad = true
			return ""
		}
		return h.Commits[k].Hash
	}
	n = d.count()
	h.Files = make([]graph.FileChange, 0, n)
	for k := 0; k < n && !d.bad; k++ {
		var f graph.FileChange
		f.Commit = hash()
		f.Status = d.byte()
		f.Path, f.OldPath = d.s(), d.s()
		f.Additions, f.Deletions = int(d.i()), int(d.i())
		f.Binary = d.byte() == 1
		f.OldBlob, f.NewBlob, f.FileID = d.s(), d.s(), d.s()
		h.Files = append(h.Files, f)
	}
	n = d.count()
	h.Symbols = make([]graph.SymbolChange, 0, n)
	for k := 0; k < n && !d.bad; k++ {
		var c graph.SymbolChange
		c.Commit = hash()
		c.Path = d.s()
		c.Kind = graph.ParseKind(d.s())
		c.Name, c.Qual, c.Key = d.s(), d.s(), d.s()
		c.Change = graph.ChangeType(d.s())
		c.Additions, c.Deletions = int(d.i()), int(d.i())
		c.StartLine, c.EndLine = int(d.i()), int(d.i())
		c.NodeID = d.s()
		h.Symbols = append(h.Symbols, c)
	}
	n = d.count()
	for k := 0; k < n && !d.bad; k++ {
		var r graph.RemovedSymbol
		r.ID = d.s()
		r.Kind = graph.ParseKind(d.s())
		r.DeletedIn = d.s()
		h.Removed = append(h.Removed, r)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errHistoryBlob
	}
	return h, nil
}

// blobReader reads what encodeHistory appends; bad is set, and zero
// values returned, once the data ends early or holds an impossible length.
type blobReader struct {
	b    []byte
	bad  bool
	seen []string // the strings read so far, in order of first occurrence
}

func (d *blobReader) u() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *blobReader) i() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length no larger than the bytes left (each item takes one
// at least).
func (d *blobReader) count() int {
	v := d.u()
	if v > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	return int(v)
}

func (d *blobReader) s() string {
	if k := d.u(); k > 0 {
		if k > uint64(len(d.seen)) {
			d.bad = true
			return ""
		}
		return d.seen[k-1]
	}
	n := d.count()
	if d.bad {
		return ""
	}
	v := string(d.b[:n])
	d.b = d.b[n:]
	d.seen = append(d.seen, v)
	return v
}

func (d *blobReader) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}
