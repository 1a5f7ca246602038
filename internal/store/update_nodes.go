package store

import (
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// nodes assigns rids and writes the node and full-text rows that differ.
// The snapshot's nodes and the graph's are both sorted by id, so one merge
// pairs them.
func (u *updater) nodes() error {
	old := u.snap.Nodes
	for i := 1; i < len(old); i++ {
		if old[i-1].ID >= old[i].ID {
			return fmt.Errorf("the snapshot's nodes are out of order at %s", old[i].ID)
		}
	}
	u.newNodes = u.g.Nodes()
	u.hashes = textHashes(u.newNodes)
	u.rid = &updateRids{g: u.g, at: make([]int64, len(u.newNodes))}
	if u.carry {
		u.rid.kept = map[string]int64{}
	}
	u.nextRid = u.snap.NextRid
	var gone, write []int64 // rids whose old rows go; positions in newNodes whose rows are written
	if u.carry {
		u.atNew, u.atOld = make([]int32, len(u.newNodes)), make([]int32, len(old))
		for i := range u.atOld {
			u.atOld[i] = -1
		}
		u.all = &mergedNodes{fresh: u.newNodes, at: make([]int32, 0, len(u.newNodes)+len(old)/2)}
		u.allHashes = make([]uint64, 0, cap(u.all.at))
	}
	// place puts the new node j (and the snapshot's node i it is, when i
	// is not -1) in all.
	place := func(j, i int) {
		if !u.carry {
			return
		}
		u.atNew[j] = int32(len(u.all.at))
		if i >= 0 {
			u.atOld[i] = int32(len(u.all.at))
		}
		u.all.at = append(u.all.at, int32(j))
		u.allHashes = append(u.allHashes, u.hashes[j])
	}
	// leave handles the snapshot's node i, which the new graph does not
	// have: a history node kept, or a node whose rows go.
	leave := func(i int) {
		o := &old[i]
		if u.carry && graph.ParseKind(o.Kind).IsHistory() && !u.drop[o.ID] {
			u.rid.kept[o.ID] = o.Rid
			u.atOld[i] = int32(len(u.all.at))
			u.all.kept = append(u.all.kept, graph.Node{ID: o.ID, Kind: graph.ParseKind(o.Kind), Name: o.Name,
				QualifiedName: o.QualifiedName, FilePath: o.FilePath, StartLine: o.StartLine, EndLine: o.EndLine,
				Signature: o.Signature, Exported: o.Exported, Language: o.Language})
			u.all.at = append(u.all.at, -int32(len(u.all.kept)))
			u.allHashes = append(u.allHashes, u.snap.TextHashes[i])
			return
		}
		gone = append(gone, o.Rid)
		u.stats.NodesRemoved++
		u.touch(o.ID)
	}
	i := 0
	for j := range u.newNodes {
		n := &u.newNodes[j]
		for i < len(old) && old[i].ID < n.ID {
			leave(i)
			i++
		}
		if i < len(old) && old[i].ID == n.ID {
			o := &old[i]
			u.rid.at[j] = o.Rid
			if !sameNode(o, n) || u.snap.TextHashes[i] != u.hashes[j] {
				gone = append(gone, o.Rid)
				write = append(write, int64(j))
				u.stats.NodesChanged++
				u.touch(n.ID)
			}
			place(j, i)
			i++
			continue
		}
		u.rid.at[j] = u.nextRid
		u.nextRid++
		write = append(write, int64(j))
		u.stats.NodesAdded++
		u.touch(n.ID)
		place(j, -1)
	}
	for ; i < len(old); i++ {
		leave(i)
	}
	if err := u.unsearch(gone); err != nil {
		return err
	}
	del, err := u.tx.PrepareContext(u.ctx, `DELETE FROM node WHERE rid = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, r := range gone {
		if _, err := del.ExecContext(u.ctx, r); err != nil {
			return fmt.Errorf("remove nodes: %w", err)
		}
	}
	nodesIns, err := newBatchInsert(u.ctx, u.tx, "node", nodeColumns)
	if err != nil {
		return err
	}
	searchIns, err := newBatchInsert(u.ctx, u.tx, "search", searchColumns)
	if err != nil {
		return err
	}
	for _, j := range write {
		n := &u.newNodes[j]
		r := u.rid.at[j]
		if err := nodesIns.add(nodeValues(r, n)...); err != nil {
			return fmt.Errorf("store nodes: %w", err)
		}
		if sv := searchValues(r, n.Kind, n.Name, n.QualifiedName, n.FilePath, n.Signature, n.Doc, n.Content); sv != nil {
			if err := searchIns.add(sv...); err != nil {
				return fmt.Errorf("index nodes for search: %w", err)
			}
			u.searched = append(u.searched, sv)
			u.docs++
		}
	}
	if err := nodesIns.flush(); err != nil {
		return fmt.Errorf("store nodes: %w", err)
	}
	if err := searchIns.flush(); err != nil {
		return fmt.Errorf("index nodes for search: %w", err)
	}
	return nil
}

// sameNode compares the columns the snapshot holds.
func sameNode(o *NodeRow, n *graph.Node) bool {
	return o.Kind == n.Kind.String() && o.Name == n.Name && o.QualifiedName == n.QualifiedName &&
		o.FilePath == n.FilePath && o.StartLine == n.StartLine && o.EndLine == n.EndLine &&
		o.Signature == n.Signature && o.Exported == n.Exported && o.Language == n.Language
}

// unsearch deletes the full-text rows of the nodes with these rids, with
// the values their node rows hold (what the rows were inserted with).
func (u *updater) unsearch(rids []int64) error {
	const chunk = 500
	del, err := u.tx.PrepareContext(u.ctx, `INSERT INTO search(search, rowid, name, qualified_name, words,
		signature, doc, content, path) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer del.Close()
	for start := 0; start < len(rids); start += chunk {
		part := rids[start:min(start+chunk, len(rids))]
		args := make([]any, len(part))
		for k, r := range part {
			args[k] = r
		}
		rows, err := u.tx.QueryContext(u.ctx, `SELECT rid, kind, name, qualified_name, file_path, signature, doc, content
			FROM node WHERE rid IN (`+strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, args...)
		if err != nil {
			return fmt.Errorf("read replaced nodes: %w", err)
		}
		var rowsVals [][]any
		for rows.Next() {
			var r int64
			var kind, name, qn, file, sig, doc, content string
			if err := rows.Scan(&r, &kind, &name, &qn, &file, &sig, &doc, &content); err != nil {
				rows.Close()
				return fmt.Errorf("read replaced nodes: %w", err)
			}
			if sv := searchValues(r, graph.ParseKind(kind), name, qn, file, sig, doc, content); sv != nil {
				rowsVals = append(rowsVals, sv)
			}
		}
		if err := closeRows(rows); err != nil {
			return fmt.Errorf("read replaced nodes: %w", err)
		}
		for _, sv := range rowsVals {
			if _, err := del.ExecContext(u.ctx, sv...); err != nil {
				return fmt.Errorf("unindex nodes: %w", err)
			}
			u.searched = append(u.searched, sv)
			u.docs--
		}
	}
	return nil
}
