package graph

import (
	"slices"
	"strings"
)

// History is a repository's git history as the index keeps it: the commits
// read, the files each changed and the symbols each changed, as plain
// records. The records name files and symbols as they were in that commit
// (path, kind, key); linking them to the nodes of the graph at HEAD
// (following renames) fills FileID and NodeID. A graph carries its history
// to the store with SetHistory; the graph's Commit and HistoricalSymbol
// nodes and its history edges are built from it.
type History struct {
	Settings HistorySettings
	// Commits, newest first (children before parents).
	Commits []Commit
	// Files and Symbols are grouped by commit in the order of Commits,
	// then sorted by path (and symbol key).
	Files   []FileChange
	Symbols []SymbolChange
	// Removed are the HistoricalSymbol nodes linking made: symbols that
	// commits changed and that no longer exist at HEAD.
	Removed []RemovedSymbol
	// Encoded, when set, is the stored form of exactly these records, as
	// the index they were read from holds it: the store sets it on read,
	// and a re-index keeps it only when its records came out the same
	// (SameRecords), so that writing the index can tell the stored history
	// is current without encoding the records again.
	Encoded []byte
	// EncodedAt is the generation of the index Encoded was read from, in
	// the same read as the bytes; 0 when not known. The index's writer,
	// holding its lock, can take Encoded for the stored bytes at that
	// generation without reading them again.
	EncodedAt int64
	// Unread: the records are the index's at generation EncodedAt and were
	// not read; the History holds its Settings alone. A write of that
	// index keeps its history as it is (a save whose HEAD has not moved:
	// ingest.UnchangedHistory).
	Unread bool
	// Base, when set, is the history a re-index started from, as the
	// index holds it (its Encoded set): the store diffs the new records
	// against it instead of decoding the stored form again. It is read,
	// never changed.
	Base *History
}

// SameRecords reports whether h and o hold the same records, links
// included (Settings and Encoded aside).
func (h *History) SameRecords(o *History) bool {
	if len(h.Commits) != len(o.Commits) || len(h.Files) != len(o.Files) || len(h.Symbols) != len(o.Symbols) ||
		len(h.Removed) != len(o.Removed) {
		return false
	}
	for i := range h.Commits {
		if !sameCommit(&h.Commits[i], &o.Commits[i]) || h.Commits[i].ShortHashLen != o.Commits[i].ShortHashLen {
			return false
		}
	}
	return slices.Equal(h.Files, o.Files) && slices.Equal(h.Symbols, o.Symbols) && slices.Equal(h.Removed, o.Removed)
}

// SameUnlinked reports whether h and o hold the same records, what linking
// sets aside (FileID, NodeID, Removed, short-hash lengths): h as read, o
// linked.
func (h *History) SameUnlinked(o *History) bool {
	return len(h.Commits) == len(o.Commits) && len(h.Files) == len(o.Files) && len(h.Symbols) == len(o.Symbols) &&
		h.tailUnlinked(o, 0, 0, 0)
}

// Newer says how a history read again (h) holds the records of the one an
// index kept (o): first those of newer commits, then o's, but for o's
// oldest commits, which a bound on the history (--max-commits, --since)
// may have dropped.
type Newer struct {
	// Commits, Files and Symbols count h's records of the newer commits,
	// which come first.
	Commits, Files, Symbols int
	// Kept counts o's commits h still holds, its newest; KeptFiles and
	// KeptSymbols count their records, which come first in o.
	Kept, KeptFiles, KeptSymbols int
}

