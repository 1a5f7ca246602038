package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// gitIn runs git in dir as a user whose gitnexus home is home (the hooks
// git runs inherit it), and returns its exit status and output.
func gitIn(t *testing.T, home, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITNEXUS_HOME="+home, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return 0, out.String()
}

// eventually polls cond every 100 ms for up to 30 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitRunnerIdle waits until no hook runner works on repo (its lock is
// free and no request is pending), so that the test's directories can go.
func waitRunnerIdle(t *testing.T, repo string) {
	t.Helper()
	dir := filepath.Join(repo, ".gitnexus")
	eventually(t, "the hook runner is still at work", func() bool {
		if _, err := os.Stat(filepath.Join(dir, "hook.pending")); err == nil {
			return false
		}
		lock := flock.New(filepath.Join(dir, "hook.lock"), flock.SetFlag(os.O_RDWR|os.O_CREATE), flock.SetPermissions(0o644))
		if ok, err := lock.TryLock(); err != nil || !ok {
			return false
		}
		lock.Unlock()
		return true
	})
}

// TestHookKeepsIndexFresh: with the hooks installed, a commit is indexed
// in the background, the team's own hooks still run (and post-checkout's
// failure is still git's), and uninstall puts them back byte for byte.
func TestHookKeepsIndexFresh(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "hooked", shop)
	hooks := filepath.Join(repo, ".git", "hooks")
	team := map[string]string{
		"post-commit":   "#!/bin/sh\necho \"team post-commit $*\" >> \"$(git rev-parse --git-dir)/team.log\"\n",
		"post-checkout": "#!/bin/sh\necho \"team post-checkout $3\" >> \"$(git rev-parse --git-dir)/team.log\"\nexit 3\n",
	}
	for name, body := range team {
		if err := os.WriteFile(filepath.Join(hooks, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, home, repo, "analyze", "-q")
	r := mustRun(t, home, repo, "hook", "install")
	for _, want := range []string{"post-commit   chained", "post-merge    installed", "post-checkout chained"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("install output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := mustRun(t, home, repo, "hook", "install"); strings.Count(r.stdout, "unchanged") != 3 {
		t.Errorf("second install:\n%s", r.stdout)
	}

	writeFiles(t, repo, map[string]string{"payment/refund.go": "package payment\n\n// Refund pays back.\nfunc Refund(c *Client, amount int) error { return c.Charge(-amount) }\n"})
	git(t, repo, "add", "-A")
	if code, out := gitIn(t, home, repo, "commit", "-q", "-m", "refund"); code != 0 {
		t.Fatalf("commit: %d %s", code, out)
	}
	eventually(t, "the commit was not indexed", func() bool {
		r := run(t, home, repo, "find-symbol", "Refund")
		return r.code == 0 && strings.Contains(r.stdout, "payment/refund.go")
	})
	waitRunnerIdle(t, repo)
	if r := run(t, home, repo, "status"); r.code != 0 {
		t.Errorf("status after the hook's re-index: %d\n%s", r.code, r.stdout)
	}
	log, err := os.ReadFile(filepath.Join(repo, ".gitnexus", "hook.log"))
	if err != nil || !strings.Contains(string(log), "re-indexing (last request:") || !strings.Contains(string(log), "post-commit") {
		t.Errorf("hook.log: %v\n%s", err, log)
	}

	code, out := gitIn(t, home, repo, "checkout", "-q", "-b", "feature")
	if code == 0 { // git turns the hook's failure into its own (exit 1)
		t.Errorf("git checkout with a post-checkout hook exiting 3 succeeded\n%s", out)
	}
	waitRunnerIdle(t, repo)
	teamLog, _ := os.ReadFile(filepath.Join(repo, ".git", "team.log"))
	if !strings.Contains(string(teamLog), "team post-commit \n") || !strings.Contains(string(teamLog), "team post-checkout 1") {
		t.Errorf("the team's hooks did not run as before:\n%s", teamLog)
	}

	mustRun(t, home, repo, "hook", "uninstall")
	entries, err := os.ReadDir(hooks)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sample") {
			left = append(left, e.Name())
		}
	}
	if strings.Join(left, " ") != "post-checkout post-commit" {
		t.Errorf("hooks after uninstall: %v", left)
	}
	for name, body := range team {
		b, err := os.ReadFile(filepath.Join(hooks, name))
		fi, _ := os.Stat(filepath.Join(hooks, name))
		if err != nil || string(b) != body || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s after uninstall: %v %v %q", name, err, fi.Mode(), b)
		}
	}
}

// TestHookWithoutIndex: a hook in a repository with no index does nothing
// and never fails the commit.
func TestHookWithoutIndex(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, "plain", shop)
	r := mustRun(t, home, repo, "hook", "install")
	if !strings.Contains(r.stdout, "no index yet") {
		t.Errorf("install without an index says nothing about it:\n%s", r.stdout)
	}
	writeFiles(t, repo, map[string]string{"README.md": "# changed\n"})
	if code, out := gitIn(t, home, repo, "commit", "-q", "-am", "readme"); code != 0 {
		t.Fatalf("commit: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(repo, ".gitnexus")); !os.IsNotExist(err) {
		t.Errorf("the hook made an index directory: %v", err)
	}
}
