package history

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
)

// FormatVersion is the version of the history records. Records of another
// version are read again from git. Changelog:
//
//	1: commits, file changes with line counts, symbol changes by innermost
//	   symbol.
const FormatVersion = 1

// Defaults of the limits.
const (
	// DefaultMaxCommits bounds the commits read: the newest ones.
	DefaultMaxCommits = 10000
	// DefaultMaxCommitFiles is the guard: a commit changing more files
	// keeps its file records but is not diffed nor mapped onto symbols.
	DefaultMaxCommitFiles = 200
)

// Options configure reading a history.
type Options struct {
	// AllBranches reads every branch, remote branch and tag; otherwise
	// the first-parent history of HEAD.
	AllBranches bool
	// Since is a date git understands ("2024-01-01", "6 months ago");
	// older commits are not read.
	Since string
	// MaxCommits bounds the commits (the newest); 0 means no bound.
	MaxCommits int
	// MaxCommitFiles is the guard (DefaultMaxCommitFiles when 0).
	MaxCommitFiles int
	// Window, when above 0, maps the newest Window commits of the
	// selection onto symbols, and no older commit that Previous did not
	// map: those keep their file records and are marked
	// graph.SkipPending, counted in the settings' Pending. A later read
	// with a larger window, or none, maps them.
	Window int
	// Budget, when above 0, bounds how long the symbol pass maps commits:
	// those it has not reached by then (it goes newest first) are left
	// pending, as those outside Window are.
	Budget time.Duration
	// Workers parse blobs (GOMAXPROCS when 0).
	Workers int
	// MaxFileSize: larger blobs are not parsed (as the indexer skips such
	// files); 512 KiB when 0.
	MaxFileSize int64
	// Previous is the history the last index kept: commits it has are
	// not read again when it was read with the same settings.
	Previous *graph.History
	// KeepPath and KeepContent say which files the indexer would index
	// (not vendored, not ignored, not binary or minified); nil keeps all.
	KeepPath    func(path string) bool
	KeepContent func(path string, src []byte) bool
	// Progress, when set, receives events.
	Progress func(Event)
	// fullParses reads every version of a file whole, never deriving it
	// from the next one (tests compare the two).
	fullParses bool
}

func (o *Options) keepPath(p string) bool { return o.KeepPath == nil || o.KeepPath(p) }

func (o *Options) keepContent(p string, src []byte) bool {
	return o.KeepContent == nil || o.KeepContent(p, src)
}

// Phases of progress events.
const (
	PhaseCommits = "history"         // listing and reading commits
	PhaseSymbols = "history-symbols" // diffs mapped onto symbols, Done/Total commits
)

// Event reports progress.
type Event struct {
	Phase       string
	Done, Total int
}

// Stats describe one read.
type Stats struct {
	// Git is false when the directory is not a git work tree with a
	// commit: there is no history.
	Git     bool `json:"git"`
	Commits int  `json:"commits"`
	// Reused were kept from the previous index, Read were read from git,
	// Dropped were in the previous index but are no longer in the history
	// (rewritten, or outside the window).
	Reused  int `json:"reused"`
	Read    int `json:"read"`
	Dropped int `json:"dropped"`
	// Rewritten: the previous index's newest commit is no longer in the
	// history (a rebase, reset or force push).
	Rewritten bool `json:"rewritten,omitempty"`
	// Reason says why nothing was reused, when something could have been.
	Reason string `json:"reason,omitempty"`
	// List says where the list of commits came from: "previous" (HEAD has
	// not moved), "previous+new" (git listed only the commits since the
	// previous HEAD) or "git" (git listed them all); "index" when the
	// index's records were kept as they are without reading git or
	// decoding them (HEAD has not moved, and the history was carried
	// over: ingest.UnchangedHistory).
	List string `json:"list"`
	// Guarded commits changed more files than the guard: not mapped onto
	// symbols.
	Guarded int `json:"guarded"`
	// Pending commits are older than the window: not mapped onto symbols
	// yet (Options.Window).
	Pending int `json:"pending,omitempty"`
	// MissingObjects counts commits git could not fully read.
	MissingObjects int `json:"missingObjects,omitempty"`
	FileChanges    int `json:"fileChanges"`
	SymbolChanges  int `json:"symbolChanges"`
	BlobsParsed    int `json:"blobsParsed"`
	// BlobsDerived of them were derived from the next version of the file
	// (only the declarations the commit touched were read).
	BlobsDerived int `json:"blobsDerived"`
	// BlobsDiffed of them, versions after a commit that no earlier commit
	// read (a branch's version when its merge came first), were derived
	// from another version of the path through a line diff.
	BlobsDiffed    int `json:"blobsDiffed"`
	ParseCacheHits int `json:"parseCacheHits"`
	// FilesNotMapped are source file changes whose blobs could not be
	// read or parsed.
	FilesNotMapped int   `json:"filesNotMapped,omitempty"`
	ListMillis     int64 `json:"listMillis"`
	LogMillis      int64 `json:"logMillis"`
	SymbolMillis   int64 `json:"symbolMillis"`
}

