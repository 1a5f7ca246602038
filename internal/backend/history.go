package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/format"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
)

// The tools that read the git history the index keeps.
func historyTools() []*Tool {
	limit := Param{Name: "limit", Type: TypeInteger, Description: "Commits listed.", Default: analysis.DefaultHistoryLimit,
		Min: num(1), Max: num(analysis.MaxHistoryLimit)}
	offset := Param{Name: "offset", Type: TypeInteger, Description: "Commits skipped (paging).", Default: 0, Min: num(0)}
	since := Param{Name: "since", Type: TypeString, Description: "Only commits authored on or after this date (YYYY-MM-DD or RFC 3339)."}
	until := Param{Name: "until", Type: TypeString, Description: "Only commits authored before the end of this day (YYYY-MM-DD) or before this time (RFC 3339)."}
	return []*Tool{
		{
			Name: "get_file_history", Title: "Commits that changed a file", ReadOnly: true, IndexOnly: true,
			Description: "List the commits that changed a file, newest first, following its renames (commits made under " +
				"earlier names are included): hash, date, author, subject, change type and line counts. Paged with limit " +
				"and offset; since/until bound the author date.",
			Params: []Param{
				{Name: "path", Type: TypeString, Description: "The file's path in the repository (or a unique path suffix).", Required: true, Aliases: []string{"file_path", "file"}},
				limit, offset, since, until, repoParam,
			},
			run: runFileHistory,
		},
		{
			Name: "get_symbol_history", Title: "Commits that changed a symbol", ReadOnly: true, IndexOnly: true,
			Description: "List the commits that changed a function, method, class... (lines added or deleted inside it), " +
				"newest first, with the size of each change; a symbol that no longer exists is found too, with the commit " +
				"that deleted it. For a merge, the commits of the merged branch that made the change (mergedFrom). " +
				"With include_source, the symbol's source as of each commit.",
			Params: []Param{
				{Name: "name", Type: TypeString, Description: "Symbol name: simple, Type.method or qualified.", Aliases: []string{"symbol", "symbol_name"}},
				{Name: "uid", Type: TypeString, Description: "Exact symbol id from an earlier result.", Aliases: []string{"symbol_uid"}},
				{Name: "file_path", Type: TypeString, Description: "File (or path suffix) the symbol is in.", Aliases: []string{"file"}},
				{Name: "kind", Type: TypeString, Description: "Kind: Function, Method, Class, ... or HistoricalSymbol for a deleted one."},
				limit, offset,
				{Name: "include_source", Type: TypeBoolean, Description: "Include the symbol's source as of each commit (at most 300 lines each).", Default: false},
				repoParam,
			},
			run: runSymbolHistory,
		},
		{
			Name: "get_recent_changes", Title: "Symbols changed recently", ReadOnly: true, IndexOnly: true,
			Description: "The symbols changed by a window of commits, grouped by file, with the commits that changed them. " +
				"The window: a range A..B, a branch, and/or since/until dates; without any, the latest commits. " +
				"limit bounds the commits taken (newest first).",
			Params: []Param{
				since, until,
				{Name: "range", Type: TypeString, Description: "Commit range A..B (commits reachable from B and not from A)."},
				{Name: "branch", Type: TypeString, Description: "Commits reachable from this branch or ref."},
				{Name: "limit", Type: TypeInteger, Description: "Commits taken, newest first.", Default: analysis.DefaultHistoryLimit, Min: num(1), Max: num(analysis.MaxHistoryLimit)},
				repoParam,
			},
			run: runRecentChanges,
		},
		{
			Name: "get_commit_impact", Title: "What a commit changed and what depends on it", ReadOnly: true, IndexOnly: true,
			Description: "One commit: its message, the files and symbols it changed, the code that calls the changed " +
				"symbols now (upstream, depth 2), and whether it reverts or was reverted by another commit.",
			Params: []Param{
				{Name: "hash", Type: TypeString, Description: "The commit: a hash, a unique prefix of one (at least 4 hex digits), or any git revision (HEAD, main~3, a tag).", Required: true, Aliases: []string{"commit", "commit_hash"}},
				{Name: "limit", Type: TypeInteger, Description: "Callers listed per depth.", Default: 50, Min: num(1), Max: num(analysis.MaxHistoryLimit)},
				repoParam,
			},
			run: runCommitImpact,
		},
		{
			Name: "search_commits", Title: "Commits about a subject", ReadOnly: true, IndexOnly: true,
			Description: "Find the commits a question is about, best first: BM25 over each commit's message and the " +
				"names of the symbols it changed (fused with vector similarity when the index has embeddings). " +
				"Each hit: hash, date, author, subject, score, and the files and symbols it changed.",
			Params: []Param{
				{Name: "query", Type: TypeString, Description: "Words to search the commits for, e.g. \"retry on timeout\".", Required: true, Aliases: []string{"search_query"}},
				{Name: "limit", Type: TypeInteger, Description: "Commits listed.", Default: 10, Min: num(1), Max: num(analysis.MaxHistoryLimit), Aliases: []string{"top_k"}},
				repoParam,
			},
			run: runSearchCommits,
		},
	}
}

