// Package ingest is the indexing pipeline: list the repository's files
// (internal/repofiles), parse every file with a pool of workers, resolve
// each language family's facts into graph nodes and edges, and hand the
// graph to the store. It knows no SQL and no language rules; it only runs
// the stages and reports progress.
package ingest

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/embed"
	"gitnexus.dev/gitnexus/internal/enrich"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/store"
	"gitnexus.dev/gitnexus/internal/timeline"
)

// Options configure a run: the repository and its files, what is read of
// its history, and what a re-index reuses of the current index
// (Previous) or computes besides the graph (Embedding), each stage taking
// its part.
type Options struct {
	Root        string // absolute path of the repository
	Workers     int    // parse workers; 0 means GOMAXPROCS
	MaxFileSize int64  // bytes; files above are skipped
	// Listing, when set, is the listing of Root's files, started earlier
	// (repofiles.StartListing).
	Listing *repofiles.Listing
	// Changed are the files git lists as changed in the work tree (or
	// that were when the index was built): they are parsed first, as the
	// ones most likely to be extracted rather than read from the cache.
	// Only the order of the work depends on them.
	Changed []string
	// History, when set, reads the git history into the graph with these
	// options (the indexer fills in what it decides: which paths and
	// contents are indexed, the workers, the file size limit).
	History *history.Options
	// Previous is what the run reuses of the repository's current index;
	// the zero value builds from nothing.
	Previous Previous
	// Embedding, when its Embedder is set, embeds the symbols and commits.
	Embedding Embedding

	// Progress, when set, receives events from every stage. It is called
	// from worker goroutines and must be safe for concurrent use.
	Progress func(Event)
	// Family, when set, receives the facts of each language family before
	// they are resolved (sorted by path; to be read, not changed), with the
	// configuration files, so that checks can resolve them again.
	Family func(rules lang.Rules, facts []*lang.FileFacts, config map[string][]byte)
	// Resolving, when set, is called once the first language family's
	// program is built, as its declarations are added: that runs on one
	// core, and the caller may give the other something to do.
	Resolving func()
}

// Previous is what a re-index reuses of the repository's current index,
// read beforehand by the caller (internal/index reads it while git runs).
type Previous struct {
	// Cache, when set, holds the facts of an earlier run: files whose
	// content it has are not extracted again (parse). The run's own facts
	// are returned in Result.Cache either way when it is set.
	Cache *ExtractCache
	// CacheIsIndex says that Cache was written with the index Ahead reads
	// (by this build): then only the files an edit can affect are resolved
	// again, and the others' CALLS and REFERENCES are the index's
	// (resolve.go).
	CacheIsIndex bool
	// SizeHint is the size of the graph expected (the current index's),
	// which the graph is given room for at once; zero when not known.
	SizeHint SizeHint
	// History reuses the history records of the current index for the
	// commits they cover (history.go).
	History bool
	// HistoryRecords, when set, gives the current index's history records
	// (read beforehand), or why they cannot be read; ok false means they
	// were not read, and the run reads them.
	HistoryRecords func() (h *graph.History, why string, ok bool)
	// UnchangedHistory, when set, says that reading the git history would
	// give the index's records again (history.go).
	UnchangedHistory *UnchangedHistory
	// Ahead, when set, gives the current index's snapshot (nil when there
	// is none to give): a run whose history records are the index's
	// carries the index's history part over when the snapshot says linking
	// them again would give it back (store/carry.go). Not with an
	// Embedder (commits are embedded from the graph).
	Ahead func() *store.Ahead
	// Communities, when set, gives the current index's communities, or
	// why there are none to start from: they are updated locally when few
	// symbols changed since they were detected (enrich.Options). It is
	// called when they are updated, so the caller reads them meanwhile.
	// Files count as changed when their facts were extracted in this run.
	Communities func() (*graph.Partition, string)
	// CommunitiesWhy says why there are no communities to start from,
	// without Communities.
	CommunitiesWhy string
}

