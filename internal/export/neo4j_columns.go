package export

import (
	"slices"
	"strconv"
	"time"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// The columns of the Neo4j files: the node and relationship properties of
// our Cypher engine (docs/schema.md, "The graph from Cypher"), under the
// same names and with the same values, so that a query written for
// `gitnexus cypher` reads the same properties on Neo4j. Types are
// neo4j-admin's header types; a column without one is a string.
// Confidences and cohesions are doubles, not floats: Neo4j keeps a float
// in 32 bits and gives it back widened (0.949999988079071), and
// `r.confidence >= 0.95` would miss every 0.95.

// nodeColumn is one column of a node file.
type nodeColumn struct {
	name, typ string
	kinds     []graph.NodeKind // the labels whose files have it; nil: every label
	write     func(r *csvRow, x *nodeCell)
}

// nodeCell is what a node column reads: the node and its stored text.
type nodeCell struct {
	g            *memgraph.Graph
	n            memgraph.NodeID
	node         *memgraph.Node
	content, doc string
	split        *bool // set when an array element holds the delimiter
}

func (c nodeColumn) header() string {
	if c.typ == "" {
		return c.name
	}
	return c.name + ":" + c.typ
}

var nodeColumns = []nodeColumn{
	{name: "id", typ: "ID", write: func(r *csvRow, x *nodeCell) { r.str(x.node.ID) }},
	{name: "name", write: func(r *csvRow, x *nodeCell) { r.str(x.node.Name) }},
	{name: "qualifiedName", write: func(r *csvRow, x *nodeCell) { r.str(x.node.QualifiedName) }},
	{name: "filePath", write: func(r *csvRow, x *nodeCell) { r.str(x.node.FilePath) }},
	{name: "startLine", typ: "int", write: func(r *csvRow, x *nodeCell) { r.int(int64(x.node.StartLine)) }},
	{name: "endLine", typ: "int", write: func(r *csvRow, x *nodeCell) { r.int(int64(x.node.EndLine)) }},
	{name: "signature", write: func(r *csvRow, x *nodeCell) { r.str(x.node.Signature) }},
	{name: "doc", write: func(r *csvRow, x *nodeCell) { r.str(x.doc) }},
	{name: "isExported", typ: "boolean", write: func(r *csvRow, x *nodeCell) { r.boolean(x.node.Exported) }},
	{name: "language", write: func(r *csvRow, x *nodeCell) { r.str(x.node.Language) }},
	{name: "content", write: func(r *csvRow, x *nodeCell) { r.str(x.content) }},
	// The aliases our engine answers (cypher.NodePropertyAliases) that
	// queries of other write-ups use, stored as properties of their own:
	// Neo4j has no aliases. `path` is left out: on MODIFIES and CHANGES
	// relationships it is a property of its own.
	{name: "file_path", write: func(r *csvRow, x *nodeCell) { r.str(x.node.FilePath) }},
	{name: "line", typ: "int", write: func(r *csvRow, x *nodeCell) { r.int(int64(x.node.StartLine)) }},

	{name: "label", kinds: []graph.NodeKind{graph.KindCommunity, graph.KindProcess}, write: func(r *csvRow, x *nodeCell) {
		if c, ok := x.g.CommunityInfo(x.n); ok {
			r.str(c.Label)
		} else if p, ok := x.g.ProcessInfo(x.n); ok {
			r.str(p.Label)
		} else {
			r.null()
		}
	}},
	{name: "cohesion", typ: "double", kinds: []graph.NodeKind{graph.KindCommunity}, write: func(r *csvRow, x *nodeCell) {
		if c, ok := x.g.CommunityInfo(x.n); ok {
			r.raw(strconv.FormatFloat(c.Cohesion, 'g', -1, 64))
		} else {
			r.null()
		}
	}},
	{name: "symbolCount", typ: "int", kinds: []graph.NodeKind{graph.KindCommunity}, write: func(r *csvRow, x *nodeCell) {
		if c, ok := x.g.CommunityInfo(x.n); ok {
			r.int(int64(c.SymbolCount))
		} else {
			r.null()
		}
	}},
	{name: "keywords", typ: "string[]", kinds: []graph.NodeKind{graph.KindCommunity}, write: func(r *csvRow, x *nodeCell) {
		var l []string
		if c, ok := x.g.CommunityInfo(x.n); ok {
			l = c.Keywords
		}
		*x.split = r.strs(l) || *x.split
	}},
	{name: "processType", kinds: []graph.NodeKind{graph.KindProcess}, write: func(r *csvRow, x *nodeCell) {
		if p, ok := x.g.ProcessInfo(x.n); ok {
			r.str(p.Type)
		} else {
			r.null()
		}
	}},
	{name: "stepCount", typ: "int", kinds: []graph.NodeKind{graph.KindProcess}, write: func(r *csvRow, x *nodeCell) {
		if p, ok := x.g.ProcessInfo(x.n); ok {
			r.int(int64(p.StepCount))
		} else {
			r.null()
		}
	}},
	{name: "entryPointId", kinds: []graph.NodeKind{graph.KindProcess}, write: func(r *csvRow, x *nodeCell) {
		if p, ok := x.g.ProcessInfo(x.n); ok {
			r.str(x.g.Nodes[p.Entry].ID)
		} else {
			r.null()
		}
	}},
	{name: "terminalId", kinds: []graph.NodeKind{graph.KindProcess}, write: func(r *csvRow, x *nodeCell) {
		if p, ok := x.g.ProcessInfo(x.n); ok {
			r.str(x.g.Nodes[p.Terminal].ID)
		} else {
			r.null()
		}
	}},

	commitColumn("hash", "", func(r *csvRow, c *graph.Commit) { r.str(c.Hash) }),
	commitColumn("shortHash", "", func(r *csvRow, c *graph.Commit) { r.str(c.ShortHash()) }),
	commitColumn("subject", "", func(r *csvRow, c *graph.Commit) { r.str(c.Subject) }),
	commitColumn("message", "", func(r *csvRow, c *graph.Commit) { r.str(c.Message) }),
	commitColumn("authorName", "", func(r *csvRow, c *graph.Commit) { r.str(c.AuthorName) }),
	commitColumn("authorEmail", "", func(r *csvRow, c *graph.Commit) { r.str(c.AuthorEmail) }),
	// Strings, as our engine gives them (RFC 3339 in UTC, which compare
	// in time order), not Neo4j datetimes: the same comparisons run.
	commitColumn("authoredAt", "", func(r *csvRow, c *graph.Commit) { r.str(gitTime(c.AuthoredAt)) }),
	commitColumn("committedAt", "", func(r *csvRow, c *graph.Commit) { r.str(gitTime(c.CommittedAt)) }),
	commitColumn("isMerge", "boolean", func(r *csvRow, c *graph.Commit) { r.boolean(c.IsMerge()) }),
	commitColumn("parents", "string[]", func(r *csvRow, c *graph.Commit) { r.strs(c.Parents) }),
	commitColumn("symbolsSkipped", "", func(r *csvRow, c *graph.Commit) {
		if c.SymbolsSkip == "" {
			r.null()
		} else {
			r.str(c.SymbolsSkip)
		}
	}),
	{name: "previousPaths", typ: "string[]", kinds: []graph.NodeKind{graph.KindFile}, write: func(r *csvRow, x *nodeCell) {
		*x.split = r.strs(x.g.PreviousPaths(x.n)) || *x.split
	}},
	{name: "kind", kinds: []graph.NodeKind{graph.KindHistoricalSymbol}, write: func(r *csvRow, x *nodeCell) {
		if s := x.g.RemovedSymbol(x.n); s != nil {
			r.str(s.Kind.String())
		} else {
			r.null()
		}
	}},
	{name: "deletedIn", kinds: []graph.NodeKind{graph.KindHistoricalSymbol}, write: func(r *csvRow, x *nodeCell) {
		if s := x.g.RemovedSymbol(x.n); s != nil && s.DeletedIn != "" {
			r.str(s.DeletedIn)
		} else {
			r.null()
		}
	}},
}

func commitColumn(name, typ string, write func(r *csvRow, c *graph.Commit)) nodeColumn {
	return nodeColumn{name: name, typ: typ, kinds: []graph.NodeKind{graph.KindCommit}, write: func(r *csvRow, x *nodeCell) {
		if c := x.g.Commit(x.n); c != nil {
			write(r, c)
		} else {
			r.null()
		}
	}}
}

func gitTime(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

// columnsOf returns the columns of the file of label k.
func columnsOf(k graph.NodeKind) []nodeColumn {
	var out []nodeColumn
	for _, c := range nodeColumns {
		if c.kinds == nil || slices.Contains(c.kinds, k) {
			out = append(out, c)
		}
	}
	return out
}

// labelsOf is the :LABEL field of a node of kind k: its kind, and for
// packages also Module, the label alias our engine answers.
func labelsOf(k graph.NodeKind) string {
	if k == graph.KindPackage {
		return k.String() + string(arrayDelimiter) + "Module"
	}
	return k.String()
}

// relColumn is one property column of a relationship file, after
// :START_ID, :END_ID and :TYPE.
type relColumn struct {
	name, typ string
	// types are the edge types whose files have it; nil: every type.
	types []graph.EdgeType
	// more: only in the files of types where some edge has further lines.
	more  bool
	write func(r *csvRow, x *relCell)
}

// relCell is what a relationship column reads.
type relCell struct {
	g      *memgraph.Graph
	src    memgraph.NodeID
	e      memgraph.Edge
	file   *graph.FileChange   // MODIFIES
	symbol *graph.SymbolChange // CHANGES
}

func (c relColumn) header() string {
	if c.typ == "" {
		return c.name
	}
	return c.name + ":" + c.typ
}

var historyChanges = []graph.EdgeType{graph.EdgeModifies, graph.EdgeChanges}

var relColumns = []relColumn{
	{name: "confidence", typ: "double", write: func(r *csvRow, x *relCell) {
		// The float32 the graph keeps, in its shortest decimal form (0.95),
		// as our engine gives it.
		r.raw(strconv.FormatFloat(float64(x.e.Confidence), 'g', -1, 32))
	}},
	{name: "reason", write: func(r *csvRow, x *relCell) { r.str(string(x.g.Reason(x.e))) }},
	{name: "line", typ: "int", write: func(r *csvRow, x *relCell) {
		if x.e.Type == graph.EdgeStepInProcess {
			r.int(0) // the graph keeps the step in the line
		} else {
			r.int(int64(x.e.Line))
		}
	}},
	{name: "step", typ: "int", types: []graph.EdgeType{graph.EdgeStepInProcess}, write: func(r *csvRow, x *relCell) {
		r.int(int64(x.e.Line))
	}},
	{name: "moreLines", typ: "int[]", more: true, write: func(r *csvRow, x *relCell) {
		l := x.g.Lines(x.e)
		if len(l) > 1 {
			r.ints(l[1:])
		} else {
			r.null()
		}
	}},
	{name: "changeType", types: historyChanges, write: func(r *csvRow, x *relCell) {
		switch {
		case x.file != nil:
			r.str(string(x.file.Status))
		case x.symbol != nil:
			r.str(string(x.symbol.Change))
		default:
			r.null()
		}
	}},
	{name: "additions", typ: "int", types: historyChanges, write: func(r *csvRow, x *relCell) {
		switch {
		case x.file != nil:
			lineCount(r, x.file.Additions)
		case x.symbol != nil:
			lineCount(r, x.symbol.Additions)
		default:
			r.null()
		}
	}},
	{name: "deletions", typ: "int", types: historyChanges, write: func(r *csvRow, x *relCell) {
		switch {
		case x.file != nil:
			lineCount(r, x.file.Deletions)
		case x.symbol != nil:
			lineCount(r, x.symbol.Deletions)
		default:
			r.null()
		}
	}},
	{name: "path", types: historyChanges, write: func(r *csvRow, x *relCell) {
		switch {
		case x.file != nil:
			r.str(x.file.Path)
		case x.symbol != nil:
			r.str(x.symbol.Path)
		default:
			r.null()
		}
	}},
	{name: "oldPath", types: []graph.EdgeType{graph.EdgeModifies}, write: func(r *csvRow, x *relCell) {
		if x.file != nil && x.file.OldPath != "" {
			r.str(x.file.OldPath)
		} else {
			r.null()
		}
	}},
}

// lineCount writes a counted number of lines; -1 (not counted) is null.
func lineCount(r *csvRow, n int) {
	if n < 0 {
		r.null()
	} else {
		r.int(int64(n))
	}
}

// relColumnsOf returns the property columns of the file of edge type t;
// more says whether some edge of the type has further lines.
func relColumnsOf(t graph.EdgeType, more bool) []relColumn {
	var out []relColumn
	for _, c := range relColumns {
		if (c.types == nil || slices.Contains(c.types, t)) && (!c.more || more) {
			out = append(out, c)
		}
	}
	return out
}
