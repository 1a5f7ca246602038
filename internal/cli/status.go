package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/store"
)

type statusOptions struct {
	io   *IO
	path string
	json bool
}

func newStatusCmd(stdio *IO) *cobra.Command {
	o := &statusOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "status [path]",
		Short: "Say whether a repository's index is fresh or stale against HEAD and the working tree",
		Long: `Say whether the index of a repository (default: the current directory) is fresh: written by
this version, for the current HEAD, with no file changed since. Exit status 0 when fresh, 3 when
stale, 1 when there is no usable index.`,
		Example: "  gitnexus status\n  gitnexus status ~/src/app --json",
		Args:    argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			return runStatus(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// ExitStale is the exit status of `status` for a stale index.
const ExitStale = 3

type statusReport struct {
	Path       string    `json:"path"`
	Indexed    bool      `json:"indexed"`
	Fresh      bool      `json:"fresh"`
	Reasons    []string  `json:"reasons,omitempty"`
	IndexedAt  time.Time `json:"indexedAt,omitzero"`
	Commit     string    `json:"indexedCommit,omitempty"`
	Head       string    `json:"head,omitempty"`
	Generation int64     `json:"generation,omitempty"`
	Error      string    `json:"error,omitempty"`
}

func runStatus(ctx context.Context, o *statusOptions) error {
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	rep := statusReport{Path: root}
	r, err := store.OpenRepo(root)
	if errors.Is(err, store.ErrNoIndex) && !isProjectDir(root) {
		// Never advise indexing a directory that is no project (/tmp).
		err = fmt.Errorf("%w: %s is not a git repository or a project directory (no build file): "+
			"cd into a repository, or name it (gitnexus status <path>); `gitnexus list` shows the indexed ones", store.ErrNoIndex, root)
	}
	if err != nil {
		rep.Error = err.Error()
		if o.json {
			if werr := writeJSON(o.io.Out, rep); werr != nil {
				return werr
			}
			return &exitError{code: ExitError, err: errors.New(rep.Error)}
		}
		return err
	}
	defer r.Close()
	gs := readGitState(ctx, root)
	fr := checkFreshness(ctx, root, r, gs)
	m := r.Meta()
	rep.Indexed, rep.Fresh, rep.Reasons = true, fr.Fresh, fr.Reasons
	rep.IndexedAt, rep.Commit, rep.Head, rep.Generation = m.IndexedAt, m.IndexedCommit, gs.Commit, m.Generation
	if o.json {
		if err := writeJSON(o.io.Out, rep); err != nil {
			return err
		}
	} else {
		state := "fresh"
		if !fr.Fresh {
			state = "stale"
		}
		fmt.Fprintf(o.io.Out, "%s: index is %s (built %s", root, state, m.IndexedAt.Local().Format(time.DateTime))
		if m.IndexedCommit != "" {
			fmt.Fprintf(o.io.Out, " at %s", shortHash(m.IndexedCommit))
		}
		fmt.Fprintln(o.io.Out, ")")
		for _, why := range fr.Reasons {
			fmt.Fprintf(o.io.Out, "  - %s\n", why)
		}
		if !fr.Fresh {
			fmt.Fprintln(o.io.Out, "Run `gitnexus analyze` to update it.")
		}
	}
	if !fr.Fresh {
		return &exitError{code: ExitStale, err: fmt.Errorf("index of %s is stale", root)}
	}
	return nil
}
