package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/teamstore"
)

type pushOptions struct {
	io    *IO
	path  string
	store string
	key   string
	json  bool
}

func newPushCmd(stdio *IO) *cobra.Command {
	o := &pushOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "push [path]",
		Short: "Copy a repository's index to the team's shared store (PostgreSQL)",
		Long: `Copy the index of an analyzed repository (default: the one containing the current directory)
to the shared store that gitnexus serve --store replicas answer from (docs/team.md).

The store is a PostgreSQL database: --store, else $GITNEXUS_DB_URI (postgres://host:5432/db;
$GITNEXUS_DB_USER and $GITNEXUS_DB_PASSWORD fill in what the address leaves out). Many
repositories share one database, each under a key (--as; default: its id in the registry, the
name agents call it by). Only the rows the store lacks are sent, in one transaction that makes
the repository's next generation: replicas serve the previous one until it commits, and a push
interrupted at any point leaves it in place (push again). analyze --push analyzes and pushes.

Neo4j (bolt://, neo4j://) is not a store: gitnexus export --format neo4j writes files it imports.`,
		Example: `  gitnexus push --store postgres://gitnexus:secret@db:5432/gitnexus
  GITNEXUS_DB_URI=postgres://db:5432/gitnexus gitnexus push ../service --as service
  gitnexus push --json`,
		Args: argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			return runPush(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.store, "store", "", "the shared store's address, postgres://user:password@host:5432/database (default $GITNEXUS_DB_URI)")
	f.StringVar(&o.key, "as", "", "the repository's key in the store (default: its id in the registry)")
	f.BoolVar(&o.json, "json", false, "print the report as JSON")
	return cmd
}

// storeURI is --store, else the environment's address; a usage error when
// neither is set or the address is not a PostgreSQL one.
func storeURI(flag string) (string, error) {
	uri := flag
	if uri == "" {
		uri = teamstore.URIFromEnv()
	}
	if uri == "" {
		return "", usageError{fmt.Errorf("no shared store: give --store postgres://... or set GITNEXUS_DB_URI")}
	}
	if err := teamstore.CheckURI(uri); err != nil {
		return "", usageError{err}
	}
	return uri, nil
}

func runPush(ctx context.Context, o *pushOptions) error {
	uri, err := storeURI(o.store)
	if err != nil {
		return err
	}
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	return pushRepo(ctx, o.io, uri, root, o.key, o.json)
}

// pushRepo pushes the registered index of the repository at root.
func pushRepo(ctx context.Context, stdio *IO, uri, root, key string, asJSON bool) error {
	entries, err := registry.List()
	if err != nil {
		return err
	}
	var entry *registry.Entry
	for i, e := range entries {
		if filepath.Clean(e.Path) == filepath.Clean(root) {
			entry = &entries[i]
		}
	}
	if entry == nil {
		return fmt.Errorf("%s is not analyzed: run `gitnexus analyze --push %s`", root, root)
	}
	st, err := teamstore.Open(ctx, uri)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := st.Push(ctx, *entry, teamstore.PushOptions{Key: key})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdio.Out, struct {
			Store string `json:"store"`
			*teamstore.PushReport
			ElapsedMs int64 `json:"elapsedMs"`
		}{st.Where(), rep, rep.Elapsed.Milliseconds()})
	}
	if rep.Unchanged {
		fmt.Fprintf(stdio.Out, "%s is up to date in %s (generation %d)\n", rep.Key, st.Where(), rep.Generation)
		return nil
	}
	fmt.Fprintf(stdio.Out, "Pushed %s to %s: generation %d, %d of %d rows sent (%s), %d deleted, in %s\n",
		rep.Key, st.Where(), rep.Generation, rep.Sent, rep.Rows, humanBytes(rep.Bytes), rep.Deleted, rep.Elapsed.Round(1e6))
	return nil
}

// humanBytes is a size for people.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
