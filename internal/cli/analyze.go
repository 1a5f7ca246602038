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
	"runtime/pprof"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/agentsetup"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/index"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/registry"
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
	history    index.History
	agentsMD   bool
	watch      bool
	// push: --push, to store (the address, checked).
	push       bool
	store      string
	debounce   time.Duration
	embeddings string // --embeddings: index.Options.Embeddings
	// waitHistory: --wait-history; catchUp: --history-catch-up.
	waitHistory, catchUp bool
}

// pushToEnv is the value of a bare --push: the address comes from the
// environment.
const pushToEnv = "$GITNEXUS_DB_URI"

func newAnalyzeCmd(stdio *IO) *cobra.Command {
	o := &analyzeOptions{io: stdio}
	var seedRepo, seedLanguage string
	var seedFull bool
	cmd := &cobra.Command{
		Use:     "analyze [path]",
		Aliases: []string{"index"},
		Short:   "Index a repository (default: the current directory)",
		Long: `Index a repository into <repo>/.gitnexus/graph.db and register it in the global registry
($GITNEXUS_HOME/registry.json, default ~/.gitnexus).

Files come from git (tracked, and untracked ones not ignored) or the directory itself;
.gitnexusignore excludes more. Binary, minified, vendored and too large files are skipped and
counted. A fresh index is left alone unless --force. A re-index extracts only the files whose
content changed (the others' facts come from .gitnexus/extract.cache, unread when their size and
times are the ones recorded), resolves again only the calls of the files the edit can affect, and
computes the rest again: the index is the one a rebuild makes.

In a git repository the history is read too (first-parent, or --all-branches; at most
--max-commits): Commit nodes linked to the files (MODIFIES, following renames) and symbols
(CHANGES) each changed. Commits it cannot map in 300 ms are mapped in the background
(--wait-history, $GITNEXUS_WAIT_HISTORY or $CI: before returning); later runs read only new ones.

--watch analyzes again when files change (saves coalesced for --debounce; .gitnexus/, vendored and
ignored directories do not count), one line per re-index, until Ctrl-C or SIGTERM (docs/keeping-fresh.md).`,
		Example: `  gitnexus analyze
  gitnexus analyze ../service --workers 2 --json
  gitnexus analyze --force --max-file-size 1024
  gitnexus analyze --since 2024-01-01 --max-commit-files 100
  gitnexus analyze --agents-md       # and tell agents about the tools in AGENTS.md
  gitnexus analyze --watch --debounce 1s`,
		Args: argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			// gitnexus index --repo R [--full] is the seed documents' form.
			if cmd.Flags().Changed("language") {
				return usageError{fmt.Errorf("--language %s: every supported language is indexed in one run; run `gitnexus analyze %s`", seedLanguage, o.path)}
			}
			if cmd.Flags().Changed("repo") {
				if len(args) == 1 {
					return usageError{fmt.Errorf("give the repository as an argument or as --repo, not both")}
				}
				o.path = seedRepo
			}
			o.force = o.force || seedFull
			o.push = cmd.Flags().Changed("push")
			if o.push {
				if o.store == pushToEnv {
					o.store = ""
				}
				if o.watch || o.catchUp {
					return usageError{fmt.Errorf("--push runs once: not with --watch (push from a git hook or CI instead, docs/team.md)")}
				}
				uri, err := storeURI(o.store)
				if err != nil {
					return err
				}
				o.store = uri
				o.waitHistory = true // the store gets the whole history, not a part the catch-up completes later
			}
			switch {
			case o.waitHistory || waitHistoryEnv() && !cmd.Flags().Changed("history-window"):
				o.history.Window, o.history.Budget = 0, 0
			case cmd.Flags().Changed("history-window"):
				o.history.Budget = 0 // a count, for the same index on any machine
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
			if o.push {
				root, err := repoRoot(cmd.Context(), o.path)
				if err != nil {
					return err
				}
				stdio := *o.io
				if o.json {
					stdio.Out = o.io.ErrOut // stdout carries the analysis's JSON
				}
				if err := pushRepo(cmd.Context(), &stdio, o.store, root, "", false); err != nil {
					return err
				}
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
	registerHistoryFlags(f, &o.history, &o.waitHistory, &o.catchUp)
	f.StringVar(&o.store, "push", "", "then copy the index to the shared store at this postgres:// address, or $GITNEXUS_DB_URI's for a bare --push (waits for the history first)")
	f.Lookup("push").NoOptDefVal = pushToEnv
	f.BoolVar(&o.watch, "watch", false, "keep running and analyze again when files change")
	f.DurationVar(&o.debounce, "debounce", defaultDebounce, "with --watch, wait until files stopped changing for this long")
	registerEmbedFlags(f, &o.embeddings)
	// The seed documents' spelling (gitnexus index --repo R --full), kept out
	// of the help: the path argument and --force say the same.
	f.StringVar(&seedRepo, "repo", "", "the repository (the path argument)")
	f.BoolVar(&seedFull, "full", false, "rebuild (--force)")
	f.StringVar(&seedLanguage, "language", "", "refused: every supported language is indexed")
	for _, name := range []string{"repo", "full", "language"} {
		_ = f.MarkHidden(name)
	}
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

// indexOptions are the options of the analysis the flags ask for.
func (o *analyzeOptions) indexOptions() index.Options {
	opt := index.Options{Version: Version(), Force: o.force, Workers: o.workers, MaxFileSize: o.maxFileSize * 1024,
		Wait: o.wait, History: o.history, Embeddings: o.embeddings, StartCatchUp: index.StartCatchUp}
	return opt
}

// runAnalyze indexes the repository at o.path (index.Analyze) with a
// progress bar on stderr, and prints what it did.
func runAnalyze(ctx context.Context, o *analyzeOptions) error {
	opt := o.indexOptions()
	if err := opt.Check(); err != nil {
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
	if o.catchUp {
		return catchUpHistory(ctx, o, opt)
	}
	return analyzeRepo(ctx, o, opt)
}

// analyzeRepo runs index.Analyze on the repository at o.path with opt,
// with o's progress output, and prints its report.
func analyzeRepo(ctx context.Context, o *analyzeOptions, opt index.Options) error {
	timeline.Mark("analyze")
	defer timeline.Dump()
	root, err := repoRoot(ctx, o.path)
	if err != nil {
		return err
	}
	timeline.Mark("repository root found")
	prog := newProgress(o.io.ErrOut, o.quiet)
	opt.Progress = prog.event
	if !o.quiet {
		opt.Indexing = func(root, why string) { fmt.Fprintf(o.io.ErrOut, "Indexing %s (%s)\n", root, why) }
		opt.Warn = func(msg string) {
			prog.done()
			fmt.Fprintf(o.io.ErrOut, "warning: %s\n", msg)
		}
	}
	rep, err := index.Analyze(ctx, root, opt)
	prog.done()
	var oe *index.OptionError
	if errors.As(err, &oe) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	return printAnalyzeReport(o, rep)
}

// printAnalyzeReport prints what an analysis did: as JSON with --json, a
// watcher's line (brief), or the summary; a fresh index is one line (none
// for a watcher).
func printAnalyzeReport(o *analyzeOptions, rep *index.Report) error {
	switch {
	case rep.Status == index.StatusFresh && o.brief:
		return nil // a watcher's change that changed nothing indexed
	case rep.Status == index.StatusFresh && o.json:
		return writeJSON(o.io.Out, analyzeReport{Repo: rep.Repo, Path: rep.Root, Status: rep.Status, Reason: rep.Reason,
			Commit: rep.Commit, Dirty: rep.Dirty, HistoryPending: rep.HistoryPending, CatchUp: rep.CatchUp})
	case rep.Status == index.StatusFresh:
		fmt.Fprintf(o.io.Out, "%s: the index is up to date with HEAD and the working tree (use --force to rebuild).\n", rep.Root)
		if rep.HistoryPending > 0 {
			fmt.Fprintf(o.io.Out, "The symbols of its history's %d older commits %s.\n", rep.HistoryPending, catchUpLine(rep.CatchUp))
		}
		return nil
	case o.json:
		return writeJSON(o.io.Out, analyzeReport{Repo: rep.Repo, Path: rep.Root, Status: rep.Status, Reason: rep.Reason,
			Commit: rep.Commit, Dirty: rep.Dirty, Summary: rep.Summary, HistoryPending: rep.HistoryPending, CatchUp: rep.CatchUp})
	case o.brief:
		printBrief(o.io.Out, rep.Started, rep.Reason, rep.Summary)
		return nil
	}
	printSummary(o.io.Out, rep.Repo, rep.Root, rep.Summary, rep.HistoryPending, rep.CatchUp)
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

type analyzeReport struct {
	Repo    string          `json:"repo"`
	Path    string          `json:"path"`
	Status  string          `json:"status"` // "indexed" or "fresh"
	Reason  string          `json:"reason,omitempty"`
	Commit  string          `json:"commit,omitempty"`
	Dirty   bool            `json:"dirty"`
	Summary *ingest.Summary `json:"summary,omitempty"`
	// HistoryPending counts the older commits still to read; CatchUp says
	// what became of reading them (index.Report).
	HistoryPending int    `json:"historyPending,omitempty"`
	CatchUp        string `json:"historyCatchUp,omitempty"`
}

func printSummary(w io.Writer, id, root string, s *ingest.Summary, pending int, catchUp string) {
	fmt.Fprintf(w, "Indexed %s as %q in %.1fs\n", root, id, float64(s.TotalMillis)/1000)
	files := fmt.Sprint(s.Files)
	if s.FilesRead > s.Files {
		// The parse bar counted the files read; some were skipped then.
		files = fmt.Sprintf("%d of %d read", s.Files, s.FilesRead)
	}
	fmt.Fprintf(w, "  files     %s (%d source: %s)\n", files, s.SourceFiles, index.FormatCounts(s.FilesByLanguage))
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "  skipped   %s\n", index.FormatCounts(s.Skipped))
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
		printHistorySummary(w, h, pending, catchUp)
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
