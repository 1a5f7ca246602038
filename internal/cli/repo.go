package cli

import (
	"context"
	"errors"
	"fmt"
	"gitnexus.dev/gitnexus/internal/gitcmd"
	"os"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/freshness"
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
type gitState = freshness.GitState

func readGitState(ctx context.Context, root string) gitState {
	return freshness.ReadGitState(ctx, root)
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitcmd.Output(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

func shortHash(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