// NewerUnlinked reports whether h holds o's records, what linking sets
// aside, after those of newer commits (h as read, o linked), but for o's
// oldest commits: o's history with commits on top, or fewer at the
// bottom, or both (the same records are SameUnlinked).
func (h *History) NewerUnlinked(o *History) (Newer, bool) {
	var n Newer
	if len(o.Commits) == 0 {
		return n, false
	}
	n.Commits = slices.IndexFunc(h.Commits, func(c Commit) bool { return c.Hash == o.Commits[0].Hash })
	if n.Commits < 0 {
		return n, false
	}
	n.Kept = len(h.Commits) - n.Commits
	if n.Kept > len(o.Commits) || n.Commits == 0 && n.Kept == len(o.Commits) {
		return n, false
	}
	// Records are grouped by commit in the order of the commits: the kept
	// commits' come first in o, the newer commits' first in h.
	kept := make(map[string]bool, n.Kept)
	for i := range o.Commits[:n.Kept] {
		kept[o.Commits[i].Hash] = true
	}
	for n.KeptFiles < len(o.Files) && kept[o.Files[n.KeptFiles].Commit] {
		n.KeptFiles++
	}
	for n.KeptSymbols < len(o.Symbols) && kept[o.Symbols[n.KeptSymbols].Commit] {
		n.KeptSymbols++
	}
	n.Files, n.Symbols = len(h.Files)-n.KeptFiles, len(h.Symbols)-n.KeptSymbols
	if n.Files < 0 || n.Symbols < 0 {
		return n, false
	}
	newer := make(map[string]bool, n.Commits)
	for i := range h.Commits[:n.Commits] {
		newer[h.Commits[i].Hash] = true
	}
	for i := range h.Files[:n.Files] {
		if !newer[h.Files[i].Commit] {
			return n, false
		}
	}
	for i := range h.Symbols[:n.Symbols] {
		if !newer[h.Symbols[i].Commit] {
			return n, false
		}
	}
	trimmed := &History{Commits: o.Commits[:n.Kept], Files: o.Files[:n.KeptFiles], Symbols: o.Symbols[:n.KeptSymbols]}
	return n, h.tailUnlinked(trimmed, n.Commits, n.Files, n.Symbols)
}

// tailUnlinked compares h's records from the given positions on with all
// of o's, links aside.
func (h *History) tailUnlinked(o *History, commits, files, symbols int) bool {
	for i := range o.Commits {
		if !sameCommit(&h.Commits[commits+i], &o.Commits[i]) {
			return false
		}
	}
	for i := range o.Files {
		a, b := h.Files[files+i], o.Files[i]
		a.FileID, b.FileID = "", ""
		if a != b {
			return false
		}
	}
	for i := range o.Symbols {
		a, b := h.Symbols[symbols+i], o.Symbols[i]
		a.NodeID, b.NodeID = "", ""
		if a != b {
			return false
		}
	}
	return true
}

// sameCommit compares what git says of two commits.
func sameCommit(a, b *Commit) bool {
	return a.Hash == b.Hash && slices.Equal(a.Parents, b.Parents) && a.AuthorName == b.AuthorName &&
		a.AuthorEmail == b.AuthorEmail && a.AuthoredAt == b.AuthoredAt && a.AuthorZone == b.AuthorZone &&
		a.CommittedAt == b.CommittedAt && a.CommitZone == b.CommitZone && a.Subject == b.Subject &&
		a.Message == b.Message && a.SymbolsSkip == b.SymbolsSkip
}

// RemovedSymbol is a symbol that no longer exists at HEAD.
type RemovedSymbol struct {
	ID   string   // the HistoricalSymbol node
	Kind NodeKind // the kind it had
	// DeletedIn is the commit that deleted it, "" when no indexed commit
	// did (it vanished in a commit that was not mapped onto symbols).
	DeletedIn string
}

// HistorySettings are what a history was read with. An index whose settings
// differ from a new run's is read again rather than extended.
type HistorySettings struct {
	// Format is the version of the records (history.FormatVersion): a
	// change in what is recorded invalidates older records.
	Format int `json:"format"`
	// AllBranches: every ref was read; otherwise the first-parent history
	// of HEAD (merges diffed against their first parent).
	AllBranches bool `json:"allBranches,omitempty"`
	// Since and MaxCommits bound what was read; "" and 0 mean no bound.
	Since      string `json:"since,omitempty"`
	MaxCommits int    `json:"maxCommits,omitempty"`
	// MaxCommitFiles is the guard: commits changing more files keep their
	// file records but are not mapped onto symbols.
	MaxCommitFiles int `json:"maxCommitFiles"`
	// Head is the newest commit read (HEAD when it was read).
	Head string `json:"head,omitempty"`
	// Pending counts the commits whose symbols are still to map
	// (SkipPending): a history is read in steps, the newest commits first
	// (history.Options.Window). 0 when every commit was mapped.
	Pending int `json:"pending,omitempty"`
	// Commits counts the commits read, Oldest is when the oldest of them
	// was committed (Unix seconds): how far back the history goes.
	Commits int   `json:"commits,omitempty"`
	Oldest  int64 `json:"oldest,omitempty"`
}

// Commit is one commit. Times are Unix seconds; the zones are the offsets
// east of UTC in minutes that git recorded.
type Commit struct {
	Hash         string
	Parents      []string
	AuthorName   string
	AuthorEmail  string
	AuthoredAt   int64
	AuthorZone   int
	CommittedAt  int64
	CommitZone   int
	Subject      string
	Message      string // the whole message, subject included
	SymbolsSkip  string // why symbols were not mapped ("" when they were): SkipTooManyFiles
	ShortHashLen int    // set by linking: the prefix length that is unique among the commits
}

