package backend

import (
	"context"
	"fmt"
	"math"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/search"
)

// The history as the HTTP API serves it: plain answers for the REST
// endpoints, over the same snapshots and history index as the tools.

// HistoryCall runs fn on a repository's snapshot and history; the
// generation identifies the index (a cache key that changes when the
// repository is re-indexed).
func (b *Backend) HistoryCall(ctx context.Context, ref string, fn func(h *HistoryView) (any, error)) (any, error) {
	var out any
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		x := s.history()
		if x.Empty() {
			return nil, &NotFoundError{What: fmt.Sprintf("the index of %s has no git history: run `gitnexus analyze` "+
				"in a git repository (without --no-history)", s.Repo.ID)}
		}
		var err error
		out, err = fn(&HistoryView{b: b, s: s, X: x})
		return nil, err
	})
	return out, err
}

// Generation returns the repository's id and the generation of its index
// as it is now (the next call loads a newer one if the index changed).
func (b *Backend) Generation(ctx context.Context, ref string) (id string, gen int64, err error) {
	_, err = b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		id, gen = s.Repo.ID, s.Meta.Generation
		return nil, nil
	})
	return id, gen, err
}

// HistoryView is one repository's history during a call.
type HistoryView struct {
	b *Backend
	s *Snapshot
	X *analysis.HistoryIndex
}

// Graph is the repository's graph.
func (h *HistoryView) Graph() *memgraph.Graph { return h.s.Graph }

// RepoPath is the repository's directory.
func (h *HistoryView) RepoPath() string { return h.s.Repo.RepoPath }

// Commit resolves what a caller wrote for a commit (commitOf's rules) to
// a commit index, or a NotFoundError.
func (h *HistoryView) Commit(ctx context.Context, ref string) (int, error) {
	return commitOf(ctx, h.s, h.X, ref)
}

// CommitFileFunction is a function a commit changed in a file.
type CommitFileFunction struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// CommitFileEntry is a file a commit changed, with its changed symbols.
type CommitFileEntry struct {
	Path       string               `json:"path"`
	OldPath    string               `json:"old_path,omitempty"`
	ChangeType string               `json:"change_type"`
	Additions  int                  `json:"additions"`
	Deletions  int                  `json:"deletions"`
	Functions  []CommitFileFunction `json:"functions"`
}

// CommitFiles lists the files commit i changed (only filterFile when set:
// a path the file had in the commit, or has at HEAD), each with the symbols
// changed in it.
func (h *HistoryView) CommitFiles(i int, filterFile string) []CommitFileEntry {
	out := []CommitFileEntry{}
	byPath := map[string]int{}
	for _, f := range h.X.FilesOf(i) {
		if filterFile != "" && f.Path != filterFile && f.OldPath != filterFile && f.FileID != graph.FileID(filterFile) {
			continue
		}
		byPath[f.Path] = len(out)
		out = append(out, CommitFileEntry{Path: f.Path, OldPath: f.OldPath, ChangeType: string(f.Status),
			Additions: f.Additions, Deletions: f.Deletions, Functions: []CommitFileFunction{}})
	}
	for _, s := range h.X.SymbolsOf(i) {
		if k, ok := byPath[s.Path]; ok {
			out[k].Functions = append(out[k].Functions, CommitFileFunction{ID: s.NodeID, Name: s.Name})
		}
	}
	return out
}

// CommitFunction is a symbol a commit changed.
type CommitFunction struct {
	FunctionID string `json:"function_id"`
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	FilePath   string `json:"file_path"`
	Signature  string `json:"signature"`
	ChangeType string `json:"change_type"`
	Additions  int    `json:"additions"`
	Deletions  int    `json:"deletions"`
}

// CommitFunctions lists the symbols commit i changed (in filterFile when
// set: a path the file had in the commit, or has at HEAD). The signature
// is the symbol's at HEAD ("" when it no longer exists).
func (h *HistoryView) CommitFunctions(i int, filterFile string) []CommitFunction {
	out := []CommitFunction{}
	g := h.s.Graph
	atHead := map[string]string{} // a path in the commit → the file's id at HEAD
	for _, f := range h.X.FilesOf(i) {
		atHead[f.Path] = f.FileID
	}
	for _, s := range h.X.SymbolsOf(i) {
		if filterFile != "" && s.Path != filterFile && (atHead[s.Path] == "" || atHead[s.Path] != graph.FileID(filterFile)) {
			continue
		}
		cf := CommitFunction{FunctionID: s.NodeID, Name: s.Name, Kind: s.Kind.String(), FilePath: s.Path,
			ChangeType: string(s.Change), Additions: s.Additions, Deletions: s.Deletions}
		if n, ok := g.Lookup(s.NodeID); ok && g.Nodes[n].Kind != graph.KindHistoricalSymbol {
			cf.Signature = g.Nodes[n].Signature
		}
		out = append(out, cf)
	}
	return out
}

