//go:build sqlite_fts5

package main

// The commit-search benchmark (-commits): does a ranking of commits find
// the commit that introduced what a later fix repairs, from the fix's
// message? The question is the message of a first-parent commit that
// says it fixes something (fixWords); its answers are the first-parent
// commits that last changed the lines the fix removed or rewrote, as
// `git blame --first-parent` at the fix's parent names them. The answer
// is never the question's own text: it is an earlier commit, written
// before anyone knew of the bug, about what it added or changed then.
//
// The leak rule holds exactly: a question is asked of the commits older
// than the fix only, and every ranking builds its index over exactly
// those commits (the fix's own message and everything after it are not
// in it, not even in the term statistics). A commit's terms depend on
// that commit alone (its message, the symbols it changed, its diff), so
// this is the commit index as of the fix's parent.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/search"
)

// fixWords picks the messages that say they repair something.
var fixWords = regexp.MustCompile(`(?i)\b(fix|fixes|fixed|fixing|bug|bugs|bugfix|regression|broken|crash|crashes|crashed|panic|panics|incorrect|incorrectly|wrong)\b`)

// Most commits a fix's lines may come from to count as a question: a fix
// whose lines were written by many commits does not point at one change.
const maxIntroducers = 5

// commitQuestion is a fix and the commits that wrote the lines it
// changed. Commits are indexes into the history, newest first.
type commitQuestion struct {
	fix     int // the fix; the ranking sees only commits after it (older)
	text    string
	answers map[int]bool
	lines   int // blamed lines the answers hold
}

// commitQuestions picks the newest max fixes of x's history whose
// removed or rewritten source lines (outside test files) were written by
// 1 to maxIntroducers first-parent commits of the history.
func commitQuestions(ctx context.Context, root string, x *analysis.HistoryIndex, max int) ([]commitQuestion, int, error) {
	commits := x.H.Commits
	pos := make(map[string]int, len(commits))
	for i := range commits {
		pos[commits[i].Hash] = i
	}
	var out []commitQuestion
	fixes := 0
	for i := range commits {
		c := &commits[i]
		if c.IsMerge() || len(c.Parents) == 0 || notBehaviour.MatchString(strings.TrimSpace(c.Subject)) ||
			countWords(c.Message) < 4 || !fixWords.MatchString(c.Message) {
			continue
		}
		fixes++
		changed, err := removedLines(ctx, root, c.Parents[0], c.Hash)
		if err != nil {
			// A snapshot may lack some blobs (the history marks such
			// commits SkipMissingObjects): the fix is no question.
			logf("%s: %v: left out", root, err)
			continue
		}
		answers := map[int]bool{}
		lines := 0
		for _, f := range changed {
			blamed, err := blameLines(ctx, root, c.Parents[0], f)
			if err != nil {
				logf("%s: %v: lines left out", root, err)
				continue
			}
			for _, h := range blamed {
				if j, ok := pos[h]; ok && j > i {
					answers[j] = true
					lines++
				}
			}
		}
		if len(answers) == 0 || len(answers) > maxIntroducers {
			continue
		}
		out = append(out, commitQuestion{fix: i, text: c.Message, answers: answers, lines: lines})
		if max > 0 && len(out) == max {
			break
		}
	}
	return out, fixes, nil
}

