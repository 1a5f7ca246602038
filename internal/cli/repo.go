package cli

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

// repoRoot turns a path the user gave into the root of the repository to
// index: the git work tree's top level when the path is inside one,
// otherwise the directory itself.
func repoRoot(ctx context.Context, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("%s does not exist: give the path of a repository", abs)
	case err != nil:
		return "", fmt.Errorf("cannot read %s: %w", abs, err)
	case !fi.IsDir():
		return "", fmt.Errorf("%s is a file, not a directory: give the path of a repository", abs)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if top, err := gitOutput(ctx, abs, "rev-parse", "--show-toplevel"); err == nil && top != "" {
		return filepath.Clean(top), nil
	}
	return abs, nil
}

// gitState is what git says about a work tree.
type gitState struct {
	Git    bool   // the directory is a git work tree
	Commit string // HEAD, "" when there are no commits
	Branch string
	Dirty  bool
	// Changed are the paths git reports as modified, added, deleted or
	// untracked (not ignored), relative to the root.
	Changed []string
}

func readGitState(ctx context.Context, root string) gitState {
	var gs gitState
	if _, err := gitOutput(ctx, root, "rev-parse", "--is-inside-work-tree"); err != nil {
		return gs
	}
	gs.Git = true
	gs.Commit, _ = gitOutput(ctx, root, "rev-parse", "--verify", "-q", "HEAD")
	gs.Branch, _ = gitOutput(ctx, root, "symbolic-ref", "--short", "-q", "HEAD")
	out, err := gitRaw(ctx, root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err == nil {
		entries := bytes.Split(out, []byte{0})
		for i := 0; i < len(entries); i++ {
			e := entries[i]
			if len(e) < 4 {
				continue
			}
			status, path := string(e[:2]), string(e[3:])
			if status[0] == 'R' || status[0] == 'C' {
				i++ // the original path follows a rename or copy
			}
			gs.Changed = append(gs.Changed, path)
		}
		gs.Dirty = len(gs.Changed) > 0
	}
	return gs
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitRaw(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

func gitRaw(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func shortHash(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
