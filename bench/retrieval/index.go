//go:build sqlite_fts5

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/store"
)

// Reuse policies (-reuse): when an index already in the checkout's
// .gitnexus is taken as it is.
const (
	// reuseBuild: built by this very executable (same code) at HEAD with
	// the whole first-parent history and the same embeddings.
	reuseBuild = "build"
	// reuseAny: the same, by any build of this bench: for comparing
	// rankings when only ranking code changed since the index was built.
	reuseAny = "any"
	// reuseNever: always index again.
	reuseNever = "never"
)

// writerPrefix starts the Writer the bench records in the meta of the
// indexes it builds; the rest is the hash of its executable.
const writerPrefix = "bench/retrieval "

var benchWriter = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return writerPrefix + "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return writerPrefix + "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return writerPrefix + "unknown"
	}
	return writerPrefix + "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
})

// indexed is an index ready to be read and how it came to be.
type indexed struct {
	r      *store.Reader
	head   string
	reused bool
	took   time.Duration // indexing time (0 when reused)
}

// openIndex returns the index of the checkout at root: the one already
// there when the reuse policy accepts it (reusable), otherwise a new one
// built with the whole first-parent history (and the embedder e, when not
// nil), which replaces it.
func openIndex(ctx context.Context, root string, e embed.Embedder, provider string, tokens int, reuse string) (*indexed, error) {
	head, err := gitHead(root)
	if err != nil {
		return nil, err
	}
	if reuse != reuseNever {
		if r, err := store.OpenRepo(root); err == nil {
			if why := reusable(r.Meta(), head, e, reuse); why == "" {
				return &indexed{r: r, head: head, reused: true}, nil
			} else {
				logf("%s: indexing again: %s", root, why)
			}
			r.Close()
		}
	}
	start := time.Now()
	opts := ingest.Options{Root: root, History: &history.Options{MaxCommits: 0}, Previous: ingest.Previous{History: true}}
	if e != nil {
		opts.Embedding.Embedder, opts.Embedding.Provider, opts.Embedding.Tokens = e, provider, tokens
	}
	res, err := ingest.Run(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	meta := store.Meta{ToolVersion: "bench/retrieval", RepoPath: root, IndexedCommit: head, IndexedAt: time.Now().UTC(), Writer: benchWriter()}
	if _, err := store.WriteWithVectors(ctx, root, res.Graph, res.Vectors, meta); err != nil {
		return nil, fmt.Errorf("write the index of %s: %w", root, err)
	}
	r, err := store.OpenRepo(root)
	if err != nil {
		return nil, err
	}
	return &indexed{r: r, head: head, took: time.Since(start)}, nil
}

// openGraph is openIndex and the graph loaded from it; the caller closes
// the index's reader.
func openGraph(ctx context.Context, root string, e embed.Embedder, provider string, tokens int, reuse string) (*indexed, *memgraph.Graph, error) {
	ix, err := openIndex(ctx, root, e, provider, tokens, reuse)
	if err != nil {
		return nil, nil, err
	}
	g, err := memgraph.Load(ctx, ix.r)
	if err != nil {
		ix.r.Close()
		return nil, nil, err
	}
	return ix, g, nil
}

// reusable says why the index with meta m cannot be reused under the
// policy, or "" when it can.
func reusable(m store.Meta, head string, e embed.Embedder, reuse string) string {
	switch {
	case m.SchemaVersion != store.SchemaVersion:
		return fmt.Sprintf("schema %d, this build reads %d", m.SchemaVersion, store.SchemaVersion)
	case m.IndexedCommit != head:
		return fmt.Sprintf("built at %.12s, HEAD is %.12s", m.IndexedCommit, head)
	case m.History == nil || m.History.MaxCommits != 0 || m.History.Since != "" || m.History.AllBranches || m.History.Head != head:
		return "not built with the whole first-parent history up to HEAD"
	case !strings.HasPrefix(m.Writer, writerPrefix):
		return fmt.Sprintf("written by %q, not by this bench", m.Writer)
	case reuse == reuseBuild && m.Writer != benchWriter():
		return "written by another build of this bench (-reuse any takes it)"
	case e == nil && m.Embeddings != nil:
		return "it has embeddings, this run has no embedder"
	case e != nil && (m.Embeddings == nil || m.Embeddings.Identity != e.Identity()):
		return "its embeddings are not the configured embedder's"
	}
	return ""
}

// gitHead returns the commit checked out at root.
func gitHead(root string) (string, error) {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("read HEAD of %s: %w", root, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// gitClean reports whether the checkout at root has no changes to
// tracked files (untracked files, such as .gitnexus, do not count).
func gitClean(root string) (bool, error) {
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil {
		return false, fmt.Errorf("git status of %s: %w", root, err)
	}
	return len(strings.TrimSpace(string(out))) == 0, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
