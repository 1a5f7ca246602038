package history

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/lang"
)

// Linking puts a history into a graph of the code at HEAD: a Commit node
// per commit, PARENT_OF and REVERTS between commits, MODIFIES to the File
// each change's file is at HEAD, CHANGES to the symbol each symbol change
// is at HEAD, or to a HistoricalSymbol when it is gone.
//
// A file is followed through renames: commits are walked newest first,
// keeping for each path the file it became at HEAD. A rename old → new
// makes old (in older commits) the file new became; a file added at a path,
// or renamed onto it, makes the path name another, older file before that
// commit (one that was deleted), which is not the file at HEAD.

// LinkStats count what linking found.
type LinkStats struct {
	FilesLinked       int `json:"fileChangesLinked"`
	SymbolsLinked     int `json:"symbolChangesLinked"`
	HistoricalSymbols int `json:"historicalSymbols"`
	Reverts           int `json:"reverts"`
}

// lineage is what a path at some point of the history became at HEAD.
type lineage struct {
	path string // its path at HEAD, or its last path
	gone bool   // the file does not reach HEAD (it was deleted)
}

// revertLine is the line `git revert` writes into the message, compiled
// when first used (1 ms of every process's start otherwise: the counted
// repetition unrolls).
var revertLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(revertMarker + ` ([0-9a-f]{7,64})`) })

// revertMarker opens the line `git revert` writes.
const revertMarker = "This reverts commit"

// Link adds the history h to g and attaches it (g.SetHistory). It fills
// the records' FileID and NodeID and h.Removed.
func Link(g *graph.Graph, h *graph.History) LinkStats {
	var st LinkStats
	g.SetHistory(h)
	setShortHashes(h.Commits)
	inGraph := make(map[string]bool, len(h.Commits))
	for _, c := range h.Commits {
		inGraph[c.Hash] = true
	}
	sorted := make([]string, 0, len(h.Commits))
	for i := range h.Commits {
		c := &h.Commits[i]
		sorted = append(sorted, c.Hash)
		g.AddNode(commitNode(c))
	}
	sort.Strings(sorted)
	ce := newCommitEdges(g)
	for i := range h.Commits {
		c := &h.Commits[i]
		clear(ce.seen)
		for _, p := range c.Parents {
			if inGraph[p] {
				ce.add(graph.CommitID(p), graph.CommitID(c.Hash), graph.EdgeParentOf, graph.ReasonGit)
			}
		}
		for _, target := range revertsOf(c, sorted) {
			ce.add(graph.CommitID(c.Hash), graph.CommitID(target), graph.EdgeReverts, graph.ReasonGit)
			st.Reverts++
		}
	}

	alias := map[string]lineage{}
	resolve := func(p string) lineage {
		if l, ok := alias[p]; ok {
			return l
		}
		return lineage{path: p}
	}
	removed := map[string]int{} // HistoricalSymbol id → index in h.Removed
	g.Grow(len(h.Symbols)/4, len(h.Commits)+len(h.Files)+len(h.Symbols))
	fi, si := 0, 0
	for ci := range h.Commits {
		c := &h.Commits[ci]
		cid := graph.CommitID(c.Hash)
		clear(ce.seen)
		fStart := fi
		for ; fi < len(h.Files) && h.Files[fi].Commit == c.Hash; fi++ {
			f := &h.Files[fi]
			if l := resolve(f.Path); !l.gone && g.HasNode(graph.FileID(l.path)) {
				f.FileID = graph.FileID(l.path)
				ce.add(cid, f.FileID, graph.EdgeModifies, graph.ReasonGit)
				st.FilesLinked++
			}
		}
		for ; si < len(h.Symbols) && h.Symbols[si].Commit == c.Hash; si++ {
			s := &h.Symbols[si]
			l := resolve(s.Path)
			if id := graph.SymbolID(s.Kind, l.path, s.Key); !l.gone && g.HasNode(id) {
				s.NodeID = id
				st.SymbolsLinked++
			} else {
				s.NodeID = graph.HistoricalSymbolID(s.Kind, l.path, s.Key)
				if _, ok := removed[s.NodeID]; !ok {
					// The newest change is the one that says what it was last.
					// The file's language at HEAD where it still exists (a
					// `.h` is C or C++ by its content), else its extension's.
					language := ""
					if f, ok := g.Node(graph.FileID(l.path)); ok && f.Language != "" {
						language = f.Language
					} else if lg := lang.ForPath(l.path); lg != nil {
						language = lg.Name()
					}
					g.AddNode(graph.Node{ID: s.NodeID, Kind: graph.KindHistoricalSymbol, Name: s.Name,
						QualifiedName: s.Qual, FilePath: l.path, StartLine: s.StartLine, EndLine: s.EndLine,
						Language: language})
					r := graph.RemovedSymbol{ID: s.NodeID, Kind: s.Kind}
					if s.Change == graph.ChangeDeleted {
						r.DeletedIn = c.Hash
					}
					removed[s.NodeID] = len(h.Removed)
					h.Removed = append(h.Removed, r)
				}
			}
			ce.add(cid, s.NodeID, graph.EdgeChanges, graph.ReasonDiffHunk)
		}
		// Older commits see the paths as they were before this one. Every
		// update reads the state after the commit, so renames that swap or
		// rotate paths come out right.
		var renamed []struct {
			old string
			to  lineage
		}
		for _, f := range h.Files[fStart:fi] {
			if f.Status == 'R' {
				renamed = append(renamed, struct {
					old string
					to  lineage
				}{f.OldPath, resolve(f.Path)})
			}
		}
		for _, f := range h.Files[fStart:fi] {
			if f.Status == 'R' || f.Status == 'A' {
				alias[f.Path] = lineage{path: f.Path, gone: true}
			}
		}
		for _, r := range renamed {
			alias[r.old] = r.to
		}
	}
	st.HistoricalSymbols = len(h.Removed)
	slices.SortFunc(h.Removed, func(a, b graph.RemovedSymbol) int { return strings.Compare(a.ID, b.ID) })
	return st
}

