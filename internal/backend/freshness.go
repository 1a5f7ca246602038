package backend

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gitnexus.dev/gitnexus/internal/freshness"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Every answer about a repository says which build of the index it comes
// from and whether the repository moved on since: the `index` object of the
// structured result, and one line of text when the index is stale. The
// check behind it is the repository's freshness.Monitor: calls read its
// last answer and never wait for git, except the first call on a new build,
// which waits up to firstCheckWait (the check starts when the build is
// loaded, and usually finishes before the graph does).

// firstCheckWait bounds how long the first call on a build waits for the
// check of the work tree.
const firstCheckWait = time.Second

// IndexState is the `index` object of a tool's structured result.
type IndexState struct {
	// Repo is the id of the repository the answer is about, RepoPath
	// its work tree: every answer names the repository it answers for.
	Repo     string `json:"repo,omitempty"`
	RepoPath string `json:"repoPath,omitempty"`
	// Commit is HEAD when the index was built; Branch its branch.
	Commit     string    `json:"commit,omitempty"`
	Branch     string    `json:"branch,omitempty"`
	IndexedAt  time.Time `json:"indexedAt"`
	Generation int64     `json:"generation"`
	// Stale: HEAD moved, files changed, or another version wrote the
	// index; Reasons say which. Re-index with `gitnexus analyze`.
	Stale   bool     `json:"stale"`
	Reasons []string `json:"reasons,omitempty"`
	// Head is the commit checked out when the work tree was checked.
	Head string `json:"head,omitempty"`
	// CheckedAt is when the work tree was checked, CheckAgeMs how long
	// before this answer; absent (and CheckPending set) when the first
	// check of this build has not finished yet.
	CheckedAt    time.Time `json:"checkedAt,omitzero"`
	CheckAgeMs   int64     `json:"checkAgeMs"`
	CheckPending bool      `json:"checkPending,omitempty"`
	// History says how far back the index's git history goes; absent
	// when the index has none (--no-history, not a git repository).
	History *HistoryState `json:"history,omitempty"`
}

// HistoryState is how much of the git history an index holds: Commits
// commits, the oldest committed at Since; the symbols of SymbolsPending of
// them (the oldest) are still being mapped in the background, and the
// history tools do not know yet which symbols those commits changed.
type HistoryState struct {
	Commits        int    `json:"commits"`
	Since          string `json:"since,omitempty"`
	SymbolsPending int    `json:"symbolsPending,omitempty"`
}

// historyState describes the history settings of an index.
func historyState(h *graph.HistorySettings) *HistoryState {
	if h == nil {
		return nil
	}
	st := &HistoryState{Commits: h.Commits, SymbolsPending: h.Pending}
	if h.Oldest > 0 {
		st.Since = time.Unix(h.Oldest, 0).UTC().Format(time.RFC3339)
	}
	return st
}

// pendingLine is the line of text a history tool's answer starts with
// while the symbols of older commits are still being mapped.
func (s *IndexState) pendingLine() string {
	if s == nil || s.History == nil || s.History.SymbolsPending == 0 {
		return ""
	}
	return fmt.Sprintf("History in progress: the symbols of the %d oldest of %d commits are still being mapped in the background; symbol history before them is not known yet.\n\n",
		s.History.SymbolsPending, s.History.Commits)
}

// repoLine is the line every answer about one repository starts with.
func (s *IndexState) repoLine() string {
	if s == nil || s.Repo == "" {
		return ""
	}
	return "Repository: " + s.Repo + "\n\n"
}

// staleLine is the one line of text a stale answer starts with (after the
// repository's).
func (s *IndexState) staleLine() string {
	if s == nil || !s.Stale {
		return ""
	}
	why := "the repository changed since it was built"
	if len(s.Reasons) > 0 {
		why = s.Reasons[0]
		if len(s.Reasons) > 1 {
			why += fmt.Sprintf(" (and %d more)", len(s.Reasons)-1)
		}
	}
	return fmt.Sprintf("Stale index: %s. Run `gitnexus analyze` for answers about the current code.\n\n", why)
}

// snapshotIndex describes a snapshot's index for a freshness check, from
// its metadata and its in-memory graph (which outlives the database handle
// a background check could otherwise find closed).
func snapshotIndex(s *Snapshot) freshness.Index {
	g := s.Graph
	return freshness.Index{ToolVersion: s.Meta.ToolVersion, Commit: s.Meta.IndexedCommit, Dirty: s.Meta.Dirty, DirtyPaths: s.Meta.DirtyPaths,
		DirtyHashes: s.Meta.DirtyHashes, IndexedAt: s.Meta.IndexedAt, Generation: s.Meta.Generation,
		HasFile: func(rel string) bool { _, ok := g.Lookup("File:" + rel); return ok },
		Missing: func(root string) ([]string, error) { return missingFiles(g, root), nil },
	}
}

// missingFiles lists the graph's files that no longer exist under root.
func missingFiles(g *memgraph.Graph, root string) []string {
	var out []string
	for _, n := range g.ByKind(graph.KindFile) {
		rel := g.Nodes[n].FilePath
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); os.IsNotExist(err) {
			out = append(out, rel)
		}
	}
	return out
}

// indexState is the freshness of the snapshot's index as the monitor last
// saw it.
func (h *handle) indexState(s *Snapshot) *IndexState {
	st := &IndexState{Repo: s.Repo.ID, RepoPath: s.Repo.RepoPath, Commit: s.Meta.IndexedCommit, Branch: s.Meta.Branch, IndexedAt: s.Meta.IndexedAt,
		Generation: s.Meta.Generation, History: historyState(s.Meta.History)}
	if h.noWorkTree {
		return st // the index as it was pushed: no work tree to compare with
	}
	a, ok := h.monitor().Get(snapshotIndex(s), firstCheckWait)
	if !ok {
		st.CheckPending = true
		return st
	}
	st.Stale, st.Reasons, st.Head = !a.Fresh, a.Reasons, a.Head
	st.CheckedAt = a.CheckedAt.UTC()
	st.CheckAgeMs = time.Since(a.CheckedAt).Milliseconds()
	return st
}

// structured is a tool's data with the index object added as one more
// field (when the data is a JSON object).
type structured struct {
	data  any
	index *IndexState
}

// MarshalJSON writes the data's object with "index" as its last member;
// data that is not an object is written as it is.
func (v structured) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(v.data)
	if err != nil {
		return nil, err
	}
	if len(data) < 2 || data[0] != '{' {
		return data, nil
	}
	idx, err := json.Marshal(v.index)
	if err != nil {
		return nil, err
	}
	out := data[:len(data)-1] // data is ours: append in place
	if len(data) > 2 {        // not {}
		out = append(out, ',')
	}
	out = append(out, `"index":`...)
	out = append(out, idx...)
	return append(out, '}'), nil
}
