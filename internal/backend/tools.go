package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/cypher"
	"gitnexus.dev/gitnexus/internal/format"
	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
	"gitnexus.dev/gitnexus/internal/repofiles"
	"gitnexus.dev/gitnexus/internal/search"
)

// The one table of tools. Descriptions say when to use a tool and what to do
// after it; parameters carry their bounds.

var repoParam = Param{Name: "repo", Type: TypeString, Description: "Repository id, name, path, or a unique part of a name. " +
	"May be omitted when one repository is indexed or the server runs inside one."}

func toolTable() []*Tool {
	return append([]*Tool{
		{
			Name: "list_repos", Title: "List indexed repositories", ReadOnly: true,
			Description: "List the indexed repositories with their path, when they were indexed, the commit, and counts. " +
				"Use first when several repositories may be indexed. Paged with limit and offset.",
			Params: []Param{
				{Name: "limit", Type: TypeInteger, Description: "Repositories per page.", Default: 50, Min: num(1), Max: num(500)},
				{Name: "offset", Type: TypeInteger, Description: "Repositories to skip.", Default: 0, Min: num(0)},
			},
			run: runListRepos,
		},
		{
			Name: "query", Title: "Search the code graph", ReadOnly: true, IndexOnly: true, Aliases: []string{"search"},
			Description: "Find the code a question is about: symbols ranked best first by the question's words in their names " +
				"(identifiers split on case and kept whole), signatures, docs, code and file paths, test code below the rest " +
				"unless the question is about tests. `results` is the flat ranked list (each with its score and where the " +
				"words matched); the files of the results, files whose path matched, and the execution flows the results are " +
				"steps of follow. When the index has embeddings, vector search ranks by meaning too (fused with the word " +
				"ranking); when it has history, the symbols changed by the commits whose messages best match the question " +
				"gain (`ranking` says what ran). Use to find where a concept lives; then call context on a symbol.",
			Params: []Param{
				{Name: "query", Type: TypeString, Description: "Words to search for, e.g. \"parse config file\".", Required: true, Aliases: []string{"search_query"}},
				{Name: "limit", Type: TypeInteger, Description: "Symbols to return.", Default: 10, Min: num(1), Max: num(100)},
				{Name: "max_symbols", Type: TypeInteger, Description: "Results listed per execution flow.", Default: 10, Min: num(1), Max: num(200)},
				{Name: "include_content", Type: TypeBoolean, Description: "Include each symbol's source.", Default: false},
				repoParam,
			},
			run: runQuery,
		},
		{
			Name: "context", Title: "360-degree view of a symbol", ReadOnly: true, IndexOnly: true, Aliases: []string{"explore"},
			Description: "Show one symbol: where it is, its signature and doc, and everything linked to it grouped by relation " +
				"(called by / calls, imported by, extended by / extends, implemented by / implements, methods, properties, " +
				"references) with file:line. A name shared by several symbols returns status \"ambiguous\" with ranked " +
				"candidates; pass uid (or file_path / kind) to pick one. Use before changing a symbol; then impact.",
			Params: []Param{
				{Name: "name", Type: TypeString, Description: "Symbol name: a simple name, Type.method, a qualified name, or a file path.", Aliases: []string{"symbol", "symbol_name"}},
				{Name: "uid", Type: TypeString, Description: "Exact symbol id from an earlier result (no ambiguity).", Aliases: []string{"symbol_uid"}},
				{Name: "file_path", Type: TypeString, Description: "File (or path suffix) the symbol is in.", Aliases: []string{"file"}},
				{Name: "kind", Type: TypeString, Description: "Kind: Function, Method, Class, Interface, Struct, ..."},
				{Name: "include_content", Type: TypeBoolean, Description: "Include the symbol's source.", Default: false},
				{Name: "type", Type: TypeString, Description: "What name names, as the legacy explore call says: symbol, cluster (a community label) or process (a process label or id).", Default: "symbol", Enum: []string{"symbol", "cluster", "process"}},
				repoParam,
			},
			run: runContext,
		},
		{
			Name: "impact", Title: "Blast radius of a change", ReadOnly: true, IndexOnly: true,
			Description: "What is affected if a symbol changes: nodes reached breadth first (upstream = who depends on it, " +
				"downstream = what it depends on), grouped by depth (1 = will break, 2 = likely affected, 3 = may need " +
				"testing), with the edge and confidence that reached each, the modules hit, and a risk level " +
				"(LOW/MEDIUM/HIGH/CRITICAL). Each depth lists up to limit items from offset; the answer says when more exist.",
			Params: []Param{
				{Name: "target", Type: TypeString, Description: "Symbol name (as for context) or file path.", Aliases: []string{"name", "symbol"}},
				{Name: "target_uid", Type: TypeString, Description: "Exact symbol id.", Aliases: []string{"uid"}},
				{Name: "file_path", Type: TypeString, Description: "File (or path suffix) to disambiguate target.", Aliases: []string{"file"}},
				{Name: "kind", Type: TypeString, Description: "Kind to disambiguate target."},
				{Name: "direction", Type: TypeString, Description: "upstream (dependents) or downstream (dependencies).", Default: "upstream", Enum: []string{"upstream", "downstream"}},
				{Name: "maxDepth", Type: TypeInteger, Description: "Levels to follow.", Default: analysis.DefaultImpactDepth, Min: num(1), Max: num(analysis.MaxImpactDepth), Aliases: []string{"max_depth", "depth"}},
				{Name: "relationTypes", Type: TypeArray, Description: "Edge types to follow (default CALLS, IMPORTS, EXTENDS, IMPLEMENTS).", Aliases: []string{"relation_types"}},
				{Name: "includeTests", Type: TypeBoolean, Description: "Follow and list test code.", Default: false, Aliases: []string{"include_tests"}},
				{Name: "minConfidence", Type: TypeNumber, Description: "Ignore edges below this confidence.", Default: 0.0, Min: num(0), Max: num(1), Aliases: []string{"min_confidence"}},
				{Name: "limit", Type: TypeInteger, Description: "Items listed per depth (page further with offset).", Default: analysis.DefaultImpactLimit, Min: num(1), Max: num(analysis.MaxNavResults)},
				{Name: "offset", Type: TypeInteger, Description: "Items skipped per depth (paging).", Default: 0, Min: num(0)},
				{Name: "summaryOnly", Type: TypeBoolean, Description: "Counts and risk only, no item lists.", Default: false, Aliases: []string{"summary_only"}},
				repoParam,
			},
			run: runImpact,
		},
		{
			Name: "detect_changes", Title: "Symbols a diff touches", ReadOnly: true,
			Description: "Run git diff, map the changed lines onto the indexed symbols, and list the changed symbols, their " +
				"callers two levels up, the modules hit and a risk level. Use before committing.",
			Params: []Param{
				{Name: "scope", Type: TypeString, Description: "unstaged (working tree vs index), staged (index vs HEAD), all (working tree vs HEAD, untracked files too) or compare (working tree vs base_ref).", Default: "unstaged", Enum: []string{"unstaged", "staged", "all", "compare"}},
				{Name: "base_ref", Type: TypeString, Description: "Branch, tag or commit for scope compare."},
				{Name: "limit", Type: TypeInteger, Description: "Changed symbols listed (the total is given; narrow with scope or base_ref).", Default: analysis.DefaultImpactLimit, Min: num(1), Max: num(analysis.MaxNavResults)},
				repoParam,
			},
			run: runDetectChanges,
		},
		{
			Name: "rename", Title: "Rename a symbol everywhere the graph knows", ReadOnly: false,
			Description: "Rename a symbol: edits at its definition and at every reference site the graph resolved (tag graph), " +
				"plus whole-identifier text matches elsewhere (tag text_search; other symbols of the same name are left " +
				"alone; a dry run stops the text search 150 ms after it starts and says how many files it read). A line that holds both this symbol's reference and a same-named other symbol's is tagged review and " +
				"never applied. A dry run by default; with dry_run false the graph edits are applied (and the text matches too " +
				"with include_text_matches), changing only those positions. Refuses names that are not identifiers or that " +
				"collide in the symbol's scope. Run detect_changes and analyze afterwards.",
			Params: []Param{
				{Name: "symbol_name", Type: TypeString, Description: "Current name.", Aliases: []string{"name"}},
				{Name: "symbol_uid", Type: TypeString, Description: "Exact symbol id.", Aliases: []string{"uid"}},
				{Name: "new_name", Type: TypeString, Description: "The new name.", Required: true},
				{Name: "file_path", Type: TypeString, Description: "File (or path suffix) to disambiguate.", Aliases: []string{"file"}},
				{Name: "kind", Type: TypeString, Description: "Kind to disambiguate: Function, Method, Class, ..."},
				{Name: "dry_run", Type: TypeBoolean, Description: "Only plan the edits.", Default: true},
				{Name: "include_text_matches", Type: TypeBoolean, Description: "Also apply the text_search edits.", Default: false},
				repoParam,
			},
			run: runRename,
		},
		{
			Name: "cypher", Title: "Read-only Cypher query over the code graph", ReadOnly: true, IndexOnly: true,
			Description: "Run a read-only openCypher query over a repository's graph: labels are node kinds (Function, Method, " +
				"Class, File, ...), -[:CALLS]-> and the other edge kinds are relationship types, properties include name, " +
				"qualifiedName, filePath, startLine, signature, and on edges confidence, reason, line. Read the resource " +
				"gitnexus://repo/{name}/schema for the full schema and example queries. Use for questions the other tools do " +
				"not answer directly (counts, filters, multi-hop patterns). Answers {markdown, row_count}.",
			Params: []Param{
				{Name: "query", Type: TypeString, Description: "The Cypher query, e.g. MATCH (f:Function)<-[:CALLS]-(c) RETURN f.name, count(c) AS callers ORDER BY callers DESC LIMIT 10.", Required: true, Aliases: []string{"cypher"}},
				{Name: "params", Type: TypeObject, Description: "Values of $name parameters in the query."},
				{Name: "limit", Type: TypeInteger, Description: "Rows returned at most; a longer result is cut and says so.", Default: DefaultCypherRows, Min: num(1), Max: num(cypher.DefaultMaxRows)},
				repoParam,
			},
			run: runCypher,
		},
		{
			Name: "find_symbol", Title: "Where a symbol is defined", ReadOnly: true, IndexOnly: true,
			Description: "Find the definition sites of a symbol by exact name: kind, file:line, signature and the package " +
				"(or folder) of each, code before tests. The name is a simple name (Get), Type.method or a qualified name; " +
				"it matches with its case first, ignoring case only when nothing else does. Narrow with kind and file_path. " +
				"At most 100 sites; the answer says when it was cut. Use to locate a symbol; then get_callers_of or context.",
			Params: []Param{
				{Name: "name", Type: TypeString, Description: "Symbol name: a simple name, Type.method or a qualified name, matched exactly.", Required: true, Aliases: []string{"symbol", "symbol_name"}},
				{Name: "kind", Type: TypeString, Description: "Only symbols of this kind: Function, Method, Constructor, Class, Interface, Struct, Enum, TypeAlias, Const, Variable, Property."},
				{Name: "file_path", Type: TypeString, Description: "Only symbols in this file (path or path suffix) or under this folder.", Aliases: []string{"file"}},
				repoParam,
			},
			run: runFindSymbol,
		},
		{
			Name: "get_callers_of", Title: "Who calls a symbol", ReadOnly: true, IndexOnly: true,
			Description: "List who calls a function or method, breadth first over CALLS edges to depth levels (1 = direct " +
				"callers), each caller once, grouped by depth: the file:line of every call, the edge's confidence and reason, " +
				"the caller's package or folder, and whether it is test code. A name shared by several symbols returns status " +
				"\"ambiguous\" with candidates; pass uid. At most 100 callers, nearest first; the answer says when it was cut.",
			Params: callTreeParams(),
			run:    runCallTree(true),
		},
		{
			Name: "get_callees_of", Title: "What a symbol calls", ReadOnly: true, IndexOnly: true,
			Description: "List what a function or method calls, breadth first over CALLS edges to depth levels (1 = direct " +
				"callees), each callee once, grouped by depth: the file:line of every call, the edge's confidence and reason, " +
				"the callee's package or folder, and whether it is test code. A name shared by several symbols returns status " +
				"\"ambiguous\" with candidates; pass uid. At most 100 callees, nearest first; the answer says when it was cut.",
			Params: callTreeParams(),
			run:    runCallTree(false),
		},
		{
			Name: "get_module_dependencies", Title: "What a module depends on and what depends on it", ReadOnly: true, IndexOnly: true,
			Description: "For a package or folder: the modules it imports or calls (downstream) and the modules that import " +
				"or call it (upstream), counted from the file-level IMPORTS and CALLS edges that cross its boundary, most " +
				"linked first, modules linked only through tests marked. An unknown module is an error listing close " +
				"matches. Use to see where a module sits in the architecture; then get_callers_of on its symbols.",
			Params: []Param{
				{Name: "module", Type: TypeString, Description: "A package path as in Package node ids (example.com/shop/order, com.acme.shop, shop.orders) or a folder path (internal/order: every file under it).", Required: true, Aliases: []string{"package", "folder", "path"}},
				repoParam,
			},
			run: runModuleDependencies,
		},
		{
			Name: "overview", Title: "Repository overview", ReadOnly: true, IndexOnly: true,
			Description: "Summarise a repository: node and edge counts, languages, the biggest modules and the likeliest " +
				"entry points. Use to orient in an unfamiliar codebase.",
			Params: []Param{repoParam},
			run:    runOverview,
		},
		{
			Name: "trace", Title: "Call paths from one symbol to another", ReadOnly: true, IndexOnly: true,
			Description: "How does one function end up calling another? The call paths over CALLS edges from a symbol to " +
				"another, shortest first (then the most confident), no symbol twice on a path, each call with the file:line " +
				"that makes it and its confidence. At most limit paths of at most max_depth calls; with no path, says whether " +
				"one leads the other way. A name shared by several symbols returns status \"ambiguous\" with candidates; " +
				"pass from_uid or to_uid. Use to check how an entry point reaches a function before changing either.",
			Params: []Param{
				{Name: "from", Type: TypeString, Description: "The caller end: a symbol name (simple, Type.method or qualified).", Aliases: []string{"source"}},
				{Name: "from_uid", Type: TypeString, Description: "The caller end's exact symbol id."},
				{Name: "from_file", Type: TypeString, Description: "File (or path suffix) the caller end is in, to disambiguate from."},
				{Name: "to", Type: TypeString, Description: "The called end: a symbol name.", Aliases: []string{"target"}},
				{Name: "to_uid", Type: TypeString, Description: "The called end's exact symbol id."},
				{Name: "to_file", Type: TypeString, Description: "File (or path suffix) the called end is in, to disambiguate to."},
				{Name: "max_depth", Type: TypeInteger, Description: "Most calls on a path.", Default: analysis.DefaultTraceDepth, Min: num(1), Max: num(analysis.MaxTraceDepth), Aliases: []string{"depth", "maxDepth"}},
				{Name: "limit", Type: TypeInteger, Description: "Most paths listed.", Default: analysis.DefaultTracePaths, Min: num(1), Max: num(analysis.MaxTracePaths)},
				repoParam,
			},
			run: runTrace,
		},
	}, historyTools()...)
}

