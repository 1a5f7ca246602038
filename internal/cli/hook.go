package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/githook"
	"gitnexus.dev/gitnexus/internal/store"
)

// runnerWait is how long the hook's runner waits for another analyze of the
// repository (a manual one, or the watcher's) before giving up.
const runnerWait = 10 * time.Minute

func newHookCmd(stdio *IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Install or remove the git hooks that re-index after commits, merges and checkouts",
		Long: `Keep an index fresh with git hooks: post-commit, post-merge and post-checkout scripts that start
a re-index in the background and return at once, so git is not slowed down. Requests that come
while a re-index runs are served by one more run; two never run at once. The output goes to
.gitnexus/hook.log. The re-index reads the history as the index was built (--no-history,
--all-branches, --since, --max-commits are kept).

Hooks go where git runs them: the hooks directory of the repository, or core.hooksPath when set.
A hook already there is kept as <hook>.gitnexus-saved and run first, with the same arguments and
input; its exit status stays the hook's. uninstall removes gitnexus's hooks and puts the saved ones
back as they were. Index the repository once with gitnexus analyze: the hooks only keep an
existing index fresh.`,
		Example: `  gitnexus hook install              # after gitnexus analyze made the first index
  gitnexus hook install ~/src/app
  gitnexus hook uninstall`,
	}
	cmd.AddCommand(newHookInstallCmd(stdio), newHookUninstallCmd(stdio), newHookRunCmd(stdio), newHookRunnerCmd(stdio))
	return cmd
}

func newHookInstallCmd(stdio *IO) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "install [path]",
		Short: "Install the hooks in a repository (default: the current directory)",
		Long: `Install post-commit, post-merge and post-checkout hooks that re-index the repository in the
background. Running it again updates gitnexus's hooks (e.g. after moving the binary) and leaves the
saved hooks alone.`,
		Example: "  gitnexus hook install\n  gitnexus hook install ../service --json",
		Args:    argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := repoRoot(cmd.Context(), pathArg(args))
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find the gitnexus binary for the hooks: %w", err)
			}
			if real, err := filepath.EvalSymlinks(exe); err == nil {
				exe = real
			}
			changes, err := githook.Install(cmd.Context(), root, exe)
			if perr := printHookChanges(stdio, root, changes, asJSON); err == nil {
				err = perr
			}
			if err != nil {
				return err
			}
			if !asJSON {
				if _, err := os.Stat(filepath.Join(store.Dir(root), store.DBName)); err != nil {
					fmt.Fprintln(stdio.Out, "The repository has no index yet: run `gitnexus analyze` once; the hooks keep it fresh.")
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was done as JSON")
	return cmd
}

func newHookUninstallCmd(stdio *IO) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "uninstall [path]",
		Short:   "Remove gitnexus's hooks and restore the hooks they saved",
		Example: "  gitnexus hook uninstall\n  gitnexus hook uninstall ../service",
		Args:    argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := repoRoot(cmd.Context(), pathArg(args))
			if err != nil {
				return err
			}
			changes, err := githook.Uninstall(cmd.Context(), root)
			if perr := printHookChanges(stdio, root, changes, asJSON); err == nil {
				err = perr
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was done as JSON")
	return cmd
}

// newHookRunCmd is what the hook scripts call: record the request and start
// a detached runner when none is at work. It never fails the git command.
func newHookRunCmd(stdio *IO) *cobra.Command {
	return &cobra.Command{
		Use:    "run <event> [path]",
		Short:  "Ask for a re-index in the background (called by the hooks)",
		Hidden: true,
		Args:   argsRange(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := hookRoot(cmd.Context(), stdio, args[1:])
			if err != nil {
				return err
			}
			if _, err := os.Stat(filepath.Join(store.Dir(root), store.DBName)); err != nil {
				return nil // no index to keep fresh
			}
			start, err := githook.Request(root, args[0])
			if err != nil || !start {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			return githook.StartRunner(exe, []string{"hook", "runner", root}, root)
		},
	}
}

// newHookRunnerCmd is the detached runner: it re-indexes until no request
// is pending.
func newHookRunnerCmd(stdio *IO) *cobra.Command {
	var settle time.Duration
	cmd := &cobra.Command{
		Use:    "runner [path]",
		Short:  "Serve the hooks' requests: re-index until none is pending",
		Hidden: true,
		Args:   argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := hookRoot(cmd.Context(), stdio, args)
			if err != nil {
				return err
			}
			return githook.Run(cmd.Context(), root, settle, func(ctx context.Context) error {
				return reanalyze(ctx, stdio, root, runnerWait)
			}, stdio.ErrOut)
		},
	}
	cmd.Flags().DurationVar(&settle, "settle", githook.DefaultSettle, "wait this long after the last request")
	return cmd
}

// hookRoot is the repository a hook runs for: the path given, else the
// working directory (git runs hooks at the top of the work tree).
func hookRoot(ctx context.Context, stdio *IO, args []string) (string, error) {
	if len(args) == 1 {
		return repoRoot(ctx, args[0])
	}
	wd, err := stdio.Getwd()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(store.Dir(wd), store.DBName)); err == nil {
		return wd, nil
	}
	return repoRoot(ctx, wd)
}

func pathArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return "."
}

func printHookChanges(stdio *IO, root string, changes []githook.Change, asJSON bool) error {
	if asJSON {
		if changes == nil {
			changes = []githook.Change{}
		}
		return writeJSON(stdio.Out, map[string]any{"repo": root, "hooks": changes})
	}
	for _, c := range changes {
		fmt.Fprintf(stdio.Out, "%-13s %-9s %s\n", c.Event, c.Action, c.Path)
	}
	return nil
}