// withHistory runs fn on the repository's history, or says how to get one.
func (b *Backend) withHistory(ctx context.Context, a *Args, fn func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error)) (*Result, error) {
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		x := s.history()
		if x.Empty() {
			return nil, &NotFoundError{What: fmt.Sprintf("the index of %s has no git history: run `gitnexus analyze` "+
				"in a git repository (without --no-history)", s.Repo.ID)}
		}
		res, err := fn(s, x)
		if res != nil {
			res.Text = (&IndexState{History: historyState(s.Meta.History)}).pendingLine() + res.Text
		}
		return res, err
	})
}

func dateWindow(a *Args) (analysis.DateWindow, error) {
	var w analysis.DateWindow
	var err error
	if w.Since, err = analysis.ParseDate("since", a.String("since"), false); err != nil {
		return w, err
	}
	if w.Until, err = analysis.ParseDate("until", a.String("until"), true); err != nil {
		return w, err
	}
	return w, nil
}

// repoPath turns what a caller wrote into a repository-relative path.
func repoPath(root, p string) string {
	p = strings.TrimSpace(filepath.ToSlash(p))
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = filepath.ToSlash(rel)
		}
	}
	p = path.Clean(strings.TrimPrefix(p, "./"))
	return strings.TrimPrefix(p, "/")
}

// AmbiguousPathError is a path suffix that ends the paths of several
// files.
type AmbiguousPathError struct {
	Suffix string
	Files  []analysis.Candidate
}

func (e *AmbiguousPathError) Error() string {
	var ps []string
	for _, f := range e.Files[:min(len(e.Files), 5)] {
		ps = append(ps, f.FilePath)
	}
	more := ""
	if len(e.Files) > 5 {
		more = fmt.Sprintf(" and %d more", len(e.Files)-5)
	}
	return fmt.Sprintf("%q ends the paths of %d files (%s%s): give the full path of one", e.Suffix, len(e.Files), strings.Join(ps, ", "), more)
}

// historyPath is the one rule by which the history answers (MCP, CLI and
// REST alike) read a file's path: a path some indexed commit changed, as
// written; else the one file at HEAD whose path ends with it at a folder
// boundary (an *AmbiguousPathError when several do, a NotFoundError when
// none does).
func historyPath(s *Snapshot, x *analysis.HistoryIndex, p string) (string, error) {
	if x.KnownPath(p) {
		return p, nil
	}
	var files []analysis.Candidate
	for n := range s.Graph.Nodes {
		if nd := &s.Graph.Nodes[n]; nd.Kind == graph.KindFile && strings.HasSuffix(nd.FilePath, "/"+p) {
			files = append(files, analysis.Candidate{SymbolInfo: analysis.Info(s.Graph, memgraph.NodeID(n))})
		}
	}
	switch len(files) {
	case 0:
		return "", &NotFoundError{What: fmt.Sprintf("no indexed commit changed %q in %s (the path is relative to the repository root, or the end of one file's path)", p, s.Repo.ID)}
	case 1:
		return files[0].FilePath, nil
	}
	return "", &AmbiguousPathError{Suffix: p, Files: files}
}