// SizeHint is the size of the current index's graph. EdgesByType counts
// its edges by type (nil when not known): those the run appends without
// looking them up need no room in the graph's edge index (indexedEdges).
type SizeHint struct {
	Nodes, Edges int
	EdgesByType  map[string]int
}

// Embedding configures the embedding of symbols and commits (embed.go).
type Embedding struct {
	// Embedder, when set, embeds; Provider names its provider and Tokens
	// is the token budget of one text. Vectors of the current index with
	// the same text and identity are reused.
	Embedder embed.Embedder
	Provider string
	Tokens   int
	// ExactLimit is the number of symbol vectors from which they are
	// linked into an HNSW; 0 means vector.ExactLimit.
	ExactLimit int
}

// indexedEdges is how many edges the graph's edge index is given room
// for: those added with a lookup. The index's CALLS and REFERENCES are
// copied for the files an edit does not affect (when CacheIsIndex), and
// the communities', processes' and history's edges are known to be new:
// all are appended without one. A run that resolves every file grows the
// index as it goes.
func indexedEdges(opts *Options) int {
	n := opts.Previous.SizeHint.Edges
	if !opts.Previous.CacheIsIndex || opts.Previous.SizeHint.EdgesByType == nil {
		return n
	}
	for name, count := range opts.Previous.SizeHint.EdgesByType {
		switch t := graph.ParseEdgeType(name); {
		case t == graph.EdgeCalls, t == graph.EdgeReferences, t == graph.EdgeMemberOf,
			t == graph.EdgeStepInProcess, t == graph.EdgeEntryPointOf, t.IsHistory():
			n -= count
		}
	}
	return max(n, 0)
}

// DefaultMaxFileSize is the default of --max-file-size.
const DefaultMaxFileSize = 512 * 1024

// Event reports progress: a stage name, and for counted stages how far it is.
type Event struct {
	Phase string // "walk", "parse", "resolve", "enrich", "history", "history-symbols", "embed", "embed-index", "store"
	Done  int
	Total int
}

// Result is the graph of a repository and what it took to build it.
type Result struct {
	Graph *graph.Graph
	// Vectors are the embeddings of the graph's symbols and commits; nil
	// without an embedder.
	Vectors *store.Vectors
	Stats   Stats
	// Cache holds this run's facts, for the next run (Options.Previous.Cache); nil
	// when the run had no cache.
	Cache *ExtractCache
	// CarriedHistory counts the history part of the index that Graph
	// leaves out, when the run carried it over (Options.Previous.Ahead): Graph then
	// holds the code, and the commits read since with the index's Commit
	// nodes their edges reach, and the index must be written in place with
	// the history kept (store.WriteOptions.CarryHistory).
	CarriedHistory *store.HistoryCounts
}

// Stats describe one analysis.
type Stats struct {
	Git   bool `json:"git"`
	Files int  `json:"files"`
	// FilesRead is how many files the walk listed to be read (the parse
	// phase's count): Files of them were indexed, the others skipped
	// once read (binary, generated, too large).
	FilesRead       int            `json:"filesRead"`
	SourceFiles     int            `json:"sourceFiles"`
	FilesByLanguage map[string]int `json:"filesByLanguage"`
	Skipped         map[string]int `json:"skipped"`
	// ParseErrors counts files whose syntax tree has errors (they still
	// yield what parsed); ExtractFailures counts files that yielded nothing.
	ParseErrors int `json:"parseErrors"`
	// FilesReused of the source files had their facts read from the
	// extraction cache instead of extracted (their content had not changed).
	FilesReused int `json:"filesReused"`
	// FilesUnread of those were not even read: their signature (size,
	// times, inode) was the one the cache recorded (filesig.go).
	FilesUnread     int               `json:"filesUnread"`
	ParseErrorFiles []string          `json:"parseErrorFiles,omitempty"`
	ExtractFailures int               `json:"extractFailures"`
	Resolve         lang.ResolveStats `json:"resolve"`
	// FilesResolved of the source files had their calls and references
	// resolved in this run; the others' are the index's, which the edit
	// could not change (resolve.go). ResolveAllWhy says why a re-index
	// resolved every file, when it had the index's resolution to start
	// from.
	FilesResolved    int              `json:"filesResolved"`
	ResolveAllWhy    string           `json:"resolveAllWhy,omitempty"`
	PhaseMillis      map[string]int64 `json:"phaseMillis"`
	UnsupportedFiles map[string]int   `json:"unsupportedExtensions,omitempty"`
	// Flows are the communities and processes found (internal/enrich).
	Flows enrich.Stats `json:"flows"`
	// History describes the git history stage; nil when it did not run.
	History *HistoryStats `json:"history,omitempty"`
	// Embeddings describes the embedding stage; nil when it did not run.
	Embeddings *EmbedStats `json:"embeddings,omitempty"`
}