// fileLines is a file of a fix's parent and the line ranges the fix
// removed or rewrote in it (1-based, inclusive).
type fileLines struct {
	path   string
	ranges [][2]int
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? `)

// removedLines lists the lines of parent that the diff to commit removes
// or rewrites, in source files of a language the index reads, outside
// test files.
func removedLines(ctx context.Context, root, parent, commit string) ([]fileLines, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "diff", "-U0", "--no-renames", "--no-color",
		"--no-ext-diff", "--no-textconv", parent, commit, "--").Output()
	if err != nil {
		return nil, fmt.Errorf("git diff %.12s %.12s: %w", parent, commit, err)
	}
	var files []fileLines
	var cur *fileLines
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur = nil
		case strings.HasPrefix(line, "--- "):
			cur = nil
			p, ok := strings.CutPrefix(line, "--- a/")
			if ok && !graph.IsTestPath(p) && lang.ForPath(p) != nil {
				files = append(files, fileLines{path: p})
				cur = &files[len(files)-1]
			}
		case strings.HasPrefix(line, "@@ ") && cur != nil:
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			start, _ := strconv.Atoi(m[1])
			count := 1
			if m[2] != "" {
				count, _ = strconv.Atoi(m[2])
			}
			if count > 0 {
				cur.ranges = append(cur.ranges, [2]int{start, start + count - 1})
			}
		}
	}
	return slices.DeleteFunc(files, func(f fileLines) bool { return len(f.ranges) == 0 }), sc.Err()
}

// blameLines returns, for each line of f's ranges in rev that holds a
// word (tokens: not blank, not a lone brace), the first-parent commit
// that last changed it.
func blameLines(ctx context.Context, root, rev string, f fileLines) ([]string, error) {
	args := []string{"-C", root, "blame", "--porcelain", "--first-parent"}
	for _, r := range f.ranges {
		args = append(args, "-L", fmt.Sprintf("%d,%d", r[0], r[1]))
	}
	args = append(args, rev, "--", f.path)
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("git blame %.12s %s: %w", rev, f.path, err)
	}
	var hashes []string
	var hash string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if content, ok := strings.CutPrefix(line, "\t"); ok {
			if len(tokens(content)) > 0 {
				hashes = append(hashes, hash)
			}
			continue
		}
		if len(line) > 41 && line[40] == ' ' && isHex(line[:40]) {
			hash = line[:40]
		}
	}
	return hashes, sc.Err()
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// commitRanking ranks the commits older than a question's fix.
type commitRanking struct {
	name     string
	baseline bool
	// docs are the terms of each commit of the history (index order) and
	// query tokenises a question, when the ranking is BM25 over terms.
	docs  func(c *commitEnv) ([][]string, error)
	query func(string) []string
	// recency ranks the older commits newest first, ignoring the words.
	recency bool
}

// commitEnv is one repository's history as the commit rankings read it.
type commitEnv struct {
	root string
	x    *analysis.HistoryIndex
	// lineTerms are the search.Terms of the lines each commit added or
	// removed (diffTerms), read once for the rankings that use them.
	lineTerms [][]string
}

var commitRankings = []commitRanking{
	{name: "BM25 over messages (plain baseline)", baseline: true, query: tokens,
		docs: func(c *commitEnv) ([][]string, error) {
			return termsOf(c.x, func(i int) []string { return tokens(c.x.Commit(i).Message) }), nil
		}},
	{name: "recency (newest first)", recency: true},
	{name: "semantic_search (BM25: message, changed symbols' names twice)", query: search.Terms,
		docs: func(c *commitEnv) ([][]string, error) { return c.x.CommitDocs(), nil }},
	{name: "… with the names once (before 2026-12-07)", query: search.Terms,
		docs: func(c *commitEnv) ([][]string, error) {
			return termsOf(c.x, func(i int) []string {
				t := search.Terms(c.x.Commit(i).Message)
				for _, s := range c.x.SymbolsOf(i) {
					t = append(t, search.Terms(s.Name)...)
				}
				return t
			}), nil
		}},
	{name: "… + the changed files' paths", query: search.Terms,
		docs: func(c *commitEnv) ([][]string, error) {
			return termsOf(c.x, func(i int) []string {
				t := c.x.CommitTerms(i)
				for _, f := range c.x.FilesOf(i) {
					if !graph.IsTestPath(f.Path) {
						t = append(t, search.Terms(f.Path)...)
					}
				}
				return t
			}), nil
		}},
	{name: "… + identifiers of the changed lines", query: search.Terms,
		docs: func(c *commitEnv) ([][]string, error) {
			lt, err := c.changedLineTerms()
			if err != nil {
				return nil, err
			}
			return termsOf(c.x, func(i int) []string { return append(c.x.CommitTerms(i), lt[i]...) }), nil
		}},
}

func termsOf(x *analysis.HistoryIndex, terms func(i int) []string) [][]string {
	docs := make([][]string, len(x.H.Commits))
	for i := range docs {
		docs[i] = terms(i)
	}
	return docs
}

// commitRow is one ranking's mean metrics on one repository.
type commitRow struct {
	ranking string
	m       metrics
	millis  float64
}

// commitResult is one repository's commit-search measurement.
type commitResult struct {
	repo              repo
	commits, fixes    int
	questions, blamed int
	meanAnswers       float64
	rows              []commitRow
}

// evaluateCommits asks every fix of one repository of every commit
// ranking.
func evaluateCommits(ctx context.Context, rp repo, cfg runConfig) (*commitResult, error) {
	ix, g, err := openGraph(ctx, rp.root, nil, "", 0, cfg.reuse)
	if err != nil {
		return nil, err
	}
	defer ix.r.Close()
	h := g.HistoryRecords()
	if h == nil || len(h.Commits) == 0 {
		return nil, fmt.Errorf("the index of %s has no history", rp.root)
	}
	x := analysis.NewHistoryIndex(h, g)
	start := time.Now()
	qs, fixes, err := commitQuestions(ctx, rp.root, x, cfg.maxQuestions)
	if err != nil {
		return nil, err
	}
	logf("%s: %d commit questions of %d fixes in %s", rp.name, len(qs), fixes, time.Since(start).Round(time.Millisecond))
	if len(qs) == 0 {
		return nil, fmt.Errorf("no commit questions in %s", rp.root)
	}
	res := &commitResult{repo: rp, commits: len(h.Commits), fixes: fixes, questions: len(qs)}
	for _, q := range qs {
		res.blamed += q.lines
		res.meanAnswers += float64(len(q.answers)) / float64(len(qs))
	}
	ce := &commitEnv{root: rp.root, x: x}
	for _, rk := range commitRankings {
		var docs [][]string
		if rk.docs != nil {
			if docs, err = rk.docs(ce); err != nil {
				return nil, fmt.Errorf("%s: %w", rk.name, err)
			}
		}
		rw := commitRow{ranking: rk.name}
		var took time.Duration
		for _, q := range qs {
			t0 := time.Now()
			ranked := rankCommits(rk, docs, len(h.Commits), q)
			took += time.Since(t0)
			rw.m.add(measureCommits(ranked, q.answers))
		}
		rw.m = rw.m.scale(1 / float64(len(qs)))
		rw.millis = float64(took.Microseconds()) / 1000 / float64(len(qs))
		res.rows = append(res.rows, rw)
		logf("%s: %s, %.1f ms a question", rp.name, rk.name, rw.millis)
	}
	return res, nil
}

// rankCommits ranks the commits older than q's fix, best first, to depth:
// BM25 over an index of those commits' docs alone, built for the question
// (so the fix and what came after it weigh nothing, not even in the
// terms' document frequencies), or newest first.
func rankCommits(rk commitRanking, docs [][]string, commits int, q commitQuestion) []int {
	first := q.fix + 1 // commits are newest first: the older ones follow the fix
	if rk.recency {
		var out []int
		for i := first; i < commits && len(out) < depth; i++ {
			out = append(out, i)
		}
		return out
	}
	corpus := search.NewCorpus(docs[first:])
	var out []int
	for _, s := range corpus.Search(rk.query(q.text), depth) {
		out = append(out, first+int(s.Doc))
	}
	return out
}

// measureCommits scores a ranked list of commits: R@1/5/10 and MRR to
// depth (fileR10 does not apply and stays 0).
func measureCommits(ranked []int, answers map[int]bool) metrics {
	var m metrics
	share := 1 / float64(len(answers))
	for rank, c := range ranked {
		if rank >= depth {
			break
		}
		if !answers[c] {
			continue
		}
		if m.mrr == 0 {
			m.mrr = 1 / float64(rank+1)
		}
		if rank < 1 {
			m.r1 += share
		}
		if rank < 5 {
			m.r5 += share
		}
		if rank < 10 {
			m.r10 += share
		}
	}
	return m
}

// changedLineTerms reads, in one git log pass over the first-parent
// history, the lines each commit added or removed (merges against their
// first parent) and keeps the distinct search.Terms of their identifiers,
// at most maxLineTerms a commit, in the order met.
func (c *commitEnv) changedLineTerms() ([][]string, error) {
	if c.lineTerms != nil {
		return c.lineTerms, nil
	}
	pos := make(map[string]int, len(c.x.H.Commits))
	for i := range c.x.H.Commits {
		pos[c.x.H.Commits[i].Hash] = i
	}
	out := make([][]string, len(c.x.H.Commits))
	cmd := exec.Command("git", "-C", c.root, "log", "--first-parent", "-p", "-U0", "--diff-merges=first-parent",
		"--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x1e%H", c.x.H.Commits[0].Hash, "--")
	if err := readDiffTerms(cmd, pos, out); err != nil {
		// A snapshot that lacks a blob stops the log pass: diff each
		// commit alone and leave out the ones git cannot read.
		logf("%s: %v: diffing commit by commit", c.root, err)
		clear(out)
		missing := 0
		for i := range c.x.H.Commits {
			cm := &c.x.H.Commits[i]
			cmd := exec.Command("git", "-C", c.root, "diff-tree", "-p", "-U0", "--diff-merges=first-parent", "--root",
				"--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x1e%H", cm.Hash, "--")
			one := map[string]int{cm.Hash: i}
			if err := readDiffTerms(cmd, one, out); err != nil {
				missing++
				out[i] = nil
			}
		}
		logf("%s: %d commits left without changed-line terms", c.root, missing)
	}
	c.lineTerms = out
	return out, nil
}

// readDiffTerms runs cmd, a diff of commits each headed by a line of
// \x1e and its hash, and adds to out[pos[hash]] the distinct search.Terms
// of the lines each adds or removes in source files outside tests.
func readDiffTerms(cmd *exec.Cmd, pos map[string]int, out [][]string) error {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	cur := -1
	var seen map[string]bool
	keep := true
	br := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			line = strings.TrimSuffix(line, "\n")
			switch {
			case strings.HasPrefix(line, "\x1e"):
				cur, seen = -1, map[string]bool{}
				if i, ok := pos[strings.TrimSpace(line[1:])]; ok {
					cur = i
				}
			case strings.HasPrefix(line, "diff --git "):
				keep = true
			case strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "--- "):
				p := line[4:]
				if len(p) > 2 && (p[:2] == "a/" || p[:2] == "b/") {
					p = p[2:]
					keep = !graph.IsTestPath(p) && lang.ForPath(p) != nil
				}
			case cur >= 0 && keep && line != "" && (line[0] == '+' || line[0] == '-') && len(out[cur]) < maxLineTerms:
				for _, t := range search.Terms(line[1:]) {
					if !seen[t] && len(out[cur]) < maxLineTerms {
						seen[t] = true
						out[cur] = append(out[cur], t)
					}
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			cmd.Wait()
			return err
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(cmd.Args[:min(len(cmd.Args), 6)], " "), err)
	}
	return nil
}

// maxLineTerms bounds the distinct terms a commit's changed lines give,
// so that a vendoring or generated commit does not match every question.
const maxLineTerms = 400

const commitTableHead = "| ranking | R@1 | R@5 | R@10 | MRR | questions | ms/question |\n|---|---|---|---|---|---|---|\n"

// printCommitRepo writes one repository's commit-search table.
func printCommitRepo(w io.Writer, res *commitResult) {
	rp := res.repo
	title := rp.name
	if rp.language != "" {
		title += fmt.Sprintf(" (%s, %s set)", rp.language, setName(rp.set))
	}
	fmt.Fprintf(w, "## Commit search: %s\n\n", title)
	fmt.Fprintf(w, "%d first-parent commits, %d fixes, %d questions (%d blamed lines, %.1f answers a question).\n\n",
		res.commits, res.fixes, res.questions, res.blamed, res.meanAnswers)
	fmt.Fprint(w, commitTableHead)
	for _, rw := range res.rows {
		fmt.Fprintf(w, "| %s | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n", rw.ranking, rw.m.r1, rw.m.r5, rw.m.r10, rw.m.mrr, res.questions, rw.millis)
	}
	fmt.Fprintln(w)
}

// printCommitSummary writes, for each set, the mean over its
// repositories of every commit ranking (each repository weighs the same).
func printCommitSummary(w io.Writer, results []*commitResult) {
	bySet(results, func(r *commitResult) repo { return r.repo }, func(set string, names []string, in []*commitResult) {
		fmt.Fprintf(w, "## Commit search, summary: %s set (%s), mean over %d repositories\n\n%s", setName(set), strings.Join(names, ", "), len(in), commitTableHead)
		for ri, rk := range commitRankings {
			var sum metrics
			var millis float64
			questions := 0
			for _, res := range in {
				sum.add(res.rows[ri].m)
				millis += res.rows[ri].millis
				questions += res.questions
			}
			sum = sum.scale(1 / float64(len(in)))
			fmt.Fprintf(w, "| %s | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n", rk.name, sum.r1, sum.r5, sum.r10, sum.mrr, questions, millis/float64(len(in)))
		}
		fmt.Fprintln(w)
	})
}
