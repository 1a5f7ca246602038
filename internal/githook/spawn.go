package githook

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/store"
)

// maxLogBytes is the size past which the runner's log is moved to
// hook.log.1 before a new runner writes to it.
const maxLogBytes = 1 << 20

// repositoryEnv are the variables by which git tells a hook which
// repository, index and work tree to use (`git rev-parse --local-env-vars`).
// During a commit GIT_INDEX_FILE may name a temporary index: the runner,
// which outlives the hook, must find the repository by its directory.
var repositoryEnv = []string{"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE",
	"GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR"}

// StartRunner starts `exe args...` in root, detached from the hook (see
// detached: no signal from the terminal or from git reaches it), reading
// nothing, its output appended to .gitnexus/hook.log. It does not wait.
func StartRunner(exe string, args []string, root string) error {
	logPath := filepath.Join(store.Dir(root), LogName)
	if fi, err := os.Stat(logPath); err == nil && fi.Size() > maxLogBytes {
		_ = os.Rename(logPath, logPath+".1")
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open the hook log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = root
	cmd.Env = withoutRepositoryEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the re-indexing: %w", err)
	}
	return cmd.Process.Release()
}

func withoutRepositoryEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, r := range repositoryEnv {
			if name == r {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