// Read reads the history of the repository at root. A directory that is
// not a git work tree, or has no commit yet, has no history: nil without
// an error.
func Read(ctx context.Context, root string, opt Options) (*graph.History, *Stats, error) {
	st := &Stats{}
	head, ok := repositoryHead(ctx, root)
	if !ok {
		return nil, st, ctx.Err()
	}
	st.Git = true
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.MaxCommitFiles <= 0 {
		opt.MaxCommitFiles = DefaultMaxCommitFiles
	}
	if opt.MaxFileSize <= 0 {
		opt.MaxFileSize = 512 << 10
	}
	if opt.MaxCommits < 0 {
		opt.MaxCommits = 0
	}
	settings := graph.HistorySettings{Format: FormatVersion, AllBranches: opt.AllBranches, Since: opt.Since,
		MaxCommits: opt.MaxCommits, MaxCommitFiles: opt.MaxCommitFiles}
	emit := func(e Event) {
		if opt.Progress != nil {
			opt.Progress(e)
		}
	}

	start := time.Now()
	emit(Event{Phase: PhaseCommits})
	hashes, from := previousList(ctx, root, &opt, head)
	st.List = from
	if hashes == nil {
		st.List = "git"
		var err error
		if hashes, err = listCommits(ctx, root, &opt); err != nil {
			return nil, st, err
		}
	}
	st.ListMillis = time.Since(start).Milliseconds()
	if len(hashes) > 0 {
		settings.Head = hashes[0]
	}

	prev := reusable(opt.Previous, settings, st)
	inList := make(map[string]bool, len(hashes))
	for _, h := range hashes {
		inList[h] = true
	}
	var toRead []string
	inWindow := func(i int) bool { return opt.Window <= 0 || i < opt.Window }
	for i, h := range hashes {
		if prev == nil || !prev.has(h) || inWindow(i) && prev.pending(h) {
			toRead = append(toRead, h)
		}
	}
	if prev != nil {
		for _, c := range prev.h.Commits {
			if !inList[c.Hash] {
				st.Dropped++
			}
		}
		if ph := prev.h.Settings.Head; ph != "" && !inList[ph] {
			st.Rewritten = true
		}
	}
	st.Read = len(toRead)
	st.Reused = len(hashes) - len(toRead)

	start = time.Now()
	logged, err := readCommits(ctx, root, &opt, toRead, st)
	if err != nil {
		return nil, st, err
	}
	st.LogMillis = time.Since(start).Milliseconds()

	start = time.Now()
	var inputs []string
	at := make(map[string]int, len(hashes))
	for i, h := range hashes {
		at[h] = i
	}
	for _, h := range toRead {
		c := logged[h]
		switch {
		case c == nil || len(c.files) == 0 || c.commit.SymbolsSkip != "":
		case !inWindow(at[h]):
			c.commit.SymbolsSkip = graph.SkipPending
		case len(c.files) > opt.MaxCommitFiles:
			c.commit.SymbolsSkip = graph.SkipTooManyFiles
		case c.commit.IsMerge():
			inputs = append(inputs, h+" "+c.commit.Parents[0])
		default:
			inputs = append(inputs, h)
		}
	}
	symbols, err := runSymbolPass(ctx, root, &opt, logged, inputs, st)
	if err != nil {
		return nil, st, err
	}
	st.SymbolMillis = time.Since(start).Milliseconds()

	h := &graph.History{Settings: settings}
	// Sized for all the records at once: most come from the previous
	// index, and growing the slices record by record was most of a
	// re-index's reading (27 of 40 ms on trpc's 3,343 commits).
	nf, ns := 0, 0
	if prev != nil {
		nf, ns = len(prev.h.Files), len(prev.h.Symbols)
	}
	for _, c := range logged {
		nf += len(c.files)
	}
	for _, ss := range symbols {
		ns += len(ss)
	}
	h.Commits = make([]graph.Commit, 0, len(hashes))
	h.Files = make([]graph.FileChange, 0, nf)
	h.Symbols = make([]graph.SymbolChange, 0, ns)
	for _, hash := range hashes {
		if c := logged[hash]; c != nil {
			h.Commits = append(h.Commits, c.commit)
			files := c.files
			slices.SortStableFunc(files, func(a, b graph.FileChange) int { return cmp.Compare(a.Path, b.Path) })
			h.Files = append(h.Files, files...)
			h.Symbols = append(h.Symbols, symbols[hash]...)
			continue
		}
		if prev != nil && prev.has(hash) {
			prev.appendRecords(h, hash)
		}
	}
	for i := range h.Commits {
		switch h.Commits[i].SymbolsSkip {
		case graph.SkipTooManyFiles:
			st.Guarded++
		case graph.SkipPending:
			h.Settings.Pending++
		}
	}
	st.Pending = h.Settings.Pending
	h.Settings.Commits = len(h.Commits)
	for i := range h.Commits {
		if t := h.Commits[i].CommittedAt; i == 0 || t < h.Settings.Oldest {
			h.Settings.Oldest = t
		}
	}
	st.Commits = len(h.Commits)
	st.FileChanges = len(h.Files)
	st.SymbolChanges = len(h.Symbols)
	return h, st, nil
}

