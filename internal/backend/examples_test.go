package backend

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// toolExamples are the requests docs/tools.md shows an answer to: one per
// tool, made on the history fixture (testrepo.HistoryShop), whose index is
// fresh (an edit would add the staleness line to every answer).
// "{commit}" stands for the hash of the fixture's commit that adds
// Store.Count.
var toolExamples = []struct {
	tool string
	args map[string]any
}{
	{"list_repos", map[string]any{}},
	{"query", map[string]any{"query": "item price", "limit": 2}},
	{"context", map[string]any{"name": "Store.Get"}},
	{"impact", map[string]any{"target": "Store.Get", "maxDepth": 2}},
	{"detect_changes", map[string]any{"scope": "compare", "base_ref": "HEAD~2"}},
	{"rename", map[string]any{"symbol_name": "Store.Get", "new_name": "Fetch", "dry_run": true}},
	{"cypher", map[string]any{"query": "MATCH (c)-[r:CALLS]->(m:Method {name: 'Get'}) RETURN c.qualifiedName AS caller, m.qualifiedName AS callee, r.line AS line ORDER BY caller"}},
	{"overview", map[string]any{}},
	{"find_symbol", map[string]any{"name": "Store.Get"}},
	{"get_callers_of", map[string]any{"name": "Store.Get", "depth": 2}},
	{"get_callees_of", map[string]any{"name": "main"}},
	{"get_module_dependencies", map[string]any{"module": "example.com/shop/order"}},
	{"trace", map[string]any{"from": "main", "to": "Store.Get"}},
	{"get_file_history", map[string]any{"path": "cache/memo.go"}},
	{"get_symbol_history", map[string]any{"name": "Store.Get"}},
	{"get_recent_changes", map[string]any{"limit": 3}},
	{"get_commit_impact", map[string]any{"hash": "{commit}"}},
	{"search_commits", map[string]any{"query": "count gets in the store", "limit": 3}},
}

// exampleTimes are the moments an answer depends on the day it was made
// (when the fixture was indexed): the docs show them as one fixed time.
var exampleTimes = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2}| UTC)?`)

// TestToolExamples keeps the example answers of docs/tools.md true: each
// is what the tool answers to the request shown (rewritten with -update).
func TestToolExamples(t *testing.T) {
	b, root, h := historyShop(t)
	const path = "../../docs/tools.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	documented := map[string]bool{}
	for _, ex := range toolExamples {
		documented[ex.tool] = true
		args := map[string]any{}
		for k, v := range ex.args {
			if v == "{commit}" {
				v = h[3][:10]
			}
			args[k] = v
		}
		res, err := b.CallTool(context.Background(), ex.tool, args)
		if err != nil {
			t.Fatalf("%s %v: %v", ex.tool, args, err)
		}
		answer := strings.ReplaceAll(res.Markdown(), root, "/home/me/src/shop")
		answer = exampleTimes.ReplaceAllString(answer, "2026-11-30 12:00")
		req, _ := json.Marshal(args)
		want := "<!-- example:" + ex.tool + " -->\nExample: `" + ex.tool + "` with `" + string(req) +
			"` on a small Go repository (the tests' fixture), and the text of its answer (the structured content" +
			" carries the same and more, as JSON):\n\n````markdown\n" + strings.TrimRight(answer, "\n") + "\n````\n<!-- end -->"
		block := regexp.MustCompile(`(?s)<!-- example:` + regexp.QuoteMeta(ex.tool) + ` -->\n.*?<!-- end -->`)
		switch got := block.FindString(doc); {
		case got == want:
		case *update && got != "":
			doc = strings.Replace(doc, got, want, 1)
		case *update:
			doc = insertInSection(t, doc, ex.tool, want)
		case got == "":
			t.Errorf("docs/tools.md has no <!-- example:%s --> block (go test ./internal/backend -run TestToolExamples -update)", ex.tool)
		default:
			t.Errorf("docs/tools.md: the example answer of %s is out of date (go test ./internal/backend -run TestToolExamples -update):\n%s",
				ex.tool, diffLines(got, want))
		}
	}
	for _, tool := range Tools() {
		if !documented[tool.Name] {
			t.Errorf("%s has no example in toolExamples", tool.Name)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// insertInSection puts block at the end of the section "### tool".
func insertInSection(t *testing.T, doc, tool, block string) string {
	start := strings.Index(doc, "### "+tool+"\n")
	if start < 0 {
		t.Fatalf("docs/tools.md has no section for %s", tool)
	}
	rest := doc[start+1:]
	end := len(doc)
	for _, next := range []string{"\n### ", "\n## "} {
		if i := strings.Index(rest, next); i >= 0 && start+1+i < end {
			end = start + 1 + i
		}
	}
	return strings.TrimRight(doc[:end], "\n") + "\n\n" + block + "\n" + doc[end:]
}
