package cli

import (
	"context"

	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/store"
)

// freshnessReport says whether an index still matches the repository, and if
// not, why.
type freshnessReport = freshness.Report

// checkFreshness compares an index with the repository: the tool and schema
// that wrote it, HEAD, and files changed in the working tree since it was
// built (see freshness.Check).
func checkFreshness(ctx context.Context, root string, r *store.Reader, gs gitState) freshnessReport {
	return freshness.Check(ctx, root, storeIndex(ctx, r), Version(), gs)
}

// storeIndex describes an open index for a freshness check.
func storeIndex(ctx context.Context, r *store.Reader) freshness.Index {
	m := r.Meta()
	return freshness.Index{ToolVersion: m.ToolVersion, Commit: m.IndexedCommit, Dirty: m.Dirty, DirtyPaths: m.DirtyPaths, DirtyHashes: m.DirtyHashes, IndexedAt: m.IndexedAt,
		Generation: m.Generation,
		HasFile:    func(rel string) bool { return r.HasFile(ctx, rel) },
		Missing:    func(root string) ([]string, error) { return r.MissingFiles(ctx, root) },
	}
}

func orNone(s string) string {
	if s == "" {
		return "(no commit)"
	}
	return s
}
