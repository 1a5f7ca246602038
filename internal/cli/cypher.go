package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/cypher"
)

// cypherOptions serve `gitnexus cypher`: one read-only query over a
// repository's graph.
type cypherOptions struct {
	io      *IO
	repo    string
	params  []string
	limit   int
	timeout time.Duration
	memory  int // MiB
	json    bool
	query   string
}

func newCypherCmd(stdio *IO) *cobra.Command {
	o := &cypherOptions{io: stdio}
	cmd := &cobra.Command{
		Use:   "cypher [flags] <query>",
		Short: "Run a read-only Cypher query over a repository's code graph",
		Long: `Run a read-only Cypher query over the code graph of an indexed repository and print the
rows as a table (or JSON). <query> is the query text, or - to read it from stdin.

The graph: one label per node kind (File, Folder, Package, Function, Method, Constructor,
Class, Interface, Struct, Enum, TypeAlias, Const, Variable, Property); node properties id,
name, qualifiedName, filePath, startLine, endLine, signature, doc, isExported, language,
content; one relationship type CodeRelation with properties type (CALLS, IMPORTS, DEFINES,
CONTAINS, HAS_METHOD, HAS_PROPERTY, EXTENDS, IMPLEMENTS, REFERENCES), confidence, reason,
line, step. -[:CALLS]-> is short for -[:CodeRelation {type: 'CALLS'}]->.

Supported: MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, DISTINCT, ORDER BY, SKIP,
LIMIT, UNION, EXPLAIN, variable-length patterns (*, *1..3; at most ` + fmt.Sprint(cypher.MaxVarLength) + ` hops), named paths,
pattern predicates, EXISTS { } and COUNT { }, list comprehensions, CASE, parameters, and the
usual functions and aggregates. Writing clauses, CALL, LOAD CSV and FOREACH are refused:
the graph is read-only. Full reference: docs/cypher.md.

--param name=value sets $name: the value is read as JSON when it parses (3, true,
["a","b"], {"k": 1}), else taken as a string. The repository is --repo (id, name, path or
unique part of a name), else the one containing the current directory (an unindexed git
repository there is refused), else the only one indexed.`,
		Example: `  gitnexus cypher "MATCH (f:Function) RETURN count(f)"
  gitnexus cypher "MATCH (a)-[:CALLS]->(b:Function {name: 'validate'}) RETURN a.name, a.filePath"
  gitnexus cypher --param name=Place "MATCH (m:Method {name: \$name})<-[:CALLS*1..3]-(c) RETURN DISTINCT c.qualifiedName"
  gitnexus cypher --json --limit 20 "MATCH (f:Function) WHERE f.isExported AND NOT (f)<-[:CALLS]-() RETURN f.id"
  gitnexus cypher "EXPLAIN MATCH (f:Function {name: 'main'})-[:CALLS]->(g) RETURN g.name"
  echo "MATCH (n) RETURN labels(n)[0] AS label, count(*) ORDER BY label" | gitnexus cypher -`,
		Args: argsRange(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.query = args[0]
			return runCypher(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.repo, "repo", "", "repository id, name or path")
	f.StringArrayVar(&o.params, "param", nil, "query parameter name=value (repeatable; JSON values, else strings)")
	f.IntVar(&o.limit, "limit", cypher.DefaultMaxRows, "most rows to return; a longer result is cut and says so")
	f.DurationVar(&o.timeout, "timeout", cypher.DefaultTimeout, "stop the query after this long")
	f.IntVar(&o.memory, "max-memory", cypher.DefaultMaxMemory>>20, "the query's memory budget in MiB: what it builds and keeps (sorts, DISTINCT, groups, collect) and, apart, its rows")
	f.BoolVar(&o.json, "json", false, "print JSON: columns, rows (objects by column), row_count, truncated, warnings")
	_ = cmd.RegisterFlagCompletionFunc("repo", completeRepos)
	return cmd
}

// parseParams reads --param name=value flags.
func parseParams(flags []string) (map[string]any, error) {
	params := map[string]any{}
	for _, p := range flags {
		name, raw, ok := strings.Cut(p, "=")
		name = strings.TrimPrefix(strings.TrimSpace(name), "$")
		if !ok || name == "" {
			return nil, fmt.Errorf("--param %q: write name=value", p)
		}
		params[name] = parseParamValue(raw)
	}
	return params, nil
}

// parseParamValue reads a JSON value (numbers keep integer or float form),
// or, when the text is not JSON, the text itself.
func parseParamValue(raw string) any {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil && !dec.More() {
		if _, err := dec.Token(); errors.Is(err, io.EOF) {
			return v
		}
	}
	return raw
}

func runCypher(ctx context.Context, o *cypherOptions) error {
	if o.limit < 1 {
		return usageError{fmt.Errorf("--limit must be at least 1")}
	}
	if o.timeout <= 0 {
		return usageError{fmt.Errorf("--timeout must be positive")}
	}
	if o.memory < 1 {
		return usageError{fmt.Errorf("--max-memory must be at least 1 (MiB)")}
	}
	params, err := parseParams(o.params)
	if err != nil {
		return usageError{err}
	}
	query := o.query
	if query == "-" {
		b, err := io.ReadAll(o.io.In)
		if err != nil {
			return fmt.Errorf("read the query from stdin: %w", err)
		}
		query = string(b)
	}
	if strings.TrimSpace(query) == "" {
		return usageError{fmt.Errorf("the query is empty (see `gitnexus cypher --help`)")}
	}
	cwd, err := o.io.Getwd()
	if err != nil {
		return err
	}
	b, err := backend.New(backend.Options{Cwd: cwd, IdleTimeout: -1, ToolVersion: Version()})
	if err != nil {
		return err
	}
	defer b.Close()
	res, repo, err := b.Cypher(ctx, o.repo, query, cypher.Options{Params: params, MaxRows: o.limit, Timeout: o.timeout,
		MaxMemory: int64(o.memory) << 20})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if repo == "" { // no repository: the error says why
			return err
		}
		return fmt.Errorf("query on %s failed:\n%w", repo, err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(o.io.ErrOut, "warning:", w)
	}
	if o.json {
		out := res.JSON()
		out["repo"] = repo
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
		_, err := o.io.Out.Write(buf.Bytes())
		return err
	}
	printCypherTable(o.io.Out, res)
	return nil
}

// printCypherTable prints the rows aligned in columns, then a summary.
func printCypherTable(w io.Writer, res *cypher.Result) {
	if len(res.Columns) == 1 && res.Columns[0] == "plan" && strings.TrimSpace(res.Plan) != "" && len(res.Rows) > 0 &&
		res.Rows[0][0].Str() == strings.SplitN(res.Plan, "\n", 2)[0] {
		fmt.Fprint(w, res.Plan)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(res.Columns, "\t"))
	for _, row := range res.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if v.Kind() == cypher.KindString {
				cells[i] = v.Str()
			} else {
				cells[i] = res.Format(v)
			}
			cells[i] = strings.NewReplacer("\t", " ", "\n", "↵").Replace(cells[i])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	noun := "rows"
	if len(res.Rows) == 1 {
		noun = "row"
	}
	more := ""
	if res.Truncated {
		more = fmt.Sprintf(" (truncated at --limit %d: add LIMIT or aggregate, or raise --limit)", res.MaxRows)
	}
	fmt.Fprintf(w, "%d %s%s\n", len(res.Rows), noun, more)
}