// Source is a symbol's source at HEAD or as of a commit.
type Source struct {
	SourceCode string `json:"source_code"`
	FilePath   string `json:"file_path"`
	LineRange  [2]int `json:"line_range"`
	Commit     string `json:"commit,omitempty"`
}

// FunctionSource returns the source of the symbol with id: as indexed, or
// as of the commit commitRef (the file at that commit, parsed with the
// language's extractor, the symbol found by its id).
func (h *HistoryView) FunctionSource(ctx context.Context, id, commitRef string) (*Source, error) {
	g := h.s.Graph
	n, ok := g.Lookup(id)
	if !ok || !(g.Nodes[n].Kind.IsSymbol() || g.Nodes[n].Kind == graph.KindHistoricalSymbol) {
		return nil, &NotFoundError{What: fmt.Sprintf("no symbol with id %q in %s", id, h.s.Repo.ID)}
	}
	nd := &g.Nodes[n]
	if commitRef == "" {
		if nd.Kind == graph.KindHistoricalSymbol {
			return nil, &NotFoundError{What: fmt.Sprintf("%s no longer exists; give commit_hash for its source as of a commit", id)}
		}
		content, _, err := h.s.Reader.NodeText(ctx, h.s.Graph.Rid(n))
		if err != nil {
			return nil, err
		}
		return &Source{SourceCode: content, FilePath: nd.FilePath, LineRange: [2]int{int(nd.StartLine), int(nd.EndLine)}}, nil
	}
	ci, err := h.Commit(ctx, commitRef)
	if err != nil {
		return nil, err
	}
	c := h.X.Commit(ci)
	// A deleted symbol: its lines before the commit that last changed it.
	if nd.Kind == graph.KindHistoricalSymbol {
		for _, k := range h.X.SymbolChanges(id) {
			s := &h.X.H.Symbols[k]
			if s.Commit != c.Hash {
				continue
			}
			rev := h.X.SourceRev(s.Commit, string(s.Change))
			return h.readLines(ctx, rev, s.Path, s.StartLine, s.EndLine, c.Hash)
		}
		return nil, &NotFoundError{What: fmt.Sprintf("%s was not changed by %s; its source is known only as of the commits that changed it (get_symbol_history)", id, c.ShortHash())}
	}
	path, err := h.pathAt(nd.FilePath, ci)
	if err != nil {
		return nil, err
	}
	if h.s.handle != nil && h.s.handle.noWorkTree {
		return nil, fmt.Errorf("%w: a source as of a commit is read from git", ErrNoWorkTree)
	}
	files, err := analysis.ReadRevisionFiles(ctx, h.s.Repo.RepoPath, []string{c.Hash + ":" + path})
	if err != nil {
		return nil, err
	}
	src, ok := files[c.Hash+":"+path]
	if !ok {
		return nil, &NotFoundError{What: fmt.Sprintf("%s has no file %s", c.ShortHash(), path)}
	}
	l := lang.ForFile(path, src)
	if l == nil {
		return nil, &NotFoundError{What: fmt.Sprintf("%s is not in a supported language", path)}
	}
	ex, err := l.NewExtractor()
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	// Extracted under its path at HEAD, the file's symbols get the ids
	// they have now.
	facts, err := ex.Extract(nd.FilePath, src)
	if err != nil {
		return nil, fmt.Errorf("parse %s at %s: %w", path, c.ShortHash(), err)
	}
	for k, sid := range lang.SymbolIDs(facts) {
		if sid == id {
			sp := facts.Symbols[k].Span
			text, _ := analysis.LinesOf(src, sp.StartLine, sp.EndLine)
			return &Source{SourceCode: text, FilePath: path, LineRange: [2]int{sp.StartLine, sp.EndLine}, Commit: c.Hash}, nil
		}
	}
	return nil, &NotFoundError{What: fmt.Sprintf("%s did not exist as of %s (in %s)", id, c.ShortHash(), path)}
}

