package main

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/embed"
)

// source is a tree of files to read and the extension of those to keep.
type source struct {
	root, ext string
}

// readCorpus splits every file of the sources into subwords, in path
// order. Test data, vendored copies and site-packages are left out.
func readCorpus(sources []source) ([][]string, int, error) {
	var paths []string
	for _, s := range sources {
		err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case "testdata", "site-packages", "vendor", "__pycache__":
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, s.ext) {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
	}
	sort.Strings(paths)
	files := make([][]string, 0, len(paths))
	total := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		words := embed.Subwords(string(b))
		total += len(words)
		files = append(files, words)
	}
	return files, total, nil
}

// vocabulary is the kept subwords with their counts.
type vocabulary struct {
	words  []string
	counts []int
	total  int // all subwords of the corpus
	index  map[string]int32
}

// buildVocab keeps the size most frequent subwords seen at least
// minCount times (ties by the word).
func buildVocab(files [][]string, size, minCount int) *vocabulary {
	counts := map[string]int{}
	total := 0
	for _, f := range files {
		for _, w := range f {
			counts[w]++
			total++
		}
	}
	words := make([]string, 0, len(counts))
	for w, c := range counts {
		if c >= minCount {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	if len(words) > size {
		words = words[:size]
	}
	v := &vocabulary{words: words, total: total, index: map[string]int32{}}
	for i, w := range words {
		v.counts = append(v.counts, counts[w])
		v.index[w] = int32(i)
	}
	return v
}

// sortedIndex lists the word indices in alphabetical order.
func (v *vocabulary) sortedIndex() []int {
	idx := make([]int, len(v.words))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return v.words[idx[a]] < v.words[idx[b]] })
	return idx
}

func quantize(v []float32) ([]int8, float32) {
	var peak float64
	for _, x := range v {
		peak = math.Max(peak, math.Abs(float64(x)))
	}
	codes := make([]int8, len(v))
	if peak == 0 {
		return codes, 0
	}
	scale := peak / 127
	for i, x := range v {
		codes[i] = int8(math.Round(float64(x) / scale))
	}
	return codes, float32(scale)
}