// LinkNewer links into g, the graph of the code, only the commits of h
// that are newer than prev's (there may be none), when h holds prev's
// records after theirs, but for prev's oldest commits that a bound on the
// history may have dropped (graph.History.NewerUnlinked gave the counts),
// and linking all of h would link prev's records as prev has them. That
// holds when g's code nodes leave prev's links as they are
// (store.Ahead.CarriesHistory) and the newer commits change nothing Link
// carries to older ones:
//   - no file of theirs was added, renamed or copied: that points older
//     records of the path elsewhere;
//   - every symbol they changed exists in g: a HistoricalSymbol takes
//     its attributes from the newest change;
//   - the older commits keep their short hashes, and the hashes their
//     messages say they revert still name the same commit (among h's: a
//     dropped commit is no longer named).
//
// Dropping the oldest commits changes no link of the newer ones (a path's
// lineage is followed from the newest commit down); their nodes and edges
// go, and so do the HistoricalSymbols only they changed (Dropped).
//
// Then h's older records get prev's links, h.Removed is prev's but for
// the dropped, and g gets the newer commits' nodes and edges, with the
// older Commit nodes their PARENT_OF and REVERTS edges reach. It returns
// those older nodes' count (the index has them already), or false, with g
// as it was, when the conditions do not hold.
func LinkNewer(g *graph.Graph, h, prev *graph.History, n graph.Newer) (older int, ok bool) {
	for i := range h.Files[:n.Files] {
		switch h.Files[i].Status {
		case 'M', 'D', 'T':
		default:
			return 0, false
		}
	}
	for i := range h.Symbols[:n.Symbols] {
		s := &h.Symbols[i]
		if !g.HasNode(graph.SymbolID(s.Kind, s.Path, s.Key)) {
			return 0, false
		}
	}
	setShortHashes(h.Commits)
	for i := range prev.Commits[:n.Kept] {
		if h.Commits[n.Commits+i].ShortHashLen != prev.Commits[i].ShortHashLen {
			return 0, false
		}
	}
	sorted := make([]string, 0, len(h.Commits))
	for i := range h.Commits {
		sorted = append(sorted, h.Commits[i].Hash)
	}
	sort.Strings(sorted)
	sortedPrev := make([]string, 0, len(prev.Commits))
	for i := range prev.Commits {
		sortedPrev = append(sortedPrev, prev.Commits[i].Hash)
	}
	sort.Strings(sortedPrev)
	inH := func(hash string) bool {
		_, found := slices.BinarySearch(sorted, hash)
		return found
	}
	for i := range prev.Commits[:n.Kept] {
		c := &prev.Commits[i]
		if !strings.Contains(c.Message, revertMarker) {
			continue
		}
		// A REVERTS edge to a dropped commit goes with it.
		if !slices.Equal(revertsOf(c, sorted), slices.DeleteFunc(revertsOf(c, sortedPrev), func(h string) bool { return !inH(h) })) {
			return 0, false
		}
	}

	g.SetHistory(h)
	for i := range prev.Files[:n.KeptFiles] {
		h.Files[n.Files+i].FileID = prev.Files[i].FileID
	}
	for i := range prev.Symbols[:n.KeptSymbols] {
		h.Symbols[n.Symbols+i].NodeID = prev.Symbols[i].NodeID
	}
	drop := Dropped(prev, n)
	h.Removed = slices.DeleteFunc(slices.Clone(prev.Removed), func(r graph.RemovedSymbol) bool { return drop[r.ID] })
	at := make(map[string]int, len(h.Commits))
	for i := range h.Commits {
		at[h.Commits[i].Hash] = i
	}
	for i := range h.Commits[:n.Commits] {
		g.AddNode(commitNode(&h.Commits[i]))
	}
	// An older commit an edge reaches is added as the index has it.
	reach := func(hash string) {
		if i := at[hash]; i >= n.Commits && g.AddNode(commitNode(&h.Commits[i])) {
			older++
		}
	}
	ce := newCommitEdges(g)
	fi, si := 0, 0
	for i := range h.Commits[:n.Commits] {
		c := &h.Commits[i]
		cid := graph.CommitID(c.Hash)
		clear(ce.seen)
		for _, p := range c.Parents {
			if _, ok := at[p]; ok {
				reach(p)
				ce.add(graph.CommitID(p), cid, graph.EdgeParentOf, graph.ReasonGit)
			}
		}
		for _, target := range revertsOf(c, sorted) {
			reach(target)
			ce.add(cid, graph.CommitID(target), graph.EdgeReverts, graph.ReasonGit)
		}
		for ; fi < n.Files && h.Files[fi].Commit == c.Hash; fi++ {
			f := &h.Files[fi]
			if id := graph.FileID(f.Path); g.HasNode(id) {
				f.FileID = id
				ce.add(cid, id, graph.EdgeModifies, graph.ReasonGit)
			}
		}
		for ; si < n.Symbols && h.Symbols[si].Commit == c.Hash; si++ {
			s := &h.Symbols[si]
			s.NodeID = graph.SymbolID(s.Kind, s.Path, s.Key)
			ce.add(cid, s.NodeID, graph.EdgeChanges, graph.ReasonDiffHunk)
		}
	}
	return older, true
}