// withRepo resolves the repository and runs fn on its snapshot.
func (b *Backend) withRepo(ctx context.Context, ref string, fn func(s *Snapshot) (*Result, error)) (*Result, error) {
	r, err := b.Resolve(ref)
	if err != nil {
		return nil, err
	}
	s, release, err := b.repo(ctx, r)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := fn(s)
	if err == nil && res != nil && s.handle != nil {
		res.Index = s.handle.indexState(s)
	}
	return res, err
}

func runListRepos(_ context.Context, b *Backend, a *Args) (*Result, error) {
	if err := b.refresh(); err != nil {
		return nil, err
	}
	repos := b.Repos()
	limit, offset := a.Int("limit"), a.Int("offset")
	total := len(repos)
	lo := min(offset, total)
	hi := min(lo+limit, total)
	page := repos[lo:hi]
	type pagination struct {
		Total      int  `json:"total"`
		Limit      int  `json:"limit"`
		Offset     int  `json:"offset"`
		Returned   int  `json:"returned"`
		HasMore    bool `json:"hasMore"`
		NextOffset int  `json:"nextOffset,omitempty"`
	}
	p := pagination{Total: total, Limit: limit, Offset: offset, Returned: len(page), HasMore: hi < total}
	if p.HasMore {
		p.NextOffset = hi
	}
	rows := make([][]string, 0, len(page))
	for _, r := range page {
		commit := r.LastCommit
		if len(commit) > 10 {
			commit = commit[:10]
		}
		rows = append(rows, []string{r.ID, r.RepoPath, r.IndexedAt.UTC().Format("2006-01-02 15:04"), commit,
			fmt.Sprint(r.Stats.Files), fmt.Sprint(r.Stats.Functions)})
	}
	text := fmt.Sprintf("%d indexed repositor%s.\n\n", total, plural(total, "y", "ies"))
	if total == 0 {
		text = "No indexed repositories.\n"
	} else {
		text += format.Table([]string{"id", "path", "indexed", "commit", "files", "functions"}, rows)
	}
	h := hint(call("overview"), " with ", param("repo"), " set to one of them.")
	if total == 0 {
		h = hint("index a repository with `gitnexus analyze <path>`, then ", call("list_repos"), " again.")
	}
	if p.HasMore {
		h = hint("more repositories: ", again("list_repos", "offset", p.NextOffset), ".")
	}
	if page == nil {
		page = []RepoHandle{}
	}
	return &Result{Data: map[string]any{"repos": page, "pagination": p}, Text: text, Hint: h}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func runQuery(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	q := strings.TrimSpace(a.String("query"))
	if q == "" {
		return nil, &ArgError{Param: "query", Msg: "is empty"}
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res, err := analysis.Query(ctx, s.Reader, s.Graph, q, analysis.QueryOptions{Limit: a.Int("limit"),
			MaxSymbols: a.Int("max_symbols"), IncludeContent: a.Bool("include_content"), Semantic: b.semantic(ctx, s),
			History: s.queryHistory()})
		if err != nil {
			return nil, err
		}
		h := hint(call("context"), " on a symbol for its callers and callees.")
		if res.Truncated {
			h = hint("more symbols matched: raise ", param("limit"), ", or ", call("context"), " on a result.")
		}
		if res.Total == 0 {
			h = hint("try other words, or ", call("context"), " on a symbol's name.")
		}
		// Embeddings that did not rank (the provider failed) may rank the
		// next time: the degraded answer is not for reuse.
		degraded := s.Meta.Embeddings != nil && !strings.HasPrefix(res.Ranking, search.RankingFused)
		return &Result{Data: res, Text: format.Query(res), Hint: h, volatile: degraded}, nil
	})
}

