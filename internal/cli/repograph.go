package cli

import (
	"context"
	"fmt"

	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// openRepoGraph resolves the repository and loads its graph, leaving the
// index open for the text (doc, content) the graph does not hold. The
// caller closes the reader.
func openRepoGraph(ctx context.Context, stdio *IO, ref string) (registry.Entry, *store.Reader, *memgraph.Graph, error) {
	entries, err := registry.List()
	if err != nil {
		return registry.Entry{}, nil, nil, err
	}
	cwd, _ := stdio.Getwd()
	entry, err := registry.Resolve(entries, ref, cwd, "--repo")
	if err != nil {
		return registry.Entry{}, nil, nil, err
	}
	r, err := store.OpenRepo(entry.Path)
	if err != nil {
		return entry, nil, nil, err
	}
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		r.Close()
		return entry, nil, nil, fmt.Errorf("load the graph of %s: %w", entry.ID, err)
	}
	return entry, r, g, nil
}
