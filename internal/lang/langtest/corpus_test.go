package langtest

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gitnexus.dev/gitnexus/internal/ingest"
)

// TestResolveSubsetCorpus resolves a random tenth of the files of the
// repository GITNEXUS_ISOLATION_DIR with a program of their own and requires
// the CALLS and REFERENCES edges out of those files that resolving every file
// gives (lang/memo.go). GITNEXUS_ISOLATION_SEED picks the files (default 1).
// It is skipped without the variable: every fixture is checked the same way
// on every run (checkIsolation), this is for real repositories.
func TestResolveSubsetCorpus(t *testing.T) {
	fams, rng := corpusFamilies(t)
	for _, fam := range fams {
		keep := map[string]bool{}
		for _, f := range fam.facts {
			if rng.IntN(10) == 0 {
				keep[f.Path] = true
			}
		}
		kept := func(p string) bool { return keep[p] }
		all, _ := resolveEdges(fam, nil, kept)
		some, _ := resolveEdges(fam, kept, nil)
		t.Logf("%d of %d files, %d edges", len(keep), len(fam.facts), len(all))
		if err := sameEdges("a tenth of the files alone", all, some); err != nil {
			t.Error(err)
		}
	}
}

// TestAffectedCorpus edits the facts of random files of the repository
// GITNEXUS_ISOLATION_DIR as checkAffected does the fixtures' (a symbol
// renamed, its type or supertypes dropped, a binding's value dropped), and
// after each requires that resolving only the files lang.Affected names,
// with the others' edges from before, gives the edges and call counts of a
// resolution of every file. GITNEXUS_AFFECTED_EDITS edits per family (10
// by default; each resolves the family twice), GITNEXUS_ISOLATION_SEED
// picks them.
func TestAffectedCorpus(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GITNEXUS_AFFECTED_EDITS"))
	if n <= 0 {
		n = 10
	}
	fams, rng := corpusFamilies(t)
	for _, fam := range fams {
		var edits []edit
		for tries := 0; len(edits) < n && tries < 100*n; tries++ {
			fi := rng.IntN(len(fam.facts))
			if ms := mutations(fam.facts[fi]); len(ms) > 0 {
				edits = append(edits, edit{fi, ms[rng.IntN(len(ms))]})
			}
		}
		st, err := checkEdits(fam, edits)
		t.Logf("%d files: %d edits resolved only the files they affect (%d in all), %d resolved every file", len(fam.facts), st.checked, st.resolved, st.fallbacks)
		if err != nil {
			t.Error(err)
		}
	}
}

// corpusFamilies indexes the repository GITNEXUS_ISOLATION_DIR (the test
// is skipped without it) and returns its families' facts, and the random
// source GITNEXUS_ISOLATION_SEED (default 1) seeds.
func corpusFamilies(t *testing.T) ([]family, *rand.Rand) {
	t.Helper()
	dir := os.Getenv("GITNEXUS_ISOLATION_DIR")
	if dir == "" {
		t.Skip("GITNEXUS_ISOLATION_DIR is not set")
	}
	seed, _ := strconv.ParseUint(os.Getenv("GITNEXUS_ISOLATION_SEED"), 10, 64)
	if seed == 0 {
		seed = 1
	}
	var fams []family
	if _, err := ingest.Run(context.Background(), collectFamilies(dir, &fams)); err != nil {
		t.Fatal(err)
	}
	return fams, rand.New(rand.NewPCG(seed, 0))
}