// lookup finds the symbol a call names by the parameters uidParam or
// nameParam, narrowed by file_path and kind, or answers with candidates.
func lookup(s *Snapshot, a *Args, uidParam, nameParam string) (memgraph.NodeID, *Result, error) {
	return lookupBy(s, a, uidParam, nameParam, "file_path", "kind")
}

// lookupBy is lookup with the parameters that narrow a name named too;
// an empty name is a parameter the tool does not have.
func lookupBy(s *Snapshot, a *Args, uidParam, nameParam, fileParam, kindParam string) (memgraph.NodeID, *Result, error) {
	var file, kind string
	if fileParam != "" {
		file = a.String(fileParam)
	}
	if kindParam != "" {
		kind = a.String(kindParam)
	}
	uid, name := a.String(uidParam), a.String(nameParam)
	if uid == "" && name == "" {
		return 0, nil, argError(nameParam, "give ", param(nameParam), " (a symbol name) or ", param(uidParam), " (an exact id)")
	}
	l := analysis.FindSymbol(s.Graph, analysis.SymbolRef{UID: uid, Name: name, FilePath: file, Kind: kind})
	switch l.Status {
	case "found":
		return l.Node, nil, nil
	case "ambiguous":
		return 0, &Result{Data: map[string]any{"status": "ambiguous", "candidates": l.Candidates, "totalCandidates": l.TotalCandidates},
			Text: format.Candidates(name, l.Candidates, l.TotalCandidates), Hint: pickCandidate(uidParam, fileParam, kindParam),
			Ambiguous: true}, nil
	}
	what := name
	if uid != "" {
		what = uid
	}
	filters := ""
	if file != "" || kind != "" {
		filters = fmt.Sprintf(" (in file %q, of kind %q)", file, kind)
	}
	return 0, nil, &NotFoundError{What: fmt.Sprintf("no symbol %q%s in %s: %s", what, filters, s.Repo.ID, missAdvice(s, name))}
}

