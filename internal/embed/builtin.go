package embed

import (
	"context"
	_ "embed" // the subword table
	"fmt"
	"sync"
)

// The built-in embedder needs nothing installed: a table of static vectors
// for 20,000 subwords of code and comments, trained by tools/embedtrain on
// the Go and Python standard libraries (co-occurrence within five
// subwords, positive PMI, randomized SVD to 128 dimensions) and shipped in
// the binary (2.9 MB). A text's vector is the mean of its subwords'
// vectors weighted by a/(a+p), p being a subword's frequency in the
// training code: "login" lands near authenticate, password and realm.

//go:embed data/subwords.bin
var subwordData []byte

var (
	builtinOnce  sync.Once
	builtinTable *SubwordTable
	builtinErr   error
)

// BuiltinTable returns the decoded built-in table.
func BuiltinTable() (*SubwordTable, error) {
	builtinOnce.Do(func() {
		builtinTable, builtinErr = DecodeSubwordTable(subwordData)
		if builtinErr == nil {
			builtinTable.buildIndex()
		}
	})
	return builtinTable, builtinErr
}

// Builtin embeds with the built-in subword vectors.
type Builtin struct {
	t *SubwordTable
}

// NewBuiltin returns the built-in embedder.
func NewBuiltin() (*Builtin, error) {
	t, err := BuiltinTable()
	if err != nil {
		return nil, fmt.Errorf("the built-in subword vectors: %w", err)
	}
	return &Builtin{t: t}, nil
}

// Identity is "builtin:<table name>/<dimensions>".
func (b *Builtin) Identity() string { return fmt.Sprintf("builtin:%s/%d", b.t.Name, b.t.Dim) }

// Dimensions of the table.
func (b *Builtin) Dimensions() int { return b.t.Dim }

// Close releases nothing: the table is shared.
func (b *Builtin) Close() error { return nil }

// Embed averages each text's subword vectors.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = b.t.Vector(t)
	}
	return out, nil
}
