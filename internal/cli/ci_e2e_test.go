package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeFreshClone is the CI step: `gitnexus analyze` in a clean
// checkout made by git clone, full and shallow (--depth 1, as CI systems
// clone), with a GITNEXUS_HOME of its own; the index directory is what a
// pipeline publishes.
func TestAnalyzeFreshClone(t *testing.T) {
	origin := newRepo(t, "origin", shop)
	for i, msg := range []string{"add refund", "negate the refund"} {
		body := "package payment\n\n// Refund pays back.\nfunc Refund(c *Client, amount int) error { return c.Charge(-amount) }\n"
		if i == 1 {
			body = "package payment\n\n// Refund pays back.\nfunc Refund(c *Client, amount int) error { return c.Charge(0 - amount) }\n"
		}
		writeFiles(t, origin, map[string]string{"payment/refund.go": body})
		git(t, origin, "add", "-A")
		git(t, origin, "commit", "-q", "-m", msg)
	}
	cases := []struct {
		name    string
		args    []string
		commits int // in the history the index holds
	}{
		{"full clone", nil, 3},
		{"shallow clone", []string{"--depth", "1"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			dir := filepath.Join(t.TempDir(), "checkout")
			git(t, t.TempDir(), append(append([]string{"clone", "-q"}, c.args...), "file://"+origin, dir)...)
			rep := analyzeJSON(t, home, dir)
			if rep.Status != "indexed" || rep.Summary == nil || rep.Summary.History == nil {
				t.Fatalf("analyze in a fresh clone: %+v", rep)
			}
			if got := rep.Summary.History.Commits; got != c.commits {
				t.Errorf("history of the index: %d commits, want %d", got, c.commits)
			}
			if r := run(t, home, dir, "status"); r.code != 0 {
				t.Errorf("status right after analyze: %d\n%s", r.code, r.stdout)
			}
			r := mustRun(t, home, dir, "get-symbol-history", "Refund")
			if !strings.Contains(r.stdout, "negate the refund") {
				t.Errorf("the latest commit is not in Refund's history:\n%s", r.stdout)
			}
			if strings.Contains(r.stdout, "add refund") != (c.commits == 3) {
				t.Errorf("the first commit of Refund in a %s:\n%s", c.name, r.stdout)
			}
			// What a pipeline publishes: the index directory, ignored by git.
			for _, f := range []string{"graph.db", "meta.json"} {
				if _, err := os.Stat(filepath.Join(dir, ".gitnexus", f)); err != nil {
					t.Errorf("artifact %s: %v", f, err)
				}
			}
			if code, out := gitIn(t, home, dir, "status", "--porcelain"); code != 0 || out != "" {
				t.Errorf("analyze left the checkout dirty:\n%s", out)
			}
		})
	}
}
