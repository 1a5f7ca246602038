// Package mcpserver serves the backend over the Model Context Protocol:
// every tool of the backend's table, the resources and the prompts. It
// translates requests into backend calls and results back, and holds no
// state of its own.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/answercache"
	"gitnexus.dev/gitnexus/internal/backend"
)

// Instructions are sent to clients at initialization: when to use which
// tool.
const Instructions = `GitNexus serves a code knowledge graph of indexed git repositories: files, packages, functions, classes and the calls, imports and inheritance between them, and the commits that changed them.

Start with list_repos when several repositories may be indexed (pass "repo" to the other tools), or overview to orient in one.
- query: find where a concept lives (words, not regexes).
- find_symbol: where a symbol is defined (kind, file:line, signature, package), by exact name.
- get_callers_of / get_callees_of: who calls a symbol / what it calls, by depth, with the file:line of every call.
- trace: the call paths from one symbol to another, shortest first, with the file:line of every call.
- get_module_dependencies: what a package or folder imports and calls, and what imports and calls it, with counts.
- context: one symbol's callers, callees, imports, inheritance and members, with file:line.
- impact: what breaks if a symbol changes (upstream) or what it depends on (downstream), with a risk level.
- detect_changes: which symbols the working tree's diff touches, and their callers.
- rename: plan (dry run) or apply a rename at the positions the graph resolved.
- get_file_history / get_symbol_history: the commits that changed a file (following renames) or a symbol (deleted ones too), newest first.
- get_recent_changes: the symbols a range, branch or date window of commits changed, by file.
- get_commit_impact: what one commit changed, what depends on that code now, and whether it was reverted.
- search_commits: the commits a question is about (their messages and the names of the symbols they changed), best first.
- cypher: read-only Cypher for anything else (counts, filters, multi-hop patterns); read gitnexus://repo/{name}/schema first.
Read gitnexus://repo/{name}/context for a repository's summary.`

// Option configures the server New builds.
type Option func(*config)

type config struct {
	cache answercache.Cache
}

// WithCache reuses the answers of the tools that read the index alone
// from c, and stores them there (answers.go).
func WithCache(c answercache.Cache) Option { return func(cf *config) { cf.cache = c } }

// New builds the MCP server for b.
func New(b *backend.Backend, version string, logger *slog.Logger, opts ...Option) *mcp.Server {
	var cf config
	for _, o := range opts {
		o(&cf)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "gitnexus", Title: "GitNexus", Version: version},
		&mcp.ServerOptions{Instructions: Instructions, Logger: logger})
	for _, t := range backend.Tools() {
		addTool(s, b, t, cf.cache)
	}
	// Tools answer to their former names too (search, explore); the list
	// shows each tool once.
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				if t, ok := backend.LookupTool(r.Params.Name); ok {
					r.Params.Name = t.Name
				}
			}
			return next(ctx, method, req)
		}
	})
	addResources(s, b)
	addPrompts(s)
	return s
}

func addTool(s *mcp.Server, b *backend.Backend, t *backend.Tool, cache answercache.Cache) {
	destructive := !t.ReadOnly
	openWorld := false
	s.AddTool(&mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.InputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    t.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  t.ReadOnly,
			OpenWorldHint:   &openWorld,
		},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := map[string]any{}
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &args); err != nil {
				return toolError(fmt.Errorf("the arguments of %s must be a JSON object: %v", t.Name, err)), nil
			}
		}
		if cache != nil {
			return cachedCall(ctx, b, cache, t.Name, args)
		}
		return call(ctx, b, t.Name, args)
	})
}

// call runs a tool and translates its result.
func call(ctx context.Context, b *backend.Backend, name string, args map[string]any) (*mcp.CallToolResult, error) {
	out, _, err := callResult(ctx, b, name, args)
	return out, err
}

