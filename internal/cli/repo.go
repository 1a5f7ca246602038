package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/gitcmd"
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
	if isTopLevel(abs) {
		return abs, nil
	}
	if top, err := gitOutput(ctx, abs, "rev-parse", "--show-toplevel"); err == nil && top != "" {
		return filepath.Clean(top), nil
	}
	return abs, nil
}

// isTopLevel reports, without running git (a process: 7 ms of a re-index),
// the common case of a path that is a work tree's top level: it holds a
// .git directory with a HEAD, or a .git file naming one (a linked work tree
// or a submodule), and nothing moves git's idea of the work tree elsewhere
// (the environment, core.worktree or core.bare). Anything else is left to
// git rev-parse.
func isTopLevel(dir string) bool {
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		if os.Getenv(v) != "" {
			return false
		}
	}
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return false
	case fi.Mode().IsRegular():
		b, err := os.ReadFile(dotgit)
		return err == nil && strings.HasPrefix(string(b), "gitdir: ")
	case !fi.IsDir():
		return false
	}
	if head, err := os.Lstat(filepath.Join(dotgit, "HEAD")); err != nil || !head.Mode().IsRegular() {
		return false
	}
	cfg, err := os.ReadFile(filepath.Join(dotgit, "config"))
	if err != nil {
		return false
	}
	c := strings.ToLower(string(cfg))
	return !strings.Contains(c, "worktree") && !strings.Contains(c, "bare = true") && !strings.Contains(c, "bare=true")
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

// projectFiles are the files that make a directory a project's root for
// advice: a build or package file of one of the languages indexed.
var projectFiles = []string{"go.mod", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt",
	"Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "build.sbt", "Gemfile",
	"composer.json", "CMakeLists.txt", "Makefile", "meson.build", "tsconfig.json", "deno.json"}

// isProjectDir reports whether dir is worth indexing on its own: a git
// work tree's root, or a directory with a build or package file.
func isProjectDir(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		return true
	}
	for _, f := range projectFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.sln")); len(m) > 0 {
		return true
	}
	return false
}