func (h *HistoryView) readLines(ctx context.Context, rev, path string, from, to int, commit string) (*Source, error) {
	if h.s.handle != nil && h.s.handle.noWorkTree {
		return nil, fmt.Errorf("%w: a source as of a commit is read from git", ErrNoWorkTree)
	}
	files, err := analysis.ReadRevisionFiles(ctx, h.s.Repo.RepoPath, []string{rev + ":" + path})
	if err != nil {
		return nil, err
	}
	src, ok := files[rev+":"+path]
	if !ok {
		return nil, &NotFoundError{What: fmt.Sprintf("%s has no file %s", rev, path)}
	}
	text, _ := analysis.LinesOf(src, from, to)
	return &Source{SourceCode: text, FilePath: path, LineRange: [2]int{from, to}, Commit: commit}, nil
}

// pathAt is the path the file at HEAD headPath had after commit ci:
// the newest change at or before the commit names it. A file added after
// the commit did not exist then.
func (h *HistoryView) pathAt(headPath string, ci int) (string, error) {
	changes := h.X.FileChanges(headPath)
	for _, k := range changes { // newest first
		f := &h.X.H.Files[k]
		if h.X.CommitIndex(f.Commit) < ci {
			continue // after the commit
		}
		if f.Status == 'D' {
			return "", &NotFoundError{What: fmt.Sprintf("%s was deleted as of %s", f.Path, h.X.Commit(ci).ShortHash())}
		}
		return f.Path, nil
	}
	if len(changes) > 0 {
		oldest := &h.X.H.Files[changes[len(changes)-1]]
		if oldest.Status == 'A' {
			return "", &NotFoundError{What: fmt.Sprintf("%s did not exist yet as of %s", headPath, h.X.Commit(ci).ShortHash())}
		}
		if oldest.OldPath != "" {
			return oldest.OldPath, nil
		}
	}
	return headPath, nil
}

// FileCommits is the history of a file for the REST API; path is read
// as get_file_history reads it (historyPath): a full path or a unique end.
func (h *HistoryView) FileCommits(path string, w analysis.DateWindow, offset, limit int) (analysis.FileHistoryResult, error) {
	path, err := historyPath(h.s, h.X, path)
	if err != nil {
		return analysis.FileHistoryResult{}, err
	}
	return analysis.FileHistory(h.X, path, w, offset, limit), nil
}

// commitTerms is what a commit is searched and clustered by: its message
// and the names of the symbols it changed.
func commitTerms(x *analysis.HistoryIndex, i int) []string {
	c := x.Commit(i)
	terms := search.Words(c.Message)
	for _, s := range x.SymbolsOf(i) {
		terms = append(terms, search.Words(s.Name)...)
	}
	return terms
}

// CommitHit is a commit found by a search.
type CommitHit struct {
	CommitHash string  `json:"commit_hash"`
	Score      float64 `json:"score"`
	Summary    string  `json:"summary"`
}

// CommitSearch is the answer of a commit search and how it was ranked.
type CommitSearch struct {
	Hits    []CommitHit
	Ranking string // search.RankingBM25 or search.RankingFused
	Note    string
}

// SearchCommits ranks the commits by how well their message and the names
// of the symbols they changed match the query: BM25, fused by reciprocal
// rank with the similarity of the commits' vectors when the index has
// embeddings.
func (h *HistoryView) SearchCommits(ctx context.Context, query string, topK int) (CommitSearch, error) {
	g := h.s.Graph
	bm25 := func() []search.Hit {
		var hits []search.Hit
		for _, sc := range h.s.commitCorpus().Search(search.Terms(query), topK) {
			if n, ok := g.Lookup("Commit:" + h.X.Commit(sc.Doc).Hash); ok {
				hits = append(hits, search.Hit{Node: n, Score: sc.Score})
			}
		}
		return hits
	}
	ranked, err := search.Commits(ctx, h.b.semantic(ctx, h.s), query, topK, bm25)
	if err != nil {
		return CommitSearch{}, err
	}
	out := CommitSearch{Hits: []CommitHit{}, Ranking: ranked.Ranking, Note: ranked.Note}
	for _, hit := range ranked.Hits {
		i, ok, err := h.X.FindCommit(g.Nodes[hit.Node].QualifiedName)
		if err != nil || !ok {
			continue
		}
		score := hit.Score
		if ranked.Ranking == search.RankingFused {
			score = math.Round(score*1e6) / 1e6
		}
		out.Hits = append(out.Hits, CommitHit{CommitHash: h.X.Commit(i).Hash, Score: score, Summary: h.summary(i)})
	}
	return out, nil
}