// callResult is call with the backend's result (nil when the call failed).
func callResult(ctx context.Context, b *backend.Backend, name string, args map[string]any) (*mcp.CallToolResult, *backend.Result, error) {
	res, err := b.CallTool(ctx, name, args)
	if err != nil {
		if errors.Is(err, backend.ErrUnknownTool) {
			return nil, nil, err
		}
		// A tool that ran and failed: the model sees the error and
		// can correct the call.
		return toolError(err), nil, nil
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: res.Markdown()}},
		StructuredContent: res.Structured(),
	}, res, nil
}

func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + err.Error()}}}
}

// Resources.

const (
	uriRepos          = "gitnexus://repos"
	uriContextPattern = "gitnexus://repo/{name}/context"
	uriSchemaPattern  = "gitnexus://repo/{name}/schema"
	uriClusters       = "gitnexus://repo/{name}/clusters"
	uriCluster        = "gitnexus://repo/{name}/cluster/{cluster}"
	uriProcesses      = "gitnexus://repo/{name}/processes"
	uriProcess        = "gitnexus://repo/{name}/process/{process}"
	contextPrefix     = "gitnexus://repo/"
)

func addResources(s *mcp.Server, b *backend.Backend) {
	s.AddResource(&mcp.Resource{
		URI: uriRepos, Name: "repos", Title: "Indexed repositories", MIMEType: "text/markdown",
		Description: "Every indexed repository: id, name, path, when it was indexed, the commit, and counts.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		res, err := b.CallTool(ctx, "list_repos", map[string]any{"limit": 500})
		if err != nil {
			return nil, err
		}
		return text(req.Params.URI, res.Markdown()), nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: uriContextPattern, Name: "repo-context", Title: "Repository context", MIMEType: "text/markdown",
		Description: "One repository's summary from the registry (files, functions, when indexed) and the tools to use on it. " +
			"{name} is a repository id or name.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		name, ok := repoInURI(req.Params.URI, "/context")
		if !ok {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		r, err := b.Resolve(name)
		if err != nil {
			return nil, err
		}
		return text(req.Params.URI, repoContext(r)), nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: uriSchemaPattern, Name: "repo-schema", Title: "Cypher schema", MIMEType: "text/markdown",
		Description: "The graph as the cypher tool sees it: labels, relationship types, properties, counts in this " +
			"repository, and example queries. {name} is a repository id or name.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		name, ok := repoInURI(req.Params.URI, "/schema")
		if !ok {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		schema, err := b.Schema(ctx, name)
		if err != nil {
			return nil, err
		}
		return text(req.Params.URI, schema), nil
	})
	addFlowResources(s, b)
}

// repoInURI extracts {name} from gitnexus://repo/{name}<suffix>.
func repoInURI(uri, suffix string) (string, bool) {
	if !strings.HasPrefix(uri, contextPrefix) || !strings.HasSuffix(uri, suffix) {
		return "", false
	}
	name := strings.TrimSuffix(strings.TrimPrefix(uri, contextPrefix), suffix)
	return name, name != "" && !strings.Contains(name, "/")
}

func text(uri, body string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: body}}}
}

