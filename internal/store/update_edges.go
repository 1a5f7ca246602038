package store

import (
	"cmp"
	"fmt"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// edges writes the edges that differ. The snapshot's edges and the
// graph's are both sorted by (source id, type, destination id).
func (u *updater) edges() error {
	old := u.snap.Edges
	oldNodes := u.snap.Nodes
	u.newEdges = u.g.Edges()
	types := u.snap.edgeTypes()
	oldKey := func(k int) (string, graph.EdgeType, string) {
		e := &old[k]
		return oldNodes[e.Src].ID, types[k], oldNodes[e.Dst].ID
	}
	compare := func(s1 string, t1 graph.EdgeType, d1 string, s2 string, t2 graph.EdgeType, d2 string) int {
		return cmp.Or(strings.Compare(s1, s2), cmp.Compare(t1, t2), strings.Compare(d1, d2))
	}
	for i := 1; i < len(old); i++ {
		s1, t1, d1 := oldKey(i - 1)
		s2, t2, d2 := oldKey(i)
		if compare(s1, t1, d1, s2, t2, d2) >= 0 {
			return fmt.Errorf("the snapshot's edges are out of order at %s -> %s", s2, d2)
		}
	}
	// INDEXED BY: the planner may take edge_dst, which for a MEMBER_OF
	// edge scans every member of the community (measured: 3.7 s for 12,000
	// edges on the Go standard library).
	del, err := u.tx.PrepareContext(u.ctx, `DELETE FROM edge INDEXED BY edge_src WHERE src = ? AND dst = ? AND type = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	upd, err := u.tx.PrepareContext(u.ctx, `UPDATE edge INDEXED BY edge_src SET confidence = ?, reason = ?, line = ?,
		more_lines = ? WHERE src = ? AND dst = ? AND type = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	ins, err := newBatchInsert(u.ctx, u.tx, "edge", edgeColumns)
	if err != nil {
		return err
	}
	remove := func(e *SnapshotEdge) error {
		u.stats.EdgesRemoved++
		u.touch(oldNodes[e.Src].ID)
		_, err := del.ExecContext(u.ctx, oldNodes[e.Src].Rid, oldNodes[e.Dst].Rid, e.Type)
		return err
	}
	// kept: a history edge of the snapshot, kept as it is when the history
	// is carried.
	kept := func(k int) bool { return u.carry && u.keptHistory(k) }
	i := 0
	for j := range u.newEdges {
		n := &u.newEdges[j]
		c := 1 // old[i] compared with n; 1 when old is used up
		for i < len(old) {
			if kept(i) {
				i++
				continue
			}
			s, t, d := oldKey(i)
			if c = compare(s, t, d, n.Src, n.Type, n.Dst); c >= 0 {
				break
			}
			if err := remove(&old[i]); err != nil {
				return fmt.Errorf("remove edges: %w", err)
			}
			i++
			c = 1
		}
		if c > 0 {
			u.stats.EdgesAdded++
			u.touch(n.Src)
			if err := ins.add(edgeValues(u.rid, n)...); err != nil {
				return fmt.Errorf("store edges: %w", err)
			}
			continue
		}
		// The same relationship: rewrite it when an attribute differs.
		// Confidence is compared at the snapshot's precision (float32);
		// confidences are a handful of constants far apart.
		if o := &old[i]; o.Confidence != float32(n.Confidence) || o.Reason != string(n.Reason) ||
			int(o.Line) != n.Line || !sameLines(o.More, n.More) {
			u.stats.EdgesChanged++
			u.touch(n.Src)
			if _, err := upd.ExecContext(u.ctx, n.Confidence, string(n.Reason), n.Line, joinLines(n.More),
				ridOf(u.rid, n.Src), ridOf(u.rid, n.Dst), n.Type.String()); err != nil {
				return fmt.Errorf("update edges: %w", err)
			}
		}
		i++
	}
	for ; i < len(old); i++ {
		if kept(i) {
			continue
		}
		if err := remove(&old[i]); err != nil {
			return fmt.Errorf("remove edges: %w", err)
		}
	}
	if err := ins.flush(); err != nil {
		return fmt.Errorf("store edges: %w", err)
	}
	return nil
}

// withHistory returns what the new snapshot holds when the history is
// carried: the new graph's nodes and the kept history nodes (u.all, from
// nodes), and the new graph's edges (sorted, with their ends) merged with
// the snapshot's history edges, in order, as encodeChunked takes them:
// positions in all keep the order of positions in either graph.
func (u *updater) withHistory(edges []graph.Edge, ends [][2]int32) (nodeSeq, []uint64, edgeSource, error) {
	old, oldNodes := u.snap.Edges, u.snap.Nodes
	var kept []int // the snapshot's history edges
	for k := range old {
		e := &old[k]
		if !u.keptHistory(k) {
			continue
		}
		if u.atOld[e.Src] < 0 || u.atOld[e.Dst] < 0 {
			return nil, nil, nil, fmt.Errorf("the history edge %s -> %s lost its end", oldNodes[e.Src].ID, oldNodes[e.Dst].ID)
		}
		kept = append(kept, k)
	}
	key := func(src int32, t graph.EdgeType, dst int32) uint64 {
		return uint64(src)<<40 | uint64(t)<<32 | uint64(uint32(dst))
	}
	each := func(keep func(src int32) bool, yield func(*graph.Edge, [2]int32) bool) {
		j := 0
		newer := func() bool {
			src := u.atNew[ends[j][0]]
			return !keep(src) || yield(&edges[j], [2]int32{src, u.atNew[ends[j][1]]})
		}
		for _, k := range kept {
			e := &old[k]
			t := u.snap.edgeTypes()[k]
			src, dst := u.atOld[e.Src], u.atOld[e.Dst]
			for ; j < len(edges) && key(u.atNew[ends[j][0]], edges[j].Type, u.atNew[ends[j][1]]) < key(src, t, dst); j++ {
				if !newer() {
					return
				}
			}
			if !keep(src) {
				continue // a kept edge's chunk is written again only when something else in it changed
			}
			var more []int
			for _, l := range e.More {
				more = append(more, int(l))
			}
			h := graph.Edge{Src: oldNodes[e.Src].ID, Dst: oldNodes[e.Dst].ID, Type: t, Confidence: float64(e.Confidence),
				Reason: graph.Reason(e.Reason), Line: int(e.Line), More: more}
			if !yield(&h, [2]int32{src, dst}) {
				return
			}
		}
		for ; j < len(edges); j++ {
			if !newer() {
				return
			}
		}
	}
	return u.all, u.allHashes, each, nil
}

func sameLines(a []int32, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if int(a[k]) != b[k] {
			return false
		}
	}
	return true
}
