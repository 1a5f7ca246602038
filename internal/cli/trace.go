package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/registry"
	"gitnexus.dev/gitnexus/internal/store"
)

// traceOptions serve `callers` and `callees`: the same walk in opposite
// directions over CALLS edges.
type traceOptions struct {
	io            *IO
	direction     memgraph.Direction
	verb          string
	repo          string
	depth         int
	limit         int
	minConfidence float64
	json          bool
	symbol        string
}

func newTraceCmd(stdio *IO, verb string) *cobra.Command {
	o := &traceOptions{io: stdio, verb: verb, direction: memgraph.Incoming}
	short := "Show who calls a function or method"
	example := "  gitnexus callers ParseConfig\n  gitnexus callers Server.Serve --depth 3 --json\n  gitnexus callers 'Method:net/http/server.go:Server.Serve' --repo src"
	if verb == "callees" {
		o.direction = memgraph.Outgoing
		short = "Show what a function or method calls"
		example = "  gitnexus callees main\n  gitnexus callees Server.Serve --depth 2"
	}
	cmd := &cobra.Command{
		Use:   verb + " <symbol>",
		Short: short,
		Long: short + `, breadth first to --depth levels, each symbol once.
<symbol> is a name (Serve), a qualified name or a dotted suffix of one (Server.Serve,
http.Server.Serve), or a node id. An ambiguous name lists the candidates. The repository is
--repo (id, name, path or unique part of a name), else the one containing the current
directory (an unindexed git repository there is refused), else the only one indexed. The
agents' tools get-callers-of and get-callees-of answer the same question with every call
line, modules and tests marked.`,
		Example: example,
		Args:    argsRange(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.symbol = args[0]
			return runTrace(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.repo, "repo", "", "repository id, name or path")
	f.IntVar(&o.depth, "depth", 1, fmt.Sprintf("levels to follow (1-%d)", memgraph.MaxDepth))
	f.IntVar(&o.limit, "limit", memgraph.DefaultLimit, "most results to show")
	f.Float64Var(&o.minConfidence, "min-confidence", 0, "ignore edges below this confidence (0-1)")
	f.BoolVar(&o.json, "json", false, "print JSON")
	_ = cmd.RegisterFlagCompletionFunc("repo", completeRepos)
	cmd.ValidArgsFunction = completeSymbols(stdio)
	return cmd
}

type traceNode struct {
	ID            string `json:"id"`
	Kind          string `json:"kind"`
	Name          string `json:"name"`
	QualifiedName string `json:"qualifiedName"`
	File          string `json:"filePath"`
	Line          int    `json:"startLine"`
}

type traceHit struct {
	traceNode
	Depth      int     `json:"depth"`
	From       string  `json:"from"`
	CallLine   int     `json:"callLine,omitempty"`
	Reason     string  `json:"reason"`
	Confidence float32 `json:"confidence"`
}

type traceReport struct {
	Repo      string     `json:"repo"`
	Direction string     `json:"direction"`
	Target    traceNode  `json:"target"`
	Depth     int        `json:"depth"`
	Results   []traceHit `json:"results"`
	Truncated bool       `json:"truncated"`
}

func runTrace(ctx context.Context, o *traceOptions) error {
	if o.depth < 1 || o.depth > memgraph.MaxDepth {
		return usageError{fmt.Errorf("--depth must be between 1 and %d", memgraph.MaxDepth)}
	}
	if o.limit < 1 {
		return usageError{fmt.Errorf("--limit must be at least 1")}
	}
	entry, g, err := loadRepoGraph(ctx, o.io, o.repo)
	if err != nil {
		return err
	}
	targets := g.Find(o.symbol)
	switch {
	case len(targets) == 0:
		return fmt.Errorf("no symbol %q in %s: try a simple name, Type.Method, or run `gitnexus analyze` if the code is new", o.symbol, entry.ID)
	case len(targets) > 1:
		var b strings.Builder
		fmt.Fprintf(&b, "%q is ambiguous in %s (%d symbols); pass one of these ids:", o.symbol, entry.ID, len(targets))
		for i, t := range targets {
			if i == 20 {
				fmt.Fprintf(&b, "\n  … and %d more", len(targets)-i)
				break
			}
			n := g.Nodes[t]
			fmt.Fprintf(&b, "\n  %s  (%s:%d)", n.ID, n.FilePath, n.StartLine)
		}
		return fmt.Errorf("%s", b.String())
	}
	target := targets[0]
	res := g.Walk([]memgraph.NodeID{target}, memgraph.WalkOptions{
		Direction: o.direction, Types: []graph.EdgeType{graph.EdgeCalls}, MaxDepth: o.depth,
		MinConfidence: float32(o.minConfidence), Limit: o.limit,
	})
	rep := traceReport{Repo: entry.ID, Direction: o.verb, Target: toTraceNode(g, target), Depth: o.depth,
		Truncated: res.Truncated, Results: []traceHit{}}
	for _, h := range res.Hits {
		rep.Results = append(rep.Results, traceHit{traceNode: toTraceNode(g, h.Node), Depth: h.Depth,
			From: g.Nodes[h.From].ID, CallLine: int(h.Via.Line), Reason: string(g.Reason(h.Via)), Confidence: h.Via.Confidence})
	}
	if o.json {
		return writeJSON(o.io.Out, rep)
	}
	printTrace(o.io.Out, &rep)
	return nil
}

func toTraceNode(g *memgraph.Graph, n memgraph.NodeID) traceNode {
	nd := g.Nodes[n]
	return traceNode{ID: nd.ID, Kind: nd.Kind.String(), Name: nd.Name, QualifiedName: nd.QualifiedName,
		File: nd.FilePath, Line: int(nd.StartLine)}
}

func printTrace(w io.Writer, rep *traceReport) {
	t := rep.Target
	fmt.Fprintf(w, "%s of %s %s (%s:%d)\n", strings.ToUpper(rep.Direction[:1])+rep.Direction[1:], t.Kind, t.QualifiedName, t.File, t.Line)
	if len(rep.Results) == 0 {
		fmt.Fprintf(w, "  none found (%s within depth %d)\n", rep.Direction, rep.Depth)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for _, h := range rep.Results {
		site := ""
		if h.CallLine > 0 {
			// The call is written in the caller's file.
			file := h.File
			if rep.Direction == "callees" {
				file = fileOfID(h.From)
			}
			site = fmt.Sprintf("call at %s:%d", file, h.CallLine)
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s:%d\t%s\t%s %.2f\n", h.Depth, h.Kind, h.QualifiedName, h.File, h.Line, site, h.Reason, h.Confidence)
	}
	tw.Flush()
	more := ""
	if rep.Truncated {
		more = " (truncated: raise --limit to see more)"
	}
	fmt.Fprintf(w, "%d %s%s\n", len(rep.Results), rep.Direction, more)
}

// fileOfID extracts the file path from a symbol or file id.
func fileOfID(id string) string {
	_, rest, _ := strings.Cut(id, ":")
	if k := graph.KindOfID(id); k == graph.KindFile || k == graph.KindFolder {
		return rest
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		return rest[:i]
	}
	return rest
}

// loadRepoGraph resolves the repository and loads its graph.
func loadRepoGraph(ctx context.Context, stdio *IO, ref string) (registry.Entry, *memgraph.Graph, error) {
	entry, r, g, err := openRepoGraph(ctx, stdio, ref)
	if err != nil {
		return entry, nil, err
	}
	r.Close()
	return entry, g, nil
}

// openRepoGraph resolves the repository and loads its graph, leaving the
// index open for the text (doc, content) the graph does not hold. The
// caller closes the reader.
func openRepoGraph(ctx context.Context, stdio *IO, ref string) (registry.Entry, *store.Reader, *memgraph.Graph, error) {
	entries, err := registry.List()
	if err != nil {
		return registry.Entry{}, nil, nil, err
	}
	cwd, _ := stdio.Getwd()
	entry, err := registry.Resolve(entries, ref, cwd, "--repo")
	if err != nil {
		return registry.Entry{}, nil, nil, err
	}
	r, err := store.OpenRepo(entry.Path)
	if err != nil {
		return entry, nil, nil, err
	}
	g, err := memgraph.Load(ctx, r)
	if err != nil {
		r.Close()
		return entry, nil, nil, fmt.Errorf("load the graph of %s: %w", entry.ID, err)
	}
	return entry, r, g, nil
}