func repoContext(r backend.RepoHandle) string {
	c := r.Context()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", r.Name)
	fmt.Fprintf(&b, "- id: `%s`\n- path: %s\n- indexed: %s", r.ID, r.RepoPath, r.IndexedAt.UTC().Format("2006-01-02 15:04 UTC"))
	if r.LastCommit != "" {
		fmt.Fprintf(&b, " at commit %s", short(r.LastCommit))
	}
	fmt.Fprintf(&b, "\n- files: %d, functions and methods: %d, nodes: %d, edges: %d\n", c.Files, c.Functions, r.Stats.Nodes, r.Stats.Edges)
	if c.Communities > 0 || c.Processes > 0 {
		fmt.Fprintf(&b, "- communities: %d, processes: %d\n", c.Communities, c.Processes)
	}
	fmt.Fprintf(&b, "\nPass `\"repo\": %q` to the tools. Start with `overview`, then `query` for a concept, "+
		"`context` on a symbol, and `impact` before changing it.\n", r.ID)
	return b.String()
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// Prompts.

func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name: "detect_impact", Title: "Review the impact of the current changes",
		Description: "Find the symbols the uncommitted (or branch) changes touch and assess what they can break.",
		Arguments: []*mcp.PromptArgument{
			{Name: "scope", Description: "unstaged, staged, all (default) or compare"},
			{Name: "base_ref", Description: "branch or commit to compare with (scope compare)"},
			{Name: "repo", Description: "repository id or name, when several are indexed"},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		a := req.Params.Arguments
		scope := a["scope"]
		if scope == "" {
			scope = "all"
		}
		call := fmt.Sprintf(`detect_changes with scope %q`, scope)
		if a["base_ref"] != "" {
			call += fmt.Sprintf(` and base_ref %q`, a["base_ref"])
		}
		if a["repo"] != "" {
			call += fmt.Sprintf(` and repo %q`, a["repo"])
		}
		msg := "Assess the impact of my changes before I commit them.\n\n" +
			"1. Call " + call + ".\n" +
			"2. For each changed symbol with callers, call impact (direction upstream) on it, by target_uid.\n" +
			"3. For anything at depth 1 that looks at risk, call context to see how it uses the changed symbol.\n\n" +
			"Then report: the changed symbols, what each can break (file:line), the overall risk level and why, " +
			"and the tests or callers I should check before committing."
		return &mcp.GetPromptResult{Description: "Impact review of the current changes",
			Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: msg}}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{
		Name: "generate_map", Title: "Write an architecture map of a repository",
		Description: "Produce an architecture overview of an indexed repository from its graph.",
		Arguments: []*mcp.PromptArgument{
			{Name: "repo", Description: "repository id or name, when several are indexed"},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		repo := ""
		if r := req.Params.Arguments["repo"]; r != "" {
			repo = fmt.Sprintf(` with repo %q`, r)
		}
		msg := "Write an architecture map of this codebase.\n\n" +
			"1. Call overview" + repo + " for its size, languages, biggest modules, functional areas, likely entry points and main execution flows.\n" +
			"2. Read the gitnexus://repo/{name}/process/{label} resources of the main flows (their steps in order); for entry points " +
			"without one, call context (and impact with direction downstream, maxDepth 2) to follow them.\n" +
			"3. Use query to find the modules behind concepts the overview suggests (storage, API, configuration).\n\n" +
			"Then write: the modules and what each is for, how a request or command flows through them " +
			"(with file:line for the key functions), and a mermaid diagram of the main dependencies."
		return &mcp.GetPromptResult{Description: "Architecture map",
			Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: msg}}}}, nil
	})
}

// DrainingTransport wraps a transport so that the end of the input does not
// drop the requests already read: Read reports the end only once every
// request read has been answered (or after DrainTimeout). A client may then
// write its requests, close its end, and still read every answer.
type DrainingTransport struct {
	mcp.Transport
	DrainTimeout time.Duration
}

// Connect connects the wrapped transport.
func (t *DrainingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	timeout := t.DrainTimeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	return &drainingConn{Connection: c, timeout: timeout, pending: map[any]bool{}, idle: make(chan struct{}, 1)}, nil
}

type drainingConn struct {
	mcp.Connection
	timeout time.Duration

	mu      sync.Mutex
	pending map[any]bool // ids of requests read and not yet answered
	idle    chan struct{}
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
			c.mu.Lock()
			c.pending[r.ID.Raw()] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
	if !errors.Is(err, io.EOF) {
		return nil, err
	}
	deadline := time.NewTimer(c.timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return nil, err
		}
		select {
		case <-c.idle:
		case <-deadline.C:
			return nil, err
		case <-ctx.Done():
			return nil, err
		}
	}
}

func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok && r.ID.IsValid() {
		c.mu.Lock()
		delete(c.pending, r.ID.Raw())
		empty := len(c.pending) == 0
		c.mu.Unlock()
		if empty {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
	}
	return err
}