// Dropped returns the ids of the history nodes of prev, linked, that go
// when only its n.Kept newest commits are kept: the other commits', and
// the HistoricalSymbols that only their changes reach.
func Dropped(prev *graph.History, n graph.Newer) map[string]bool {
	drop := map[string]bool{}
	for i := range prev.Commits[n.Kept:] {
		drop[graph.CommitID(prev.Commits[n.Kept+i].Hash)] = true
	}
	if len(drop) == 0 {
		return drop
	}
	reached := map[string]bool{}
	for i := range prev.Symbols[:n.KeptSymbols] {
		reached[prev.Symbols[i].NodeID] = true
	}
	for _, r := range prev.Removed {
		if !reached[r.ID] {
			drop[r.ID] = true
		}
	}
	return drop
}

// commitNode is the node of a commit.
func commitNode(c *graph.Commit) graph.Node {
	return graph.Node{ID: graph.CommitID(c.Hash), Kind: graph.KindCommit, Name: c.ShortHash(),
		QualifiedName: c.Hash, Doc: c.Message}
}

// commitEdges adds the history edges of one commit at a time. Every
// history edge leaves or enters one commit (its parents', its own): the
// edges of one commit cannot repeat another commit's, so they are told
// apart among themselves (seen, cleared for each commit) and added as new,
// without the graph's edge index (rebuilding it for them took 37 ms of
// trpc's re-index).
type commitEdges struct {
	g    *graph.Graph
	seen map[commitEdge]bool
}

