package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeverAnswersForTheWrongRepository: in a git repository that is not
// indexed, every command that needs an index refuses, although another
// repository is indexed (and is the only one); named by a relative path,
// that other repository answers, and its answers name it.
func TestNeverAnswersForTheWrongRepository(t *testing.T) {
	home := t.TempDir()
	indexed := newRepo(t, "shop", shop)
	mustRun(t, home, indexed, "analyze", "-q")
	other := filepath.Join(filepath.Dir(indexed), "other")
	writeFiles(t, other, map[string]string{"go.mod": "module example.com/other\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc validate() {}\n\nfunc main() { validate() }\n"})
	git(t, other, "init", "-q", "-b", "main")
	git(t, other, "add", "-A")
	git(t, other, "commit", "-q", "-m", "initial")
	os.WriteFile(filepath.Join(other, "main.go"), []byte("package main\n\nfunc validate() { _ = 1 }\n\nfunc main() { validate() }\n"), 0o644)

	for _, args := range [][]string{
		{"detect-changes"},
		{"context", "validate"},
		{"impact", "validate"},
		{"query", "validate"},
		{"cypher", "MATCH (n) RETURN count(n)"},
		{"callers", "validate"},
		{"get-symbol-history", "validate"},
		{"context", "validate", "--json"},
	} {
		r := run(t, home, other, args...)
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "This repository ("+other+") is not indexed: run `gitnexus analyze "+other+"`") {
			t.Errorf("%v in an unindexed repository: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "Repository: shop") || strings.Contains(r.stdout, `"repo": "shop"`) || strings.Contains(r.stdout, "order/order.go") {
			t.Errorf("%v answered for the indexed repository:\n%s", args, r.stdout)
		}
	}
	// Named, by a relative path: answered, and the answer says for which.
	r := mustRun(t, home, other, "context", "validate", "--repo", "../shop")
	if !strings.HasPrefix(r.stdout, "Repository: shop\n") {
		t.Errorf("the answer does not name its repository:\n%s", r.stdout)
	}
	r = mustRun(t, home, filepath.Join(other, "."), "context", "validate", "--repo", "../shop", "--json")
	var ans struct {
		Index struct{ Repo, RepoPath string } `json:"index"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || ans.Index.Repo != "shop" || ans.Index.RepoPath != indexed {
		t.Errorf("--json does not name the repository (%v): %s", err, r.stdout)
	}
	// Outside any repository: status does not advise indexing the directory.
	plain := t.TempDir()
	r = run(t, home, plain, "status")
	if r.code == 0 || strings.Contains(r.stderr, "gitnexus analyze "+plain) || !strings.Contains(r.stderr, "is not a git repository or a project directory") {
		t.Errorf("status outside a repository: exit %d: %s", r.code, r.stderr)
	}
}

// TestToolCommandExitCodes: scripts tell an ambiguous name (exit 4, the
// candidates listed) from an answer and from an error; under --json an
// error is one JSON object on stdout.
func TestToolCommandExitCodes(t *testing.T) {
	home, root := shopWithTwoValidates(t)
	if r := run(t, home, root, "context", "validate"); r.code != 4 || !strings.Contains(r.stdout, "is ambiguous") {
		t.Errorf("ambiguous name: exit %d\n%s", r.code, r.stdout)
	}
	r := run(t, home, root, "context", "validate", "--json")
	var amb struct {
		Candidates []struct{ UID string } `json:"candidates"`
	}
	if r.code != 4 || json.Unmarshal([]byte(r.stdout), &amb) != nil || len(amb.Candidates) < 2 {
		t.Errorf("ambiguous name, --json: exit %d\n%s", r.code, r.stdout)
	}
	r = run(t, home, root, "context", "Nowhere", "--json")
	var e struct{ Error string }
	if r.code != 1 || json.Unmarshal([]byte(r.stdout), &e) != nil || !strings.Contains(e.Error, `no symbol "Nowhere"`) {
		t.Errorf("unknown name, --json: exit %d\nstdout: %s", r.code, r.stdout)
	}
	r = run(t, home, root, "impact", "Charge", "--max-depth", "99", "--json")
	if r.code != 2 || json.Unmarshal([]byte(r.stdout), &e) != nil || !strings.Contains(e.Error, "--max-depth") {
		t.Errorf("bad flag value, --json: exit %d\nstdout: %s", r.code, r.stdout)
	}
	if r := mustRun(t, home, root, "context", "Charge"); !strings.HasPrefix(r.stdout, "Repository: shop\n") {
		t.Errorf("an answer: %s", r.stdout)
	}
}

// TestHintsSpeakCLI: on the command line the next step names commands
// and flags, never a tool parameter.
func TestHintsSpeakCLI(t *testing.T) {
	home, root := shopWithTwoValidates(t)
	cases := []struct {
		args []string
		next string
	}{
		{[]string{"context", "validate"},
			"Next: run the command again with `--uid` set to one of the candidates (or narrow with `--file-path` or `--kind`).\n"},
		{[]string{"context", "Charge"}, "Next: run `gitnexus impact --target-uid Method:payment/payment.go:Client.Charge` before changing it.\n"},
		{[]string{"rename", "Charge", "Bill"}, "Next: review the edits, then run the command again with `--dry-run=false`.\n"},
		{[]string{"overview"}, "Next: run `gitnexus query` with words for a concept, or run `gitnexus context` on an entry point.\n"},
		{[]string{"trace", "Client.Charge", "main"}, "Next: run `gitnexus trace --from-uid Function:"},
		{[]string{"trace", "main", "validate"}, "Next: run the command again with `--to-uid` set to one of the candidates (or narrow with `--to-file`).\n"},
	}
	for _, c := range cases {
		r := run(t, home, root, c.args...)
		if !strings.Contains(r.stdout, c.next) {
			t.Errorf("%v: want %q in\n%s", c.args, c.next, r.stdout)
		}
		for _, mcp := range []string{"target_uid", "file_path", "dry_run", "Next: call", ", or call", "then call"} {
			if strings.Contains(r.stdout, mcp) {
				t.Errorf("%v: names %q:\n%s", c.args, mcp, r.stdout)
			}
		}
	}
	if r := run(t, home, root, "context"); r.code != 2 || !strings.Contains(r.stderr, "give `--name` (a symbol name) or `--uid` (an exact id)") {
		t.Errorf("context without a name: exit %d: %s", r.code, r.stderr)
	}
}