// missAdvice is what a symbol name that matched nothing is answered
// with: the names it is probably a misspelling of, and what else to try.
func missAdvice(s *Snapshot, name string) string {
	const next = "try query to search by words, or run `gitnexus analyze` if the code is new"
	if name == "" {
		return next
	}
	near := analysis.Suggest(s.Graph, name, 3)
	if len(near) == 0 {
		return next
	}
	return "did you mean `" + strings.Join(near, "`, `") + "`? Otherwise " + next
}

// NotFoundError is a symbol, file or commit that does not exist.
type NotFoundError struct{ What string }

func (e *NotFoundError) Error() string { return e.What }

func runContext(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	switch a.String("type") {
	case "cluster", "process":
		return runExplore(ctx, b, a)
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		n, amb, err := lookup(s, a, "uid", "name")
		if err != nil || amb != nil {
			return amb, err
		}
		res := analysis.Context(s.Graph, n, analysis.ContextOptions{})
		content, doc, err := s.Reader.NodeText(ctx, s.Graph.Rid(n))
		if err == nil {
			res.Symbol.Doc = doc
			if a.Bool("include_content") {
				res.Symbol.Content = content
			}
		}
		return &Result{Data: res, Text: format.Context(&res),
			Hint: hint(call("impact", "target_uid", res.Symbol.UID), " before changing it.")}, nil
	})
}

