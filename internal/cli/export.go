package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/export"
	"gitnexus.dev/gitnexus/internal/store"
)

// exportOptions serve `gitnexus export`: a repository's graph as files
// another database loads.
type exportOptions struct {
	io     *IO
	repo   string
	format string
	out    string
	force  bool
	json   bool
}

func newExportCmd(stdio *IO) *cobra.Command {
	o := &exportOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "export --format neo4j [--out DIR] [repo]",
		Short: "Write a repository's code graph as files for Neo4j's bulk import",
		Long: `Write the code graph of an indexed repository as the CSV files that Neo4j 5 loads with
neo4j-admin database import full: one file of nodes per label (header id:ID, name,
startLine:int, isExported:boolean, ..., :LABEL), one of relationships per type (CALLS,
IMPORTS, DEFINES, ...; header :START_ID, :END_ID, :TYPE, confidence:double, reason,
line:int, ...), plus schema.cypher (a uniqueness constraint on id and indexes on name and
filePath for every label), import.sh (the neo4j-admin command line) and README.txt.

Labels and property names are those of gitnexus cypher, so its queries run on Neo4j with
each relationship written as its own type (-[:CALLS]->, not -[:CodeRelation {type:
'CALLS'}]->). Strings may hold line breaks: the import needs --multiline-fields=true, which
import.sh passes. Mapping and limits: docs/neo4j.md.

[repo] is a path, id or name of an indexed repository; by default the one containing the
current directory, as for gitnexus cypher. --out defaults to ./gitnexus-neo4j-<repo name>;
a folder that is not empty is refused unless --force (which replaces the files of an earlier
export there and leaves other files alone). --format accepts neo4j only.`,
		Example: `  gitnexus export --format neo4j
  gitnexus export --format neo4j --out /tmp/shop-graph ~/src/shop
  gitnexus export --format neo4j --out ./graph --force --json`,
		Args: argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.repo = args[0]
			}
			return runExport(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "the format to write: neo4j (the only one for now)")
	f.StringVar(&o.out, "out", "", "the folder to write (default ./gitnexus-neo4j-<repo name>)")
	f.BoolVar(&o.force, "force", false, "write into a folder that is not empty, replacing an earlier export's files")
	f.BoolVar(&o.json, "json", false, "print JSON: the folder, the files with their rows, the counts, warnings")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"neo4j"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runExport(ctx context.Context, o *exportOptions) error {
	switch o.format {
	case "neo4j":
	case "":
		return usageError{errors.New("--format is required: --format neo4j (the only format for now)")}
	default:
		return usageError{fmt.Errorf("--format %q is not supported: the only format is neo4j", o.format)}
	}
	cwd, err := o.io.Getwd()
	if err != nil {
		return err
	}
	b, err := backend.New(backend.Options{Cwd: cwd, IdleTimeout: -1, ToolVersion: Version()})
	if err != nil {
		return err
	}
	repo, err := b.Resolve(o.repo)
	b.Close()
	if err != nil {
		return err
	}
	dir := o.out
	if dir == "" {
		dir = "gitnexus-neo4j-" + safeName(repo.Name)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	if err := checkExportDir(dir, o.force); err != nil {
		return err
	}
	r, err := store.OpenRepo(repo.RepoPath)
	if err != nil {
		return err
	}
	defer r.Close()
	start := time.Now()
	sum, err := export.Neo4j(ctx, r, dir)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("export %s: %w", repo.Name, err)
	}
	for _, w := range sum.Warnings {
		fmt.Fprintln(o.io.ErrOut, "warning:", w)
	}
	if o.json {
		enc := json.NewEncoder(o.io.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(sum)
	}
	printExportSummary(o.io.Out, repo.Name, sum, time.Since(start))
	return nil
}

// unsafeInName are the characters safeName replaces.
var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName keeps a repository name fit for a folder name.
func safeName(name string) string {
	s := unsafeInName.ReplaceAllString(name, "-")
	if s == "" || s == "." || s == ".." {
		return "repo"
	}
	return s
}

// earlierExport matches the names of the files an export writes.
var earlierExport = regexp.MustCompile(`^(nodes_[A-Za-z]+\.csv|relationships_[A-Z_]+\.csv|` +
	regexp.QuoteMeta(export.SchemaFile) + `|` + regexp.QuoteMeta(export.ImportFile) + `|` + regexp.QuoteMeta(export.ReadmeFile) + `)$`)

// checkExportDir refuses a folder that is not empty, unless force; with
// force it removes the files of an earlier export, so that none of a label
// or type no longer in the graph is left beside the new ones.
func checkExportDir(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("read %s: %w", dir, err)
	case len(entries) == 0:
		return nil
	case !force:
		return usageError{fmt.Errorf("%s is not empty: name another folder with --out, or add --force to write there", dir)}
	}
	for _, e := range entries {
		if e.Type().IsRegular() && earlierExport.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("remove the earlier export's %s: %w", e.Name(), err)
			}
		}
	}
	return nil
}

func printExportSummary(w io.Writer, repo string, sum export.Summary, took time.Duration) {
	fmt.Fprintf(w, "Exported %s: %d nodes, %d relationships to %s (%s)\n\n", repo, sum.NodeCount, sum.RelCount, sum.Dir,
		took.Round(time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for _, f := range sum.Nodes {
		fmt.Fprintf(tw, "  %s\t%d\n", f.Name, f.Rows)
	}
	for _, f := range sum.Relationships {
		fmt.Fprintf(tw, "  %s\t%d\n", f.Name, f.Rows)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nLoad it into a new Neo4j 5 database (see %s):\n", filepath.Join(sum.Dir, export.ReadmeFile))
	fmt.Fprintf(w, "  sh %s [database]\n", filepath.Join(sum.Dir, export.ImportFile))
	fmt.Fprintf(w, "  cypher-shell -d <database> -f %s   # once Neo4j runs\n", filepath.Join(sum.Dir, export.SchemaFile))
}
