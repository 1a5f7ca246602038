// Package cli is the gitnexus command line: one file per command, each an
// options struct, a constructor and a run function. Results go to stdout,
// progress and diagnostics to stderr.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	// ExitAmbiguous: a tool command's name matched several symbols; the
	// answer lists them (3 is status's "stale").
	ExitAmbiguous   = 4
	ExitInterrupted = 130
)

// Build information, set with -ldflags "-X gitnexus.dev/gitnexus/internal/cli.version=..."
var (
	version   = "dev"
	commit    = ""
	buildDate = ""
)

// Version returns the program version.
func Version() string { return version }

func versionLine() string {
	c, d := commit, buildDate
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					c = s.Value
				case "vcs.time":
					if d == "" {
						d = s.Value
					}
				}
			}
		}
	}
	if c == "" {
		c = "unknown"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("gitnexus %s (commit %s, built %s)", version, c, d)
}

// IO is where a command reads and writes; tests swap it.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Getwd returns the working directory.
	Getwd func() (string, error)
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// usageError marks errors in how the command was invoked.
type usageError struct{ error }

// exitError carries a specific exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Main runs the command line with args (without the program name) and
// returns the exit code. Ctrl-C and SIGTERM cancel the running command.
func Main(args []string, stdio IO) int {
	if stdio.Getwd == nil {
		stdio.Getwd = os.Getwd
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd(&stdio)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.ErrOut)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		fmt.Fprintln(stdio.ErrOut, "gitnexus:", ee.err)
		return ee.code
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(stdio.ErrOut, "gitnexus: interrupted; nothing was changed")
		return ExitInterrupted
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stdio.ErrOut, "gitnexus:", err)
		return ExitUsage
	}
	fmt.Fprintln(stdio.ErrOut, "gitnexus:", err)
	return ExitError
}

func newRootCmd(stdio *IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "gitnexus",
		Short: "Index a git repository into a code knowledge graph for AI coding agents",
		Long: `gitnexus turns a repository into a graph of files, packages, functions, classes and
the calls, imports and inheritance between them, stored in <repo>/.gitnexus/graph.db, and
serves it to coding agents over MCP.`,
		Example: `  gitnexus analyze                  # index the repository in the current directory
  gitnexus setup                    # let the coding agents on this machine use it (MCP)
  gitnexus doctor                   # check that everything is in order
  gitnexus hook install             # re-index after every commit, merge and checkout
  gitnexus analyze --watch          # or whenever files change
  gitnexus context Server.Serve     # ask the graph yourself: callers, callees, members
  gitnexus impact ParseConfig       # what breaks if ParseConfig changes
  gitnexus completion bash > ~/.local/share/bash-completion/completions/gitnexus`,
		Version:       versionLine(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see `%s --help`)", err, c.CommandPath())}
	})
	for _, g := range commandGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
	}
	add := func(group string, cmds ...*cobra.Command) {
		for _, c := range cmds {
			c.GroupID = group
			root.AddCommand(c)
		}
	}
	add("start", newAnalyzeCmd(stdio), newSetupCmd(stdio), newDoctorCmd(stdio), newStatusCmd(stdio))
	add("serve", newMCPCmd(stdio), newServeCmd(stdio))
	var code, history []*cobra.Command
	for _, c := range newToolCmds(stdio) {
		if strings.Contains(c.Name(), "history") || strings.Contains(c.Name(), "recent") || strings.Contains(c.Name(), "commit") {
			history = append(history, c)
		} else {
			code = append(code, c)
		}
	}
	add("code", append(code, newCypherCmd(stdio))...)
	add("history", history...)
	add("index", newListCmd(stdio), newCleanCmd(stdio), newHookCmd(stdio), newExportCmd(stdio))
	add("serve", newPushCmd(stdio))
	root.SetHelpCommandGroupID("other")
	root.SetCompletionCommandGroupID("other")
	return root
}

// commandGroups order the commands in `gitnexus --help`.
var commandGroups = []struct{ id, title string }{
	{"start", "Getting started:"},
	{"serve", "Serving agents:"},
	{"code", "Questions about the code:"},
	{"history", "Questions about the history:"},
	{"index", "Indexes:"},
	{"other", "Other:"},
}

// exactArgs is cobra.RangeArgs with errors marked as usage errors.
func argsRange(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.RangeArgs(min, max)(cmd, args); err != nil {
			return usageError{fmt.Errorf("%w (see `%s --help`)", err, cmd.CommandPath())}
		}
		return nil
	}
}
