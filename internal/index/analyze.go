// Package index is analyze's procedure: it brings a repository's index
// (<root>/.gitnexus) up to date. It takes the writer's lock, says whether
// the index is fresh and why not, reads what a re-index reuses of the
// previous index while git status runs (prefetch.go), tunes the garbage
// collector and the heap for the run, runs the pipeline (ingest.Run),
// writes the index (store.Save) with its extraction cache, and registers
// it. The command line (internal/cli/analyze.go) sets the options from its
// flags and prints the report; the git hook's runner, the watcher and the
// webhook re-index through it too.
package index

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// A Report's statuses.
const (
	StatusFresh   = "fresh"   // the index was up to date, and left alone
	StatusIndexed = "indexed" // the index was built or brought up to date
)

// freshReason is a fresh Report's reason.
const freshReason = "the index matches HEAD and the working tree (use --force to rebuild)"

// Report is what a run did.
type Report struct {
	Status string // StatusFresh or StatusIndexed
	// Reason says why the index was built ("no index yet", "--force", what
	// changed), or that it was fresh.
	Reason string
	Repo   string // the registry's id of the repository
	Root   string
	// Commit and Dirty are HEAD and whether the work tree differed from
	// it, as git said when the run began.
	Commit  string
	Dirty   bool
	Started time.Time       // when the run began
	Summary *ingest.Summary // nil when fresh
	// HistoryPending counts the older commits of the history the index
	// does not hold yet (History.Window); CatchUp says what became of
	// reading them: "started", "running" (a catch-up was running already),
	// or why it could not start.
	HistoryPending int
	CatchUp        string
}

// Analyze brings the index of the repository at root up to date (analyze)
// and, when the index is left with commits of its history to read, starts
// a catch-up (opt.StartCatchUp).
func Analyze(ctx context.Context, root string, opt Options) (*Report, error) {
	rep, err := analyze(ctx, root, opt)
	if err != nil || opt.History.CatchUp {
		return rep, err
	}
	if rep.HistoryPending > 0 && opt.StartCatchUp != nil {
		switch {
		case catchUpRunning(root):
			rep.CatchUp = "running"
		default:
			rep.CatchUp = "started"
			if err := opt.StartCatchUp(root); err != nil {
				rep.CatchUp = err.Error()
			}
		}
	}
	return rep, nil
}

