package main

import (
	"math"
	"math/rand"
	"sort"
)

// randomizedSVD returns the rows of U·√Σ for the rank-k approximation of
// m (Halko, Martinsson and Tropp): a Gaussian sketch with oversample
// extra columns, power iterations that sharpen the spectrum, an
// orthonormal basis Q of the sketch, and the eigendecomposition of the
// small matrix (QᵀM)(QᵀM)ᵀ.
func randomizedSVD(m *sparse, k, oversample, powerIters int, seed int64) [][]float64 {
	l := k + oversample
	rng := rand.New(rand.NewSource(seed))
	omega := make([][]float64, m.cols)
	for i := range omega {
		omega[i] = make([]float64, l)
		for j := range omega[i] {
			omega[i][j] = rng.NormFloat64()
		}
	}
	y := m.mulDense(omega)
	orthonormalize(y)
	for it := 0; it < powerIters; it++ {
		z := m.mulDenseT(y)
		orthonormalize(z)
		y = m.mulDense(z)
		orthonormalize(y)
	}
	q := y                    // rows × l, orthonormal columns
	bt := m.mulDenseT(q)      // cols × l: Bᵀ where B = QᵀM
	c := make([][]float64, l) // B Bᵀ = (Bᵀ)ᵀ Bᵀ, l × l
	for a := range c {
		c[a] = make([]float64, l)
	}
	for _, row := range bt {
		for a := 0; a < l; a++ {
			if row[a] == 0 {
				continue
			}
			for b := a; b < l; b++ {
				c[a][b] += row[a] * row[b]
			}
		}
	}
	for a := 0; a < l; a++ {
		for b := 0; b < a; b++ {
			c[a][b] = c[b][a]
		}
	}
	vals, vecs := jacobiEigen(c)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	out := make([][]float64, m.rows)
	for i := range out {
		out[i] = make([]float64, k)
		for j := 0; j < k; j++ {
			e := order[j]
			sigma := math.Sqrt(math.Max(vals[e], 0))
			var u float64
			for a := 0; a < l; a++ {
				u += q[i][a] * vecs[a][e]
			}
			out[i][j] = u * math.Sqrt(sigma)
		}
	}
	return out
}

// orthonormalize makes the columns of a orthonormal in place (modified
// Gram–Schmidt, twice for stability).
func orthonormalize(a [][]float64) {
	cols := len(a[0])
	for pass := 0; pass < 2; pass++ {
		for j := 0; j < cols; j++ {
			for p := 0; p < j; p++ {
				var dot float64
				for i := range a {
					dot += a[i][j] * a[i][p]
				}
				for i := range a {
					a[i][j] -= dot * a[i][p]
				}
			}
			var norm float64
			for i := range a {
				norm += a[i][j] * a[i][j]
			}
			norm = math.Sqrt(norm)
			if norm == 0 {
				continue
			}
			for i := range a {
				a[i][j] /= norm
			}
		}
	}
}

// jacobiEigen diagonalises the symmetric matrix a by cyclic Jacobi
// rotations; it returns the eigenvalues and the eigenvectors as columns.
func jacobiEigen(a [][]float64) ([]float64, [][]float64) {
	n := len(a)
	v := make([][]float64, n)
	for i := range v {
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				off += a[p][q] * a[p][q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if math.Abs(a[p][q]) < 1e-300 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ {
					akp, akq := a[k][p], a[k][q]
					a[k][p] = c*akp - s*akq
					a[k][q] = s*akp + c*akq
				}
				for k := 0; k < n; k++ {
					apk, aqk := a[p][k], a[q][k]
					a[p][k] = c*apk - s*aqk
					a[q][k] = s*apk + c*aqk
				}
				for k := 0; k < n; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p] = c*vkp - s*vkq
					v[k][q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = a[i][i]
	}
	return vals, v
}
