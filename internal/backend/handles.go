package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/store"
)

// Snapshot is one generation of a repository's index, open for reading: the
// database and its in-memory graph. Calls hold a reference while they run;
// a re-index installs a new Snapshot for later calls and the old one closes
// when its last call finishes, so no call fails because the index changed
// under it.
type Snapshot struct {
	Repo   RepoHandle
	Reader *store.Reader
	Graph  *memgraph.Graph
	Meta   store.Meta

	key    fileKey
	refs   int
	handle *handle // the repository's handle, for its freshness monitor

	overviewOnce sync.Once
	overviewRes  analysis.OverviewResult

	historyOnce sync.Once
	historyIdx  *analysis.HistoryIndex

	corpusOnce sync.Once
	corpus     *search.Corpus

	semanticOnce sync.Once
	semantic     *search.Semantic
}

// history indexes the graph's git history records once per snapshot, the
// first time a history tool needs it.
func (s *Snapshot) history() *analysis.HistoryIndex {
	s.historyOnce.Do(func() {
		// The graph loaded the records with itself.
		s.historyIdx = analysis.NewHistoryIndex(s.Graph.HistoryRecords(), s.Graph)
	})
	return s.historyIdx
}

// commitCorpus is the BM25 index over the commits of the history, built
// once per snapshot: the CommitTerms of each commit.
func (s *Snapshot) commitCorpus() *search.Corpus {
	s.corpusOnce.Do(func() { s.corpus = search.NewCorpus(s.history().CommitDocs()) })
	return s.corpus
}

// queryHistory is the history's evidence for query, nil when the index
// has no history.
func (s *Snapshot) queryHistory() *analysis.QueryHistory {
	x := s.history()
	if x.Empty() {
		return nil
	}
	return &analysis.QueryHistory{X: x, Commits: s.commitCorpus()}
}

// overview computes the repository overview once per snapshot: it walks
// the whole graph, and the graph does not change while the snapshot lives.
func (s *Snapshot) overview() analysis.OverviewResult {
	s.overviewOnce.Do(func() { s.overviewRes = analysis.Overview(s.Graph, 10) })
	return s.overviewRes
}

// fileKey identifies the database file: a rewrite installs a new file by
// rename, which changes the inode.
type fileKey struct {
	ino   uint64
	size  int64
	mtime time.Time
}

func statKey(path string) (fileKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileKey{}, err
	}
	return fileKey{ino: inode(fi), size: fi.Size(), mtime: fi.ModTime()}, nil
}

// handle is the open state of one repository.
type handle struct {
	repo RepoHandle
	tool string        // version for freshness checks
	ttl  time.Duration // of freshness answers
	// source makes the index present (a replica's copy); nil for the
	// registry's repositories, whose index is where analyze wrote it.
	source RepoSource
	// noWorkTree: no freshness checks (the files are not here).
	noWorkTree bool

	monMu sync.Mutex
	mon   *freshness.Monitor

	mu      sync.Mutex
	cur     *Snapshot
	lastUse time.Time
	// loadMu makes concurrent first calls (or calls after a re-index)
	// wait for one load instead of each loading the graph.
	loadMu sync.Mutex
	loads  int // graphs loaded, under loadMu
}

func (h *handle) dbPath() string { return filepath.Join(h.repo.StoragePath, store.DBName) }

// acquire returns the current snapshot with a reference taken, loading or
// reloading it when the database file changed.
func (h *handle) acquire(ctx context.Context) (*Snapshot, func(), error) {
	if h.source != nil {
		if err := h.source.Prepare(ctx, h.repo.ID); err != nil {
			return nil, nil, err
		}
	}
	for attempt := 0; attempt < 2; attempt++ {
		key, err := statKey(h.dbPath())
		if err != nil {
			if os.IsNotExist(err) {
				return nil, nil, fmt.Errorf("repository %q has no index at %s: run `gitnexus analyze %s`", h.repo.ID, h.repo.StoragePath, h.repo.RepoPath)
			}
			return nil, nil, err
		}
		if s := h.take(key); s != nil {
			return s, func() { h.release(s) }, nil
		}
		h.loadMu.Lock()
		if s := h.take(key); s != nil { // loaded by another call meanwhile
			h.loadMu.Unlock()
			return s, func() { h.release(s) }, nil
		}
		s, err := load(ctx, h.repo, h.dbPath())
		if err != nil {
			h.loadMu.Unlock()
			return nil, nil, err
		}
		h.loads++
		s.handle = h
		if !h.noWorkTree {
			h.monitor().Refresh(snapshotIndex(s))
		}
		// Installed before loadMu is released, so that a call waiting
		// for the load finds it instead of loading again.
		h.install(s)
		h.loadMu.Unlock()
		if s.key != key && attempt == 0 {
			continue // re-indexed while loading: look again
		}
		if s := h.take(s.key); s != nil {
			return s, func() { h.release(s) }, nil
		}
	}
	return nil, nil, fmt.Errorf("the index of %q keeps changing; try again when `gitnexus analyze` has finished", h.repo.ID)
}

// take references the current snapshot if it is the file with key.
func (h *handle) take(key fileKey) *Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur == nil || h.cur.key != key {
		return nil
	}
	h.cur.refs++
	h.lastUse = time.Now()
	return h.cur
}

func (h *handle) install(s *Snapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.cur
	h.cur = s
	h.lastUse = time.Now()
	if old != nil && old.refs == 0 {
		old.Reader.Close()
	}
}

func (h *handle) release(s *Snapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s.refs--
	if s.refs == 0 && s != h.cur {
		s.Reader.Close()
	}
}

// releaseIfIdle drops the current snapshot when no call used it for idle.
func (h *handle) releaseIfIdle(now time.Time, idle time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur != nil && h.cur.refs == 0 && now.Sub(h.lastUse) >= idle {
		h.cur.Reader.Close()
		h.cur = nil
	}
}

// loaded reports whether the repository's graph is in memory.
func (h *handle) loaded() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur != nil
}

// monitor is the repository's freshness monitor, made on first use.
func (h *handle) monitor() *freshness.Monitor {
	h.monMu.Lock()
	defer h.monMu.Unlock()
	if h.mon == nil {
		h.mon = freshness.NewMonitor(h.repo.RepoPath, h.tool, h.ttl)
	}
	return h.mon
}

func (h *handle) close() {
	h.monMu.Lock()
	if h.mon != nil {
		h.mon.Close()
	}
	h.monMu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur != nil && h.cur.refs == 0 {
		h.cur.Reader.Close()
	}
	h.cur = nil
}

// load opens the database and builds the in-memory graph.
func load(ctx context.Context, repo RepoHandle, path string) (*Snapshot, error) {
	key, err := statKey(path)
	if err != nil {
		return nil, err
	}
	r, err := store.Open(path)
	if err != nil {
		return nil, fmt.Errorf("repository %q: %w", repo.ID, err)
	}
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("load the graph of %q: %w", repo.ID, err)
	}
	// The graph's meta, not the reader's: an in-place write may have
	// committed between opening the file and loading it.
	return &Snapshot{Repo: repo, Reader: r, Graph: g, Meta: g.Meta(), key: key}, nil
}