// runExplore answers the legacy explore call for a cluster or a process:
// what the cluster and process resources say, with the data as JSON.
func runExplore(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	name := strings.TrimSpace(a.String("name"))
	if name == "" {
		return nil, argError("name", "give ", param("name"), ": a community label or a process label or id")
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		if a.String("type") == "cluster" {
			c, err := clusterOf(s, name)
			if err != nil {
				return nil, err
			}
			return &Result{Data: c, Text: format.Cluster(&c), Hint: hint(call("context"), " on one of its members.")}, nil
		}
		p, err := processOf(s, name)
		if err != nil {
			return nil, err
		}
		return &Result{Data: p, Text: format.Process(&p), Hint: hint(call("context"), " on one of its steps.")}, nil
	})
}

// clusterOf is the functional area labelled name; not found, an error that
// lists the largest areas.
func clusterOf(s *Snapshot, name string) (analysis.ClusterDetail, error) {
	c, ok := analysis.Cluster(s.Graph, name, maxClusterMembers)
	if !ok {
		var labels []string
		for _, ci := range analysis.Clusters(s.Graph, 10, 1) {
			labels = append(labels, ci.Label)
		}
		return c, &NotFoundError{What: fmt.Sprintf("no community is labelled %q in %s; the largest: %s (all: gitnexus://repo/%s/clusters)",
			name, s.Repo.ID, strings.Join(labels, ", "), s.Repo.ID)}
	}
	return c, nil
}

