package analysis

import (
	"path"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
	"gitnexus.dev/gitnexus/internal/memgraph"
)

// Layers name the part of an application a module plays, in the plain
// words answers use: "API layer", "storage", "scheduler", "tests". A
// symbol's layer is read, in this order, from:
//
//  1. its file being test code (graph.IsTestPath): "tests";
//  2. the folders of its path, innermost first, then its file's name,
//     then the last segment of its module's name (a package not named
//     after its folder): the first word of layerWords found;
//  3. the base of its community's label (the folder most of the
//     community's members live in).
//
// A word matches a whole path segment or one of its parts split at '-',
// '_' and '.', in lower case, with leading underscores dropped
// (httpx/_transports matches nothing; app/http_handlers is the API layer).
// Code that matches nothing has no layer: answers then name the module
// alone rather than guess. docs/concepts.md lists the table.

// layerWords maps path words to layers, tried in the order given for each
// segment.
var layerWords = []struct {
	layer string
	words []string
}{
	{"tests", []string{"test", "tests", "testing", "testdata", "__tests__", "spec", "specs", "e2e", "fixtures", "testutil"}},
	{"API layer", []string{"api", "apis", "handler", "handlers", "controller", "controllers", "route", "routes",
		"router", "routers", "routing", "endpoint", "endpoints", "rest", "http", "httpapi", "server", "graphql",
		"rpc", "grpc", "middleware", "middlewares", "webhook", "webhooks", "resources"}},
	{"storage", []string{"store", "stores", "storage", "db", "database", "databases", "dao", "daos",
		"repository", "repositories", "persistence", "sql", "sqlite", "postgres", "mysql", "migrations",
		"migration", "orm", "cache", "caches", "kv"}},
	{"scheduler", []string{"scheduler", "schedulers", "scheduling", "cron", "jobs", "job", "worker",
		"workers", "queue", "queues", "tasks", "task"}},
	{"CLI", []string{"cli", "cmd", "cmds", "command", "commands", "console", "bin"}},
	{"UI", []string{"ui", "components", "component", "pages", "frontend", "web", "static", "templates",
		"widgets", "layouts", "screens", "styles"}},
	{"configuration", []string{"config", "configs", "configuration", "settings", "conf"}},
	{"auth", []string{"auth", "authn", "authz", "authentication", "authorization", "security", "login",
		"oauth", "session", "sessions"}},
	{"docs and examples", []string{"docs", "doc", "examples", "example", "samples", "sample", "demo",
		"demos", "tutorial", "tutorials"}},
	{"benchmarks", []string{"bench", "benches", "benchmark", "benchmarks", "perf"}},
	{"build and tooling", []string{"scripts", "script", "tools", "tool", "hack", "ci", "build"}},
}

// layerOfWord is layerWords inverted.
var layerOfWord = func() map[string]string {
	m := map[string]string{}
	for _, l := range layerWords {
		for _, w := range l.words {
			m[w] = l.layer
		}
	}
	return m
}()

// LayerOf is the layer of code at path file in module (see layerWords);
// "" when neither says.
func LayerOf(file, module string) string {
	if graph.IsTestPath(file) {
		return "tests"
	}
	dir := path.Dir(file)
	segs := strings.Split(dir, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if l := segmentLayer(segs[i]); l != "" {
			return l
		}
	}
	base := path.Base(file)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if l := segmentLayer(base); l != "" {
		return l
	}
	// The module's own name: a package whose name is not its folder's. Its
	// path (example.com/shop/order) says no more than the file's.
	if i := strings.LastIndexAny(module, "/.:\\"); i >= 0 {
		module = module[i+1:]
	}
	return segmentLayer(module)
}

// communityLayer is the layer the main folder of a community's label
// names ("api + jobs (router)" reads api: most members live there; "jobs
// 2" reads jobs); "" when none.
func communityLayer(label string) string {
	if i := strings.Index(label, " ("); i >= 0 {
		label = label[:i]
	}
	if i := strings.LastIndexByte(label, ' '); i >= 0 && strings.Trim(label[i+1:], "0123456789") == "" {
		label = label[:i] // "jobs 2"
	}
	first, _, _ := strings.Cut(label, " + ")
	return segmentLayer(strings.TrimSpace(first))
}

// segmentLayer is the layer one path segment names: the whole segment,
// else its first part that names one.
func segmentLayer(seg string) string {
	seg = strings.TrimLeft(strings.ToLower(seg), "_")
	if l, ok := layerOfWord[seg]; ok {
		return l
	}
	for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if l, ok := layerOfWord[part]; ok {
			return l
		}
	}
	return ""
}

// memberLayer is the layer the community of node n names, "" when n is
// in no community or its label names none.
func memberLayer(g *memgraph.Graph, n memgraph.NodeID) string {
	for _, e := range g.Out(n) {
		if e.Type == graph.EdgeMemberOf && g.Nodes[e.To].Kind == graph.KindCommunity {
			return communityLayer(g.Nodes[e.To].Name)
		}
	}
	return ""
}