func runFileHistory(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	w, err := dateWindow(a)
	if err != nil {
		return nil, err
	}
	return b.withHistory(ctx, a, func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error) {
		p, err := historyPath(s, x, repoPath(s.Repo.RepoPath, a.String("path")))
		var amb *AmbiguousPathError
		if errors.As(err, &amb) {
			return &Result{Data: map[string]any{"status": "ambiguous", "candidates": amb.Files, "totalCandidates": len(amb.Files)},
				Text: format.Candidates(amb.Suffix, amb.Files, len(amb.Files)), Hint: hint(repeat(), " with the full path of one of the candidates as ", param("path"), "."),
				Ambiguous: true}, nil
		}
		if err != nil {
			return nil, err
		}
		res := analysis.FileHistory(x, p, w, a.Int("offset"), a.Int("limit"))
		h := hint(call("get_commit_impact"), " on a hash to see what that commit changed.")
		if res.Truncated {
			h = hint("more commits: ", again("get_file_history", "offset", res.NextOffset), ".")
		}
		return &Result{Data: res, Text: format.FileHistory(&res), Hint: h}, nil
	})
}

func runSymbolHistory(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	return b.withHistory(ctx, a, func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error) {
		n, amb, err := lookup(s, a, "uid", "name")
		var nf *NotFoundError
		if errors.As(err, &nf) && a.String("uid") == "" {
			// Not at HEAD: perhaps a symbol that was deleted.
			l := analysis.FindRemovedSymbol(s.Graph, analysis.SymbolRef{Name: a.String("name"), FilePath: a.String("file_path")})
			switch l.Status {
			case "found":
				n, err = l.Node, nil
			case "ambiguous":
				return &Result{Data: map[string]any{"status": "ambiguous", "candidates": l.Candidates, "totalCandidates": l.TotalCandidates},
					Text: format.Candidates(a.String("name"), l.Candidates, l.TotalCandidates), Hint: pickCandidate("uid", "file_path", "kind"),
					Ambiguous: true}, nil
			}
		}
		if err != nil || amb != nil {
			return amb, err
		}
		res := analysis.SymbolHistory(s.Graph, x, n, a.Int("offset"), a.Int("limit"))
		if !b.opts.NoWorkTree { // git finds the merged side's commits
			analysis.AttributeMerges(ctx, s.Repo.RepoPath, x, &res)
		}
		if a.Bool("include_source") {
			if err := b.needTree("include_source"); err != nil {
				return nil, err
			}
			if err := addSources(ctx, s.Repo.RepoPath, x, &res); err != nil {
				return nil, err
			}
		}
		h := hint(call("get_commit_impact"), " on a hash to see the whole commit.")
		if res.Truncated {
			h = hint("more commits: ", again("get_symbol_history", "offset", res.NextOffset), ".")
		}
		// Git was asked for past sources, or for the commits a listed
		// merge brought in (AttributeMerges, on first-parent histories).
		volatile := a.Bool("include_source") || (!x.H.Settings.AllBranches && mergeListed(x, &res))
		return &Result{Data: res, Text: format.SymbolHistory(&res), Hint: h, volatile: volatile}, nil
	})
}

// mergeListed reports whether a listed commit is a merge.
func mergeListed(x *analysis.HistoryIndex, res *analysis.SymbolHistoryResult) bool {
	for _, c := range res.Commits {
		if i, ok, err := x.FindCommit(c.Hash); err == nil && ok && x.Commit(i).IsMerge() {
			return true
		}
	}
	return false
}

