package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// The logical calls the benchmark makes, in the order it makes them for
// every symbol.
var logicalTools = []string{"context", "impact", "query"}

// Call is how one server spells one logical call: its tool name and the
// argument template. In string values, {name}, {file}, {query} and {uid}
// are replaced by the sampled symbol's.
type Call struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// ToolMap translates every logical call for one server.
type ToolMap map[string]Call

// Built-in profiles: the same three questions in each server's own terms.
// Both servers default impact's per-depth limit to 100 and exclude tests.
var profiles = map[string]ToolMap{
	// gitnexus (this repository): context{name}, impact{target, direction,
	// maxDepth}, query{query}.
	"ours": {
		"context": {Tool: "context", Args: map[string]any{"name": "{name}"}},
		"impact":  {Tool: "impact", Args: map[string]any{"target": "{name}", "direction": "upstream", "maxDepth": 3}},
		"query":   {Tool: "query", Args: map[string]any{"query": "{query}"}},
	},
	// The TypeScript gitnexus on npm: the same tools, but query's words go
	// in search_query.
	"peer": {
		"context": {Tool: "context", Args: map[string]any{"name": "{name}"}},
		"impact":  {Tool: "impact", Args: map[string]any{"target": "{name}", "direction": "upstream", "maxDepth": 3}},
		"query":   {Tool: "query", Args: map[string]any{"search_query": "{query}"}},
	},
}

// loadToolMap returns a built-in profile or reads a map from a JSON file
// ({"context": {"tool": ..., "args": {...}}, "impact": ..., "query": ...}).
func loadToolMap(profile, file string) (ToolMap, error) {
	if (profile == "") == (file == "") {
		return nil, fmt.Errorf("give exactly one of -profile (%s) and -tool-map", strings.Join(profileNames(), ", "))
	}
	if profile != "" {
		m, ok := profiles[profile]
		if !ok {
			return nil, fmt.Errorf("no profile %q (profiles: %s)", profile, strings.Join(profileNames(), ", "))
		}
		return m, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the tool map: %w", err)
	}
	var m ToolMap
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("tool map %s: %w", file, err)
	}
	for _, t := range logicalTools {
		if c, ok := m[t]; !ok || c.Tool == "" {
			return nil, fmt.Errorf("tool map %s: no tool for %q", file, t)
		}
	}
	return m, nil
}

func profileNames() []string {
	var names []string
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// arguments fills the template for one symbol; repo, when set, is added to
// every call.
func (c Call) arguments(s Symbol, repo string) map[string]any {
	r := strings.NewReplacer("{name}", s.Name, "{file}", s.File, "{query}", s.Query, "{uid}", s.UID)
	out := make(map[string]any, len(c.Args)+1)
	for k, v := range c.Args {
		if str, ok := v.(string); ok {
			v = r.Replace(str)
		}
		out[k] = v
	}
	if repo != "" {
		out["repo"] = repo
	}
	return out
}