// processOf is the process labelled (or with the id) name; not found, an
// error that lists the main processes.
func processOf(s *Snapshot, name string) (analysis.ProcessDetail, error) {
	p, ok := analysis.Process(s.Graph, name)
	if !ok {
		var labels []string
		for _, pr := range analysis.MainProcesses(s.Graph, 10) {
			labels = append(labels, pr.Label)
		}
		return p, &NotFoundError{What: fmt.Sprintf("no process is labelled %q in %s; the main ones: %s (all: gitnexus://repo/%s/processes)",
			name, s.Repo.ID, strings.Join(labels, "; "), s.Repo.ID)}
	}
	return p, nil
}

func runImpact(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	var types []graph.EdgeType
	for _, t := range a.Strings("relationTypes") {
		et := graph.ParseEdgeType(strings.ToUpper(strings.TrimSpace(t)))
		if et == graph.EdgeInvalid {
			return nil, &ArgError{Param: "relationTypes", Msg: fmt.Sprintf("unknown edge type %q (types: %s)", t, strings.Join(graph.EdgeTypeNames(), ", "))}
		}
		types = append(types, et)
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		n, amb, err := lookup(s, a, "target_uid", "target")
		if err != nil || amb != nil {
			return amb, err
		}
		start := []memgraph.NodeID{n}
		if s.Graph.Nodes[n].Kind == graph.KindFile {
			start = append(start, s.Graph.InFile(s.Graph.Nodes[n].FilePath)...)
		}
		res := analysis.Impact(s.Graph, start, analysis.ImpactOptions{
			Upstream: a.String("direction") != "downstream", MaxDepth: a.Int("maxDepth"), Types: types,
			IncludeTests: a.Bool("includeTests"), MinConfidence: float32(a.Float("minConfidence")),
			Limit: a.Int("limit"), Offset: a.Int("offset"), SummaryOnly: a.Bool("summaryOnly"),
		})
		info := analysis.Info(s.Graph, n)
		res.Target = &info
		h := hint(call("context"), " on a depth-1 item to see how it uses the target.")
		if res.Truncated {
			h = hint("more items: ", again("impact", "offset", res.NextOffset), ".")
		}
		return &Result{Data: res, Text: format.Impact(&res), Hint: h}, nil
	})
}

