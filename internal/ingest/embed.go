package ingest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/vector"
)

// EmbedStats describe the embedding stage.
type EmbedStats struct {
	Provider   string `json:"provider"`
	Identity   string `json:"identity"`
	Dimensions int    `json:"dimensions"`
	Symbols    int    `json:"symbols"`
	Commits    int    `json:"commits"`
	// Embedded texts were sent to the embedder; Reused ones had the same
	// text and identity in the previous index.
	Embedded int `json:"embedded"`
	Reused   int `json:"reused"`
	// Search is "hnsw" when the symbols' vectors got a nearest-neighbour
	// graph, "exact" when there are fewer than vector.ExactLimit.
	Search      string  `json:"search"`
	EmbedMillis int64   `json:"embedMillis"`
	IndexMillis int64   `json:"indexMillis"`
	PerSecond   float64 `json:"perSecond"` // texts embedded per second
	// Previous says why the previous index's vectors could not be read,
	// when they could not.
	Previous string `json:"previous,omitempty"`
}

// embedChunk is how many texts the stage hands the embedder at once
// (progress is reported and cancellation checked between chunks).
const embedChunk = 512

// addEmbeddings embeds the texts of g's symbols and commits whose text and
// identity are not in the previous index, and links the symbols' vectors
// into an HNSW when there are many.
func addEmbeddings(ctx context.Context, opts *Options, g *graph.Graph, progress func(Event)) (*store.Vectors, *EmbedStats, error) {
	e := opts.Embedding.Embedder
	st := &EmbedStats{Provider: opts.Embedding.Provider, Identity: e.Identity()}
	budget := opts.Embedding.Tokens
	if budget <= 0 {
		budget = embed.DefaultMaxTokens
	}
	docs := embedDocuments(g, budget)
	prev, dims, why := previousVectors(ctx, opts.Root, st.Identity)
	st.Previous = why

	hashes := make([][]byte, len(docs))
	var todo []string
	todoAt := map[string]int{} // hash → index in todo
	for i, d := range docs {
		sum := sha256.Sum256([]byte(st.Identity + "\x00" + d.Text))
		hashes[i] = sum[:16]
		if d.Commit {
			st.Commits++
		} else {
			st.Symbols++
		}
		key := string(hashes[i])
		if _, ok := prev[key]; ok {
			st.Reused++
			continue
		}
		if _, ok := todoAt[key]; !ok {
			todoAt[key] = len(todo)
			todo = append(todo, d.Text)
		}
	}
	start := time.Now()
	fresh := make([]store.VectorItem, len(todo))
	for from := 0; from < len(todo); from += embedChunk {
		progress(Event{Phase: "embed", Done: from, Total: len(todo)})
		to := min(from+embedChunk, len(todo))
		vecs, err := e.Embed(ctx, todo[from:to])
		if err != nil {
			return nil, nil, fmt.Errorf("embed symbols and commits: %w", err)
		}
		for k, v := range vecs {
			if dims == 0 {
				dims = len(v)
			}
			if len(v) != dims {
				return nil, nil, fmt.Errorf("embed symbols and commits: the embedder returned %d dimensions, then %d", dims, len(v))
			}
			fresh[from+k].Codes, fresh[from+k].Scale = vector.Quantize(v)
		}
	}
	st.Embedded = len(todo)
	st.EmbedMillis = time.Since(start).Milliseconds()
	if secs := time.Since(start).Seconds(); len(todo) > 0 && secs > 0 {
		st.PerSecond = float64(int(float64(len(todo))/secs*10)) / 10
	}
	st.Dimensions = dims

	out := &store.Vectors{Items: make([]store.VectorItem, len(docs))}
	symbols := vector.NewSet(dims)
	for i, d := range docs {
		key := string(hashes[i])
		item, ok := prev[key]
		if !ok {
			item = fresh[todoAt[key]]
		}
		item.NodeID, item.Hash = d.NodeID, hashes[i]
		out.Items[i] = item
		if !d.Commit {
			if err := symbols.Add(item.Codes, item.Scale); err != nil {
				return nil, nil, fmt.Errorf("embed symbols: %w", err)
			}
		}
	}
	st.Search = "exact"
	limit := opts.Embedding.ExactLimit
	if limit <= 0 {
		limit = vector.ExactLimit
	}
	if symbols.Len() >= limit {
		progress(Event{Phase: "embed-index"})
		start := time.Now()
		h, err := vector.BuildHNSW(ctx, symbols, vector.DefaultM, vector.DefaultEfConstruction)
		if err != nil {
			return nil, nil, fmt.Errorf("link the symbols' vectors: %w", err)
		}
		if out.Index, err = h.MarshalBinary(); err != nil {
			return nil, nil, err
		}
		st.Search = "hnsw"
		st.IndexMillis = time.Since(start).Milliseconds()
	}
	out.Meta = store.EmbeddingMeta{Provider: st.Provider, Identity: st.Identity, Dimensions: dims,
		Symbols: st.Symbols, Commits: st.Commits, Search: st.Search}
	return out, st, nil
}

// previousVectors reads the vectors of the current index made with the
// same identity, by hash; dims is their size. why says what went wrong
// when they cannot be read (no index, or another identity, is not a
// problem).
func previousVectors(ctx context.Context, root, identity string) (map[string]store.VectorItem, int, string) {
	out := map[string]store.VectorItem{}
	r, err := store.OpenRepo(root)
	if err != nil {
		return out, 0, ""
	}
	defer r.Close()
	em := r.Meta().Embeddings
	if em == nil || em.Identity != identity {
		return out, 0, ""
	}
	err = r.ScanVectors(ctx, func(v *store.StoredVector) error {
		out[string(v.Hash)] = store.VectorItem{Codes: v.Codes, Scale: v.Scale}
		return nil
	})
	if err != nil {
		return map[string]store.VectorItem{}, 0, err.Error()
	}
	return out, em.Dimensions, ""
}
