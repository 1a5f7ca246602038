package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
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
	cpuProfile  string
	history     historyFlags
	embeddings  embedFlags
}

func newAnalyzeCmd(stdio *IO) *cobra.Command {
	o := &analyzeOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "analyze [path]",
		Short: "Index a repository (default: the current directory)",
		Long: `Index a repository into <repo>/.gitnexus/graph.db and register it in the global registry
($GITNEXUS_HOME/registry.json, default ~/.gitnexus).

Files come from git (tracked plus untracked files that are not ignored) or, outside a git work
tree, from the directory itself. .gitnexusignore (gitignore syntax) excludes more. Binary files,
files over --max-file-size, vendored trees (vendor/, node_modules/, third_party/), minified bundles
and symlinks are skipped and counted. An index that is already fresh is left alone unless --force.

In a git repository the history is read too: the first-parent history of HEAD (--all-branches: every
branch, remote branch and tag), at most --max-commits commits, as Commit nodes linked to the files
(MODIFIES) and to the functions, methods and classes (CHANGES) each commit changed, following
renames. Commits that change more than --max-commit-files files keep their file links but are not
mapped onto symbols. A later analyze reads only the commits that are new since the index, and
reads a rewritten history (rebase, reset, force push) again where it differs; --force reads it all
again. --no-history leaves it out.`,
		Example: `  gitnexus analyze
  gitnexus analyze ../service --workers 2 --json
  gitnexus analyze --force --max-file-size 1024
  gitnexus analyze --since 2024-01-01 --max-commit-files 100
  gitnexus analyze --no-history`,
		Args: argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			return runAnalyze(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.force, "force", false, "rebuild even when the index is fresh, and replace a .gitnexus/ written by another tool")
	f.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parser workers")
	f.Int64Var(&o.maxFileSize, "max-file-size", ingest.DefaultMaxFileSize/1024, "skip files larger than this many KiB")
	f.BoolVar(&o.json, "json", false, "print the summary as JSON on stdout")
	f.DurationVar(&o.wait, "wait", 0, "when another analyze holds the repository, wait up to this long (e.g. 2m) instead of failing")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the analysis to this file")
	_ = f.MarkHidden("cpuprofile")
	o.history.register(f)
	o.embeddings.register(f)
	return cmd
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
	if os.Getenv("GOGC") == "" {
		// Indexing holds every file's facts until resolution: collecting
		// twice as often keeps the peak about a sixth lower (1.47 to 1.22
		// GB on the Go standard library) for no measurable time.
		debug.SetGCPercent(50)
	}
	start := time.Now()
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	if err := checkOwnDir(root, o.force); err != nil {
		return err
	}
	unlock, err := store.Lock(root, o.wait)
	if err != nil {
		return err
	}
	defer unlock()

	gs := readGitState(ctx, root)
	why := "no index yet"
	var prevEmbed *store.EmbeddingMeta
	prev, prevErr := store.OpenRepo(root)
	if prevErr == nil {
		prevEmbed = prev.Meta().Embeddings
	}
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
		if why := o.history.stale(r.Meta().History, gs.Git && gs.Commit != ""); why != "" {
			fr.Fresh, fr.Reasons = false, append(fr.Reasons, why)
		}
		if why := embedStale(r.Meta().Embeddings, embedder); why != "" {
			fr.Fresh, fr.Reasons = false, append(fr.Reasons, why)
		}
		r.Close()
		switch {
		case fr.Fresh && !o.force:
			return reportFresh(o, root)
		case o.force:
			why = "--force"
		default:
			why = strings.Join(fr.Reasons, "; ")
		}
	} else if !errors.Is(err, store.ErrNoIndex) {
		why = "the existing index is unusable: " + err.Error()
	}
	prog := newProgress(o.io.ErrOut, o.quiet)
	if !o.quiet {
		fmt.Fprintf(o.io.ErrOut, "Indexing %s (%s)\n", root, why)
	}
	res, err := ingest.Run(ctx, ingest.Options{Root: root, Workers: o.workers, MaxFileSize: o.maxFileSize * 1024,
		Progress: prog.event, History: o.history.options(gs.Git && gs.Commit != ""), ReuseHistory: !o.force,
		Embedder: embedder, EmbedProvider: ecfg.Provider, EmbedTokens: ecfg.MaxTokens})
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
	prog.event(ingest.Event{Phase: "store"})
	storeStart := time.Now()
	statsJSON, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	meta := store.Meta{ToolVersion: Version(), RepoPath: root, IndexedCommit: gs.Commit, Branch: gs.Branch,
		Dirty: gs.Dirty, IndexedAt: start.UTC(), Stats: statsJSON}
	wr, err := store.WriteWithVectors(ctx, root, res.Graph, res.Vectors, meta)
	prog.done()
	if err != nil {
		return err
	}
	sum.PhaseMillis["store"] = time.Since(storeStart).Milliseconds()
	sum.TotalMillis = time.Since(start).Milliseconds()
	sum.IndexBytes = wr.Bytes
	entry, err := registry.Upsert(registry.Entry{
		Name: filepath.Base(root), Path: root, StoragePath: store.Dir(root), IndexedAt: meta.IndexedAt,
		LastCommit: gs.Commit,
		Stats: registry.Stats{Files: sum.Files, Nodes: sum.Nodes, Edges: sum.Edges, Functions: sum.Functions,
			Communities: sum.Flows.Communities, Processes: sum.Flows.Processes},
	})
	if err != nil {
		return fmt.Errorf("index written, but registering it failed: %w", err)
	}
	if o.json {
		return writeJSON(o.io.Out, analyzeReport{Repo: entry.ID, Path: root, Status: "indexed", Reason: why,
			Commit: gs.Commit, Dirty: gs.Dirty, Summary: &sum})
	}
	printSummary(o.io.Out, entry.ID, root, &sum)
	return nil
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
func reportFresh(o *analyzeOptions, root string) error {
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
	fmt.Fprintf(w, "  files     %d (%d source: %s)\n", s.Files, s.SourceFiles, formatCounts(s.FilesByLanguage))
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
	fmt.Fprintf(w, "  symbols   %d (%s)\n", s.Symbols, orderedCounts(s.NodesByKind, ingest.KindOrder(), true))
	fmt.Fprintf(w, "  edges     %d (%s)\n", s.Edges, orderedCounts(s.EdgesByType, ingest.EdgeOrder(), false))
	if c := s.Resolve.Calls; c > 0 {
		fmt.Fprintf(w, "  calls     %d sites: %d resolved (%d by name only), %d unresolved (external or dynamic)\n",
			c, s.Resolve.CallsResolved, s.Resolve.CallsNameOnly, s.Resolve.CallsUnresolved)
	}
	if f := s.Flows; f.Communities > 0 || f.Processes > 0 {
		fmt.Fprintf(w, "  flows     %d communities (modularity %.2f), %d processes from %d entry points\n",
			f.Communities, f.Modularity, f.Processes, f.EntryPoints)
	}
	if h := s.History; h != nil && h.Git {
		printHistorySummary(w, h)
	}
	if e := s.Embeddings; e != nil {
		printEmbedSummary(w, e)
	}
	fmt.Fprintf(w, "  index     %s, %.1f MiB\n", filepath.Join(store.Dir(root), store.DBName), float64(s.IndexBytes)/(1<<20))
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
