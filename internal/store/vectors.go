package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
)

// Embeddings are kept per node: the vector as int8 codes and a scale, and
// the hash of the text it was made from together with the embedder's
// identity, so that a re-index embeds only what changed. The approximate
// nearest-neighbour graph over the symbols' vectors is kept encoded beside
// them, so that readers load it instead of building it.

const createVectorTables = `
CREATE TABLE embedding (
	rid   INTEGER PRIMARY KEY,
	hash  BLOB NOT NULL,
	scale REAL NOT NULL,
	vec   BLOB NOT NULL
);
CREATE TABLE vector_index (
	name TEXT PRIMARY KEY,
	data BLOB NOT NULL
);
`

// SymbolVectorIndex names the encoded nearest-neighbour graph over the
// symbols' vectors in vector_index.
const SymbolVectorIndex = "symbols"

// EmbeddingMeta describes the vectors of an index (meta.embeddings).
type EmbeddingMeta struct {
	Provider   string `json:"provider"`
	Identity   string `json:"identity"`
	Dimensions int    `json:"dimensions"`
	Symbols    int    `json:"symbols"`
	Commits    int    `json:"commits"`
	// Search is how symbol vectors are searched: "hnsw" (the graph is
	// stored) or "exact".
	Search string `json:"search"`
}

// Vectors are the embeddings to write with a graph.
type Vectors struct {
	Meta  EmbeddingMeta
	Items []VectorItem
	// Index is the encoded nearest-neighbour graph over the symbols'
	// vectors taken in node id order (commits excluded); nil when they are
	// searched exactly.
	Index []byte
}

// VectorItem is one node's vector.
type VectorItem struct {
	NodeID string
	Hash   []byte
	Codes  []int8
	Scale  float32
}

// writeVectors stores v; rid maps node ids to rids. Items of nodes that
// are not in the graph are dropped.
func writeVectors(ctx context.Context, tx *sql.Tx, v *Vectors, rid ridsByID) error {
	if v == nil {
		return nil
	}
	type row struct {
		rid  int64
		item *VectorItem
	}
	rows := make([]row, 0, len(v.Items))
	for i := range v.Items {
		if r, ok := rid.lookup(v.Items[i].NodeID); ok {
			rows = append(rows, row{r, &v.Items[i]})
		}
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].rid < rows[b].rid })
	ins, err := newBatchInsert(ctx, tx, "embedding", []string{"rid", "hash", "scale", "vec"})
	if err != nil {
		return fmt.Errorf("store embeddings: %w", err)
	}
	for _, r := range rows {
		if err := ins.add(r.rid, r.item.Hash, float64(r.item.Scale), codesBytes(r.item.Codes)); err != nil {
			return fmt.Errorf("store embeddings: %w", err)
		}
	}
	if err := ins.flush(); err != nil {
		return fmt.Errorf("store embeddings: %w", err)
	}
	if v.Index != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO vector_index(name, data) VALUES (?, ?)`, SymbolVectorIndex, v.Index); err != nil {
			return fmt.Errorf("store the vector index: %w", err)
		}
	}
	return nil
}

func codesBytes(c []int8) []byte {
	b := make([]byte, len(c))
	for i, x := range c {
		b[i] = byte(x)
	}
	return b
}

// StoredVector is one node's vector as read back.
type StoredVector struct {
	Rid    int64
	Commit bool // the node is a Commit
	Hash   []byte
	Codes  []int8
	Scale  float32
}

// ScanVectors calls fn for every stored vector in rid order; the slices
// are fn's to keep.
func (r *Reader) ScanVectors(ctx context.Context, fn func(*StoredVector) error) error {
	if r.meta.Embeddings == nil {
		return nil
	}
	rows, err := r.q.QueryContext(ctx, `SELECT e.rid, n.kind = 'Commit', e.hash, e.scale, e.vec
		FROM embedding e JOIN node n ON n.rid = e.rid ORDER BY e.rid`)
	if err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v StoredVector
		var scale float64
		var raw []byte
		if err := rows.Scan(&v.Rid, &v.Commit, &v.Hash, &scale, &raw); err != nil {
			return fmt.Errorf("read embeddings: %w", err)
		}
		if len(raw) != r.meta.Embeddings.Dimensions {
			return fmt.Errorf("read embeddings: a vector of %d dimensions in an index of %d: run `gitnexus analyze --force`",
				len(raw), r.meta.Embeddings.Dimensions)
		}
		v.Scale = float32(scale)
		v.Codes = make([]int8, len(raw))
		for i, b := range raw {
			v.Codes[i] = int8(b)
		}
		if err := fn(&v); err != nil {
			return err
		}
	}
	return rows.Err()
}

// VectorIndex returns the encoded nearest-neighbour graph stored under
// name, nil when there is none.
func (r *Reader) VectorIndex(ctx context.Context, name string) ([]byte, error) {
	var b []byte
	err := r.q.QueryRowContext(ctx, `SELECT data FROM vector_index WHERE name = ?`, name).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the vector index: %w", err)
	}
	return b, nil
}