// previousList makes the list of commits from the previous history's
// when it can, sparing `git rev-list --topo-order`, which walks every
// commit (40 ms for trpc's 3,353): only HEAD's first-parent history read,
// with the same count and no --since (a relative date moves with the
// clock).
//   - HEAD has not moved: the list is the previous one.
//   - HEAD moved forward along first parents (commits, a fast-forward
//     pull): the commits since the previous HEAD, listed by git, come on
//     top of the previous list, which is cut to the count. They are taken
//     only when their first-parent chain reaches the previous HEAD: a merge
//     that brought the previous HEAD in as a second parent, a reset or a
//     rebase list everything again.
//
// A history rewritten under the same commits (git replace, grafts) is not
// noticed until HEAD moves off them, or --force.
func previousList(ctx context.Context, root string, opt *Options, head string) (hashes []string, from string) {
	prev := opt.Previous
	if prev == nil || len(prev.Commits) == 0 || opt.AllBranches || prev.Settings.AllBranches || opt.Since != "" ||
		prev.Settings.Since != "" || prev.Settings.MaxCommits != opt.MaxCommits || prev.Settings.Head == "" ||
		prev.Commits[0].Hash != prev.Settings.Head {
		return nil, ""
	}
	from = "previous"
	if head != prev.Settings.Head {
		from = "previous+new"
		out, err := gitOutput(ctx, root, "rev-list", "--first-parent", "--parents", prev.Settings.Head+".."+head, "--")
		if err != nil {
			return nil, ""
		}
		want := head // each line's commit is the one before's first parent
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != want {
				return nil, "" // a root commit, or not a chain
			}
			hashes = append(hashes, f[0])
			want = f[1]
		}
		if want != prev.Settings.Head {
			return nil, ""
		}
	}
	for i := range prev.Commits {
		if opt.MaxCommits > 0 && len(hashes) == opt.MaxCommits {
			break
		}
		hashes = append(hashes, prev.Commits[i].Hash)
	}
	return hashes, from
}

