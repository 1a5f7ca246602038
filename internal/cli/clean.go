package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

type cleanOptions struct {
	io   *IO
	path string
}

func newCleanCmd(stdio *IO) *cobra.Command {
	o := &cleanOptions{io: stdio}
	return &cobra.Command{
		Use:   "clean [path]",
		Short: "Delete a repository's index and its registry entry",
		Long: `Delete the index files gitnexus wrote in <repo>/.gitnexus (graph.db, meta.json, the history-*.blob
files, extract.cache and its log, the lock and .gitignore; other files there are left alone, and the
directory is removed only when empty) and remove the repository from the registry. A repository
whose directory is gone is only removed from the registry (give the path it had, as gitnexus list
shows it).`,
		Example: "  gitnexus clean\n  gitnexus clean ~/src/app",
		Args:    argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			return runClean(cmd.Context(), o)
		},
	}
}

func runClean(ctx context.Context, o *cleanOptions) error {
	if abs, err := filepath.Abs(o.path); err == nil {
		if _, serr := os.Stat(abs); errors.Is(serr, os.ErrNotExist) {
			// The repository is gone: only its registry entry is left.
			removed, err := registry.Remove(abs)
			if err != nil {
				return err
			}
			if !removed {
				return fmt.Errorf("%s does not exist and is not in the registry: see `gitnexus list`", abs)
			}
			fmt.Fprintf(o.io.Out, "%s: removed from the registry (the directory no longer exists).\n", abs)
			return nil
		}
	}
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	dir := store.Dir(root)
	unlock, err := store.Lock(root, 0)
	if err != nil {
		return err
	}
	removed := 0
	for _, name := range []string{store.DBName, store.DBName + "-journal", store.MetaName, index.ExtractCacheName, index.ExtractCacheName + ".log", ".gitignore"} {
		err := os.Remove(filepath.Join(dir, name))
		if err == nil {
			removed++
		} else if !errors.Is(err, os.ErrNotExist) {
			unlock()
			return fmt.Errorf("remove %s: %w", name, err)
		}
	}
	store.RemoveHistoryFiles(dir)
	_ = os.Remove(filepath.Join(dir, store.LockName))
	unlock()
	_ = os.Remove(dir) // only when empty
	inRegistry, err := registry.Remove(root)
	if err != nil {
		return err
	}
	if removed == 0 && !inRegistry {
		fmt.Fprintf(o.io.Out, "%s: nothing to clean (no index).\n", root)
		return nil
	}
	fmt.Fprintf(o.io.Out, "%s: index deleted", root)
	if inRegistry {
		fmt.Fprint(o.io.Out, " and removed from the registry")
	}
	fmt.Fprintln(o.io.Out, ".")
	return nil
}
