package search

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// fullSearch is Search as a plain reading of its definition: every
// document scored, all sorted.
func fullSearch(c *Corpus, query []string, k int) []Scored {
	scores := map[int32]float64{}
	seen := map[string]bool{}
	n := float64(len(c.lens))
	for _, t := range query {
		if seen[t] || c.df[t] == 0 {
			continue
		}
		seen[t] = true
		df := float64(c.df[t])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range c.posts[t] {
			tf := float64(p.tf)
			scores[p.doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(c.lens[p.doc])/c.avg))
		}
	}
	out := []Scored{}
	for d, s := range scores {
		out = append(out, Scored{Doc: int(d), Score: math.Round(s*1e4) / 1e4})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Doc < out[j].Doc
	})
	return out[:min(k, len(out))]
}

// TestCorpusSearchBestK: the heap's best k are the full sort's first k, ties
// by document order included, over random corpora with many equal
// documents (equal scores), for k below, at and above the matches.
func TestCorpusSearchBestK(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"fix", "cache", "retry", "timeout", "parse", "header", "chunk", "read", "write", "lock"}
	for round := 0; round < 200; round++ {
		docs := make([][]string, 1+rng.Intn(300))
		for i := range docs {
			if i > 0 && rng.Intn(4) == 0 {
				docs[i] = docs[rng.Intn(i)] // an equal document: an equal score
				continue
			}
			for j := rng.Intn(12); j > 0; j-- {
				docs[i] = append(docs[i], words[rng.Intn(len(words))])
			}
		}
		c := NewCorpus(docs)
		var q []string
		for j := 1 + rng.Intn(4); j > 0; j-- {
			q = append(q, words[rng.Intn(len(words))])
		}
		for _, k := range []int{1, 5, 20, len(docs) + 1} {
			got, want := c.Search(q, k), fullSearch(c, q, k)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("round %d, query %v, k %d:\n got %v\nwant %v", round, q, k, got, want)
			}
		}
	}
	if got := NewCorpus([][]string{{"a"}}).Search([]string{"b"}, 3); got == nil || len(got) != 0 {
		t.Errorf("no match: %#v, want an empty list", got)
	}
}

// BenchmarkCorpusSearch searches 60,000 documents of 30 words drawn from a
// Zipf-distributed vocabulary of 20,000 (a long history's commits) for
// questions of 12 such words, the 20 best: what query's history votes
// and search_commits do on a history the size of the Go repository's.
func BenchmarkCorpusSearch(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	zipf := rand.NewZipf(rng, 1.1, 1, 19999)
	word := func() string { return fmt.Sprintf("w%d", zipf.Uint64()) }
	docs := make([][]string, 60000)
	for i := range docs {
		for j := 0; j < 30; j++ {
			docs[i] = append(docs[i], word())
		}
	}
	c := NewCorpus(docs)
	queries := make([][]string, 256)
	for i := range queries {
		for j := 0; j < 12; j++ {
			queries[i] = append(queries[i], word())
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Search(queries[i%len(queries)], 20)
	}
}
