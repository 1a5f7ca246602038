// Package backend is the query plane: it knows the indexed repositories (the
// registry), resolves which one a call means, opens each index lazily and
// keeps it fresh, and dispatches tool calls to the analyses. Transports (MCP
// stdio, HTTP, the CLI) only translate requests into CallTool and results
// back.
package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/registry"
)

// Options configure a Backend.
type Options struct {
	// IdleTimeout releases a repository's in-memory graph after this long
	// without calls; 0 means DefaultIdleTimeout, negative never.
	IdleTimeout time.Duration
	// Cwd is the working directory of the serving process: when it is
	// inside an indexed repository, calls without a repo use it; when it
	// is in a git work tree that is not indexed, they are refused
	// (registry.ErrNotIndexed) rather than answered for another one.
	Cwd string
	// IgnoreCwd: the process's working directory says nothing about the
	// repository a call means (gitnexus serve, started anywhere); calls
	// without a repo take the only repository indexed.
	IgnoreCwd bool
	// ReadOnly refuses every call that would write to a repository (a
	// rename with dry_run false); plans and queries still run.
	ReadOnly bool
	// ToolVersion is the running program's version: an index written by
	// another version is reported stale. Empty: not compared.
	ToolVersion string
	// FreshnessTTL is how long a check of a repository's work tree is
	// reused before a call starts a new one in the background
	// (freshness.DefaultTTL when 0).
	FreshnessTTL time.Duration
	// Embedding configures the embedders that turn questions into vectors
	// for indexes with embeddings; nil reads the embeddings.json file in
	// the gitnexus home and the GITNEXUS_EMBEDDING_* variables.
	Embedding *embed.Config
	// Source, when set, lists the repositories instead of the registry
	// (a replica of the shared store: teamstore.Replica).
	Source RepoSource
	// NoWorkTree: the repositories' files are not here (a replica of the
	// shared store): answers say nothing of freshness, and the tools that
	// read a work tree or git are refused (ErrNoWorkTree).
	NoWorkTree bool
}

// RepoSource lists the repositories a backend serves, in place of the
// registry, and makes a repository's index present at its StoragePath.
type RepoSource interface {
	// Repos lists the repositories, and the version of that list: a new
	// version when the list or a repository's index changed.
	Repos() ([]RepoHandle, uint64, error)
	// Version is the version Repos would return, cheaply.
	Version() uint64
	// Prepare is called before a repository's index is opened.
	Prepare(ctx context.Context, id string) error
}

// ErrNoWorkTree is a call that needs a repository's files on a server
// that has only its index.
var ErrNoWorkTree = errors.New("this server has the repositories' indexes, not their files")

// needTree refuses what needs a repository's checkout (its files or git)
// on a server without one.
func (b *Backend) needTree(what string) error {
	if !b.opts.NoWorkTree {
		return nil
	}
	return fmt.Errorf("%w: %s needs the repository's checkout; ask a gitnexus where it is cloned (gitnexus mcp, or serve without --store)", ErrNoWorkTree, what)
}

// ErrReadOnly is a write refused by a read-only backend.
var ErrReadOnly = errors.New("this server is read-only")

// DefaultIdleTimeout is the default of --idle-timeout.
const DefaultIdleTimeout = 10 * time.Minute

// Backend serves tool calls for every indexed repository. It is safe for
// concurrent use.
type Backend struct {
	opts Options

	mu      sync.Mutex
	repos   []RepoHandle // from the registry, sorted by id
	regKey  fileKey      // the registry file as last read
	srcVer  uint64       // the source's version as last read (opts.Source)
	handles map[string]*handle
	embed   *embedders

	stop chan struct{}
	done chan struct{}
}

// RepoHandle describes an indexed repository, straight from the registry.
type RepoHandle struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	RepoPath    string         `json:"repoPath"`
	StoragePath string         `json:"storagePath"`
	IndexedAt   time.Time      `json:"indexedAt"`
	LastCommit  string         `json:"lastCommit,omitempty"`
	Stats       registry.Stats `json:"stats"`
}

// CodebaseContext is the light summary of a repository an agent sees before
// any index is opened.
type CodebaseContext struct {
	ProjectName string `json:"projectName"`
	Files       int    `json:"files"`
	Functions   int    `json:"functions"`
	Communities int    `json:"communities"`
	Processes   int    `json:"processes"`
}

// Context returns the repository's light summary.
func (r RepoHandle) Context() CodebaseContext {
	return CodebaseContext{ProjectName: r.Name, Files: r.Stats.Files, Functions: r.Stats.Functions,
		Communities: r.Stats.Communities, Processes: r.Stats.Processes}
}

