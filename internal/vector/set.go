package vector

import (
	"container/heap"
	"fmt"
	"math"
)

// Set is a list of unit vectors of one dimension, each stored as int8
// codes and a scale: vector i is Scale[i] * Codes[i*Dim:(i+1)*Dim].
type Set struct {
	Dim    int
	Codes  []int8
	Scales []float32
}

// NewSet returns an empty set of vectors of dim dimensions.
func NewSet(dim int) *Set { return &Set{Dim: dim} }

// Len is the number of vectors.
func (s *Set) Len() int { return len(s.Scales) }

// Quantize turns a vector into int8 codes and the scale that maps them
// back: the largest magnitude becomes ±127.
func Quantize(v []float32) ([]int8, float32) {
	var peak float32
	for _, x := range v {
		peak = max(peak, float32(math.Abs(float64(x))))
	}
	codes := make([]int8, len(v))
	if peak == 0 {
		return codes, 0
	}
	scale := peak / 127
	for i, x := range v {
		codes[i] = int8(math.Round(float64(x / scale)))
	}
	return codes, scale
}

// Add appends a vector given as codes and scale; the scale is corrected
// so that the stored vector has unit length (quantization moves it a
// little).
func (s *Set) Add(codes []int8, scale float32) error {
	if len(codes) != s.Dim {
		return fmt.Errorf("vector of %d dimensions in a set of %d", len(codes), s.Dim)
	}
	var sum float64
	for _, c := range codes {
		sum += float64(c) * float64(c)
	}
	if sum > 0 {
		scale = float32(1 / math.Sqrt(sum))
	} else {
		scale = 0
	}
	s.Codes = append(s.Codes, codes...)
	s.Scales = append(s.Scales, scale)
	return nil
}

// AddFloat quantizes v and appends it.
func (s *Set) AddFloat(v []float32) error {
	codes, scale := Quantize(v)
	return s.Add(codes, scale)
}

// Vector returns vector i as floats.
func (s *Set) Vector(i int) []float32 {
	out := make([]float32, s.Dim)
	codes, scale := s.Codes[i*s.Dim:(i+1)*s.Dim], s.Scales[i]
	for j, c := range codes {
		out[j] = float32(c) * scale
	}
	return out
}

// Similarity is the cosine similarity of the unit vector q and vector i.
func (s *Set) Similarity(q []float32, i int) float32 {
	codes := s.Codes[i*s.Dim : (i+1)*s.Dim]
	q = q[:len(codes)]
	var d0, d1, d2, d3 float32
	j := 0
	for ; j+4 <= len(codes); j += 4 {
		d0 += q[j] * float32(codes[j])
		d1 += q[j+1] * float32(codes[j+1])
		d2 += q[j+2] * float32(codes[j+2])
		d3 += q[j+3] * float32(codes[j+3])
	}
	for ; j < len(codes); j++ {
		d0 += q[j] * float32(codes[j])
	}
	return (d0 + d1 + d2 + d3) * s.Scales[i]
}

// Match is one vector found: its index in the set and its similarity.
type Match struct {
	Index int
	Score float32
}

// better orders matches: higher similarity first, then lower index, so
// that equal scores rank the same way every time.
func better(a, b Match) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Index < b.Index
}

// Exact returns the k vectors most similar to the unit vector q, best
// first, among those keep accepts (all when keep is nil).
func (s *Set) Exact(q []float32, k int, keep func(i int) bool) []Match {
	if k <= 0 || len(q) != s.Dim {
		return nil
	}
	top := &worstFirst{}
	for i := 0; i < s.Len(); i++ {
		if keep != nil && !keep(i) {
			continue
		}
		m := Match{i, s.Similarity(q, i)}
		if top.Len() < k {
			heap.Push(top, m)
		} else if better(m, (*top)[0]) {
			(*top)[0] = m
			heap.Fix(top, 0)
		}
	}
	return top.sorted()
}

// worstFirst is a heap of matches with the worst on top.
type worstFirst []Match

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return better(h[j], h[i]) }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(Match)) }
func (h *worstFirst) Pop() any {
	old := *h
	m := old[len(old)-1]
	*h = old[:len(old)-1]
	return m
}

// sorted empties the heap into a best-first list.
func (h *worstFirst) sorted() []Match {
	out := make([]Match, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(Match)
	}
	return out
}