func runDetectChanges(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	if err := b.needTree("detect_changes"); err != nil {
		return nil, err
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res, err := analysis.DetectChanges(ctx, s.Graph, s.Repo.RepoPath, analysis.ChangesOptions{
			Scope: a.String("scope"), BaseRef: a.String("base_ref"), Limit: a.Int("limit"), IndexedAt: s.Meta.IndexedAt})
		if err != nil {
			return nil, err
		}
		h := hint(call("impact"), " on a changed symbol with a high number of callers.")
		if res.Truncated {
			h = hint("a smaller diff: ", again("detect_changes", "scope", "staged"), ", or ",
				again("detect_changes", "scope", "compare", "base_ref", "HEAD~1"), ".")
		}
		if res.Summary.ChangedCount == 0 {
			h = hint("nothing indexed changed; after new code, run `gitnexus analyze`.")
		}
		return &Result{Data: res, Text: format.Changes(res), Hint: h}, nil
	})
}

func runRename(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	if a.String("symbol_name") == "" && a.String("symbol_uid") == "" {
		return nil, argError("symbol_name", "give ", param("symbol_name"), " or ", param("symbol_uid"))
	}
	if err := b.needTree("rename"); err != nil {
		return nil, err
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		deadline := time.Now().Add(analysis.PlanTime) // the graph is loaded by now
		if !a.Bool("dry_run") && b.opts.ReadOnly {
			return nil, fmt.Errorf("%w: rename with dry_run false is refused (the server was started without --allow-write); plan with dry_run true and apply the edits yourself", ErrReadOnly)
		}
		n, amb, err := lookup(s, a, "symbol_uid", "symbol_name")
		if err != nil || amb != nil {
			return amb, err
		}
		// The files are listed while the graph's edits are read.
		type listing struct {
			files []string
			err   error
		}
		listedc := make(chan listing, 1)
		go func() {
			listed, err := repofiles.List(ctx, s.Repo.RepoPath)
			if err != nil {
				listedc <- listing{err: fmt.Errorf("list the files of %s: %w", s.Repo.ID, err)}
				return
			}
			listedc <- listing{files: listed.Files}
		}()
		files := func() ([]string, error) { l := <-listedc; return l.files, l.err }
		res, err := analysis.Rename(ctx, s.Graph, s.Repo.RepoPath, n, files, analysis.RenameOptions{
			NewName: a.String("new_name"), DryRun: a.Bool("dry_run"), IncludeTextMatches: a.Bool("include_text_matches"),
			PlanDeadline: deadline})
		if err != nil {
			if errors.Is(err, analysis.ErrInvalidName) {
				return nil, &ArgError{Param: "new_name", Msg: err.Error()}
			}
			return nil, err
		}
		h := hint("review the edits, then ", again("rename", "dry_run", false), ".")
		if !res.DryRun {
			h = hint("run `gitnexus analyze` to update the index, then ", call("detect_changes"), ".")
			if s.handle != nil {
				s.handle.monitor().Forget() // the files just changed: check again
			}
		}
		return &Result{Data: res, Text: format.Rename(res), Hint: h}, nil
	})
}

// DefaultCypherRows is the default row limit of the cypher tool: enough for
// an answer, small enough for a model's context.
const DefaultCypherRows = 200

