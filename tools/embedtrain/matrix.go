package main

import (
	"math"
	"sort"
)

// sparse is a row-compressed matrix.
type sparse struct {
	rows, cols int
	start      []int // row i's cells are start[i]:start[i+1]
	col        []int32
	val        []float64
}

func (m *sparse) nnz() int { return len(m.val) }

// cooccurrence counts, for each pair of vocabulary subwords, how often
// they stand at most window apart in a file, each occurrence weighted by
// 1/distance; the matrix is symmetric.
func cooccurrence(files [][]string, voc *vocabulary, window int) *sparse {
	n := len(voc.words)
	rows := make([]map[int32]float64, n)
	for i := range rows {
		rows[i] = map[int32]float64{}
	}
	ids := []int32{}
	for _, f := range files {
		ids = ids[:0]
		for _, w := range f {
			if i, ok := voc.index[w]; ok {
				ids = append(ids, i)
			} else {
				ids = append(ids, -1)
			}
		}
		for i, a := range ids {
			if a < 0 {
				continue
			}
			for d := 1; d <= window && i+d < len(ids); d++ {
				b := ids[i+d]
				if b < 0 || b == a {
					continue
				}
				w := 1 / float64(d)
				rows[a][b] += w
				rows[b][a] += w
			}
		}
	}
	m := &sparse{rows: n, cols: n, start: make([]int, n+1)}
	for i, r := range rows {
		cols := make([]int32, 0, len(r))
		for c := range r {
			cols = append(cols, c)
		}
		sort.Slice(cols, func(a, b int) bool { return cols[a] < cols[b] })
		for _, c := range cols {
			m.col = append(m.col, c)
			m.val = append(m.val, r[c])
		}
		m.start[i+1] = len(m.val)
		rows[i] = nil
	}
	return m
}

// ppmi turns counts into positive pointwise mutual information, with the
// context distribution smoothed by raising counts to alpha.
func ppmi(m *sparse, alpha float64) {
	rowSum := make([]float64, m.rows)
	colSum := make([]float64, m.cols)
	total := 0.0
	for i := 0; i < m.rows; i++ {
		for k := m.start[i]; k < m.start[i+1]; k++ {
			rowSum[i] += m.val[k]
			colSum[m.col[k]] += m.val[k]
			total += m.val[k]
		}
	}
	smoothTotal := 0.0
	for j := range colSum {
		colSum[j] = math.Pow(colSum[j], alpha)
		smoothTotal += colSum[j]
	}
	for i := 0; i < m.rows; i++ {
		for k := m.start[i]; k < m.start[i+1]; k++ {
			pwc := m.val[k] / total
			pw := rowSum[i] / total
			pc := colSum[m.col[k]] / smoothTotal
			m.val[k] = math.Max(0, math.Log(pwc/(pw*pc)))
		}
	}
}

// mulDense returns m × x (x has m.cols rows).
func (m *sparse) mulDense(x [][]float64) [][]float64 {
	k := len(x[0])
	out := make([][]float64, m.rows)
	for i := 0; i < m.rows; i++ {
		row := make([]float64, k)
		for p := m.start[i]; p < m.start[i+1]; p++ {
			v, xr := m.val[p], x[m.col[p]]
			for j := range row {
				row[j] += v * xr[j]
			}
		}
		out[i] = row
	}
	return out
}

// mulDenseT returns mᵀ × x (x has m.rows rows).
func (m *sparse) mulDenseT(x [][]float64) [][]float64 {
	k := len(x[0])
	out := make([][]float64, m.cols)
	for j := range out {
		out[j] = make([]float64, k)
	}
	for i := 0; i < m.rows; i++ {
		xr := x[i]
		for p := m.start[i]; p < m.start[i+1]; p++ {
			v, o := m.val[p], out[m.col[p]]
			for j := range o {
				o[j] += v * xr[j]
			}
		}
	}
	return out
}
