package githook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/testrepo"
)

const exe = "/opt/gitnexus's/bin/gitnexus"

var existing = "#!/bin/sh\n# the team's hook\necho committed >> \"$(git rev-parse --git-dir)/team.log\"\n"

func newRepo(t *testing.T) string {
	t.Helper()
	return testrepo.New(t, filepath.Join(t.TempDir(), "r"), map[string]string{"a.go": "package a\n"})
}

func read(t *testing.T, path string) (string, os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), fi.Mode()
}

func actions(cs []Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Event+":"+c.Action)
	}
	return strings.Join(out, " ")
}

// TestInstallUninstall: hooks go where git runs them (core.hooksPath
// too), an existing hook is kept and put back byte for byte with its mode,
// installing twice changes nothing, and foreign hooks are left alone.
func TestInstallUninstall(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		hooksPath string // core.hooksPath, "" for .git/hooks
		before    map[string]string
		mode      os.FileMode
		install   string
		uninstall string
	}{
		{name: "empty", install: "post-commit:installed post-merge:installed post-checkout:installed",
			uninstall: "post-commit:removed post-merge:removed post-checkout:removed"},
		{name: "existing hook", before: map[string]string{"post-commit": existing}, mode: 0o755,
			install:   "post-commit:chained post-merge:installed post-checkout:installed",
			uninstall: "post-commit:restored post-merge:removed post-checkout:removed"},
		{name: "not executable", before: map[string]string{"post-merge": existing}, mode: 0o640,
			install:   "post-commit:installed post-merge:chained post-checkout:installed",
			uninstall: "post-commit:removed post-merge:restored post-checkout:removed"},
		{name: "hooksPath", hooksPath: ".githooks", before: map[string]string{"post-checkout": existing}, mode: 0o755,
			install:   "post-commit:installed post-merge:installed post-checkout:chained",
			uninstall: "post-commit:removed post-merge:removed post-checkout:restored"},
		{name: "absolute hooksPath", hooksPath: "ABS", install: "post-commit:installed post-merge:installed post-checkout:installed",
			uninstall: "post-commit:removed post-merge:removed post-checkout:removed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := newRepo(t)
			dir := filepath.Join(root, ".git", "hooks")
			switch c.hooksPath {
			case "":
			case "ABS":
				dir = filepath.Join(t.TempDir(), "shared-hooks")
				testrepo.Git(t, root, "config", "core.hooksPath", dir)
			default:
				dir = filepath.Join(root, c.hooksPath)
				testrepo.Git(t, root, "config", "core.hooksPath", c.hooksPath)
			}
			if got, err := Dir(ctx, root); err != nil || got != dir {
				t.Fatalf("Dir = %q, %v; want %q", got, err, dir)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for ev, body := range c.before {
				p := filepath.Join(dir, ev)
				if err := os.WriteFile(p, []byte(body), c.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(p, c.mode)
			}
			snapshot := listing(t, dir)
			changes, err := Install(ctx, root, exe)
			if err != nil || actions(changes) != c.install {
				t.Fatalf("install: %s %v; want %s", actions(changes), err, c.install)
			}
			for _, ev := range Events {
				body, mode := read(t, filepath.Join(dir, ev))
				if !strings.Contains(body, marker) || mode.Perm() != 0o755 || !strings.Contains(body, `'/opt/gitnexus'\''s/bin/gitnexus'`) {
					t.Errorf("%s hook: mode %v\n%s", ev, mode, body)
				}
				if c.before[ev] != "" {
					if saved, mode := read(t, filepath.Join(dir, ev+SavedSuffix)); saved != c.before[ev] || mode.Perm() != c.mode {
						t.Errorf("saved %s hook: %v %q", ev, mode, saved)
					}
				}
			}
			again, err := Install(ctx, root, exe)
			if err != nil || actions(again) != "post-commit:unchanged post-merge:unchanged post-checkout:unchanged" {
				t.Fatalf("second install: %s %v", actions(again), err)
			}
			changes, err = Uninstall(ctx, root)
			if err != nil || actions(changes) != c.uninstall {
				t.Fatalf("uninstall: %s %v; want %s", actions(changes), err, c.uninstall)
			}
			if after := listing(t, dir); after != snapshot {
				t.Errorf("the hooks directory after uninstall:\n%s\nbefore install:\n%s", after, snapshot)
			}
		})
	}
}

// listing is the hooks directory's files with their mode and content
// (git's *.sample files left out).
func listing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sample") {
			continue
		}
		body, mode := read(t, filepath.Join(dir, e.Name()))
		b.WriteString(e.Name() + " " + mode.String() + "\n" + body + "\n")
	}
	return b.String()
}

// TestForeignHooks: a hook that replaced gitnexus's after install is left
// alone by uninstall, and install refuses to overwrite a saved hook.
func TestForeignHooks(t *testing.T) {
	ctx := context.Background()
	root := newRepo(t)
	dir := filepath.Join(root, ".git", "hooks")
	if err := os.WriteFile(filepath.Join(dir, "post-commit"), []byte(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(ctx, root, exe); err != nil {
		t.Fatal(err)
	}
	other := "#!/bin/sh\necho replaced\n"
	if err := os.WriteFile(filepath.Join(dir, "post-commit"), []byte(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(ctx, root, exe); err == nil || !strings.Contains(err.Error(), "move one of them away") {
		t.Errorf("install over a foreign hook and a saved one: %v", err)
	}
	changes, err := Uninstall(ctx, root)
	if err != nil || actions(changes) != "post-commit:foreign post-merge:removed post-checkout:removed" {
		t.Fatalf("uninstall: %s %v", actions(changes), err)
	}
	if body, _ := read(t, filepath.Join(dir, "post-commit")); body != other {
		t.Errorf("the foreign hook was touched: %q", body)
	}
	// gitnexus's hook deleted by hand: uninstall puts the saved one back.
	os.Remove(filepath.Join(dir, "post-commit"))
	changes, err = Uninstall(ctx, root)
	if err != nil || actions(changes) != "post-commit:restored post-merge:absent post-checkout:absent" {
		t.Fatalf("uninstall after a manual delete: %s %v", actions(changes), err)
	}
	if body, _ := read(t, filepath.Join(dir, "post-commit")); body != existing {
		t.Errorf("restored hook: %q", body)
	}
}

// TestDirOutsideGit: hooks need a git repository.
func TestDirOutsideGit(t *testing.T) {
	if _, err := Install(context.Background(), t.TempDir(), exe); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("install outside git: %v", err)
	}
}
