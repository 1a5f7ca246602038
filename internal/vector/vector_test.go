package vector

import (
	"bytes"
	"context"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// clustered returns n unit vectors of dim dimensions around 50 random
// centres, the shape embeddings of code have (near-duplicates in groups).
func clustered(n, dim int, seed int64) [][]float32 {
	rng := rand.New(rand.NewSource(seed))
	centres := make([][]float32, 50)
	for c := range centres {
		centres[c] = randomUnit(rng, dim)
	}
	out := make([][]float32, n)
	for i := range out {
		c := centres[rng.Intn(len(centres))]
		v := randomUnit(rng, dim)
		for j := range v {
			v[j] = c[j] + 0.6*v[j]
		}
		out[i] = unit(v)
	}
	return out
}

func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for j := range v {
		v[j] = float32(rng.NormFloat64())
	}
	return unit(v)
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	for j := range v {
		v[j] /= float32(math.Sqrt(s))
	}
	return v
}

func setOf(t testing.TB, vecs [][]float32) *Set {
	s := NewSet(len(vecs[0]))
	for _, v := range vecs {
		if err := s.AddFloat(v); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// bruteForce ranks by exact float similarity.
func bruteForce(vecs [][]float32, q []float32, k int) []int {
	idx := make([]int, len(vecs))
	sims := make([]float32, len(vecs))
	for i, v := range vecs {
		idx[i], sims[i] = i, dot(q, v)
	}
	sort.SliceStable(idx, func(a, b int) bool { return sims[idx[a]] > sims[idx[b]] })
	return idx[:k]
}

func TestQuantizedSimilarity(t *testing.T) {
	vecs := clustered(200, 96, 1)
	s := setOf(t, vecs)
	worst := 0.0
	for i := 0; i < s.Len(); i++ {
		for _, j := range []int{0, 7, 199} {
			d := math.Abs(float64(s.Similarity(vecs[j], i) - dot(vecs[j], vecs[i])))
			worst = math.Max(worst, d)
		}
	}
	if worst > 0.01 {
		t.Errorf("quantized similarity is off by up to %.4f, want at most 0.01", worst)
	}
}

func TestExact(t *testing.T) {
	vecs := clustered(500, 32, 2)
	s := setOf(t, vecs)
	for _, qi := range []int{0, 100, 499} {
		got := s.Exact(vecs[qi], 10, nil)
		if len(got) != 10 || got[0].Index != qi {
			t.Fatalf("query %d: best match %v, want itself first", qi, got)
		}
		for k := 1; k < len(got); k++ {
			if better(got[k], got[k-1]) {
				t.Fatalf("query %d: not best first: %v", qi, got)
			}
		}
		odd := s.Exact(vecs[qi], 5, func(i int) bool { return i%2 == 1 })
		for _, m := range odd {
			if m.Index%2 == 0 {
				t.Fatalf("filter ignored: %v", odd)
			}
		}
	}
}

func TestHNSWRecall(t *testing.T) {
	cases := []struct {
		n, dim int
		ef     int
		want   float64 // recall@10 against the exact float ranking
	}{
		{2000, 64, DefaultEf, 0.95},
		{2000, 64, 10, 0.75},
		{1, 8, DefaultEf, 1},
	}
	built := map[int]*HNSW{}
	for _, tc := range cases {
		vecs := clustered(tc.n, tc.dim, 3)
		s := setOf(t, vecs)
		h := built[tc.n]
		if h == nil {
			var err error
			if h, err = BuildHNSW(context.Background(), s, DefaultM, DefaultEfConstruction); err != nil {
				t.Fatal(err)
			}
			built[tc.n] = h
		}
		rng := rand.New(rand.NewSource(9))
		hit, total := 0, 0
		for q := 0; q < 100; q++ {
			query := randomUnit(rng, tc.dim)
			if q%2 == 0 {
				query = vecs[rng.Intn(tc.n)]
			}
			k := min(10, tc.n)
			want := map[int]bool{}
			for _, i := range bruteForce(vecs, query, k) {
				want[i] = true
			}
			for _, m := range h.Search(s, query, k, tc.ef) {
				if want[m.Index] {
					hit++
				}
			}
			total += k
		}
		if r := float64(hit) / float64(total); r < tc.want {
			t.Errorf("n=%d ef=%d: recall@10 %.3f, want at least %.2f", tc.n, tc.ef, r, tc.want)
		}
	}
}

func TestHNSWEncoding(t *testing.T) {
	s := setOf(t, clustered(800, 16, 4))
	build := func() []byte {
		h, err := BuildHNSW(context.Background(), s, 8, 40)
		if err != nil {
			t.Fatal(err)
		}
		b, err := h.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := build(), build()
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same vectors encode differently")
	}
	h, err := DecodeHNSW(a, s.Len())
	if err != nil {
		t.Fatal(err)
	}
	again, _ := h.MarshalBinary()
	if !bytes.Equal(a, again) {
		t.Fatal("decode then encode changes the bytes")
	}
	q := s.Vector(5)
	if got := h.Search(s, q, 1, DefaultEf); len(got) != 1 || got[0].Index != 5 {
		t.Errorf("decoded graph: nearest of vector 5 is %v", got)
	}
	bad := []struct {
		name string
		b    []byte
		n    int
	}{
		{"wrong count", a, s.Len() + 1},
		{"truncated", a[:len(a)/2], s.Len()},
		{"not an index", []byte("hello world"), s.Len()},
		{"trailing", append(append([]byte(nil), a...), 0), s.Len()},
	}
	for _, tc := range bad {
		if _, err := DecodeHNSW(tc.b, tc.n); err == nil {
			t.Errorf("%s: decoded without error", tc.name)
		}
	}
}

func FuzzDecodeHNSW(f *testing.F) {
	s := NewSet(4)
	for i := 0; i < 20; i++ {
		s.AddFloat([]float32{float32(i), 1, float32(i % 3), 2})
	}
	h, _ := BuildHNSW(context.Background(), s, 4, 8)
	b, _ := h.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := DecodeHNSW(data, s.Len())
		if err != nil {
			return
		}
		h.Search(s, s.Vector(3), 5, 10)
	})
}
