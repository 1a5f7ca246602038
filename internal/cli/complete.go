package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// Shell completion beyond commands and flag names: repository ids for
// --repo, the values of enum flags, and symbol names for the tool
// commands' symbol argument, read from the index's name index (a prefix
// range of one SQL index: milliseconds, whatever the repository's size).

// maxCompletions bounds the symbol names offered at once.
const maxCompletions = 100

// symbolParams are the tool parameters that take a symbol's name.
var symbolParams = map[string]bool{"name": true, "target": true, "symbol_name": true}

// completeRepos offers the registered repositories' ids.
func completeRepos(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	entries, err := registry.List()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	return ids, cobra.ShellCompDirectiveNoFileComp
}

// completeEnum offers a parameter's allowed values.
func completeEnum(values []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSymbols offers the names of symbols that start with what was
// typed, in the repository --repo names (or the working directory's).
func completeSymbols(stdio *IO) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		entries, err := registry.List()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		cwd, _ := stdio.Getwd()
		ref, _ := cmd.Flags().GetString("repo")
		entry, err := registry.Resolve(entries, ref, cwd, "--repo")
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		r, err := store.OpenRepo(entry.Path)
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		defer r.Close()
		ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Second)
		defer cancel()
		prefix := toComplete
		qualifier := ""
		if i := strings.LastIndexByte(toComplete, '.'); i >= 0 {
			// Type.Meth: complete the last part, keep what is before it.
			qualifier, prefix = toComplete[:i+1], toComplete[i+1:]
		}
		names, err := r.NamesWithPrefix(ctx, qualifier, prefix, maxCompletions)
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		for i, n := range names {
			names[i] = qualifier + n
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

// registerToolCompletions adds the completions of a tool command: its
// symbol argument, --repo, and its enum flags.
func registerToolCompletions(stdio *IO, cmd *cobra.Command, t *backend.Tool, positional []string) {
	if len(positional) > 0 && symbolParams[positional[0]] {
		cmd.ValidArgsFunction = completeSymbols(stdio)
	}
	for _, p := range t.Params {
		name := flagName(p.Name)
		switch {
		case p.Name == "repo":
			_ = cmd.RegisterFlagCompletionFunc(name, completeRepos)
		case len(p.Enum) > 0:
			_ = cmd.RegisterFlagCompletionFunc(name, completeEnum(p.Enum))
		}
	}
}
