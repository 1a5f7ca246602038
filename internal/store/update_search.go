package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

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
