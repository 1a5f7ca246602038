package history_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
)

// scriptRepo is a repository a test builds commit by commit with the real
// git binary. Dates advance one hour per commit from a fixed start, and
// the identity is fixed, so hashes are the same on every run.
type scriptRepo struct {
	t    *testing.T
	dir  string
	tick int
}

func newScriptRepo(t *testing.T) *scriptRepo {
	t.Helper()
	r := &scriptRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

// env is the environment of every git command: no user or system
// configuration, a fixed identity, and the date of the next commit.
func (r *scriptRepo) env(extra ...string) []string {
	date := fmt.Sprintf("@%d +0100", 1700000000+3600*r.tick)
	return append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com",
		"GIT_COMMITTER_NAME=Ann Author", "GIT_COMMITTER_EMAIL=ann@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date), extra...)
}

func (r *scriptRepo) gitEnv(env []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *scriptRepo) git(args ...string) string { return r.gitEnv(r.env(), args...) }

// write sets files (path → content); an empty content deletes the file.
func (r *scriptRepo) write(files map[string]string) {
	r.t.Helper()
	for p, body := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if body == "" {
			if err := os.Remove(full); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit stages everything and commits it; it returns the new hash.
func (r *scriptRepo) commit(message string, extraEnv ...string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.gitEnv(r.env(extraEnv...), "commit", "-q", "--allow-empty", "-m", message)
	r.tick++
	return r.git("rev-parse", "HEAD")
}

// analyze runs the pipeline with the history.
func analyze(t *testing.T, root string, opt history.Options, reuse bool) *ingest.Result {
	t.Helper()
	res, err := ingest.Run(context.Background(), ingest.Options{Root: root, History: &opt, Previous: ingest.Previous{History: reuse}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// describeHistory renders a graph's history as sorted lines, commits
// named by subject: the commits with their attributes, PARENT_OF and
// REVERTS, MODIFIES and CHANGES with the attributes of their records,
// HistoricalSymbols, and the file records that have no edge (files not
// at HEAD).
func describeHistory(g *graph.Graph) string {
	h := g.History()
	if h == nil {
		return "no history\n"
	}
	subject := map[string]string{}
	for _, c := range h.Commits {
		subject[c.Hash] = c.Subject
	}
	name := func(id string) string {
		if strings.HasPrefix(id, "Commit:") {
			return fmt.Sprintf("%q", subject[graph.HashOfCommitID(id)])
		}
		return id
	}
	var lines []string
	for _, c := range h.Commits {
		var parents []string
		for _, p := range c.Parents {
			if s, ok := subject[p]; ok {
				parents = append(parents, fmt.Sprintf("%q", s))
			} else {
				parents = append(parents, "(not indexed)")
			}
		}
		line := fmt.Sprintf("commit %q parents=[%s] merge=%v", c.Subject, strings.Join(parents, " "), c.IsMerge())
		if c.SymbolsSkip != "" {
			line += " symbols-skipped=" + c.SymbolsSkip
		}
		lines = append(lines, line)
	}
	for _, e := range g.Edges() {
		if e.Type == graph.EdgeParentOf || e.Type == graph.EdgeReverts {
			lines = append(lines, fmt.Sprintf("%s %s -> %s", e.Type, name(e.Src), name(e.Dst)))
		}
	}
	edges := map[[3]string]bool{}
	for _, e := range g.Edges() {
		edges[[3]string{e.Src, e.Dst, e.Type.String()}] = true
	}
	for _, f := range h.Files {
		c := graph.CommitID(f.Commit)
		stat := fmt.Sprintf("%c +%d -%d", f.Status, f.Additions, f.Deletions)
		if f.Binary {
			stat += " binary"
		}
		if f.OldPath != "" {
			stat += " from " + f.OldPath
		}
		if f.FileID == "" {
			lines = append(lines, fmt.Sprintf("unlinked %s %s %s", name(c), f.Path, stat))
			continue
		}
		if !edges[[3]string{c, f.FileID, "MODIFIES"}] {
			stat += " (NO EDGE)"
		}
		lines = append(lines, fmt.Sprintf("MODIFIES %s -> %s %s", name(c), f.FileID, stat))
	}
	for _, s := range h.Symbols {
		c := graph.CommitID(s.Commit)
		stat := fmt.Sprintf("%s +%d -%d", s.Change, s.Additions, s.Deletions)
		if !edges[[3]string{c, s.NodeID, "CHANGES"}] {
			stat += " (NO EDGE)"
		}
		lines = append(lines, fmt.Sprintf("CHANGES %s -> %s %s", name(c), s.NodeID, stat))
	}
	for _, r := range h.Removed {
		n, _ := g.Node(r.ID)
		lines = append(lines, fmt.Sprintf("historical %s kind=%s name=%s deletedIn=%s", r.ID, r.Kind, n.Name, name(graph.CommitID(r.DeletedIn))))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}
