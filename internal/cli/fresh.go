package cli

import (
	"context"

	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/store"
)

// freshnessReport says whether an index still matches the repository, and if
// not, why.
type freshnessReport = freshness.Report

// checkFreshness compares an index with the repository: the tool and schema
// that wrote it, HEAD, and files changed in the working tree since it was
// built (see freshness.Check).
func checkFreshness(ctx context.Context, root string, r *store.Reader, gs gitState) freshnessReport {
	return freshness.Check(ctx, root, index.StoreIndex(ctx, r), Version(), gs)
}

func orNone(s string) string {
	if s == "" {
		return "(no commit)"
	}
	return s
}
