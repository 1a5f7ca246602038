// Package githook installs and removes the git hooks that keep an index
// fresh: post-commit, post-merge and post-checkout scripts that ask gitnexus
// to re-index in the background, after running the hook that was there
// before (kept beside it and restored as it was on removal), and the
// runner that does the re-indexing one run at a time.
package githook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Events are the hooks installed: after a commit, a merge (pull) and a
// checkout (branch switch).
var Events = []string{"post-commit", "post-merge", "post-checkout"}

// marker identifies a hook script written by gitnexus.
const marker = "# gitnexus hook: re-index in the background"

// SavedSuffix names the copy of the hook that was in place before
// gitnexus's (post-commit.gitnexus-saved); gitnexus's hook runs it first.
const SavedSuffix = ".gitnexus-saved"

// Dir is the hooks directory git uses for the repository at root: the
// hooks folder of its git directory, or core.hooksPath when set.
func Dir(ctx context.Context, root string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--git-path", "hooks")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s is not a git repository (git rev-parse: %s): hooks need git", root, strings.TrimSpace(stderr.String()))
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return filepath.Clean(dir), nil
}

// script is the hook for event: run the saved hook with the same
// arguments, ask exe to re-index in the background, and exit with the
// saved hook's status (post-checkout's status is git checkout's).
func script(event, exe string) string {
	return `#!/bin/sh
` + marker + ` after ` + event + `.
# Installed by ` + "`gitnexus hook install`" + `; ` + "`gitnexus hook uninstall`" + ` removes it and puts back
# the hook that was here before, kept meanwhile as ` + event + SavedSuffix + `.
status=0
saved="$(dirname "$0")/` + event + SavedSuffix + `"
if [ -x "$saved" ]; then
	"$saved" "$@" || status=$?
fi
gitnexus=` + shellQuote(exe) + `
[ -x "$gitnexus" ] || gitnexus=gitnexus
"$gitnexus" hook run ` + event + ` </dev/null >/dev/null 2>&1 || true
exit $status
`
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isOurs reports whether the file at path is a hook gitnexus wrote.
func isOurs(path string) (bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	return bytes.Contains(b, []byte(marker)), nil
}

// Change is what Install or Uninstall did to one hook.
type Change struct {
	Event string `json:"event"`
	Path  string `json:"path"`
	// Action: installed, chained (installed, running the hook that was
	// there first), updated, unchanged, removed, restored, absent, or
	// foreign (a hook gitnexus did not write, left alone).
	Action string `json:"action"`
}

// Install writes gitnexus's hooks into the repository's hooks directory,
// calling exe (an absolute path; "gitnexus" on the PATH when it is gone).
// An existing hook is renamed to <event>.gitnexus-saved and run first.
// Installing again only rewrites gitnexus's own scripts.
func Install(ctx context.Context, root, exe string) ([]Change, error) {
	dir, err := Dir(ctx, root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the hooks directory: %w", err)
	}
	var changes []Change
	for _, ev := range Events {
		path := filepath.Join(dir, ev)
		saved := path + SavedSuffix
		body := script(ev, exe)
		action := "installed"
		_, err := os.Lstat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return changes, fmt.Errorf("read the %s hook: %w", ev, err)
		default:
			ours, err := isOurs(path)
			if err != nil && !errors.Is(err, os.ErrNotExist) { // a dangling symlink is not ours
				return changes, fmt.Errorf("read the %s hook: %w", ev, err)
			}
			if ours {
				old, _ := os.ReadFile(path)
				action = "updated"
				if string(old) == body {
					changes = append(changes, Change{ev, path, "unchanged"})
					continue
				}
				break
			}
			if _, err := os.Lstat(saved); err == nil {
				return changes, fmt.Errorf("both %s and %s exist and neither is gitnexus's hook: move one of them away, then install again", path, saved)
			}
			if err := os.Rename(path, saved); err != nil {
				return changes, fmt.Errorf("keep the existing %s hook: %w", ev, err)
			}
			action = "chained"
		}
		if err := writeExecutable(path, body); err != nil {
			return changes, fmt.Errorf("write the %s hook: %w", ev, err)
		}
		changes = append(changes, Change{ev, path, action})
	}
	return changes, nil
}

// Uninstall removes gitnexus's hooks and puts back the hooks they saved,
// byte for byte. Hooks gitnexus did not write are left alone.
func Uninstall(ctx context.Context, root string) ([]Change, error) {
	dir, err := Dir(ctx, root)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, ev := range Events {
		path := filepath.Join(dir, ev)
		saved := path + SavedSuffix
		ours, err := isOurs(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			action := "absent"
			if _, err := os.Lstat(saved); err == nil { // gitnexus's hook was deleted by hand
				if err := os.Rename(saved, path); err != nil {
					return changes, fmt.Errorf("restore the %s hook from %s: %w", ev, saved, err)
				}
				action = "restored"
			}
			changes = append(changes, Change{ev, path, action})
			continue
		case err != nil:
			return changes, fmt.Errorf("read the %s hook: %w", ev, err)
		case !ours:
			changes = append(changes, Change{ev, path, "foreign"})
			continue
		}
		if err := os.Remove(path); err != nil {
			return changes, fmt.Errorf("remove the %s hook: %w", ev, err)
		}
		action := "removed"
		if _, err := os.Lstat(saved); err == nil {
			if err := os.Rename(saved, path); err != nil {
				return changes, fmt.Errorf("restore the %s hook from %s: %w", ev, saved, err)
			}
			action = "restored"
		}
		changes = append(changes, Change{ev, path, action})
	}
	return changes, nil
}

// writeExecutable replaces path with an executable file holding body,
// through a temporary file renamed into place.
func writeExecutable(path, body string) error {
	tmp := path + ".gitnexus-tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // whatever the umask
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
