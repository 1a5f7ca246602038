package mcpserver

import (
	"context"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"gitnexus.dev/gitnexus/internal/backend"
)

// The resources of communities (clusters) and execution flows (processes).

func addFlowResources(s *mcp.Server, b *backend.Backend) {
	list := func(pattern, name, title, desc, suffix string, read func(context.Context, string) (string, error)) {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: pattern, Name: name, Title: title,
			MIMEType: "text/markdown", Description: desc},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				repo, ok := repoInURI(req.Params.URI, suffix)
				if !ok {
					return nil, mcp.ResourceNotFoundError(req.Params.URI)
				}
				body, err := read(ctx, repo)
				if err != nil {
					return nil, err
				}
				return text(req.Params.URI, body), nil
			})
	}
	one := func(pattern, name, title, desc, segment string, read func(context.Context, string, string) (string, error)) {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: pattern, Name: name, Title: title,
			MIMEType: "text/markdown", Description: desc},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				repo, item, ok := itemInURI(req.Params.URI, segment)
				if !ok {
					return nil, mcp.ResourceNotFoundError(req.Params.URI)
				}
				body, err := read(ctx, repo, item)
				if err != nil {
					return nil, err
				}
				return text(req.Params.URI, body), nil
			})
	}
	list(uriClusters, "repo-clusters", "Functional areas",
		"The communities of a repository merged by label, largest first, with size and cohesion. {name} is a repository id or name.",
		"/clusters", b.Clusters)
	one(uriCluster, "repo-cluster", "One functional area",
		"The communities with this label, their members and the execution flows that start in them. {cluster} is a label from the clusters resource, URL-escaped.",
		"/cluster/", b.Cluster)
	list(uriProcesses, "repo-processes", "Execution flows",
		"The execution flows traced from the repository's entry points, longest first. {name} is a repository id or name.",
		"/processes", b.Processes)
	one(uriProcess, "repo-process", "One execution flow",
		"A process as ordered steps (symbol, location, community, the line where the previous step calls it) and as a Mermaid flowchart. "+
			"{process} is a label from the processes resource (`Entry → Terminal`) or a process id, URL-escaped.",
		"/process/", b.Process)
}

// itemInURI splits gitnexus://repo/{name}<segment>{item}, unescaping item.
func itemInURI(uri, segment string) (repo, item string, ok bool) {
	if !strings.HasPrefix(uri, contextPrefix) {
		return "", "", false
	}
	rest := strings.TrimPrefix(uri, contextPrefix)
	i := strings.Index(rest, segment)
	if i <= 0 {
		return "", "", false
	}
	repo, raw := rest[:i], rest[i+len(segment):]
	item, err := url.PathUnescape(raw)
	if err != nil || item == "" || strings.Contains(repo, "/") {
		return "", "", false
	}
	return repo, item, true
}
