package search

import (
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Words splits text into lowercase search terms: runs of letters and
// digits, identifiers split further at case changes (parseHTTPRequest →
// parse, http, request) and underscores, with one-letter words and common
// English words dropped.
func Words(text string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 1 {
			w := strings.ToLower(string(word))
			if !stopWords[w] {
				out = append(out, w)
			}
		}
		word = word[:0]
	}
	rs := []rune(text)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(word) > 0 {
			prev := word[len(word)-1]
			lowerToUpper := unicode.IsLower(prev) && unicode.IsUpper(r)
			// The last capital of an acronym starts the next word: HTTPServer → http, server.
			acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if lowerToUpper || acronymEnd {
				flush()
			}
		}
		word = append(word, r)
	}
	flush()
	return out
}

// Terms are the search terms of a text as the symbol index has them: its
// Words, then each compound identifier whole and lower-cased
// (loadConfigFile → load, config, file, loadconfigfile; send_request →
// send, request, send_request), so that a question naming an identifier
// matches it more strongly than texts that only share its words.
func Terms(text string) []string {
	out := Words(text)
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		w := strings.ToLower(strings.Trim(tok, "_"))
		if ws := Words(tok); (len(ws) > 1 || (len(ws) == 1 && ws[0] != w)) && len(w) > 1 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for from has have in into is it its of on or
		that the this to was were will with not no do does did so if then than when which who what`) {
		stopWords[w] = true
	}
}

// Corpus is a BM25 index over small documents (commit messages with the
// names of what they changed).
type Corpus struct {
	lens  []int // terms per document
	avg   float64
	df    map[string]int
	posts map[string][]posting
}

type posting struct {
	doc int32
	tf  int32
}

// NewCorpus indexes the documents' terms.
func NewCorpus(docs [][]string) *Corpus {
	c := &Corpus{lens: make([]int, len(docs)), df: map[string]int{}, posts: map[string][]posting{}}
	total := 0
	for i, terms := range docs {
		c.lens[i] = len(terms)
		total += len(terms)
		tf := map[string]int32{}
		for _, t := range terms {
			tf[t]++
		}
		keys := make([]string, 0, len(tf))
		for t := range tf {
			keys = append(keys, t)
		}
		sort.Strings(keys)
		for _, t := range keys {
			c.df[t]++
			c.posts[t] = append(c.posts[t], posting{doc: int32(i), tf: tf[t]})
		}
	}
	if len(docs) > 0 {
		c.avg = float64(total) / float64(len(docs))
	}
	return c
}

// Scored is a document and its score.
type Scored struct {
	Doc   int
	Score float64
}

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Search ranks the documents for the query's terms by BM25 and returns
// the best k (ties by document order). Scores add up in a dense array and
// the best k are kept in a heap, so that a query whose words are in most
// of a large corpus (60,000 commits) does not sort them all.
func (c *Corpus) Search(query []string, k int) []Scored {
	if k <= 0 {
		return []Scored{}
	}
	acc := corpusScores.Get().(*[]float64)
	defer corpusScores.Put(acc)
	if len(*acc) < len(c.lens) {
		*acc = make([]float64, len(c.lens))
	}
	scores := (*acc)[:len(c.lens)]
	var touched []int32
	seen := map[string]bool{}
	n := float64(len(c.lens))
	for _, t := range query {
		if seen[t] {
			continue
		}
		seen[t] = true
		df := float64(c.df[t])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range c.posts[t] {
			tf := float64(p.tf)
			norm := tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(c.lens[p.doc])/c.avg))
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			scores[p.doc] += idf * norm // > 0: idf and norm are positive
		}
	}
	// worse orders as the result does, reversed: the heap's top is the
	// worst of the best k kept so far.
	worse := func(a, b Scored) bool {
		if a.Score != b.Score {
			return a.Score < b.Score
		}
		return a.Doc > b.Doc
	}
	best := make([]Scored, 0, min(k, len(touched)))
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(best) && worse(best[l], best[m]) {
				m = l
			}
			if r := l + 1; r < len(best) && worse(best[r], best[m]) {
				m = r
			}
			if m == i {
				return
			}
			best[i], best[m] = best[m], best[i]
			i = m
		}
	}
	for _, d := range touched {
		sc := Scored{Doc: int(d), Score: math.Round(scores[d]*1e4) / 1e4}
		scores[d] = 0
		switch {
		case len(best) < k:
			best = append(best, sc)
			for i := len(best) - 1; i > 0; {
				parent := (i - 1) / 2
				if !worse(best[i], best[parent]) {
					break
				}
				best[i], best[parent] = best[parent], best[i]
				i = parent
			}
		case worse(best[0], sc):
			best[0] = sc
			down(0)
		}
	}
	sort.Slice(best, func(i, j int) bool { return worse(best[j], best[i]) })
	return best
}

// corpusScores are Search's score arrays, one per concurrent search.
var corpusScores = sync.Pool{New: func() any { return new([]float64) }}

// TFIDF returns each document's TF-IDF vector (term → weight), L2
// normalised; terms in only one document, or in every document, are left
// out when there are more than two documents (they cannot group anything).
func TFIDF(docs [][]string) []map[string]float64 {
	df := map[string]int{}
	for _, terms := range docs {
		seen := map[string]bool{}
		for _, t := range terms {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	n := float64(len(docs))
	out := make([]map[string]float64, len(docs))
	for i, terms := range docs {
		v := map[string]float64{}
		for _, t := range terms {
			if len(docs) > 2 && (df[t] < 2 || df[t] == len(docs)) {
				continue
			}
			v[t]++
		}
		norm := 0.0
		for t, tf := range v {
			w := (1 + math.Log(tf)) * math.Log(1+n/float64(df[t]))
			v[t] = w
			norm += w * w
		}
		norm = math.Sqrt(norm)
		for t := range v {
			if norm > 0 {
				v[t] /= norm
			}
		}
		out[i] = v
	}
	return out
}
