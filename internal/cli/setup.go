package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/agentsetup"
	"gitnexus.dev/gitnexus/internal/registry"
)

type setupOptions struct {
	io        *IO
	agents    []string
	dryRun    bool
	uninstall bool
	skills    bool
	repo      string
}

func newSetupCmd(stdio *IO) *cobra.Command {
	o := &setupOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Register gitnexus with your coding agents (MCP); --skills adds guides to a repository",
		Long: `Register this gitnexus binary (by its absolute path, with the argument mcp) in the MCP
configuration of coding agents:

  claude-code  ~/.claude.json, mcpServers ($CLAUDE_CONFIG_DIR/.claude.json when set)
  cursor       ~/.cursor/mcp.json, mcpServers
  codex        ~/.codex/config.toml, [mcp_servers.gitnexus] ($CODEX_HOME when set)
  opencode     ~/.config/opencode/opencode.json or .jsonc, mcp ($XDG_CONFIG_HOME when set)
  gemini       ~/.gemini/settings.json, mcpServers

Without --agent, the agents found on this machine (their file or directory exists). Only the
gitnexus entry is written: the rest of each file, its comments and its formatting stay as they
are, and the file is copied to $GITNEXUS_HOME/backups first. Running setup again changes nothing
unless the binary moved. --uninstall takes out exactly what setup added (a file nothing else
changed since is restored byte for byte, a file setup created is deleted), and the skills and
AGENTS.md blocks it wrote into repositories.

--skills also writes task guides (exploring code, impact before editing, debugging a flow, safe
rename, history questions) into .claude/skills/ and .agents/skills/ of the repository in the
current directory or --repo. Nothing is written into a repository without --skills.`,
		Example: `  gitnexus setup                          # the agents found on this machine
  gitnexus setup --agent claude-code --agent codex
  gitnexus setup --agent all --dry-run    # show what would change in every agent's file
  gitnexus setup --skills --repo ~/src/app
  gitnexus setup --uninstall`,
		Args: argsRange(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.skills = o.skills || cmd.Flags().Changed("repo") && !o.uninstall
			return runSetup(cmd.Context(), o, cmd.Flags().Changed("repo"))
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.agents, "agent", nil, "agent to set up: "+strings.Join(agentsetup.AgentNames(), ", ")+" or all (repeat or separate with commas)")
	f.BoolVar(&o.dryRun, "dry-run", false, "show what would change, write nothing")
	f.BoolVar(&o.uninstall, "uninstall", false, "remove what setup added")
	f.BoolVar(&o.skills, "skills", false, "also write the skills into the repository (current directory or --repo)")
	f.StringVar(&o.repo, "repo", ".", "the repository for the skills (implies --skills; with --uninstall, cleaned besides those setup recorded)")
	return cmd
}

func runSetup(ctx context.Context, o *setupOptions, repoGiven bool) error {
	env, err := agentsetup.OSEnv()
	if err != nil {
		return err
	}
	home, err := registry.Home()
	if err != nil {
		return err
	}
	opts := agentsetup.Options{Env: env, Home: home, DryRun: o.dryRun}
	if o.uninstall {
		return runUninstall(ctx, o, opts, repoGiven)
	}
	if opts.Binary, err = executablePath(); err != nil {
		return err
	}
	if strings.Contains(opts.Binary, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(o.io.ErrOut, "warning: %s is a temporary build; install gitnexus (make build, go install) and run setup from there\n", opts.Binary)
	}
	agents, err := agentsetup.SelectAgents(o.agents, env)
	if err != nil {
		return usageError{err}
	}
	if len(agents) == 0 && !o.skills {
		return fmt.Errorf("no coding agent found in %s (none of ~/.claude.json, ~/.cursor, ~/.codex, ~/.config/opencode, ~/.gemini exists): name one with --agent %s or all",
			env.Home, strings.Join(agentsetup.AgentNames(), "|"))
	}
	changes, err := agentsetup.InstallMCP(opts, agents)
	if err != nil {
		return err
	}
	if o.skills {
		root, err := repoRoot(ctx, o.repo)
		if err != nil {
			return err
		}
		more, err := agentsetup.InstallSkills(opts, root)
		if err != nil {
			return err
		}
		changes = append(changes, more...)
	}
	if err := printChanges(o.io.Out, changes, o.dryRun); err != nil {
		return err
	}
	if len(agents) > 0 && !o.dryRun {
		fmt.Fprintf(o.io.Out, "\nThe agents start %s mcp; restart them to pick it up.\n", opts.Binary)
	}
	if entries, err := registry.List(); err == nil && len(entries) == 0 {
		fmt.Fprintln(o.io.Out, "No repository is indexed yet: run `gitnexus analyze` in one, and the agents can query it.")
	}
	return setupFailures(changes)
}

