package store

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/timeline"
)

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

// keptHistory reports whether the snapshot's edge k is a history edge
// that a write carrying the history keeps: neither end is dropped.
func (u *updater) keptHistory(k int) bool {
	if !u.snap.edgeTypes()[k].IsHistory() {
		return false
	}
	e := &u.snap.Edges[k]
	return len(u.drop) == 0 || !u.drop[u.snap.Nodes[e.Src].ID] && !u.drop[u.snap.Nodes[e.Dst].ID]
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
