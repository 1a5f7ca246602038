package langtest

import (
	"fmt"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/lang"
)

// family is one language family's facts as the pipeline resolved them.
type family struct {
	rules  lang.Rules
	facts  []*lang.FileFacts
	config map[string][]byte
}

// checkIsolation resolves each file of the family on its own, with a fresh
// program, and requires the CALLS and REFERENCES edges (and call counts) of
// one resolution of all files: a file's edges must not depend on which files
// were resolved before it, which is what lets a re-index resolve only some.
func checkIsolation(fam family) error {
	all, stats := resolveEdges(fam, nil, nil)
	var alone []string
	var sum lang.ResolveStats
	for _, ff := range fam.facts {
		path := ff.Path
		e, st := resolveEdges(fam, func(p string) bool { return p == path }, nil)
		alone = append(alone, e...)
		sum.Add(st)
	}
	sort.Strings(alone)
	if err := sameEdges("each file alone", all, alone); err != nil {
		return err
	}
	if sum != stats {
		return fmt.Errorf("each file alone counts %+v, all files %+v", sum, stats)
	}
	return nil
}

// collectFamilies returns ingest options that run the pipeline over root and
// keep each family's facts in *fams.
func collectFamilies(root string, fams *[]family) ingest.Options {
	return ingest.Options{Root: root, Workers: 2,
		Family: func(rules lang.Rules, facts []*lang.FileFacts, config map[string][]byte) {
			*fams = append(*fams, family{rules, append([]*lang.FileFacts(nil), facts...), config})
		}}
}

// resolveEdges resolves the CALLS and REFERENCES of the files keep accepts
// (all when nil) with a new program, and returns those out of the files from
// accepts (all when nil) as sorted lines.
func resolveEdges(fam family, keep, from func(string) bool) ([]string, lang.ResolveStats) {
	g := graph.New()
	p := lang.NewProgram(fam.rules, fam.facts, fam.config)
	st := p.ResolveOnly(g, keep)
	var out []string
	for _, e := range g.Edges() {
		if e.Type != graph.EdgeCalls && e.Type != graph.EdgeReferences {
			continue
		}
		if from != nil {
			n, _ := g.Node(e.Src)
			if n.Kind == graph.KindFile {
				n.FilePath = n.QualifiedName
			}
			if !from(n.FilePath) {
				continue
			}
		}
		out = append(out, edgeLine(e))
	}
	sort.Strings(out)
	return out, st
}

// edgeLine is an edge as the checks compare it.
func edgeLine(e graph.Edge) string {
	return fmt.Sprintf("%s %s -> %s %s %.2f lines %d %v", e.Type, e.Src, e.Dst, e.Reason, e.Confidence, e.Line, e.More)
}

func sameEdges(what string, want, have []string) error {
	if strings.Join(want, "\n") == strings.Join(have, "\n") {
		return nil
	}
	w := map[string]int{}
	for _, l := range want {
		w[l]++
	}
	for _, l := range have {
		w[l]--
	}
	var diff []string
	for l, n := range w {
		switch {
		case n > 0:
			diff = append(diff, "missing: "+l)
		case n < 0:
			diff = append(diff, "extra:   "+l)
		}
	}
	sort.Strings(diff)
	if len(diff) > 20 {
		diff = append(diff[:20], "...")
	}
	return fmt.Errorf("%s: the edges differ from one resolution of all files:\n%s", what, strings.Join(diff, "\n"))
}
