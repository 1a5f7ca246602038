package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// historyReport is the part of analyze --json this test reads.
type historyReport struct {
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Summary *struct {
		NodesByKind map[string]int `json:"nodesByKind"`
		History     *struct {
			Commits   int  `json:"commits"`
			Reused    int  `json:"reused"`
			Read      int  `json:"read"`
			Dropped   int  `json:"dropped"`
			Rewritten bool `json:"rewritten"`
			Guarded   int  `json:"guarded"`
		} `json:"history"`
	} `json:"summary"`
}

func analyzeJSON(t *testing.T, home, root string, args ...string) historyReport {
	t.Helper()
	r := mustRun(t, home, root, append([]string{"analyze", "--json", "-q"}, args...)...)
	var rep historyReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze --json: %v\n%s", err, r.stdout)
	}
	return rep
}

// TestAnalyzeHistory drives the history flags of analyze through the
// binary: history by default, --no-history, a second analyze that reads
// only the new commit, a rewritten history, the guard, and Cypher on the
// result.
func TestAnalyzeHistory(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "hist", shop)

	rep := analyzeJSON(t, home, root, "--no-history")
	if rep.Summary.History != nil || rep.Summary.NodesByKind["Commit"] != 0 {
		t.Errorf("--no-history read the history: %+v", rep.Summary.History)
	}
	rep = analyzeJSON(t, home, root)
	if rep.Status != "indexed" || !strings.Contains(rep.Reason, "it has no git history") {
		t.Errorf("an index without history is not stale for a run with it: %s (%s)", rep.Status, rep.Reason)
	}
	if h := rep.Summary.History; h == nil || h.Commits != 1 || rep.Summary.NodesByKind["Commit"] != 1 {
		t.Fatalf("history: %+v, nodes %v", h, rep.Summary.NodesByKind)
	}

	writeFiles(t, root, map[string]string{"order/extra.go": "package order\n\nfunc Extra() {}\n"})
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "add Extra")
	rep = analyzeJSON(t, home, root)
	if h := rep.Summary.History; h.Commits != 2 || h.Read != 1 || h.Reused != 1 || h.Rewritten {
		t.Errorf("second analyze: %+v", h)
	}

	git(t, root, "commit", "-q", "--amend", "-m", "add Extra, amended")
	rep = analyzeJSON(t, home, root)
	if h := rep.Summary.History; h.Commits != 2 || h.Read != 1 || h.Reused != 1 || h.Dropped != 1 || !h.Rewritten {
		t.Errorf("after an amend: %+v", h)
	}
	r := mustRun(t, home, root, "cypher", "MATCH (c:Commit)-[r:CHANGES]->(f:Function {name: 'Extra'}) RETURN c.subject, r.changeType, r.additions")
	if !strings.Contains(r.stdout, "add Extra, amended") || !strings.Contains(r.stdout, "added") {
		t.Errorf("cypher on the history:\n%s", r.stdout)
	}

	rep = analyzeJSON(t, home, root, "--max-commit-files", "1")
	if h := rep.Summary.History; !strings.Contains(rep.Reason, "--max-commit-files") || h.Guarded != 1 || h.Reused != 0 {
		t.Errorf("another guard: %s, %+v", rep.Reason, h)
	}
	if r := run(t, home, root, "analyze", "--max-commit-files", "0"); r.code == 0 || !strings.Contains(r.stderr, "--max-commit-files") {
		t.Errorf("--max-commit-files 0: exit %d, %s", r.code, r.stderr)
	}
}
