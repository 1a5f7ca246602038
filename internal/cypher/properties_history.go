package cypher

import (
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The properties of the git history: Commit nodes, HistoricalSymbol
// nodes, File renames, and the MODIFIES and CHANGES edges. They are read
// from the history records the in-memory graph loaded with the index, and
// are null on every other node and edge (and on every node when the index
// was built without history).

// commitProperty is a property of Commit nodes.
func commitProperty(name, typ, doc string, get func(c *graph.Commit) Value) NodeProperty {
	return NodeProperty{Name: name, Type: typ, Doc: doc, Kinds: []graph.NodeKind{graph.KindCommit},
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if c := pr.g.Commit(n); c != nil {
				return get(c), nil
			}
			return Null, nil
		}}
}

// gitTime renders a commit time as RFC 3339 in UTC, so that strings
// compare in time order: '2024-05-01T09:30:00Z'.
func gitTime(unix int64) Value {
	return StringValue(time.Unix(unix, 0).UTC().Format(time.RFC3339))
}

var historyNodeProperties = []NodeProperty{
	commitProperty("hash", "STRING", "Commit: the full commit hash",
		func(c *graph.Commit) Value { return StringValue(c.Hash) }),
	commitProperty("shortHash", "STRING", "Commit: the shortest prefix of the hash, at least 7 characters, that no other indexed commit shares",
		func(c *graph.Commit) Value { return StringValue(c.ShortHash()) }),
	commitProperty("subject", "STRING", "Commit: the first line of the message",
		func(c *graph.Commit) Value { return StringValue(c.Subject) }),
	commitProperty("message", "STRING", "Commit: the whole message, subject included",
		func(c *graph.Commit) Value { return StringValue(c.Message) }),
	commitProperty("authorName", "STRING", "Commit: the author's name",
		func(c *graph.Commit) Value { return StringValue(c.AuthorName) }),
	commitProperty("authorEmail", "STRING", "Commit: the author's email",
		func(c *graph.Commit) Value { return StringValue(c.AuthorEmail) }),
	commitProperty("authoredAt", "STRING", "Commit: when it was written, RFC 3339 in UTC (`2024-05-01T09:30:00Z`; compares in time order)",
		func(c *graph.Commit) Value { return gitTime(c.AuthoredAt) }),
	commitProperty("committedAt", "STRING", "Commit: when it was committed, RFC 3339 in UTC",
		func(c *graph.Commit) Value { return gitTime(c.CommittedAt) }),
	commitProperty("isMerge", "BOOLEAN", "Commit: it has more than one parent",
		func(c *graph.Commit) Value { return BoolValue(c.IsMerge()) }),
	commitProperty("parents", "LIST OF STRING", "Commit: the parents' full hashes, first parent first",
		func(c *graph.Commit) Value {
			out := make([]Value, len(c.Parents))
			for i, p := range c.Parents {
				out[i] = StringValue(p)
			}
			return ListValue(out)
		}),
	commitProperty("symbolsSkipped", "STRING", "Commit: why its changes were not mapped onto symbols (`too-many-files`: over --max-commit-files; `missing-objects`); null when they were",
		func(c *graph.Commit) Value {
			if c.SymbolsSkip == "" {
				return Null
			}
			return StringValue(c.SymbolsSkip)
		}),
	{Name: "previousPaths", Type: "LIST OF STRING", Doc: "File: the paths it had before its renames, newest first; null when it was not renamed in the history read",
		Kinds: []graph.NodeKind{graph.KindFile},
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			paths := pr.g.PreviousPaths(n)
			if len(paths) == 0 {
				return Null, nil
			}
			out := make([]Value, len(paths))
			for i, p := range paths {
				out[i] = StringValue(p)
			}
			return ListValue(out), nil
		}},
	{Name: "kind", Type: "STRING", Doc: "HistoricalSymbol: the kind it had (`Function`, `Method`, ...)",
		Kinds: []graph.NodeKind{graph.KindHistoricalSymbol},
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if r := pr.g.RemovedSymbol(n); r != nil {
				return StringValue(r.Kind.String()), nil
			}
			return Null, nil
		}},
	{Name: "deletedIn", Type: "STRING", Doc: "HistoricalSymbol: the hash of the commit that deleted it; null when no indexed commit did (it went in a commit not mapped onto symbols)",
		Kinds: []graph.NodeKind{graph.KindHistoricalSymbol},
		get: func(pr *propReader, n memgraph.NodeID) (Value, error) {
			if r := pr.g.RemovedSymbol(n); r != nil && r.DeletedIn != "" {
				return StringValue(r.DeletedIn), nil
			}
			return Null, nil
		}},
}

// historyChange returns the record of a MODIFIES or CHANGES relationship:
// one of the two is set, both are nil for other relationships.
func historyChange(g *memgraph.Graph, v Value) (*graph.FileChange, *graph.SymbolChange) {
	switch v.et {
	case graph.EdgeModifies:
		return g.FileChange(v.RelSrc(), v.RelDst()), nil
	case graph.EdgeChanges:
		return nil, g.SymbolChange(v.RelSrc(), v.RelDst())
	}
	return nil, nil
}

// lineCount is a counted number of lines; -1 (not counted: binary, or a
// commit whose diff was not read) is null.
func lineCount(n int) Value {
	if n < 0 {
		return Null
	}
	return IntValue(int64(n))
}

var historyRelProperties = []RelProperty{
	{Name: "changeType", Type: "STRING", Doc: "MODIFIES: git's status `A`, `M`, `D`, `R` (renamed, perhaps edited) or `T` (type changed); CHANGES: `added`, `modified` or `deleted`",
		get: func(g *memgraph.Graph, v Value) Value {
			f, s := historyChange(g, v)
			switch {
			case f != nil:
				return StringValue(string(f.Status))
			case s != nil:
				return StringValue(string(s.Change))
			}
			return Null
		}},
	{Name: "additions", Type: "INTEGER", Doc: "MODIFIES, CHANGES: lines added (in the file; in the symbol); null for binary files",
		get: func(g *memgraph.Graph, v Value) Value {
			f, s := historyChange(g, v)
			switch {
			case f != nil:
				return lineCount(f.Additions)
			case s != nil:
				return lineCount(s.Additions)
			}
			return Null
		}},
	{Name: "deletions", Type: "INTEGER", Doc: "MODIFIES, CHANGES: lines deleted; null for binary files",
		get: func(g *memgraph.Graph, v Value) Value {
			f, s := historyChange(g, v)
			switch {
			case f != nil:
				return lineCount(f.Deletions)
			case s != nil:
				return lineCount(s.Deletions)
			}
			return Null
		}},
	{Name: "path", Type: "STRING", Doc: "MODIFIES, CHANGES: the file's path in that commit (it may have been renamed since)",
		get: func(g *memgraph.Graph, v Value) Value {
			f, s := historyChange(g, v)
			switch {
			case f != nil:
				return StringValue(f.Path)
			case s != nil:
				return StringValue(s.Path)
			}
			return Null
		}},
	{Name: "oldPath", Type: "STRING", Doc: "MODIFIES with changeType `R`: the path before the rename; null otherwise",
		get: func(g *memgraph.Graph, v Value) Value {
			if f, _ := historyChange(g, v); f != nil && f.OldPath != "" {
				return StringValue(f.OldPath)
			}
			return Null
		}},
}
