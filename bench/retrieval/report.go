//go:build sqlite_fts5

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

const tableHead = "| ranking | R@1 | R@5 | R@10 | MRR | file R@10 | questions | ms/question |\n|---|---|---|---|---|---|---|---|\n"

// printRepo writes one repository's tables: one per variant, every
// ranking as ranked and with tests dropped, the baseline first.
func printRepo(w io.Writer, res *repoResult) {
	rp := res.repo
	title := rp.name
	if rp.language != "" {
		title += fmt.Sprintf(" (%s, %s set)", rp.language, setName(rp.set))
	}
	fmt.Fprintf(w, "## %s\n\n", title)
	source := rp.source
	if source == "" {
		source = rp.root
	}
	index := fmt.Sprintf("indexed in %s", res.indexTook.Round(time.Second))
	if res.reused {
		index = "index reused"
	}
	fmt.Fprintf(w, "%s at %.12s, %d first-parent commits (%s); %d questions, %d of them with answers outside test code.\n\n",
		source, res.head, res.commits, index, res.questions[asRanked], res.questions[testsDropped])
	for vi, v := range variants {
		fmt.Fprintf(w, "### %s: %s\n\n%s", rp.name, v.name, tableHead)
		for _, rw := range res.rows {
			for view := range views {
				fmt.Fprintf(w, "| %s | %s | %d | %.1f |\n", rowName(rw.ranking, view), formatMetrics(rw.m[vi][view]), res.questions[view], rw.millis)
			}
		}
		fmt.Fprintln(w)
	}
}

// printSummary writes, for each set, the mean over its repositories of
// every ranking's metrics (each repository weighs the same), per variant.
func printSummary(w io.Writer, results []*repoResult) {
	bySet(results, func(r *repoResult) repo { return r.repo }, func(set string, names []string, in []*repoResult) {
		fmt.Fprintf(w, "## Summary: %s set (%s), mean over %d repositories\n\n", setName(set), strings.Join(names, ", "), len(in))
		for vi, v := range variants {
			fmt.Fprintf(w, "### %s set: %s\n\n%s", setName(set), v.name, tableHead)
			for _, name := range rankingNames(in) {
				for view := range views {
					var sum metrics
					var millis float64
					questions, repos := 0, 0
					for _, res := range in {
						for _, rw := range res.rows {
							if rw.ranking == name {
								sum.add(rw.m[vi][view])
								millis += rw.millis
								questions += res.questions[view]
								repos++
							}
						}
					}
					label := rowName(name, view)
					if repos < len(in) {
						label += fmt.Sprintf(" (%d of %d repositories)", repos, len(in))
					}
					fmt.Fprintf(w, "| %s | %s | %d | %.1f |\n", label, formatMetrics(sum.scale(1/float64(repos))), questions, millis/float64(repos))
				}
			}
			fmt.Fprintln(w)
		}
	})
}

// rankingNames lists the rankings measured on any of the results, in
// their first order.
func rankingNames(results []*repoResult) []string {
	var out []string
	seen := map[string]bool{}
	for _, res := range results {
		for _, rw := range res.rows {
			if !seen[rw.ranking] {
				seen[rw.ranking] = true
				out = append(out, rw.ranking)
			}
		}
	}
	return out
}

func rowName(ranking string, view int) string {
	if view == testsDropped {
		return ranking + ", tests dropped"
	}
	return ranking
}

func formatMetrics(m metrics) string {
	return fmt.Sprintf("%.3f | %.3f | %.3f | %.3f | %.3f", m.r1, m.r5, m.r10, m.mrr, m.fileR10)
}

func setName(set string) string {
	switch set {
	case setTune:
		return "tuning"
	case setReport:
		return "reporting"
	}
	return "unlisted"
}

// printQuestions lists a repository's questions (-questions): the
// commit, the answers, and the question in both variants.
func printQuestions(w io.Writer, res *repoResult) {
	fmt.Fprintf(w, "## %s: %d questions, %d first-parent commits\n\n", res.repo.name, res.questions[asRanked], res.commits)
	for i := range res.qs {
		q := &res.qs[i]
		var answers []string
		for n := range q.answers {
			nd := &res.g.Nodes[n]
			answers = append(answers, nd.FilePath+":"+nd.QualifiedName)
		}
		slices.Sort(answers)
		fmt.Fprintf(w, "### %.12s\n\nanswers: %s\n\nfull message:\n\n%s\n\nnames cut:\n\n%s\n\n", q.hash, strings.Join(answers, ", "),
			indent(q.text), indent(q.cut))
	}
}

func indent(text string) string {
	return "    " + strings.ReplaceAll(text, "\n", "\n    ")
}

// bySet calls fn with each set's results, the tuning set first, then the
// reporting set, then repositories of no set; with the names of their
// repositories. A set with no results is passed over.
func bySet[R any](results []R, repoOf func(R) repo, fn func(set string, names []string, in []R)) {
	for _, set := range []string{setTune, setReport, ""} {
		var in []R
		var names []string
		for _, res := range results {
			if r := repoOf(res); r.set == set {
				in = append(in, res)
				names = append(names, r.name)
			}
		}
		if len(in) > 0 {
			fn(set, names, in)
		}
	}
}
