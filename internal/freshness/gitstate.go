package freshness

import (
	"bytes"
	"context"
	"gitnexus.dev/gitnexus/internal/gitcmd"
	"strings"
)

// GitState is what git says about a work tree.
type GitState struct {
	Git    bool   // the directory is a git work tree
	Commit string // HEAD, "" when there are no commits
	Branch string // "" when HEAD is detached
	Dirty  bool
	// Changed are the paths git reports as modified, added, deleted,
	// renamed, unmerged or untracked (not ignored), relative to the root.
	Changed []string
	// Untracked are those of them that are untracked: with the files git
	// tracks, every file an analysis lists (repofiles.StartListing).
	Untracked []string
}

// ReadGitState asks git about the work tree at root with one `git status`
// (HEAD, branch and changed paths in the porcelain v2 format). It takes no
// optional lock, so a check running in the background never makes a
// user's git command fail on index.lock.
func ReadGitState(ctx context.Context, root string) GitState {
	out, err := gitcmd.Output(ctx, root, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
	if err != nil {
		return GitState{} // not a work tree (or git cannot read it)
	}
	return parseStatus(out)
}

// parseStatus reads `git status --porcelain=v2 --branch -z`.
func parseStatus(out []byte) GitState {
	gs := GitState{Git: true}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		line := string(fields[i])
		if line == "" {
			continue
		}
		var path string
		switch line[0] {
		case '#':
			if oid, ok := strings.CutPrefix(line, "# branch.oid "); ok && oid != "(initial)" {
				gs.Commit = oid
			}
			if head, ok := strings.CutPrefix(line, "# branch.head "); ok && head != "(detached)" {
				gs.Branch = head
			}
			continue
		case '1': // 1 XY sub mH mI mW hH hI path
			path = nthField(line, 8)
		case '2': // 2 XY sub mH mI mW hH hI Xscore path, then the original path
			path = nthField(line, 9)
			i++
		case 'u': // u XY sub m1 m2 m3 mW h1 h2 h3 path
			path = nthField(line, 10)
		case '?': // ? path
			path = nthField(line, 1)
			if path != "" {
				gs.Untracked = append(gs.Untracked, path)
			}
		default:
			continue
		}
		if path != "" {
			gs.Changed = append(gs.Changed, path)
		}
	}
	gs.Dirty = len(gs.Changed) > 0
	return gs
}

// nthField returns what follows the first n space-separated fields of line
// (a path, which may itself hold spaces).
func nthField(line string, n int) string {
	parts := strings.SplitN(line, " ", n+1)
	if len(parts) <= n {
		return ""
	}
	return parts[n]
}
