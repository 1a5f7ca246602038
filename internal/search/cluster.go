package search

import (
	"math"
	"math/rand"
	"sort"
	"strings"
)

// Cluster bounds.
const (
	// MaxClusters caps k.
	MaxClusters = 8
	// MaxClusterDocs caps the documents clustered at once (the silhouette
	// compares every pair).
	MaxClusterDocs = 300
)

// Group is one cluster: its label (the top terms of its centre) and its
// members in input order.
type Group struct {
	Label   string
	Terms   []string
	Members []int
}

// ClusterTexts groups documents (already split into terms) by TF-IDF and
// k-means with cosine distance, k chosen by the best mean silhouette among
// 2..MaxClusters (one group for fewer than 3 documents, or when no split
// separates them). Seeded, so the same input gives the same groups.
// Groups are sorted by size, then by first member.
func ClusterTexts(docs [][]string) []Group {
	n := len(docs)
	if n == 0 {
		return nil
	}
	vecs, vocab := denseTFIDF(docs)
	if n < 3 || len(vocab) == 0 {
		return []Group{labelGroup(vecs, vocab, allMembers(n))}
	}
	dist := distances(vecs)
	bestK, bestS := 1, 0.0
	var bestAssign []int
	for k := 2; k <= MaxClusters && k < n; k++ {
		assign := kmeans(vecs, k, 1)
		s := silhouette(dist, assign, k)
		if s > bestS+1e-9 {
			bestK, bestS, bestAssign = k, s, assign
		}
	}
	if bestK == 1 {
		return []Group{labelGroup(vecs, vocab, allMembers(n))}
	}
	members := make([][]int, bestK)
	for i, c := range bestAssign {
		members[c] = append(members[c], i)
	}
	var out []Group
	for _, m := range members {
		if len(m) > 0 {
			out = append(out, labelGroup(vecs, vocab, m))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Members) != len(out[j].Members) {
			return len(out[i].Members) > len(out[j].Members)
		}
		return out[i].Members[0] < out[j].Members[0]
	})
	return out
}

func allMembers(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

// denseTFIDF turns the TF-IDF vectors into rows over a sorted vocabulary.
func denseTFIDF(docs [][]string) ([][]float64, []string) {
	sparse := TFIDF(docs)
	set := map[string]bool{}
	for _, v := range sparse {
		for t := range v {
			set[t] = true
		}
	}
	vocab := make([]string, 0, len(set))
	for t := range set {
		vocab = append(vocab, t)
	}
	sort.Strings(vocab)
	col := make(map[string]int, len(vocab))
	for i, t := range vocab {
		col[t] = i
	}
	out := make([][]float64, len(docs))
	for i, v := range sparse {
		row := make([]float64, len(vocab))
		for t, w := range v {
			row[col[t]] = w
		}
		out[i] = row
	}
	return out, vocab
}

// labelGroup names a group by the three heaviest terms of its centre.
func labelGroup(vecs [][]float64, vocab []string, members []int) Group {
	g := Group{Members: members}
	if len(vocab) == 0 {
		g.Label = "misc"
		return g
	}
	centre := make([]float64, len(vocab))
	for _, m := range members {
		for j, w := range vecs[m] {
			centre[j] += w
		}
	}
	idx := make([]int, len(vocab))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return centre[idx[a]] > centre[idx[b]] })
	for _, j := range idx[:min(3, len(idx))] {
		if centre[j] > 0 {
			g.Terms = append(g.Terms, vocab[j])
		}
	}
	g.Label = strings.Join(g.Terms, " ")
	if g.Label == "" {
		g.Label = "misc"
	}
	return g
}

func cosineDistance(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 1
	}
	return 1 - dot/math.Sqrt(na*nb)
}

// kmeans clusters rows into k groups: k-means++ seeding from a fixed seed,
// then Lloyd iterations until nothing moves (at most 100).
func kmeans(rows [][]float64, k int, seed int64) []int {
	rng := rand.New(rand.NewSource(seed))
	n, dim := len(rows), len(rows[0])
	centres := make([][]float64, 0, k)
	centres = append(centres, append([]float64(nil), rows[rng.Intn(n)]...))
	dist := make([]float64, n)
	for len(centres) < k {
		total := 0.0
		for i, r := range rows {
			d := math.Inf(1)
			for _, c := range centres {
				d = math.Min(d, cosineDistance(r, c))
			}
			dist[i] = d * d
			total += dist[i]
		}
		next := 0
		if total > 0 {
			x := rng.Float64() * total
			for i, d := range dist {
				if x -= d; x <= 0 {
					next = i
					break
				}
			}
		} else {
			next = rng.Intn(n)
		}
		centres = append(centres, append([]float64(nil), rows[next]...))
	}
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	for iter := 0; iter < 100; iter++ {
		moved := false
		for i, r := range rows {
			best, bd := 0, math.Inf(1)
			for c, centre := range centres {
				if d := cosineDistance(r, centre); d < bd-1e-12 {
					best, bd = c, d
				}
			}
			if assign[i] != best {
				assign[i], moved = best, true
			}
		}
		if !moved {
			break
		}
		for c := range centres {
			sum := make([]float64, dim)
			count := 0
			for i, a := range assign {
				if a == c {
					count++
					for j, w := range rows[i] {
						sum[j] += w
					}
				}
			}
			if count > 0 {
				centres[c] = sum
			}
		}
	}
	return assign
}

// distances is the matrix of cosine distances between rows.
func distances(rows [][]float64) [][]float64 {
	n := len(rows)
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d[i][j] = cosineDistance(rows[i], rows[j])
			d[j][i] = d[i][j]
		}
	}
	return d
}

// silhouette is the mean silhouette of an assignment (cosine distance);
// members of singleton clusters count 0.
func silhouette(d [][]float64, assign []int, k int) float64 {
	n := len(d)
	size := make([]int, k)
	for _, a := range assign {
		size[a]++
	}
	total := 0.0
	for i := 0; i < n; i++ {
		if size[assign[i]] < 2 {
			continue
		}
		sums := make([]float64, k)
		for j := 0; j < n; j++ {
			if j != i {
				sums[assign[j]] += d[i][j]
			}
		}
		a := sums[assign[i]] / float64(size[assign[i]]-1)
		b := math.Inf(1)
		for c := 0; c < k; c++ {
			if c != assign[i] && size[c] > 0 {
				b = math.Min(b, sums[c]/float64(size[c]))
			}
		}
		if math.IsInf(b, 1) {
			continue
		}
		total += (b - a) / math.Max(a, b)
	}
	return total / float64(n)
}
