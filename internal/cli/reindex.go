package cli

import (
	"context"
	"time"

	"gitnexus.dev/gitnexus/internal/index"
)

// reanalyze brings the index of root up to date the way it was built (the
// same history settings; default workers and file size limit:
// index.AsBuilt), which leaves a fresh index alone, and prints what it did
// as analyze -q does. The git hook's runner and the webhook call it. wait
// is how long to wait for another analyze of the repository to finish.
func reanalyze(ctx context.Context, stdio *IO, root string, wait time.Duration) error {
	opt := index.AsBuilt(root)
	opt.Version, opt.Wait = Version(), wait
	return analyzeRepo(ctx, &analyzeOptions{io: stdio, path: root, quiet: true}, opt)
}
