package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/webhook"
)

// newWebhookReceiver is serve's webhook: pushes to the registered
// repositories' origins fast-forward their checkouts and re-index them with
// the function analyze runs; the backend loads the new index on the next
// call.
func newWebhookReceiver(secret string, debounce time.Duration, b *backend.Backend, logger *slog.Logger) (*webhook.Receiver, error) {
	quiet := &IO{Out: io.Discard, ErrOut: io.Discard, Getwd: os.Getwd}
	return webhook.New(webhook.Options{Secret: secret, Debounce: debounce, Log: logger,
		Repos: func() []webhook.Repo {
			var out []webhook.Repo
			for _, r := range b.Repos() {
				out = append(out, webhook.Repo{ID: r.ID, Path: r.RepoPath})
			}
			return out
		},
		Reindex: func(ctx context.Context, root string) error { return reanalyze(ctx, quiet, root, runnerWait) },
	})
}