// maxListedErrorFiles bounds ParseErrorFiles.
const maxListedErrorFiles = 20

// Run indexes the repository at opts.Root into a graph.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	emit := func(e Event) {
		if opts.Progress != nil {
			opts.Progress(e)
		}
	}
	st := Stats{FilesByLanguage: map[string]int{}, PhaseMillis: map[string]int64{}, UnsupportedFiles: map[string]int{}}
	timed := func(phase string, start time.Time) {
		st.PhaseMillis[phase] = time.Since(start).Milliseconds()
		timeline.Mark("%s done", phase)
	}

	start := time.Now()
	emit(Event{Phase: "walk"})
	var w *repofiles.Result
	var err error
	if l := opts.Listing; l != nil && l.Root() == opts.Root {
		w, err = l.Wait()
	} else {
		w, err = repofiles.List(ctx, opts.Root)
	}
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	st.Git = w.Git
	st.Skipped = w.Skipped
	st.FilesRead = len(w.Files)
	timed("walk", start)
	// The read ends with the run: a run that fails before the history
	// phase does not leave it going.
	hctx, stopHistory := context.WithCancel(ctx)
	defer stopHistory()
	early := startHistoryRead(hctx, &opts, w)

	start = time.Now()
	configs := &configNames{}
	for _, l := range lang.All() {
		for _, n := range l.Rules().ConfigNames() {
			configs.add(n)
		}
	}
	first := make(map[string]bool, len(opts.Changed))
	for _, p := range opts.Changed {
		first[p] = true
	}
	results, err := parseAll(ctx, opts.Root, w.Files, w.Infos, first, opts.Workers, opts.MaxFileSize, configs, opts.Previous.Cache,
		func(done, total int) { emit(Event{Phase: "parse", Done: done, Total: total}) })
	if err != nil {
		return nil, err
	}
	timed("parse", start)

	start = time.Now()
	emit(Event{Phase: "resolve"})
	g := graph.NewSized(opts.Previous.SizeHint.Nodes, opts.Previous.SizeHint.Edges, indexedEdges(&opts))
	config := map[string][]byte{}
	families := map[lang.Rules][]*lang.FileFacts{}
	var familyOrder []lang.Rules
	var kept []string
	extracted := map[string]bool{} // files whose facts were not reused
	var next *ExtractCache
	if opts.Previous.Cache != nil {
		next = NewExtractCache(opts.Previous.Cache.Key)
	}
	for _, r := range results {
		if next != nil && r.encoded != nil {
			next.add(r.path, r.hash, r.encoded, r.sig)
		}
		if r.reused {
			st.FilesReused++
			if r.unread {
				st.FilesUnread++
			}
		} else {
			extracted[r.path] = true
		}
		if r.skip != "" {
			st.Skipped[r.skip]++
			continue
		}
		kept = append(kept, r.path)
		if r.config != nil {
			config[r.path] = r.config
		}
		language := ""
		switch {
		case r.lang == nil:
			ext := strings.ToLower(path.Ext(r.path))
			if ext == "" {
				ext = "(none)"
			}
			st.UnsupportedFiles[ext]++
		case r.facts == nil:
			st.ExtractFailures++
			language = r.lang.Name()
		default:
			language = r.lang.Name()
			st.SourceFiles++
			st.FilesByLanguage[language]++
			if r.facts.SyntaxErrors > 0 {
				st.ParseErrors++
				if len(st.ParseErrorFiles) < maxListedErrorFiles {
					st.ParseErrorFiles = append(st.ParseErrorFiles, r.path)
				}
			}
			rules := r.lang.Rules()
			if _, ok := families[rules]; !ok {
				familyOrder = append(familyOrder, rules)
			}
			families[rules] = append(families[rules], r.facts)
		}
		g.AddNode(graph.Node{ID: graph.FileID(r.path), Kind: graph.KindFile, Name: path.Base(r.path),
			QualifiedName: r.path, FilePath: r.path, Language: language, StartLine: 1, EndLine: lineCount(r)})
	}
	st.Files = len(kept)
	addFolders(g, kept)
	sources := map[string]bool{}
	for _, rules := range familyOrder {
		for _, f := range families[rules] {
			sources[f.Path] = true
		}
	}
	digest := configDigest(config)
	if next != nil {
		next.Configs = digest
	}
	rsl := newResolution(&opts, g, &st, next, extracted, sources, digest)
	var runs []*familyRun
	for _, rules := range familyOrder {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		facts := families[rules]
		sort.Slice(facts, func(i, j int) bool { return facts[i].Path < facts[j].Path })
		if opts.Family != nil {
			opts.Family(rules, facts, config)
		}
		runs = append(runs, rsl.family(rules, facts, config))
	}
	rsl.finish(runs)
	timed("resolve", start)

	start = time.Now()
	emit(Event{Phase: "enrich"})
	var previous *graph.Partition
	previousWhy := opts.Previous.CommunitiesWhy
	if opts.Previous.Communities != nil {
		previous, previousWhy = opts.Previous.Communities()
	}
	fs, err := enrich.Run(ctx, g, enrich.Options{Previous: previous, PreviousWhy: previousWhy,
		Changed: func(p string) bool { return extracted[p] }})
	if err != nil {
		return nil, fmt.Errorf("find communities and processes: %w", err)
	}
	st.Flows = fs
	timed("enrich", start)
	res := &Result{}
	if opts.History != nil {
		start = time.Now()
		hst, carried, err := addHistory(ctx, &opts, w, g, func(p string) bool { return extracted[p] }, emit, early)
		if err != nil {
			return nil, err
		}
		st.History = hst
		res.CarriedHistory = carried
		timed("history", start)
	}
	var vecs *store.Vectors
	if opts.Embedding.Embedder != nil {
		start = time.Now()
		v, est, err := addEmbeddings(ctx, &opts, g, emit)
		if err != nil {
			return nil, err
		}
		vecs, st.Embeddings = v, est
		timed("embed", start)
	}
	res.Graph, res.Vectors, res.Stats, res.Cache = g, vecs, st, next
	return res, nil
}

func lineCount(r parsed) int {
	if r.facts != nil {
		return r.facts.Lines
	}
	return 0
}

// addFolders adds a Folder node for every directory holding a kept file,
// and CONTAINS edges Folder→Folder and Folder→File.
func addFolders(g *graph.Graph, files []string) {
	contains := func(src, dst string) {
		g.AddEdge(graph.Edge{Src: src, Dst: dst, Type: graph.EdgeContains, Confidence: 1, Reason: graph.ReasonSyntax})
	}
	for _, f := range files {
		dir := lang.Dir(f)
		if dir == "" {
			continue
		}
		contains(graph.FolderID(dir), graph.FileID(f))
		for dir != "" {
			added := g.AddNode(graph.Node{ID: graph.FolderID(dir), Kind: graph.KindFolder, Name: path.Base(dir),
				QualifiedName: dir, FilePath: dir})
			parent := lang.Dir(dir)
			if parent != "" {
				contains(graph.FolderID(parent), graph.FolderID(dir))
			}
			if !added {
				break
			}
			dir = parent
		}
	}
}