// Why a commit's changes were not mapped onto symbols.
const (
	// SkipTooManyFiles: the commit changed more files than the guard.
	SkipTooManyFiles = "too-many-files"
	// SkipMissingObjects: git could not read the commit's diff because
	// the repository lacks some of its objects (a shallow, partial or
	// damaged clone).
	SkipMissingObjects = "missing-objects"
	// SkipPending: the commit is older than the ones read first; its
	// symbols are mapped by a later step (the history catch-up).
	SkipPending = "pending"
)

// IsMerge reports whether the commit has more than one parent.
func (c *Commit) IsMerge() bool { return len(c.Parents) > 1 }

// ShortHash is the commit's abbreviated hash.
func (c *Commit) ShortHash() string {
	n := c.ShortHashLen
	if n <= 0 {
		n = 7
	}
	return c.Hash[:min(n, len(c.Hash))]
}

// FileChange is one file a commit added, modified, deleted or renamed.
type FileChange struct {
	Commit string // hash
	// Status is git's: 'A', 'M', 'D', 'R' (renamed, perhaps edited), 'T'
	// (type changed).
	Status byte
	Path   string // the path after the commit (before it, for 'D')
	// OldPath is the path before a rename; "" otherwise.
	OldPath string
	// Additions and Deletions are lines; both -1 when they were not
	// counted (a binary file, or a commit whose diff was not read).
	Additions, Deletions int
	// Binary: git saw binary content.
	Binary bool
	// OldBlob and NewBlob are the blob hashes before and after ("" when
	// the file did not exist on that side).
	OldBlob, NewBlob string
	// FileID is the File node at HEAD this change is linked to (following
	// later renames), "" when the file no longer exists or is not indexed.
	FileID string
}

// ChangeType is what a commit did to a symbol.
type ChangeType string

// Change types of symbols.
const (
	ChangeAdded    ChangeType = "added"
	ChangeModified ChangeType = "modified"
	ChangeDeleted  ChangeType = "deleted"
)

// SymbolChange is one symbol a commit changed: a line it added lies in the
// symbol as it is after the commit, or a line it deleted lies in the symbol
// as it was before. Lines go to the innermost symbol that holds them.
type SymbolChange struct {
	Commit string // hash
	Path   string // the file's path after the commit (before it, for deleted files)
	Kind   NodeKind
	Name   string
	// Qual is the qualified name inside the file ("Server.Handle"); Key
	// is Qual with the overload suffix the symbol's id carries, if any.
	Qual, Key string
	Change    ChangeType
	// Additions and Deletions count the lines attributed to the symbol.
	Additions, Deletions int
	// StartLine and EndLine are the symbol's lines after the commit (before
	// it, for a deleted symbol).
	StartLine, EndLine int
	// NodeID is the node the change is linked to: the symbol at HEAD, or a
	// HistoricalSymbol.
	NodeID string
}

// CommitID is the id of a Commit node.
func CommitID(hash string) string { return "Commit:" + hash }

// HistoricalSymbolID is the id of a HistoricalSymbol: the kind the symbol
// had, its last path and its key.
func HistoricalSymbolID(kind NodeKind, path, key string) string {
	return HistoricalSymbolPrefix + SymbolID(kind, path, key)
}

// HistoricalSymbolPrefix is what a HistoricalSymbol's id adds to the id
// the symbol had.
const HistoricalSymbolPrefix = "HistoricalSymbol:"

// HashOfCommitID returns the hash in a Commit node's id.
func HashOfCommitID(id string) string { return strings.TrimPrefix(id, "Commit:") }

// SetHistory attaches the repository's history to the graph, for the store.
func (g *Graph) SetHistory(h *History) { g.history = h }

// History returns the history attached to the graph, nil when none.
func (g *Graph) History() *History { return g.history }

// PreviousPaths returns, for each File node at HEAD that was renamed in
// the history, the paths it had before, newest first: the old paths of
// the renames linked to it.
func (h *History) PreviousPaths() map[string][]string {
	out := map[string][]string{}
	for _, f := range h.Files {
		if f.Status != 'R' || f.FileID == "" || f.OldPath == "" || f.OldPath == strings.TrimPrefix(f.FileID, "File:") {
			continue
		}
		if !slices.Contains(out[f.FileID], f.OldPath) {
			out[f.FileID] = append(out[f.FileID], f.OldPath)
		}
	}
	return out
}
