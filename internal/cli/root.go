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
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
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
the calls, imports and inheritance between them, stored in <repo>/.gitnexus/graph.db.`,
		Example: `  gitnexus analyze                 # index the repository in the current directory
  gitnexus analyze ~/src/app --json
  gitnexus analyze --watch          # and again whenever files change
  gitnexus hook install             # re-index after every commit, merge and checkout
  gitnexus callers ParseConfig      # who calls ParseConfig?
  gitnexus callees Server.Serve --depth 2
  gitnexus get-callers-of Server.Serve --depth 2   # by depth, with call lines, modules, tests marked
  gitnexus get-module-dependencies internal/store  # what it imports and calls, what imports and calls it
  gitnexus cypher "MATCH (f:Function)<-[:CALLS]-(c) RETURN f.name, count(c) ORDER BY count(c) DESC LIMIT 10"
  gitnexus list                     # indexed repositories
  gitnexus status                   # is the index fresh?`,
		Version:       versionLine(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see `%s --help`)", err, c.CommandPath())}
	})
	root.AddCommand(
		newAnalyzeCmd(stdio),
		newListCmd(stdio),
		newStatusCmd(stdio),
		newCleanCmd(stdio),
		newTraceCmd(stdio, "callers"),
		newTraceCmd(stdio, "callees"),
		newCypherCmd(stdio),
		newHookCmd(stdio),
	)
	root.AddCommand(newToolCmds(stdio)...)
	root.AddCommand(newMCPCmd(stdio), newServeCmd(stdio))
	return root
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