// analyze brings the index of the repository at root (its top level, as
// the command line finds it) up to date: a fresh index is left alone
// unless opt.Force. A wrong option is an *OptionError; a run whose context
// is cancelled leaves the previous index as it was.
func analyze(ctx context.Context, root string, opt Options) (*Report, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	start := time.Now()
	progress := opt.Progress
	if progress == nil {
		progress = func(ingest.Event) {}
	}
	key := extractorKey(opt.Version)
	if err := checkOwnDir(root, opt.Force); err != nil {
		return nil, err
	}
	wait := opt.Wait
	if !opt.History.CatchUp && askCatchUpToYield(root) {
		wait = max(wait, yieldWait) // the catch-up's step stops within a second
	}
	unlock, err := store.Lock(root, wait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if !opt.History.CatchUp {
		_ = os.Remove(filepath.Join(store.Dir(root), CatchUpYieldName))
	}
	var gs freshness.GitState
	gsDone := make(chan struct{})
	go func() {
		timeline.Mark("git status started")
		gs = freshness.ReadGitState(ctx, root)
		timeline.Mark("git status read")
		close(gsDone)
		// The grammars of the changed files are prepared on the side
		// from now, rather than when a parse worker reaches the first of
		// them (compiling a grammar's queries takes 15-25 ms with both
		// cores busy).
		go lang.Prepare(gs.Changed[:min(len(gs.Changed), maxPrepared)])
	}()
	removeLeftovers(root)

	// The files are listed while git status runs: git is asked for the
	// tracked files, which the listing looks at, and status's untracked
	// files complete them (the listing is dropped when the index is
	// fresh).
	lctx, stopListing := context.WithCancel(ctx)
	defer stopListing()
	listing := repofiles.StartListing(lctx, root, func() ([]string, bool) {
		<-gsDone
		return gs.Untracked, gs.Git
	})
	// After the git processes are started: they run meanwhile.
	ReserveHugeHeap(root)
	timeline.Mark("huge pages reserved")
	why := "no index yet"
	readPartition := false // the index's communities are to be updated, once read
	communitiesWhy := "there is no index to start from"
	prevCacheToken := ""
	prevNodes, prevEdges := -1, -1   // nodes and edges in the index, -1 when there is none
	var prevEdgeTypes map[string]int // the index's edges by type
	var prevEmbed *store.EmbeddingMeta
	var prevDirty []string // the files git listed as changed when the index was built
	var unchangedHistory *ingest.UnchangedHistory
	cachePath := filepath.Join(store.Dir(root), ExtractCacheName)
	prev, prevErr := store.OpenRepo(root)
	timeline.Mark("index opened")
	var pf *prefetch // what a re-index reads of the index, read while git status runs
	if prevErr == nil {
		prevEmbed, prevDirty = prev.Meta().Embeddings, prev.Meta().DirtyPaths
		// So are those of the files changed when the index was built,
		// before git status says which are now.
		go lang.Prepare(prevDirty[:min(len(prevDirty), maxPrepared)])
		if !opt.Force {
			meta := prev.Meta()
			pf = startPrefetch(ctx, root, cachePath, key, meta, opt.History.options(true) != nil, meta.Writer == key)
			defer pf.stop()
		}
	}
	<-gsDone
	ecfg, err := embedConfig(opt.Embeddings, prevEmbed)
	if err != nil {
		if prev != nil {
			prev.Close()
		}
		return nil, &OptionError{err}
	}
	embedder, err := openEmbedder(ecfg)
	if err != nil {
		if prev != nil {
			prev.Close()
		}
		return nil, err
	}
	if embedder != nil {
		defer embedder.Close()
	}
	if r, err := prev, prevErr; err == nil {
		fr := freshness.Check(ctx, root, StoreIndex(ctx, r), opt.Version, gs)
		timeline.Mark("freshness checked")
		meta := r.Meta()
		if why := opt.History.stale(meta.History, gs.Git && gs.Commit != ""); why != "" {
			fr.Fresh, fr.Reasons = false, append(fr.Reasons, why)
		}
		if why := embedStale(r.Meta().Embeddings, embedder); why != "" {
			fr.Fresh, fr.Reasons = false, append(fr.Reasons, why)
		}
		prevNodes, prevEdges, prevEdgeTypes = indexedSize(meta)
		// Communities are updated from the index's only when this build
		// wrote it (another may find them differently), and with the
		// extraction cache written with it (checked below).
		switch {
		case fr.Fresh && !opt.Force:
		case opt.Force:
			communitiesWhy = "--force"
		case meta.Writer != key:
			communitiesWhy = "another build of gitnexus wrote the index"
		default:
			readPartition = true
			prevCacheToken = meta.ExtractCache
			unchangedHistory = unchangedHistoryOf(&opt.History, pf, meta, gs, embedder != nil)
		}
		r.Close()
		switch {
		case fr.Fresh && !opt.Force:
			// An index made elsewhere (a CI artifact unpacked here) is
			// fresh but not yet in this machine's registry. And a run
			// killed just after it committed the index left meta.json
			// behind it.
			id, err := ensureRegistered(root, meta)
			if err != nil {
				return nil, err
			}
			if err := store.SyncMetaJSON(root, meta); err != nil {
				return nil, err
			}
			rep := &Report{Status: StatusFresh, Reason: freshReason, Repo: id, Root: root, Commit: gs.Commit, Dirty: gs.Dirty, Started: start}
			if meta.History != nil {
				rep.HistoryPending = meta.History.Pending
			}
			return rep, nil
		case opt.Force:
			why = "--force"
		default:
			why = strings.Join(fr.Reasons, "; ")
		}
	} else if !errors.Is(err, store.ErrNoIndex) {
		why = "the existing index is unusable: " + err.Error()
	}
	// The files git lists as changed, and those it listed when the index
	// was built (which a commit since, the post-commit hook's run, most
	// likely holds), are parsed first; their grammars are being compiled
	// already (above).
	prepare := slices.Concat(gs.Changed, prevDirty)
	if opt.Indexing != nil {
		opt.Indexing(root, why)
	}
	cache := ingest.NewExtractCache(key)
	switch {
	case pf != nil:
		cache = pf.Cache()
	case !opt.Force:
		cache = ingest.LoadExtractCache(cachePath, cache.Key)
	}
	if os.Getenv("GOGC") == "" {
		// Without the index's cache (another build's, or none), every file
		// is extracted again, as with --force.
		reextract := opt.Force || cache.Token == "" || cache.Token != prevCacheToken
		debug.SetGCPercent(gcPercent(prevNodes, reextract))
		if os.Getenv("GOMEMLIMIT") == "" {
			if total := totalMemory(); total > 0 {
				debug.SetMemoryLimit(total / 2)
			}
		}
	}
	iopt := ingest.Options{Root: root, Workers: opt.Workers, MaxFileSize: opt.MaxFileSize,
		Progress: progress, History: opt.History.options(gs.Git && gs.Commit != ""),
		Previous: ingest.Previous{History: !opt.Force, CommunitiesWhy: communitiesWhy, Cache: cache,
			SizeHint: ingest.SizeHint{Nodes: prevNodes, Edges: prevEdges, EdgesByType: prevEdgeTypes}},
		Embedding: ingest.Embedding{Embedder: embedder, Provider: ecfg.Provider, Tokens: ecfg.MaxTokens}}
	iopt.Changed = prepare
	if readPartition {
		// Read on the side since the index was opened, and needed last of
		// all: waited for only when the communities are updated.
		cacheIsIndex := cache.Token != "" && cache.Token == prevCacheToken
		iopt.Previous.Communities = func() (*graph.Partition, string) {
			partition, err := pf.Partition()
			switch {
			case err != nil:
				return nil, "the index's communities cannot be read: " + err.Error()
			case partition == nil:
				return nil, "the index has no communities to start from"
			case !cacheIsIndex:
				// The files extracted anew would not tell what changed
				// since the index (one made elsewhere, or a run that did
				// not keep its cache).
				return nil, "the extraction cache was not written with the index"
			}
			return partition, ""
		}
	}
	// The index's resolution is reused for the files an edit cannot
	// affect only with the cache written with the index, by this build.
	iopt.Previous.CacheIsIndex = pf != nil && cache.Token != "" && cache.Token == prevCacheToken
	iopt.Listing = listing
	if pf != nil {
		iopt.Previous.HistoryRecords, iopt.Resolving, iopt.Previous.Ahead = pf.History, pf.ReadAhead, pf.Ahead
		if iopt.Previous.UnchangedHistory = unchangedHistory; unchangedHistory == nil {
			pf.StartHistory() // the records will be needed: read and decoded on the side meanwhile
		}
	}
	res, err := ingest.Run(ctx, iopt)
	if err != nil {
		return nil, err
	}
	if res.Stats.Files == 0 {
		return nil, fmt.Errorf("nothing to index in %s: it has no files (an empty repository, or everything is ignored or skipped: %s)",
			root, FormatCounts(res.Stats.Skipped))
	}
	if res.Stats.SourceFiles == 0 {
		return nil, fmt.Errorf("no source files in a supported language (%s) in %s; found %d other files (%s)",
			supportedLanguages(), root, res.Stats.Files, FormatCounts(res.Stats.UnsupportedFiles))
	}
	sum := ingest.Summarize(res)
	timeline.Mark("graph sorted and summarized")
	progress(ingest.Event{Phase: "store"})
	storeStart := time.Now()
	statsJSON, err := json.Marshal(sum)
	if err != nil {
		return nil, err
	}
	// The extraction cache only saves work: failing to write it costs
	// the next run time, not correctness. A run that extracted nothing
	// (only other files changed) leaves it as it is. A new cache gets a
	// new token, which the index keeps: the two are written at the same
	// time (what changed is appended to the cache's log, or the whole
	// cache, 99 MB on the Go standard library, is written again), and a
	// run killed or failing after one and before the other leaves an
	// index whose cache does not match (communities are then detected
	// again; the cache's facts stay good, keyed by content).
	cacheChanged := !cache.Same(res.Cache)
	res.Cache.Token = cache.Token
	var cacheSaved chan error
	if cacheChanged {
		res.Cache.Token = newCacheToken()
		cacheSaved = make(chan error, 1)
		go func() { cacheSaved <- res.Cache.Save(cachePath, cache) }()
	}
	var dirtyPaths []string
	if len(gs.Changed) <= store.MaxDirtyPaths {
		dirtyPaths = slices.Sorted(slices.Values(gs.Changed))
	}
	var dirtyHashes map[string]string
	for _, p := range dirtyPaths {
		if h, ok := res.Cache.ContentHash(p); ok && len(dirtyHashes) < store.MaxDirtyHashes {
			if dirtyHashes == nil {
				dirtyHashes = map[string]string{}
			}
			dirtyHashes[p] = h
		}
	}
	meta := store.Meta{ToolVersion: opt.Version, RepoPath: root, IndexedCommit: gs.Commit, Branch: gs.Branch,
		Dirty: gs.Dirty, DirtyPaths: dirtyPaths, DirtyHashes: dirtyHashes, IndexedAt: start.UTC(), Stats: statsJSON, Writer: key, ExtractCache: res.Cache.Token}
	wr, err := store.Save(ctx, root, res.Graph, res.Vectors, meta,
		store.WriteOptions{Fresh: opt.Force, Ahead: pf.Ahead(), CarryHistory: res.CarriedHistory != nil})
	timeline.Mark("index written")
	if cacheSaved != nil {
		if err := <-cacheSaved; err != nil && opt.Warn != nil {
			opt.Warn(fmt.Sprintf("%v (the next analyze extracts every file again)", err))
		}
	}
	if err != nil {
		return nil, err
	}

	sum.PhaseMillis["store"] = time.Since(storeStart).Milliseconds()
	sum.TotalMillis = time.Since(start).Milliseconds()
	sum.IndexBytes = wr.Bytes
	sum.Update, sum.Rewritten = wr.Update, wr.Rewritten
	entry, err := registry.Upsert(registry.Entry{
		Name: filepath.Base(root), Path: root, StoragePath: store.Dir(root), IndexedAt: meta.IndexedAt,
		LastCommit: gs.Commit,
		Stats: registry.Stats{Files: sum.Files, Nodes: sum.Nodes, Edges: sum.Edges, Functions: sum.Functions,
			Communities: sum.Flows.Communities, Processes: sum.Flows.Processes},
	})
	if err != nil {
		return nil, fmt.Errorf("index written, but registering it failed: %w", err)
	}
	timeline.Mark("registered")
	rep := &Report{Status: StatusIndexed, Reason: why, Repo: entry.ID, Root: root, Commit: gs.Commit, Dirty: gs.Dirty,
		Started: start, Summary: &sum}
	if h := res.Graph.History(); h != nil {
		rep.HistoryPending = h.Settings.Pending
	}
	return rep, nil
}

// unchangedHistoryOf says, for a re-index of an index this build wrote,
// when reading the git history would give the index's records again:
// HEAD is the index's newest commit, read through the first-parent
// history with the settings asked for now, without --since (a relative
// date moves with the clock), and no embeddings (commits are embedded
// from the records). nil otherwise, or when the index's summary cannot be
// read.
func unchangedHistoryOf(hist *History, pf *prefetch, meta store.Meta, gs freshness.GitState, embeddings bool) *ingest.UnchangedHistory {
	want, have := hist.options(gs.Git && gs.Commit != ""), meta.History
	switch {
	case want == nil || have == nil || embeddings || hist.stale(have, true) != "":
	case want.AllBranches || want.Since != "" || have.AllBranches || have.Since != "" || have.Head == "" || have.Head != gs.Commit:
	default:
		var sum struct {
			History *ingest.HistoryStats `json:"history"`
		}
		if json.Unmarshal(meta.Stats, &sum) != nil || sum.History == nil {
			return nil
		}
		if !pf.readsHistory() {
			return nil
		}
		return &ingest.UnchangedHistory{Generation: meta.Generation, Settings: *have, Stats: *sum.History,
			Decode: func() (*graph.History, string) {
				h, why, _ := pf.History()
				return h, why
			}}
	}
	return nil
}

// newCacheToken names one writing of the extraction cache.
func newCacheToken() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	return hex.EncodeToString(b)
}