// addSources reads the symbol's lines as of each listed commit.
func addSources(ctx context.Context, root string, x *analysis.HistoryIndex, res *analysis.SymbolHistoryResult) error {
	var specs []string
	for i := range res.Commits {
		c := &res.Commits[i]
		if rev := x.SourceRev(c.Hash, c.Change); rev != "" {
			c.SourceRev = rev
			specs = append(specs, rev+":"+c.Path)
		} else {
			c.SourceMissing = true
		}
	}
	files, err := analysis.ReadRevisionFiles(ctx, root, specs)
	if err != nil {
		return fmt.Errorf("read the symbol's past source: %w", err)
	}
	for i := range res.Commits {
		c := &res.Commits[i]
		src, ok := files[c.SourceRev+":"+c.Path]
		if !ok {
			c.SourceMissing = true
			continue
		}
		text, cut := analysis.LinesOf(src, c.StartLine, c.EndLine)
		if cut {
			text += fmt.Sprintf("… (cut at %d lines)\n", analysis.MaxSourceLines)
		}
		c.Source = text
	}
	return nil
}

func runRecentChanges(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	w, err := dateWindow(a)
	if err != nil {
		return nil, err
	}
	rng, branch := strings.TrimSpace(a.String("range")), strings.TrimSpace(a.String("branch"))
	if rng != "" && branch != "" {
		return nil, argError("range", "give ", param("range"), " or ", param("branch"), ", not both")
	}
	if rng != "" && !strings.Contains(rng, "..") {
		return nil, &ArgError{Param: "range", Msg: fmt.Sprintf("%q is not a range: write A..B", rng)}
	}
	for _, p := range []struct{ name, v string }{{"range", rng}, {"branch", branch}} {
		if strings.HasPrefix(p.v, "-") || strings.ContainsAny(p.v, " \t\n\x00") {
			return nil, &ArgError{Param: p.name, Msg: fmt.Sprintf("%q is not a revision", p.v)}
		}
	}
	return b.withHistory(ctx, a, func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error) {
		var only map[string]bool
		window := describeWindow(a)
		if rev := rng + branch; rev != "" {
			if err := b.needTree("range and branch"); err != nil {
				return nil, err
			}
			hashes, err := revList(ctx, s.Repo.RepoPath, rev)
			if err != nil {
				return nil, err
			}
			only = make(map[string]bool, len(hashes))
			for _, h := range hashes {
				only[h] = true
			}
		}
		res := analysis.RecentChanges(s.Graph, x, only, w, a.Int("limit"), window)
		h := hint(call("get_symbol_history"), " on a symbol, or ", call("get_commit_impact"), " on a commit.")
		if res.MoreCommits > 0 {
			h = hint("more commits in the window: narrow it with ", param("since"), " and ", param("until"), ", or raise ", param("limit"), ".")
		}
		return &Result{Data: res, Text: format.RecentChanges(&res), Hint: h, volatile: only != nil}, nil
	})
}

func describeWindow(a *Args) string {
	var parts []string
	for _, p := range []string{"range", "branch", "since", "until"} {
		if v := strings.TrimSpace(a.String(p)); v != "" {
			parts = append(parts, p+" "+v)
		}
	}
	if len(parts) == 0 {
		return "latest commits"
	}
	return strings.Join(parts, ", ")
}

// commitOf resolves what a caller wrote for a commit: a full hash or a
// unique prefix of one (4 hex digits at least) in the indexed history,
// or else any revision git knows (HEAD, main~3, a tag, a short hash of a
// commit the history has under its full one). Messages quote the input as
// it was typed.
func commitOf(ctx context.Context, s *Snapshot, x *analysis.HistoryIndex, ref string) (int, error) {
	typed := strings.TrimSpace(ref)
	if typed == "" {
		return 0, &ArgError{Param: "hash", Msg: "is empty: give a commit hash or a revision (HEAD, main~3, a tag)"}
	}
	hexPrefix := isHexPrefix(typed)
	if i, ok, err := indexedCommit(x, typed); err != nil || ok {
		return i, err
	}
	notIndexed := func(what string) error {
		return &NotFoundError{What: fmt.Sprintf("commit %s is not in the indexed history of %s (run `gitnexus analyze`, "+
			"or analyze --all-branches for commits of other branches)", what, s.Repo.ID)}
	}
	if s.handle != nil && s.handle.noWorkTree {
		if hexPrefix {
			return 0, notIndexed(strconv.Quote(typed))
		}
		return 0, fmt.Errorf("%w: a revision such as %q needs the repository's checkout; give a commit hash", ErrNoWorkTree, typed)
	}
	full, err := revParse(ctx, s.Repo.RepoPath, typed)
	if err != nil {
		if hexPrefix {
			return 0, notIndexed(strconv.Quote(typed))
		}
		return 0, err
	}
	i, ok, err := x.FindCommit(full)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, notIndexed(fmt.Sprintf("%q (%s)", typed, full[:min(len(full), 12)]))
	}
	return i, nil
}

