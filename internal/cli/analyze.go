package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/agentsetup"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/hugeheap"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/timeline"
)

type analyzeOptions struct {
	io          *IO
	path        string
	force       bool
	workers     int
	maxFileSize int64 // KiB
	json        bool
	wait        time.Duration
	quiet       bool
	// brief: one line per run, no progress (analyze --watch's runs after
	// the first).
	brief      bool
	cpuProfile string
	history    historyFlags
	agentsMD   bool
	watch      bool
	debounce   time.Duration
	embeddings embedFlags
}

func newAnalyzeCmd(stdio *IO) *cobra.Command {
	o := &analyzeOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "analyze [path]",
		Short: "Index a repository (default: the current directory)",
		Long: `Index a repository into <repo>/.gitnexus/graph.db and register it in the global registry
($GITNEXUS_HOME/registry.json, default ~/.gitnexus).

Files come from git (tracked, and untracked ones not ignored) or the directory itself;
.gitnexusignore excludes more. Binary, minified, vendored and too large files are skipped and
counted. A fresh index is left alone unless --force. A re-index extracts only the files whose
content changed (the others' facts come from .gitnexus/extract.cache, unread when their size and
times are the ones recorded), resolves again only the calls of the files the edit can affect, and
computes the rest again: the index is the one a rebuild makes.

In a git repository the history is read too (first-parent, or --all-branches; at most
--max-commits): Commit nodes linked to the files (MODIFIES) and symbols (CHANGES) each commit
changed, following renames; commits over --max-commit-files keep only their file links. Later runs
read only new commits, and a rewritten history again where it differs. --no-history leaves it out.

--watch keeps running and analyzes again when files change: saves are coalesced for --debounce;
git's HEAD and refs count (commits, checkouts, pulls), its other internals, .gitnexus/, vendored
and ignored directories do not. Each re-index prints one line. Ctrl-C or SIGTERM stops it.
Details: docs/keeping-fresh.md.`,
		Example: `  gitnexus analyze
  gitnexus analyze ../service --workers 2 --json
  gitnexus analyze --force --max-file-size 1024
  gitnexus analyze --since 2024-01-01 --max-commit-files 100
  gitnexus analyze --no-history
  gitnexus analyze --agents-md       # and tell agents about the tools in AGENTS.md
  gitnexus analyze --watch --debounce 1s`,
		Args: argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			if o.watch {
				// The section names the tools, not the index: written
				// before watching starts.
				if o.agentsMD {
					if err := writeAgentsBlock(cmd.Context(), o); err != nil {
						return err
					}
				}
				return runWatch(cmd.Context(), o)
			}
			if err := runAnalyze(cmd.Context(), o); err != nil {
				return err
			}
			if o.agentsMD {
				return writeAgentsBlock(cmd.Context(), o)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.force, "force", false, "rebuild even when the index is fresh, extracting every file and reading the whole history again, and replace a .gitnexus/ written by another tool")
	f.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parser workers")
	f.Int64Var(&o.maxFileSize, "max-file-size", ingest.DefaultMaxFileSize/1024, "skip files larger than this many KiB")
	f.BoolVar(&o.json, "json", false, "print the summary as JSON on stdout")
	f.DurationVar(&o.wait, "wait", 0, "when another analyze holds the repository, wait up to this long (e.g. 2m) instead of failing")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the analysis to this file")
	_ = f.MarkHidden("cpuprofile")
	f.BoolVar(&o.agentsMD, "agents-md", false, "also write a gitnexus section into AGENTS.md (and CLAUDE.md when it exists), between markers (gitnexus setup --uninstall removes it)")
	o.history.register(f)
	f.BoolVar(&o.watch, "watch", false, "keep running and analyze again when files change")
	f.DurationVar(&o.debounce, "debounce", defaultDebounce, "with --watch, wait until files stopped changing for this long")
	o.embeddings.register(f)
	return cmd
}

