package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/registry"
)

type listOptions struct {
	io   *IO
	json bool
}

func newListCmd(stdio *IO) *cobra.Command {
	o := &listOptions{io: stdio}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List indexed repositories",
		Example: "  gitnexus list\n  gitnexus list --json",
		Args:    argsRange(0, 0),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runList(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

func runList(_ context.Context, o *listOptions) error {
	entries, err := registry.List()
	if err != nil {
		return err
	}
	if o.json {
		if entries == nil {
			entries = []registry.Entry{}
		}
		return writeJSON(o.io.Out, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintln(o.io.Out, "No indexed repositories. Run: gitnexus analyze <path>")
		return nil
	}
	tw := tabwriter.NewWriter(o.io.Out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPATH\tINDEXED\tCOMMIT\tFILES\tNODES\tEDGES")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\n", e.ID, e.Path, e.IndexedAt.Local().Format(time.DateTime),
			orNone(shortHash(e.LastCommit)), e.Stats.Files, e.Stats.Nodes, e.Stats.Edges)
	}
	return tw.Flush()
}
