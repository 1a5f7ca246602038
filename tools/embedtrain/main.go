// Command embedtrain trains the built-in embedder's subword vectors
// (internal/embed/data/subwords.bin) from source code present on the
// machine: by default the Go standard library ($(go env GOROOT)/src) and
// Python's (the stdlib directory of python3).
//
// Every file is split into subwords (embed.Subwords: identifiers split on
// case and underscores, comment and string words). Two subwords co-occur
// when they are at most -window apart in a file, weighted by 1/distance.
// The vocabulary is the -vocab most frequent subwords seen at least
// -min-count times. The co-occurrence matrix becomes positive pointwise
// mutual information (context counts raised to 0.75), which a randomized
// SVD reduces to -dim dimensions; a subword's vector is its row of U·√Σ,
// normalised, and its weight a/(a+p) with p its frequency and a = 1e-3
// (rare words say more than common ones). The output is deterministic for
// the same files.
//
//	go run ./tools/embedtrain -out internal/embed/data/subwords.bin
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
)

func main() {
	goRoot := flag.String("go-root", "", "Go sources to read (default: $(go env GOROOT)/src)")
	pyRoot := flag.String("python-root", "", "Python sources to read (default: python3's stdlib directory; \"-\" for none)")
	out := flag.String("out", "internal/embed/data/subwords.bin", "where to write the table")
	vocab := flag.Int("vocab", 20000, "subwords kept")
	dim := flag.Int("dim", 128, "dimensions")
	window := flag.Int("window", 5, "co-occurrence window (subwords either side)")
	minCount := flag.Int("min-count", 10, "fewest occurrences of a kept subword")
	name := flag.String("name", "subword-v1", "the table's name (part of the embedder's identity)")
	flag.Parse()
	if *goRoot == "" {
		*goRoot = filepath.Join(command("go", "env", "GOROOT"), "src")
	}
	if *pyRoot == "" {
		*pyRoot = command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])")
	}
	roots := []source{{*goRoot, ".go"}}
	if *pyRoot != "-" {
		roots = append(roots, source{*pyRoot, ".py"})
	}
	start := time.Now()
	files, tokens, err := readCorpus(roots)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("read %d files, %d subwords in %s", len(files), tokens, time.Since(start).Round(time.Millisecond))
	voc := buildVocab(files, *vocab, *minCount)
	log.Printf("vocabulary: %d subwords", len(voc.words))
	m := cooccurrence(files, voc, *window)
	log.Printf("co-occurrence: %d non-zero cells", m.nnz())
	ppmi(m, 0.75)
	vecs := randomizedSVD(m, *dim, 16, 3, 1)
	log.Printf("SVD done in %s", time.Since(start).Round(time.Millisecond))
	t := table(*name, voc, vecs, *dim)
	b := t.Encode()
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s: %d subwords × %d dimensions, %d bytes, in %s\n", *out, len(t.Words), t.Dim, len(b), time.Since(start).Round(time.Second))
}

func command(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		log.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// table turns the vectors into the embedder's table: rows normalised and
// quantized, weights from the frequencies.
func table(name string, voc *vocabulary, vecs [][]float64, dim int) *embed.SubwordTable {
	t := &embed.SubwordTable{Name: name, Dim: dim}
	order := voc.sortedIndex()
	const a = 1e-3
	for _, i := range order {
		t.Words = append(t.Words, voc.words[i])
		p := float64(voc.counts[i]) / float64(voc.total)
		t.Weights = append(t.Weights, float32(a/(a+p)))
		row := make([]float32, dim)
		for j := range row {
			row[j] = float32(vecs[i][j])
		}
		codes, scale := quantize(embed.Normalize(row))
		t.Scales = append(t.Scales, scale)
		t.Codes = append(t.Codes, codes...)
	}
	return t
}