// listCommits lists the commits to index, newest first, children before
// parents.
func listCommits(ctx context.Context, root string, opt *Options) ([]string, error) {
	args := []string{"rev-list", "--topo-order"}
	if opt.Since != "" {
		args = append(args, "--since="+opt.Since)
	}
	if opt.MaxCommits > 0 {
		args = append(args, fmt.Sprintf("--max-count=%d", opt.MaxCommits))
	}
	if opt.AllBranches {
		args = append(args, "--branches", "--remotes", "--tags", "HEAD")
	} else {
		args = append(args, "--first-parent", "HEAD")
	}
	args = append(args, "--")
	out, err := gitOutput(ctx, root, args...)
	if err != nil {
		return nil, fmt.Errorf("list commits: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// readCommits runs the log pass over hashes, in as many git processes as
// there are workers, each over a contiguous share of the commits: git
// spends its time comparing trees, one commit at a time (on prometheus,
// `git log --raw` over the 8,328 first-parent commits takes 0.50 s in one
// process, 0.24 s in two).
// A commit git cannot diff is read without rename detection, then without
// its files.
func readCommits(ctx context.Context, root string, opt *Options, hashes []string, st *Stats) (map[string]*loggedCommit, error) {
	out := make(map[string]*loggedCommit, len(hashes))
	if len(hashes) == 0 {
		return out, nil
	}
	var mu sync.Mutex // out, st.MissingObjects, progress
	parse := func(r *bufio.Reader, emit func(string, *loggedCommit) error) error {
		return parseLog(r, func(c *loggedCommit) error { return emit(c.commit.Hash, c) })
	}
	accept := func(c *loggedCommit) error {
		mu.Lock()
		defer mu.Unlock()
		out[c.commit.Hash] = c
		if opt.Progress != nil && len(out)%500 == 0 {
			opt.Progress(Event{Phase: PhaseCommits, Done: len(out), Total: len(hashes)})
		}
		return nil
	}
	degrade := func(input string, _ error) error {
		mu.Lock()
		st.MissingObjects++
		mu.Unlock()
		// Without rename detection git reads trees only; failing that, the
		// commit alone without its files.
		err := runResumable(ctx, root, []string{input}, logArgs(opt.AllBranches, false), parse, accept,
			func(input string, _ error) error {
				return runResumable(ctx, root, []string{input}, append(logArgs(opt.AllBranches, false), "--no-patch"), parse,
					accept, func(input string, cause error) error {
						return fmt.Errorf("read commit %s: %w", input, cause)
					})
			})
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if c := out[firstField(input)]; c != nil {
			c.commit.SymbolsSkip = graph.SkipMissingObjects
		}
		return nil
	}
	// Shares of at least 500 commits: a git process costs a few ms.
	n := max(1, min(opt.Workers, len(hashes)/500))
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		share := hashes[i*len(hashes)/n : (i+1)*len(hashes)/n]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = runResumable(ctx, root, share, logArgs(opt.AllBranches, true), parse, accept, degrade)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	return out, nil
}

func firstField(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// previous is the previous index's history, indexed by commit.
type previous struct {
	h     *graph.History
	at    map[string]int    // hash → index in h.Commits
	files map[string][2]int // hash → range in h.Files
	syms  map[string][2]int // hash → range in h.Symbols
}

// reusable returns the previous history when its records can be kept: the
// same record format, branch mode and guard.
func reusable(h *graph.History, s graph.HistorySettings, st *Stats) *previous {
	if h == nil || len(h.Commits) == 0 {
		return nil
	}
	switch {
	case h.Settings.Format != s.Format:
		st.Reason = "the index's history records are of another version"
		return nil
	case h.Settings.AllBranches != s.AllBranches:
		st.Reason = "the index's history was read for other branches (--all-branches changed)"
		return nil
	case h.Settings.MaxCommitFiles != s.MaxCommitFiles:
		st.Reason = "the index's history was read with another --max-commit-files"
		return nil
	}
	p := &previous{h: h, at: make(map[string]int, len(h.Commits)), files: map[string][2]int{}, syms: map[string][2]int{}}
	for i, c := range h.Commits {
		p.at[c.Hash] = i
	}
	for i := 0; i < len(h.Files); {
		j := i
		for j < len(h.Files) && h.Files[j].Commit == h.Files[i].Commit {
			j++
		}
		p.files[h.Files[i].Commit] = [2]int{i, j}
		i = j
	}
	for i := 0; i < len(h.Symbols); {
		j := i
		for j < len(h.Symbols) && h.Symbols[j].Commit == h.Symbols[i].Commit {
			j++
		}
		p.syms[h.Symbols[i].Commit] = [2]int{i, j}
		i = j
	}
	return p
}

func (p *previous) has(hash string) bool {
	_, ok := p.at[hash]
	return ok
}

// pending reports whether a previous commit's symbols are still to map.
func (p *previous) pending(hash string) bool {
	i, ok := p.at[hash]
	return ok && p.h.Commits[i].SymbolsSkip == graph.SkipPending
}

// appendRecords appends a previous commit's records to h, unlinked:
// linking is done again against the new graph.
func (p *previous) appendRecords(h *graph.History, hash string) {
	h.Commits = append(h.Commits, p.h.Commits[p.at[hash]])
	fr, sr := p.files[hash], p.syms[hash]
	n := len(h.Files)
	h.Files = append(h.Files, p.h.Files[fr[0]:fr[1]]...)
	for i := n; i < len(h.Files); i++ {
		h.Files[i].FileID = ""
	}
	n = len(h.Symbols)
	h.Symbols = append(h.Symbols, p.h.Symbols[sr[0]:sr[1]]...)
	for i := n; i < len(h.Symbols); i++ {
		h.Symbols[i].NodeID = ""
	}
}