// maxPrepared bounds the paths whose grammars are compiled ahead.
const maxPrepared = 256

// ensureRegistered adds a fresh index to the registry when no entry has
// its path, with the counts its meta kept.
func ensureRegistered(root string, meta store.Meta) (id string, err error) {
	entries, err := registry.List()
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Path == root {
			return e.ID, nil
		}
	}
	var sum ingest.Summary
	_ = json.Unmarshal(meta.Stats, &sum) // counts only: zero when unreadable
	e, err := registry.Upsert(registry.Entry{Name: filepath.Base(root), Path: root, StoragePath: store.Dir(root),
		IndexedAt: meta.IndexedAt, LastCommit: meta.IndexedCommit,
		Stats: registry.Stats{Files: sum.Files, Nodes: sum.Nodes, Edges: sum.Edges, Functions: sum.Functions,
			Communities: sum.Flows.Communities, Processes: sum.Flows.Processes}})
	if err != nil {
		return "", fmt.Errorf("the index is fresh, but registering it failed: %w", err)
	}
	return e.ID, nil
}

func supportedLanguages() string {
	var names []string
	for _, l := range lang.All() {
		names = append(names, l.Name())
	}
	return strings.Join(names, ", ")
}

// FormatCounts renders a count map as "a 3, b 1", largest first (the
// eight largest, then how many more).
func FormatCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool {
		if kvs[i].v != kvs[j].v {
			return kvs[i].v > kvs[j].v
		}
		return kvs[i].k < kvs[j].k
	})
	var parts []string
	for i, e := range kvs {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("%d more", len(kvs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
	}
	return strings.Join(parts, ", ")
}

// StoreIndex describes an open index for a freshness check.
func StoreIndex(ctx context.Context, r *store.Reader) freshness.Index {
	m := r.Meta()
	return freshness.Index{ToolVersion: m.ToolVersion, Commit: m.IndexedCommit, Dirty: m.Dirty, DirtyPaths: m.DirtyPaths, DirtyHashes: m.DirtyHashes, IndexedAt: m.IndexedAt,
		Generation: m.Generation,
		HasFile:    func(rel string) bool { return r.HasFile(ctx, rel) },
		Missing:    func(root string) ([]string, error) { return r.MissingFiles(ctx, root) },
	}
}