func runUninstall(ctx context.Context, o *setupOptions, opts agentsetup.Options, repoGiven bool) error {
	agents := agentsetup.Agents
	if len(o.agents) > 0 {
		var err error
		if agents, err = agentsetup.SelectAgents(o.agents, opts.Env); err != nil {
			return usageError{err}
		}
	}
	changes, err := agentsetup.UninstallMCP(opts, agents)
	if err != nil {
		return err
	}
	// Repositories: all that setup recorded, unless --agent narrowed the
	// uninstall to agents; and the one named.
	var repos []string
	if len(o.agents) == 0 || o.skills || repoGiven {
		if len(o.agents) == 0 {
			if repos, err = agentsetup.RecordedRepos(opts); err != nil {
				return err
			}
		}
		if o.skills || repoGiven {
			root, err := repoRoot(ctx, o.repo)
			if err != nil {
				return err
			}
			repos = appendUnique(repos, root)
		}
	}
	for _, repo := range repos {
		more, err := agentsetup.UninstallRepo(opts, repo)
		if err != nil {
			return err
		}
		changes = append(changes, more...)
	}
	if err := printChanges(o.io.Out, changes, o.dryRun); err != nil {
		return err
	}
	return setupFailures(changes)
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// executablePath is the absolute path of the running binary, symbolic
// links resolved.
func executablePath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the gitnexus binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Abs(p)
}

var actionWords = map[agentsetup.Action][2]string{
	agentsetup.Created:   {"created", "would create"},
	agentsetup.Added:     {"added", "would add"},
	agentsetup.Updated:   {"updated", "would update"},
	agentsetup.Unchanged: {"unchanged", "unchanged"},
	agentsetup.Removed:   {"removed", "would remove"},
	agentsetup.Deleted:   {"deleted", "would delete"},
	agentsetup.Absent:    {"not there", "not there"},
	agentsetup.Kept:      {"left alone", "would leave alone"},
	agentsetup.Failed:    {"FAILED", "FAILED"},
}

// printChanges writes one line per file, then (on a dry run) the lines
// each change would write.
func printChanges(w io.Writer, changes []agentsetup.Change, dryRun bool) error {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	mode := 0
	if dryRun {
		mode = 1
	}
	for _, c := range changes {
		note := c.Note
		if c.Err != nil {
			note = c.Err.Error()
		}
		if c.Backup != "" {
			note = strings.TrimPrefix(note+"; backup "+c.Backup, "; ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s", c.What, actionWords[c.Action][mode], c.Path)
		if note != "" {
			fmt.Fprintf(tw, "\t%s", note)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range changes {
		if c.Diff != "" {
			fmt.Fprintf(w, "\n%s %s:\n%s", actionWords[c.Action][mode], c.Path, indent(c.Diff, "    "))
		}
	}
	if dryRun {
		fmt.Fprintln(w, "\nDry run: nothing was written.")
	}
	return nil
}

func indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}

// setupFailures turns failed files into the command's error.
func setupFailures(changes []agentsetup.Change) error {
	var failed []string
	for _, c := range changes {
		if c.Action == agentsetup.Failed {
			failed = append(failed, c.Path)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return errors.New("could not change " + strings.Join(failed, ", ") + " (see above); the other files are done")
}