// New reads the registry and returns a Backend. It opens no index.
func New(opts Options) (*Backend, error) {
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	switch {
	case opts.IgnoreCwd:
		opts.Cwd = ""
	case opts.Cwd == "":
		opts.Cwd, _ = os.Getwd()
	}
	b := &Backend{opts: opts, handles: map[string]*handle{}, embed: newEmbedders(opts.Embedding),
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := b.refresh(); err != nil {
		return nil, err
	}
	go b.janitor()
	return b, nil
}

// Close releases every open index.
func (b *Backend) Close() {
	select {
	case <-b.stop:
		return
	default:
	}
	close(b.stop)
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, h := range b.handles {
		h.close()
		delete(b.handles, id)
	}
	b.embed.close()
}

// refresh re-reads the registry. Handles of repositories that left it are
// released once their calls finish.
func (b *Backend) refresh() error {
	var repos []RepoHandle
	var key fileKey
	var ver uint64
	if b.opts.Source != nil {
		var err error
		repos, ver, err = b.opts.Source.Repos()
		if err != nil {
			return err
		}
	} else {
		key = b.registryKey()
		entries, err := registry.List()
		if err != nil {
			return err
		}
		repos = make([]RepoHandle, 0, len(entries))
		for _, e := range entries {
			repos = append(repos, RepoHandle{ID: e.ID, Name: e.Name, RepoPath: e.Path, StoragePath: e.StoragePath,
				IndexedAt: e.IndexedAt, LastCommit: e.LastCommit, Stats: e.Stats})
		}
	}
	sort.Slice(repos, func(i, j int) bool { return repos[i].ID < repos[j].ID })
	b.mu.Lock()
	defer b.mu.Unlock()
	b.repos = repos
	b.regKey = key
	b.srcVer = ver
	known := map[string]bool{}
	for _, r := range repos {
		known[r.ID] = true
	}
	for id, h := range b.handles {
		if !known[id] {
			h.close()
			delete(b.handles, id)
		}
	}
	return nil
}

// registryKey identifies the registry file's current version (zero when
// it does not exist).
func (b *Backend) registryKey() fileKey {
	p, err := registry.File()
	if err != nil {
		return fileKey{}
	}
	k, _ := statKey(p)
	return k
}

// refreshIfChanged re-reads the registry when the file changed since it
// was read (every change replaces it by rename): a repository indexed or
// removed while the server runs is seen by the next call.
func (b *Backend) refreshIfChanged() error {
	if b.opts.Source != nil {
		v := b.opts.Source.Version()
		b.mu.Lock()
		same := v == b.srcVer
		b.mu.Unlock()
		if same {
			return nil
		}
		return b.refresh()
	}
	k := b.registryKey()
	b.mu.Lock()
	same := k == b.regKey
	b.mu.Unlock()
	if same {
		return nil
	}
	return b.refresh()
}

// Repos returns the registered repositories, sorted by id.
func (b *Backend) Repos() []RepoHandle {
	_ = b.refreshIfChanged() // on error, what was read last
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]RepoHandle(nil), b.repos...)
}

// Resolve finds the repository a call means (registry.Resolve's rules)
// among the registered repositories, re-reading the registry first when it
// changed, and once more on a miss.
func (b *Backend) Resolve(ref string) (RepoHandle, error) {
	r, err := b.resolveOnce(ref)
	if err == nil {
		return r, nil
	}
	if rerr := b.refresh(); rerr != nil {
		return RepoHandle{}, fmt.Errorf("%w (and re-reading the registry failed: %v)", err, rerr)
	}
	return b.resolveOnce(ref)
}

func (b *Backend) resolveOnce(ref string) (RepoHandle, error) {
	repos := b.Repos()
	entries := make([]registry.Entry, len(repos))
	for i, r := range repos {
		entries[i] = registry.Entry{ID: r.ID, Name: r.Name, Path: r.RepoPath}
	}
	e, err := registry.Resolve(entries, ref, b.opts.Cwd, "repo")
	if err != nil {
		return RepoHandle{}, err
	}
	for _, r := range repos {
		if r.ID == e.ID {
			return r, nil
		}
	}
	return RepoHandle{}, fmt.Errorf("repository %q vanished from the registry", e.ID)
}

// janitor releases graphs idle for longer than the idle timeout.
func (b *Backend) janitor() {
	defer close(b.done)
	if b.opts.IdleTimeout < 0 {
		<-b.stop
		return
	}
	period := b.opts.IdleTimeout / 4
	if period > time.Minute {
		period = time.Minute
	}
	if period < 10*time.Millisecond {
		period = 10 * time.Millisecond
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-t.C:
			b.mu.Lock()
			for _, h := range b.handles {
				h.releaseIfIdle(now, b.opts.IdleTimeout)
			}
			b.mu.Unlock()
		}
	}
}

// repo opens (or reuses) the index of a repository for one call; release
// must be called when the call is done.
func (b *Backend) repo(ctx context.Context, r RepoHandle) (*Snapshot, func(), error) {
	b.mu.Lock()
	h, ok := b.handles[r.ID]
	if !ok {
		h = &handle{repo: r, tool: b.opts.ToolVersion, ttl: b.opts.FreshnessTTL, source: b.opts.Source, noWorkTree: b.opts.NoWorkTree}
		b.handles[r.ID] = h
	}
	b.mu.Unlock()
	return h.acquire(ctx)
}

// loaded reports whether the repository's graph is in memory.
func (b *Backend) loaded(id string) bool {
	b.mu.Lock()
	h := b.handles[id]
	b.mu.Unlock()
	return h != nil && h.loaded()
}

// loads counts the graphs loaded so far, over all repositories.
func (b *Backend) loads() int {
	b.mu.Lock()
	hs := make([]*handle, 0, len(b.handles))
	for _, h := range b.handles {
		hs = append(hs, h)
	}
	b.mu.Unlock()
	n := 0
	for _, h := range hs {
		h.loadMu.Lock()
		n += h.loads
		h.loadMu.Unlock()
	}
	return n
}
