package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/mcpserver"
)

type mcpOptions struct {
	io          *IO
	idleTimeout time.Duration
	verbose     bool
}

func newMCPCmd(stdio *IO) *cobra.Command {
	o := &mcpOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the indexed repositories to AI agents over MCP (stdio)",
		Long: `Serve every indexed repository over the Model Context Protocol on stdin and stdout: the tools
` + wrapWords(toolNameList(), 96) + `, the resources gitnexus://repos and
gitnexus://repo/{name}/... (context, schema, clusters, processes) and the prompts detect_impact and
generate_map (docs/tools.md). Stdout carries only the protocol; diagnostics go to stderr.

The server starts from the registry alone; a repository's graph is loaded by the first call
that needs it, released after --idle-timeout without calls, and reloaded when the repository is
re-indexed. It stops at the end of stdin or on a signal.

An agent starts it itself: gitnexus setup writes the entry into the agents' configuration.`,
		Example: `  gitnexus setup                  # register it with the coding agents on this machine
  gitnexus mcp                    # what the agents run
  # by hand, in an MCP client's configuration:
  {"mcpServers": {"gitnexus": {"command": "/usr/local/bin/gitnexus", "args": ["mcp"]}}}`,
		Args: argsRange(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.DurationVar(&o.idleTimeout, "idle-timeout", backend.DefaultIdleTimeout, "release a repository's graph after this long without calls (0 keeps graphs loaded)")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "log protocol activity to stderr")
	return cmd
}

func runMCP(ctx context.Context, o *mcpOptions) error {
	if o.idleTimeout < 0 {
		return usageError{fmt.Errorf("--idle-timeout must not be negative")}
	}
	cwd, err := o.io.Getwd()
	if err != nil {
		return err
	}
	idle := o.idleTimeout
	if idle == 0 {
		idle = -1 // the backend's "never"
	}
	b, err := backend.New(backend.Options{IdleTimeout: idle, Cwd: cwd, ToolVersion: Version()})
	if err != nil {
		return err
	}
	defer b.Close()
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(o.io.ErrOut, &slog.HandlerOptions{Level: level}))
	srv := mcpserver.New(b, Version(), logger)
	err = srv.Run(ctx, mcpserver.StdioTransport(o.io.In, o.io.Out))
	switch {
	case err == nil, errors.Is(err, io.EOF), ctx.Err() != nil:
		return nil // the client went away, or a signal: a clean stop
	}
	return err
}

// toolNameList names every tool, in the table's order.
func toolNameList() string {
	var names []string
	for _, t := range backend.Tools() {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// wrapWords breaks s into lines of at most width characters.
func wrapWords(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(w) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
