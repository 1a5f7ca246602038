package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
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
		type listed struct {
			registry.Entry
			// IndexMissing: the registry names an index whose database is
			// gone (deleted by hand).
			IndexMissing bool `json:"indexMissing,omitempty"`
		}
		out := make([]listed, len(entries))
		for i, e := range entries {
			out[i] = listed{Entry: e, IndexMissing: !store.Present(e.StoragePath)}
		}
		return writeJSON(o.io.Out, out)
	}
	if len(entries) == 0 {
		fmt.Fprintln(o.io.Out, "No indexed repositories. Run: gitnexus analyze <path>")
		return nil
	}
	tw := tabwriter.NewWriter(o.io.Out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPATH\tINDEXED\tCOMMIT\tFILES\tNODES\tEDGES")
	var missing []registry.Entry
	for _, e := range entries {
		indexed := e.IndexedAt.Local().Format(time.DateTime)
		if !store.Present(e.StoragePath) {
			indexed, missing = "index missing", append(missing, e)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\n", e.ID, e.Path, indexed,
			orNone(shortHash(e.LastCommit)), e.Stats.Files, e.Stats.Nodes, e.Stats.Edges)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range missing {
		fmt.Fprintf(o.io.Out, "%s: no index at %s (deleted?): run `gitnexus analyze %s`, or `gitnexus clean %s` to forget it\n",
			e.ID, e.StoragePath, e.Path, e.Path)
	}
	return nil
}