type commitEdge struct {
	src, dst string
	t        graph.EdgeType
}

func newCommitEdges(g *graph.Graph) *commitEdges {
	return &commitEdges{g: g, seen: map[commitEdge]bool{}}
}

func (ce *commitEdges) add(src, dst string, t graph.EdgeType, r graph.Reason) {
	k := commitEdge{src, dst, t}
	if ce.seen[k] {
		return
	}
	ce.seen[k] = true
	ce.g.AddNewEdge(graph.Edge{Src: src, Dst: dst, Type: t, Confidence: r.Confidence(), Reason: r})
}

// revertsOf returns the commits c's message says it reverts, among the
// history's (sorted: their hashes, sorted).
func revertsOf(c *graph.Commit, sorted []string) []string {
	var out []string
	for _, m := range revertLine().FindAllStringSubmatch(c.Message, -1) {
		if target := findCommit(sorted, m[1]); target != "" && target != c.Hash {
			out = append(out, target)
		}
	}
	return out
}

// Linked counts what linking found in a history linked before (records
// read back from an index, links included), as Link counted it.
func Linked(h *graph.History) LinkStats {
	var st LinkStats
	for i := range h.Files {
		if h.Files[i].FileID != "" {
			st.FilesLinked++
		}
	}
	for i := range h.Symbols {
		if id := h.Symbols[i].NodeID; id != "" && !strings.HasPrefix(id, graph.HistoricalSymbolPrefix) {
			st.SymbolsLinked++
		}
	}
	st.HistoricalSymbols = len(h.Removed)
	sorted := make([]string, 0, len(h.Commits))
	for i := range h.Commits {
		sorted = append(sorted, h.Commits[i].Hash)
	}
	sort.Strings(sorted)
	for i := range h.Commits {
		st.Reverts += len(revertsOf(&h.Commits[i], sorted))
	}
	return st
}

// findCommit returns the commit whose hash is hash or starts with it, ""
// when none or several do.
func findCommit(sorted []string, prefix string) string {
	i := sort.SearchStrings(sorted, prefix)
	if i == len(sorted) || !strings.HasPrefix(sorted[i], prefix) {
		return ""
	}
	if i+1 < len(sorted) && strings.HasPrefix(sorted[i+1], prefix) {
		return ""
	}
	return sorted[i]
}

// setShortHashes gives each commit the shortest abbreviation, at least 7
// characters, that no other commit of the history shares.
func setShortHashes(commits []graph.Commit) {
	idx := make([]int, len(commits))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return commits[idx[a]].Hash < commits[idx[b]].Hash })
	common := func(a, b string) int {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	for k, i := range idx {
		n := 7
		if k > 0 {
			n = max(n, common(commits[i].Hash, commits[idx[k-1]].Hash)+1)
		}
		if k+1 < len(idx) {
			n = max(n, common(commits[i].Hash, commits[idx[k+1]].Hash)+1)
		}
		commits[i].ShortHashLen = min(n, len(commits[i].Hash))
	}
}