// CypherAnswer is the cypher tool's structured result.
type CypherAnswer struct {
	Markdown  string   `json:"markdown"`
	RowCount  int      `json:"row_count"`
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings,omitempty"`
}

func runCypher(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	q := a.String("query")
	if strings.TrimSpace(q) == "" {
		return nil, &ArgError{Param: "query", Msg: "is empty"}
	}
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res, err := cypher.New(s.Graph, s.Reader).Query(ctx, q, cypher.Options{Params: a.Object("params"), MaxRows: a.Int("limit")})
		if err != nil {
			return nil, fmt.Errorf("the query failed: %w\n(read gitnexus://repo/%s/schema for the labels, properties and example queries)", err, s.Repo.ID)
		}
		ans := CypherAnswer{Markdown: res.Markdown(), RowCount: len(res.Rows), Truncated: res.Truncated, Warnings: res.Warnings}
		text := ans.Markdown
		for _, w := range res.Warnings {
			text += "\nWarning: " + w + "\n"
		}
		h := hint(call("context"), " on a symbol of interest for its relations with file:line.")
		if res.Truncated {
			h = hint("the result was cut: add LIMIT, aggregate, or raise ", param("limit"), ".")
		}
		return &Result{Data: ans, Text: text, Hint: h}, nil
	})
}

// Cypher runs a read-only query over the graph of repository ref with
// the engine's options as given (`gitnexus cypher`: its own row, time
// and memory limits), and says which repository answered ("" when ref
// named none). The cypher tool runs the same engine on the same snapshot.
func (b *Backend) Cypher(ctx context.Context, ref, query string, opt cypher.Options) (res *cypher.Result, repo string, err error) {
	_, err = b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		repo = s.Repo.ID
		var qerr error
		res, qerr = cypher.New(s.Graph, s.Reader).Query(ctx, query, opt)
		return nil, qerr
	})
	return res, repo, err
}

// Schema is the Cypher schema of a repository's graph with example
// queries (the gitnexus://repo/{name}/schema resource).
func (b *Backend) Schema(ctx context.Context, ref string) (string, error) {
	var out string
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		out = cypher.SchemaText(s.Graph)
		return nil, nil
	})
	return out, err
}

func runOverview(ctx context.Context, b *Backend, a *Args) (*Result, error) {
	return b.withRepo(ctx, a.String("repo"), func(s *Snapshot) (*Result, error) {
		res := s.overview()
		return &Result{Data: res, Text: format.Overview(s.Repo.ID, &res),
			Hint: hint(call("query"), " with words for a concept, or ", call("context"), " on an entry point.")}, nil
	})
}

// maxClusterMembers bounds the members a cluster resource lists.
const maxClusterMembers = 200

// maxListedFlows bounds the areas and processes the list resources show.
const maxListedFlows = 100

// Clusters renders the functional areas of a repository (the clusters
// resource).
func (b *Backend) Clusters(ctx context.Context, ref string) (string, error) {
	var out string
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		out = format.Clusters(s.Repo.ID, analysis.Clusters(s.Graph, maxListedFlows, 1), len(s.Graph.Communities()))
		return nil, nil
	})
	return out, err
}

// Cluster renders one functional area (the cluster resource).
func (b *Backend) Cluster(ctx context.Context, ref, name string) (string, error) {
	var out string
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		c, err := clusterOf(s, name)
		if err != nil {
			return nil, err
		}
		out = format.Cluster(&c)
		return nil, nil
	})
	return out, err
}

// Processes renders the execution flows of a repository (the processes
// resource).
func (b *Backend) Processes(ctx context.Context, ref string) (string, error) {
	var out string
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		out = format.Processes(s.Repo.ID, analysis.MainProcesses(s.Graph, maxListedFlows), len(s.Graph.Processes()))
		return nil, nil
	})
	return out, err
}

// Process renders one execution flow (the process resource).
func (b *Backend) Process(ctx context.Context, ref, name string) (string, error) {
	var out string
	_, err := b.withRepo(ctx, ref, func(s *Snapshot) (*Result, error) {
		p, err := processOf(s, name)
		if err != nil {
			return nil, err
		}
		out = format.Process(&p)
		return nil, nil
	})
	return out, err
}