// isHexPrefix reports whether a commit reference may be a hash prefix.
func isHexPrefix(typed string) bool {
	return len(typed) >= 4 && strings.Trim(strings.ToLower(typed), "0123456789abcdef") == ""
}

// indexedCommit finds a commit reference in the indexed history alone,
// as commitOf tries first: a hash or a unique prefix of one.
func indexedCommit(x *analysis.HistoryIndex, ref string) (int, bool, error) {
	typed := strings.TrimSpace(ref)
	if !isHexPrefix(typed) {
		return 0, false, nil
	}
	return x.FindCommit(typed)
}

// revParse turns a revision into the full hash of its commit with git.
func revParse(ctx context.Context, root, rev string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		return "", analysis.NewInputError(fmt.Sprintf("git knows no commit %q in %s: give a commit hash or a revision (HEAD, main~3, a tag)", rev, root))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// maxRevList bounds the commits a range or branch may list.
const maxRevList = 200000

// revList lists the commits of a range or ref with git.
func revList(ctx context.Context, root, rev string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "rev-list", fmt.Sprintf("--max-count=%d", maxRevList), rev, "--")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return nil, analysis.NewInputError(fmt.Sprintf("git does not know %q: %s", rev, msg))
	}
	return strings.Fields(stdout.String()), nil
}

func runCommitImpact(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	return b.withHistory(ctx, a, func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error) {
		i, err := commitOf(ctx, s, x, a.String("hash"))
		if err != nil {
			return nil, err
		}
		// A revision git resolved (HEAD, a branch) may name another
		// commit tomorrow with the same index.
		_, inIndex, _ := indexedCommit(x, a.String("hash"))
		res := analysis.CommitImpact(s.Graph, x, i, a.Int("limit"))
		h := hint(call("context"), " on a changed symbol, or ", call("get_symbol_history"), " to see its other changes.")
		return &Result{Data: res, Text: format.CommitImpact(&res), Hint: h, volatile: !inIndex}, nil
	})
}

func runSearchCommits(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	q := strings.TrimSpace(a.String("query"))
	if q == "" {
		return nil, &ArgError{Param: "query", Msg: "is empty"}
	}
	return b.withHistory(ctx, a, func(s *Snapshot, x *analysis.HistoryIndex) (*Result, error) {
		h := &HistoryView{b: b, s: s, X: x}
		found, err := h.SearchCommits(ctx, q, a.Int("limit"))
		if err != nil {
			return nil, err
		}
		res := analysis.CommitSearchResult{Query: q, Ranking: found.Ranking, Note: found.Note, Results: []analysis.CommitSearchHit{}}
		for _, hit := range found.Hits {
			if i := x.CommitIndex(hit.CommitHash); i >= 0 {
				res.Results = append(res.Results, analysis.NewCommitSearchHit(x, i, len(res.Results)+1, hit.Score))
			}
		}
		hn := hint(call("get_commit_impact"), " on a hash for what the commit changed and what depends on it now.")
		if len(res.Results) == 0 {
			hn = hint("try other words, or ", call("get_symbol_history"), " on a symbol the subject is about.")
		}
		// As for query: a ranking that lost its vector half may be whole
		// the next time, so the answer is not for reuse.
		degraded := s.Meta.Embeddings != nil && found.Ranking != search.RankingFused
		return &Result{Data: res, Text: format.CommitSearch(&res), Hint: hn, volatile: degraded}, nil
	})
}