// summary is a commit in one line: subject, date, author, and what it
// changed.
func (h *HistoryView) summary(i int) string {
	c := h.X.Commit(i)
	files, syms := len(h.X.FilesOf(i)), len(h.X.SymbolsOf(i))
	return fmt.Sprintf("%s (%s, %s, %s; %d files, %d symbols)", c.Subject, c.ShortHash(),
		time.Unix(c.AuthoredAt, 0).UTC().Format("2006-01-02"), c.AuthorName, files, syms)
}

// ClusterInput is a commit to cluster: a hash (looked up in the history
// when the message is empty) and its message.
type ClusterInput struct {
	Hash    string `json:"hash"`
	Message string `json:"message"`
}

// CommitCluster is a group of commits with a label from their top terms.
type CommitCluster struct {
	Label   string   `json:"label"`
	Terms   []string `json:"terms"`
	Commits []string `json:"commits"`
	// Representative is the member closest to the group's terms: the
	// first commit (newest, in input order) holding most of them.
	Representative string `json:"representative"`
}

// ClusterCommits groups commits by intent (TF-IDF of their messages and
// changed symbols' names, k-means, k by silhouette). Commits given with a
// message are clustered by that message alone when the history does not
// hold them.
func (h *HistoryView) ClusterCommits(in []ClusterInput) ([]CommitCluster, error) {
	if len(in) > search.MaxClusterDocs {
		return nil, &ArgError{Param: "commits", Msg: fmt.Sprintf("at most %d commits at once (got %d)", search.MaxClusterDocs, len(in))}
	}
	docs := make([][]string, len(in))
	hashes := make([]string, len(in))
	for k, c := range in {
		hashes[k] = c.Hash
		i, ok, err := h.X.FindCommit(c.Hash)
		switch {
		case err == nil && ok:
			hashes[k] = h.X.Commit(i).Hash
			if c.Message == "" {
				docs[k] = commitTerms(h.X, i)
			} else {
				docs[k] = append(search.Words(c.Message), commitTerms(h.X, i)[len(search.Words(h.X.Commit(i).Message)):]...)
			}
		case c.Message != "":
			docs[k] = search.Words(c.Message)
		default:
			return nil, &NotFoundError{What: fmt.Sprintf("commit %q is not in the indexed history and has no message to cluster by", c.Hash)}
		}
	}
	out := []CommitCluster{}
	for _, g := range search.ClusterTexts(docs) {
		cc := CommitCluster{Label: g.Label, Terms: g.Terms, Commits: []string{}}
		if cc.Terms == nil {
			cc.Terms = []string{}
		}
		best := -1
		for _, m := range g.Members {
			cc.Commits = append(cc.Commits, hashes[m])
			if hits := countTerms(docs[m], g.Terms); hits > best {
				best, cc.Representative = hits, hashes[m]
			}
		}
		out = append(out, cc)
	}
	return out, nil
}

func countTerms(doc, terms []string) int {
	n := 0
	for _, t := range terms {
		for _, d := range doc {
			if d == t {
				n++
				break
			}
		}
	}
	return n
}

// FileCommitInputs lists the commits of a file (newest first, at most
// search.MaxClusterDocs) for clustering.
func (h *HistoryView) FileCommitInputs(path string) ([]ClusterInput, error) {
	if !h.X.KnownPath(path) {
		return nil, &NotFoundError{What: fmt.Sprintf("no indexed commit changed %q in %s", path, h.s.Repo.ID)}
	}
	var out []ClusterInput
	for _, k := range h.X.FileChanges(path) {
		if len(out) == search.MaxClusterDocs {
			break
		}
		out = append(out, ClusterInput{Hash: h.X.H.Files[k].Commit})
	}
	return out, nil
}

// HistoryBranches says which history the repository's index holds: every
// branch (true), or the first-parent history of the branch it was built
// on (false, with that branch's name).
func (b *Backend) HistoryBranches(ctx context.Context, ref string) (all bool, branch string, err error) {
	_, err = b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		if h := s.Meta.History; h != nil {
			all = h.AllBranches
		}
		branch = s.Meta.Branch
		return nil, nil
	})
	return all, branch, err
}

// Timeline counts the history's commits by week.
func (h *HistoryView) Timeline() analysis.TimelineView { return h.X.Timeline() }

// Hotspots lists the files and symbols changed by the most commits in w.
func (h *HistoryView) Hotspots(w analysis.DateWindow, limit int) analysis.HotspotsView {
	return h.X.Hotspots(h.s.Graph, w, limit)
}

// RepoID is the repository's id.
func (h *HistoryView) RepoID() string { return h.s.Repo.ID }
