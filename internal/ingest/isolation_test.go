package ingest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// TestResolveSubsetCorpus resolves a random tenth of the files of the
// repository GITNEXUS_ISOLATION_DIR with a program of their own and requires
// the CALLS and REFERENCES edges out of those files that resolving every file
// gives (lang/memo.go). GITNEXUS_ISOLATION_SEED picks the files (default 1).
// It is skipped without the variable: the language fixtures check the same
// on every run (langtest), this is for real repositories.
func TestResolveSubsetCorpus(t *testing.T) {
	dir := os.Getenv("GITNEXUS_ISOLATION_DIR")
	if dir == "" {
		t.Skip("GITNEXUS_ISOLATION_DIR is not set")
	}
	seed, _ := strconv.ParseUint(os.Getenv("GITNEXUS_ISOLATION_SEED"), 10, 64)
	if seed == 0 {
		seed = 1
	}
	type family struct {
		rules  lang.Rules
		facts  []*lang.FileFacts
		config map[string][]byte
	}
	var fams []family
	_, err := Run(context.Background(), Options{Root: dir, Family: func(r lang.Rules, f []*lang.FileFacts, c map[string][]byte) {
		fams = append(fams, family{r, append([]*lang.FileFacts(nil), f...), c})
	}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, fam := range fams {
		keep := map[string]bool{}
		for _, f := range fam.facts {
			if rng.IntN(10) == 0 {
				keep[f.Path] = true
			}
		}
		edges := func(only func(string) bool) []string {
			g := graph.New()
			lang.NewProgram(fam.rules, fam.facts, fam.config).ResolveOnly(g, only)
			var out []string
			for _, e := range g.Edges() {
				if e.Type != graph.EdgeCalls && e.Type != graph.EdgeReferences {
					continue
				}
				n, _ := g.Node(e.Src)
				if n.Kind == graph.KindFile {
					n.FilePath = n.QualifiedName
				}
				if !keep[n.FilePath] {
					continue
				}
				out = append(out, fmt.Sprintf("%s %s -> %s %s line %d", e.Type, e.Src, e.Dst, e.Reason, e.Line))
			}
			sort.Strings(out)
			return out
		}
		all := edges(nil)
		some := edges(func(p string) bool { return keep[p] })
		t.Logf("%d of %d files, %d edges", len(keep), len(fam.facts), len(all))
		w := map[string]int{}
		for _, l := range all {
			w[l]++
		}
		for _, l := range some {
			w[l]--
		}
		bad := 0
		for l, n := range w {
			if n != 0 && bad < 20 {
				t.Errorf("%+d %s", n, l)
				bad++
			}
		}
	}
}