// writeAgentsBlock writes or updates the instruction block of the
// repository's AGENTS.md (and CLAUDE.md); the report goes to stderr when
// stdout carries JSON.
func writeAgentsBlock(ctx context.Context, o *analyzeOptions) error {
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	env, err := agentsetup.OSEnv()
	if err != nil {
		return err
	}
	home, err := registry.Home()
	if err != nil {
		return err
	}
	changes, err := agentsetup.InstallBlock(agentsetup.Options{Env: env, Home: home}, root)
	if err != nil {
		return err
	}
	w := o.io.Out
	if o.json {
		w = o.io.ErrOut
	}
	if err := printChanges(w, changes, false); err != nil {
		return err
	}
	return setupFailures(changes)
}

func runAnalyze(ctx context.Context, o *analyzeOptions) error {
	if o.workers < 1 {
		return usageError{fmt.Errorf("--workers must be at least 1")}
	}
	if o.maxFileSize < 1 {
		return usageError{fmt.Errorf("--max-file-size must be at least 1 (KiB)")}
	}
	if err := o.history.check(); err != nil {
		return usageError{err}
	}
	if o.cpuProfile != "" {
		pf, err := os.Create(o.cpuProfile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	timeline.Mark("analyze")
	defer timeline.Dump()
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	timeline.Mark("repository root found")
	if err := checkOwnDir(root, o.force); err != nil {
		return err
	}
	unlock, err := store.Lock(root, o.wait)
	if err != nil {
		return err
	}
	defer unlock()
	var gs gitState
	gsDone := make(chan struct{})
	go func() {
		timeline.Mark("git status started")
		gs = readGitState(ctx, root)
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
	reserveHugeHeap(root)
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
	cachePath := filepath.Join(store.Dir(root), extractCacheName)
	prev, prevErr := store.OpenRepo(root)
	timeline.Mark("index opened")
	var pf *prefetch // what a re-index reads of the index, read while git status runs
	if prevErr == nil {
		prevEmbed, prevDirty = prev.Meta().Embeddings, prev.Meta().DirtyPaths
		// So are those of the files changed when the index was built,
		// before git status says which are now.
		go lang.Prepare(prevDirty[:min(len(prevDirty), maxPrepared)])
		if !o.force {
			meta := prev.Meta()
			pf = startPrefetch(ctx, root, cachePath, meta, o.history.options(true) != nil, meta.Writer == extractorKey())
			defer pf.stop()
		}
	}
	<-gsDone
	ecfg, err := o.embeddings.config(prevEmbed)
	if err != nil {
		if prev != nil {
			prev.Close()
		}
		return usageError{err}
	}
	embedder, err := openEmbedder(ecfg)
	if err != nil {
		if prev != nil {
			prev.Close()
		}
		return err
	}
	if embedder != nil {
		defer embedder.Close()
	}
	if r, err := prev, prevErr; err == nil {
		fr := checkFreshness(ctx, root, r, gs)
		timeline.Mark("freshness checked")
		meta := r.Meta()
		if why := o.history.stale(meta.History, gs.Git && gs.Commit != ""); why != "" {
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
		case fr.Fresh && !o.force:
		case o.force:
			communitiesWhy = "--force"
		case meta.Writer != extractorKey():
			communitiesWhy = "another build of gitnexus wrote the index"
		default:
			readPartition = true
			prevCacheToken = meta.ExtractCache
			unchangedHistory = unchangedHistoryOf(o, pf, meta, gs, embedder != nil)
		}
		r.Close()
		switch {
		case fr.Fresh && !o.force:
			// An index made elsewhere (a CI artifact unpacked here) is
			// fresh but not yet in this machine's registry. And a run
			// killed just after it committed the index left meta.json
			// behind it.
			if err := ensureRegistered(root, meta); err != nil {
				return err
			}
			if err := store.SyncMetaJSON(root, meta); err != nil {
				return err
			}
			return reportFresh(o, root)
		case o.force:
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
	prog := newProgress(o.io.ErrOut, o.quiet)
	if !o.quiet {
		fmt.Fprintf(o.io.ErrOut, "Indexing %s (%s)\n", root, why)
	}
	cache := ingest.NewExtractCache(extractorKey())
	switch {
	case pf != nil:
		cache = pf.Cache()
	case !o.force:
		cache = ingest.LoadExtractCache(cachePath, cache.Key)
	}
	if os.Getenv("GOGC") == "" {
		// Without the index's cache (another build's, or none), every file
		// is extracted again, as with --force.
		reextract := o.force || cache.Token == "" || cache.Token != prevCacheToken
		debug.SetGCPercent(gcPercent(prevNodes, reextract))
		if os.Getenv("GOMEMLIMIT") == "" {
			if total := totalMemory(); total > 0 {
				debug.SetMemoryLimit(total / 2)
			}
		}
	}
	iopt := ingest.Options{Root: root, Workers: o.workers, MaxFileSize: o.maxFileSize * 1024,
		Progress: prog.event, History: o.history.options(gs.Git && gs.Commit != ""), ReuseHistory: !o.force,
		CommunitiesWhy: communitiesWhy, Cache: cache, Embedder: embedder, EmbedProvider: ecfg.Provider, EmbedTokens: ecfg.MaxTokens}
	iopt.SizeHint.Nodes, iopt.SizeHint.Edges, iopt.SizeHint.EdgesByType = prevNodes, prevEdges, prevEdgeTypes
	iopt.Changed = prepare
	if readPartition {
		// Read on the side since the index was opened, and needed last of
		// all: waited for only when the communities are updated.
		cacheIsIndex := cache.Token != "" && cache.Token == prevCacheToken
		iopt.Communities = func() (*graph.Partition, string) {
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
	iopt.CacheIsIndex = pf != nil && cache.Token != "" && cache.Token == prevCacheToken
	iopt.Listing = listing
	if pf != nil {
		iopt.PreviousHistory, iopt.Resolving, iopt.Ahead = pf.History, pf.ReadAhead, pf.Ahead
		if iopt.UnchangedHistory = unchangedHistory; unchangedHistory == nil {
			pf.StartHistory() // the records will be needed: read and decoded on the side meanwhile
		}
	}
	res, err := ingest.Run(ctx, iopt)
	prog.done()
	if err != nil {
		return err
	}
	if res.Stats.Files == 0 {
		return fmt.Errorf("nothing to index in %s: it has no files (an empty repository, or everything is ignored or skipped: %s)",
			root, formatCounts(res.Stats.Skipped))
	}
	if res.Stats.SourceFiles == 0 {
		return fmt.Errorf("no source files in a supported language (%s) in %s; found %d other files (%s)",
			supportedLanguages(), root, res.Stats.Files, formatCounts(res.Stats.UnsupportedFiles))
	}
	sum := ingest.Summarize(res)
	timeline.Mark("graph sorted and summarized")
	prog.event(ingest.Event{Phase: "store"})
	storeStart := time.Now()
	statsJSON, err := json.Marshal(sum)
	if err != nil {
		return err
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
	meta := store.Meta{ToolVersion: Version(), RepoPath: root, IndexedCommit: gs.Commit, Branch: gs.Branch,
		Dirty: gs.Dirty, DirtyPaths: dirtyPaths, DirtyHashes: dirtyHashes, IndexedAt: start.UTC(), Stats: statsJSON, Writer: extractorKey(), ExtractCache: res.Cache.Token}
	wr, err := store.Save(ctx, root, res.Graph, res.Vectors, meta,
		store.WriteOptions{Fresh: o.force, Ahead: pf.Ahead(), CarryHistory: res.CarriedHistory != nil})
	timeline.Mark("index written")
	prog.done()
	if cacheSaved != nil {
		if err := <-cacheSaved; err != nil && !o.quiet {
			fmt.Fprintf(o.io.ErrOut, "warning: %v (the next analyze extracts every file again)\n", err)
		}
	}
	if err != nil {
		return err
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
		return fmt.Errorf("index written, but registering it failed: %w", err)
	}
	timeline.Mark("registered")
	if o.json {
		return writeJSON(o.io.Out, analyzeReport{Repo: entry.ID, Path: root, Status: "indexed", Reason: why,
			Commit: gs.Commit, Dirty: gs.Dirty, Summary: &sum})
	}
	if o.brief {
		printBrief(o.io.Out, start, why, &sum)
		return nil
	}
	printSummary(o.io.Out, entry.ID, root, &sum)
	return nil
}

// printBrief is a watcher's line for one re-index: when, how long, why,
// and what it did.
func printBrief(w io.Writer, at time.Time, why string, s *ingest.Summary) {
	if r := []rune(why); len(r) > 80 {
		why = string(r[:79]) + "…"
	}
	fmt.Fprintf(w, "%s re-indexed in %.1fs (%s): %d of %d source files extracted, %d nodes, %d edges\n",
		at.Format("15:04:05"), float64(s.TotalMillis)/1000, why, s.SourceFiles-s.FilesReused, s.SourceFiles, s.Nodes, s.Edges)
}

// unchangedHistoryOf says, for a re-index of an index this build wrote,
// when reading the git history would give the index's records again:
// HEAD is the index's newest commit, read through the first-parent
// history with the settings asked for now, without --since (a relative
// date moves with the clock), and no embeddings (commits are embedded
// from the records). nil otherwise, or when the index's summary cannot be
// read.
func unchangedHistoryOf(o *analyzeOptions, pf *prefetch, meta store.Meta, gs gitState, embeddings bool) *ingest.UnchangedHistory {
	want, have := o.history.options(gs.Git && gs.Commit != ""), meta.History
	switch {
	case want == nil || have == nil || embeddings || o.history.stale(have, true) != "":
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

// reserveHugeHeap advises huge pages for the heap an analysis of root will
// grow: six times the index's size and 256 MiB more (a re-index of the Go
// standard library, a 296 MB index, peaks at 1.6 GB), or, without an index,
// a quarter of the machine's memory, 8 GiB at most (root ""). Only what is
// touched becomes resident, but the advice costs 4 ms per GiB, hence the
// estimate. The first call of a process decides.
func reserveHugeHeap(root string) {
	limit := totalMemory() / 4
	if limit <= 0 {
		limit = 2 << 30
	}
	limit = min(limit, 8<<30)
	size := limit
	if fi, err := os.Stat(filepath.Join(store.Dir(root), store.DBName)); root != "" && err == nil {
		size = min(6*fi.Size()+256<<20, limit)
	}
	hugeheap.Reserve(size)
}

// gcPercent is the garbage collector's target for an analyze. Indexing
// holds every file's facts until resolution: collecting twice as often as
// Go's default keeps the peak about a sixth lower (1.47 to 1.22 GB on the
// Go standard library) for no measurable time when everything is
// extracted (no index, --force, no extraction cache of the index:
// reextract). A re-index is another matter: it reads the extraction cache
// and the index's snapshot, and collecting is a good part of its time.
// Collecting half as often as Go's default takes a re-index of trpc
// (18,600 nodes) from 0.68 s to 0.53 s for 55 MB more at the peak; a
// quarter as often takes one of the Go standard library (240,000 nodes) to
// 0.86 of the time at 50, for a peak of 2.2 GB instead of 1.5 (less often
// again is no faster). The memory limit, half the machine's
// (totalMemory), makes it collect sooner where memory is short. Measured
// in bench/incremental/RESULTS.md.
func gcPercent(prevNodes int, reextract bool) int {
	switch {
	case prevNodes < 0 || reextract:
		return 50
	case prevNodes < 100_000:
		return 200
	default:
		return 400
	}
}

// totalMemory is the machine's memory in bytes (Linux's /proc/meminfo), 0
// when it cannot tell.
func totalMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return parseMemTotal(string(data))
}

// parseMemTotal reads the MemTotal line of /proc/meminfo ("MemTotal:
// 24577000 kB"), 0 when there is none.
func parseMemTotal(meminfo string) int64 {
	for _, line := range strings.Split(meminfo, "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// indexedSize is the node and edge counts an index's meta keeps, -1 for
// each it does not say, and its edge counts by type (nil when it does not
// say).
func indexedSize(meta store.Meta) (nodes, edges int, byType map[string]int) {
	var s struct {
		Nodes       *int           `json:"nodes"`
		Edges       *int           `json:"edges"`
		EdgesByType map[string]int `json:"edgesByType"`
	}
	if json.Unmarshal(meta.Stats, &s) != nil {
		return -1, -1, nil
	}
	nodes, edges, byType = -1, -1, s.EdgesByType
	if s.Nodes != nil {
		nodes = *s.Nodes
	}
	if s.Edges != nil {
		edges = *s.Edges
	}
	return nodes, edges, byType
}

type analyzeReport struct {
	Repo    string          `json:"repo"`
	Path    string          `json:"path"`
	Status  string          `json:"status"` // "indexed" or "fresh"
	Reason  string          `json:"reason,omitempty"`
	Commit  string          `json:"commit,omitempty"`
	Dirty   bool            `json:"dirty"`
	Summary *ingest.Summary `json:"summary,omitempty"`
}

// reportFresh tells the user nothing needed doing.
// ensureRegistered adds a fresh index to the registry when no entry has
// its path, with the counts its meta kept.
func ensureRegistered(root string, meta store.Meta) error {
	entries, err := registry.List()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Path == root {
			return nil
		}
	}
	var sum ingest.Summary
	_ = json.Unmarshal(meta.Stats, &sum) // counts only: zero when unreadable
	_, err = registry.Upsert(registry.Entry{Name: filepath.Base(root), Path: root, StoragePath: store.Dir(root),
		IndexedAt: meta.IndexedAt, LastCommit: meta.IndexedCommit,
		Stats: registry.Stats{Files: sum.Files, Nodes: sum.Nodes, Edges: sum.Edges, Functions: sum.Functions,
			Communities: sum.Flows.Communities, Processes: sum.Flows.Processes}})
	if err != nil {
		return fmt.Errorf("the index is fresh, but registering it failed: %w", err)
	}
	return nil
}

func reportFresh(o *analyzeOptions, root string) error {
	if o.brief {
		return nil // a watcher's change that changed nothing indexed
	}
	if o.json {
		return writeJSON(o.io.Out, analyzeReport{Path: root, Status: "fresh",
			Reason: "the index matches HEAD and the working tree (use --force to rebuild)"})
	}
	fmt.Fprintf(o.io.Out, "%s: the index is up to date with HEAD and the working tree (use --force to rebuild).\n", root)
	return nil
}

// checkOwnDir refuses to overwrite a .gitnexus that is not ours without
// --force: a file of that name, or a meta.json written by another tool.
func checkOwnDir(root string, force bool) error {
	dir := store.Dir(root)
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is a file, not an index directory: move it away, then run gitnexus analyze again", dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, store.MetaName))
	if err != nil {
		return nil
	}
	var m struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &m) == nil && m.Format == store.MetaFormat {
		return nil
	}
	if force {
		return nil
	}
	return fmt.Errorf("%s holds an index written by another tool (its meta.json is not ours); rerun with --force to replace our files there (other files are left alone)", dir)
}

func supportedLanguages() string {
	var names []string
	for _, l := range lang.All() {
		names = append(names, l.Name())
	}
	return strings.Join(names, ", ")
}

// formatCounts renders a count map as "a 3, b 1", largest first.
func formatCounts(m map[string]int) string {
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

func printSummary(w io.Writer, id, root string, s *ingest.Summary) {
	fmt.Fprintf(w, "Indexed %s as %q in %.1fs\n", root, id, float64(s.TotalMillis)/1000)
	files := fmt.Sprint(s.Files)
	if s.FilesRead > s.Files {
		// The parse bar counted the files read; some were skipped then.
		files = fmt.Sprintf("%d of %d read", s.Files, s.FilesRead)
	}
	fmt.Fprintf(w, "  files     %s (%d source: %s)\n", files, s.SourceFiles, formatCounts(s.FilesByLanguage))
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "  skipped   %s\n", formatCounts(s.Skipped))
	}
	if s.ParseErrors > 0 {
		fmt.Fprintf(w, "  syntax    %d file(s) with syntax errors (indexed as far as they parse), e.g. %s\n",
			s.ParseErrors, strings.Join(s.ParseErrorFiles[:min(3, len(s.ParseErrorFiles))], ", "))
	}
	if s.ExtractFailures > 0 {
		fmt.Fprintf(w, "  failed    %d file(s) could not be read as code\n", s.ExtractFailures)
	}
	fmt.Fprintf(w, "  symbols   %d (%s)\n", s.Symbols, orderedCounts(s.NodesByKind, graph.KindNames(), true))
	fmt.Fprintf(w, "  edges     %d (%s)\n", s.Edges, orderedCounts(s.EdgesByType, graph.EdgeTypeNames(), false))
	if c := s.Resolve.Calls; c > 0 {
		fmt.Fprintf(w, "  calls     %d sites: %d resolved (%d by name only), %d unresolved (external or dynamic)\n",
			c, s.Resolve.CallsResolved, s.Resolve.CallsNameOnly, s.Resolve.CallsUnresolved)
	}
	if m := s.Resolve.Macros; m > 0 {
		fmt.Fprintf(w, "  macros    %d invocations (expanded code is not indexed; no CALLS edges)\n", m)
	}
	if f := s.Flows; f.Communities > 0 || f.Processes > 0 {
		fmt.Fprintf(w, "  flows     %d communities (modularity %.2f), %d processes from %d entry points\n",
			f.Communities, f.Modularity, f.Processes, f.EntryPoints)
		if f.CommunityUpdate == "local" {
			fmt.Fprintf(w, "            communities updated locally: %d symbols placed, %d communities added, %d dissolved; "+
				"%d of %d changed symbols before they are detected again\n",
				f.CommunityPlaced, f.CommunitiesAdded, f.CommunitiesDissolved, f.CommunityDrift, f.CommunityDriftLimit)
		}
	}
	if h := s.History; h != nil && h.Git {
		printHistorySummary(w, h)
	}
	if e := s.Embeddings; e != nil {
		printEmbedSummary(w, e)
	}
	fmt.Fprintf(w, "  index     %s, %.1f MiB\n", filepath.Join(store.Dir(root), store.DBName), float64(s.IndexBytes)/(1<<20))
	switch u := s.Update; {
	case u != nil:
		hist := ""
		if u.HistoryRewritten {
			hist = "; history rewritten"
		}
		fmt.Fprintf(w, "  written   in place: nodes +%d ~%d -%d, edges +%d ~%d -%d%s\n", u.NodesAdded, u.NodesChanged,
			u.NodesRemoved, u.EdgesAdded, u.EdgesChanged, u.EdgesRemoved, hist)
	case s.Rewritten != "":
		fmt.Fprintf(w, "  written   as a new file (%s)\n", s.Rewritten)
	}
}

// orderedCounts renders counts in a fixed order; symbolsOnly drops File,
// Folder, Package and the history's kinds.
func orderedCounts(m map[string]int, order []string, symbolsOnly bool) string {
	var parts []string
	for _, k := range order {
		if symbolsOnly && (k == "File" || k == "Folder" || k == "Package" || k == "Community" || k == "Process" || graph.ParseKind(k).IsHistory()) {
			continue
		}
		if v := m[k]; v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, v))
		}
	}
	return strings.Join(parts, ", ")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