// shopWithTwoValidates is the shop fixture with a second function named
// validate (in order/), indexed in a new home.
func shopWithTwoValidates(t *testing.T) (home, root string) {
	t.Helper()
	home = t.TempDir()
	files := map[string]string{"order/check.go": "package order\n\nfunc validate(x int) bool { return x > 0 }\n"}
	for k, v := range shop {
		files[k] = v
	}
	root = newRepo(t, "shop", files)
	mustRun(t, home, root, "analyze", "-q")
	return home, root
}

// TestIndexIsAnalyze: the seed documents' `gitnexus index --repo R --full`
// is analyze R --force; --language is refused with the right form.
func TestIndexIsAnalyze(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	r := mustRun(t, home, t.TempDir(), "index", "--repo", root, "--full", "-q", "--json")
	if !strings.Contains(r.stdout, `"status": "indexed"`) || !strings.Contains(r.stdout, `"reason": "--force"`) {
		t.Errorf("index --repo --full: %s", r.stdout)
	}
	if r := run(t, home, root, "index", "--language", "go"); r.code != 2 || !strings.Contains(r.stderr, "every supported language is indexed in one run; run `gitnexus analyze .`") {
		t.Errorf("index --language: exit %d: %s", r.code, r.stderr)
	}
	if r := run(t, home, root, "index", root, "--repo", root); r.code != 2 || !strings.Contains(r.stderr, "not both") {
		t.Errorf("index <path> --repo: exit %d: %s", r.code, r.stderr)
	}
}

// TestListFlagsAMissingIndex: an index deleted by hand is flagged by list,
// with what to do, in text and JSON.
func TestListFlagsAMissingIndex(t *testing.T) {
	home := t.TempDir()
	root := newRepo(t, "shop", shop)
	mustRun(t, home, root, "analyze", "-q")
	if err := os.Remove(filepath.Join(root, ".gitnexus", "graph.db")); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, home, root, "list")
	if !strings.Contains(r.stdout, "index missing") || !strings.Contains(r.stdout, "run `gitnexus analyze "+root+"`, or `gitnexus clean "+root+"` to forget it") {
		t.Errorf("list:\n%s", r.stdout)
	}
	if r := mustRun(t, home, root, "list", "--json"); !strings.Contains(r.stdout, `"indexMissing": true`) || !strings.Contains(r.stdout, `"storagePath"`) {
		t.Errorf("list --json:\n%s", r.stdout)
	}
}
