package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

type doctorOptions struct {
	io   *IO
	json bool
}

func newDoctorCmd(stdio *IO) *cobra.Command {
	o := &doctorOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation, the agents' configuration and every indexed repository",
		Long: `Check what gitnexus depends on and say how to fix each problem:

  environment   this binary's version, git on PATH, SQLite with full-text search (FTS5), the
                registry ($GITNEXUS_HOME/registry.json) and whether it can be written, and
                the embedding provider and what it lacks (none: search ranks by full-text relevance alone)
  agents        each agent's MCP configuration: is gitnexus registered, and does the
                program it runs exist
  repositories  for each indexed repository: the directory exists, the index opens read-only
                and has this version's schema, its full-text search answers, and whether it is
                stale against HEAD and the working tree

Nothing is changed. Exit status 0 when nothing is broken (stale indexes and agents without
gitnexus are warnings), 1 otherwise.`,
		Example: "  gitnexus doctor\n  gitnexus doctor --json",
		Args:    argsRange(0, 0),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runDoctor(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the checks as JSON")
	return cmd
}

// Check statuses.
const (
	checkOK   = "ok"
	checkInfo = "info"
	checkWarn = "warn"
	checkFail = "fail"
)

// check is one finding of doctor.
type check struct {
	Section string `json:"section"` // environment, agents, repositories
	Name    string `json:"name"`
	Status  string `json:"status"`
	Detail  string `json:"detail"`
	Fix     string `json:"fix,omitempty"`
}

type doctorReport struct {
	Checks   []check `json:"checks"`
	Problems int     `json:"problems"`
	Warnings int     `json:"warnings"`
}

func runDoctor(ctx context.Context, o *doctorOptions) error {
	var rep doctorReport
	rep.Checks = append(rep.Checks, environmentChecks(ctx)...)
	rep.Checks = append(rep.Checks, agentChecks()...)
	rep.Checks = append(rep.Checks, repositoryChecks(ctx)...)
	for _, c := range rep.Checks {
		switch c.Status {
		case checkFail:
			rep.Problems++
		case checkWarn:
			rep.Warnings++
		}
	}
	var err error
	if o.json {
		err = writeJSON(o.io.Out, rep)
	} else {
		err = printDoctor(o.io.Out, rep)
	}
	if err != nil {
		return err
	}
	if rep.Problems > 0 {
		return &exitError{code: ExitError, err: fmt.Errorf("%d problem(s) found; each has its fix above", rep.Problems)}
	}
	return nil
}

func printDoctor(w io.Writer, rep doctorReport) error {
	section := ""
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for _, c := range rep.Checks {
		if c.Section != section {
			if section != "" {
				fmt.Fprintln(tw)
			}
			section = c.Section
			fmt.Fprintf(tw, "%s\n", section)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Status, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(tw, "  \t\tfix: %s\n", c.Fix)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case rep.Problems == 0 && rep.Warnings == 0:
		fmt.Fprintln(w, "\nEverything is in order.")
	default:
		fmt.Fprintf(w, "\n%d problem(s), %d warning(s).\n", rep.Problems, rep.Warnings)
	}
	return nil
}
