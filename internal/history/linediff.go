package history

import "bytes"

// A line diff of two versions of a file, for deriving one version's
// symbols from the other's when git did not diff them: a file's version
// on a branch against its version after the merge, say (pipeline.go).

// maxDiffEdits bounds the edits the diff looks for between the lines the
// two versions do not share at their start and end; past it, those lines
// are one hunk. Any hunks that turn one version into the other serve, the
// fewer lines they cover the less is read again.
const maxDiffEdits = 400

// lineHunks returns hunks that turn a into b, as `git diff -U0` writes
// them: 1-based lines, and for a side with no lines, the line before.
func lineHunks(a, b []byte) []hunk {
	ids := map[string]int32{}
	la, lb := lineIDs(a, ids), lineIDs(b, ids)
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	ops, ok := editScript(ma, mb, maxDiffEdits)
	if !ok {
		return []hunk{newHunk(pre, len(ma), pre, len(mb))}
	}
	var out []hunk
	i, j := pre, pre
	for k := 0; k < len(ops); {
		if ops[k] == opSame {
			i, j, k = i+1, j+1, k+1
			continue
		}
		del, ins := 0, 0
		for ; k < len(ops) && ops[k] != opSame; k++ {
			if ops[k] == opDelete {
				del++
			} else {
				ins++
			}
		}
		out = append(out, newHunk(i, del, j, ins))
		i, j = i+del, j+ins
	}
	return out
}

// newHunk is the hunk replacing the del lines of a after its first i lines
// with the ins lines of b after its first j.
func newHunk(i, del, j, ins int) hunk {
	h := hunk{oldStart: int32(i), oldCount: int32(del), newStart: int32(j), newCount: int32(ins)}
	if del > 0 {
		h.oldStart++
	}
	if ins > 0 {
		h.newStart++
	}
	return h
}

// lineIDs numbers the lines of src (each with its newline), equal lines
// alike.
func lineIDs(src []byte, ids map[string]int32) []int32 {
	out := make([]int32, 0, bytes.Count(src, []byte{'\n'})+1)
	for len(src) > 0 {
		n := bytes.IndexByte(src, '\n') + 1
		if n == 0 {
			n = len(src)
		}
		id, ok := ids[string(src[:n])]
		if !ok {
			id = int32(len(ids))
			ids[string(src[:n])] = id
		}
		out = append(out, id)
		src = src[n:]
	}
	return out
}

// Edit operations.
const (
	opSame byte = iota
	opDelete
	opInsert
)

// editScript is a shortest edit script from a to b (Myers' greedy
// algorithm), or false when it takes more than maxD edits.
func editScript(a, b []int32, maxD int) ([]byte, bool) {
	n, m := len(a), len(b)
	limit := min(maxD, n+m)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack turns the furthest points of each step into the operations, in
// order.
func backtrack(trace [][]int, off, x, y int) []byte {
	var ops []byte
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			ops = append(ops, opSame)
			x, y = x-1, y-1
		}
		if pk == k+1 {
			ops = append(ops, opInsert)
		} else {
			ops = append(ops, opDelete)
		}
		x, y = px, py
	}
	for ; x > 0; x-- {
		ops = append(ops, opSame)
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}
