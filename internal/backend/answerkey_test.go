package backend

import (
	"context"
	"strings"
	"testing"
)

// Which tools may be reused: the ones that read the index alone.
func TestIndexOnlyTools(t *testing.T) {
	notIndexOnly := map[string]bool{"list_repos": true, "detect_changes": true, "rename": true}
	for _, tool := range Tools() {
		if tool.IndexOnly == notIndexOnly[tool.Name] {
			t.Errorf("%s: IndexOnly %v", tool.Name, tool.IndexOnly)
		}
		if tool.IndexOnly && !tool.ReadOnly {
			t.Errorf("%s writes but is IndexOnly", tool.Name)
		}
	}
}

func TestAnswerKey(t *testing.T) {
	b, root, h := historyShop(t)
	ctx := context.Background()
	key := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		k, ok, err := b.AnswerKey(ctx, tool, args)
		if err != nil {
			t.Fatalf("AnswerKey %s %v: %v", tool, args, err)
		}
		return k, ok
	}
	k1, ok := key("impact", map[string]any{"target": "Store.Get", "maxDepth": 2, "repo": "shop"})
	if !ok {
		t.Fatal("impact is not cacheable")
	}
	// The same question written otherwise: an alias, an integer as a
	// float, another order, the default repository.
	k2, _ := key("impact", map[string]any{"max_depth": 2.0, "name": "Store.Get"})
	if k1 != k2 {
		t.Errorf("the same call has two keys:\n%s\n%s", k1, k2)
	}
	if k3, _ := key("impact", map[string]any{"target": "Store.Get", "maxDepth": 3}); k3 == k1 {
		t.Error("other arguments, same key")
	}
	if k4, _ := key("search", map[string]any{"query": "x"}); !strings.Contains(k4, "\nsearch\n") {
		t.Errorf("the key does not hold the name called: %s", k4)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_repos", nil},
		{"detect_changes", nil},
		{"rename", map[string]any{"symbol_name": "Store.Get", "new_name": "Fetch"}},
		{"nope", nil},
		{"impact", map[string]any{"maxDepth": 99}}, // invalid: the call says so itself
	} {
		if _, ok := key(c.tool, c.args); ok {
			t.Errorf("%s %v: cacheable", c.tool, c.args)
		}
	}
	if _, _, err := b.AnswerKey(ctx, "overview", map[string]any{"repo": "nope"}); err == nil {
		t.Error("no error for an unknown repository")
	}

	// An answer is stored only when it read the index alone.
	cacheable := func(tool string, args map[string]any) bool {
		t.Helper()
		k, ok := key(tool, args)
		if !ok {
			t.Fatalf("%s %v: no key", tool, args)
		}
		res, err := b.CallTool(ctx, tool, args)
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		return CacheableAnswer(k, res)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want bool
	}{
		{"context", map[string]any{"name": "Store.Get"}, true},
		{"context", map[string]any{"name": "Get"}, true}, // ambiguous: a function of the index too
		{"get_commit_impact", map[string]any{"hash": h[3]}, true},
		{"get_commit_impact", map[string]any{"hash": h[3][:8]}, true},
		{"get_commit_impact", map[string]any{"hash": "HEAD"}, false}, // git resolves HEAD
		{"get_recent_changes", map[string]any{"since": "2024-01-03"}, true},
		{"get_recent_changes", map[string]any{"branch": "HEAD"}, false}, // git lists the commits
		{"get_symbol_history", map[string]any{"name": "Store.Get"}, true},
		{"get_symbol_history", map[string]any{"name": "Store.Get", "include_source": true}, false},
		{"get_file_history", map[string]any{"path": "cache/memo.go"}, true},
	} {
		if got := cacheable(c.tool, c.args); got != c.want {
			t.Errorf("%s %v: cacheable %v, want %v", c.tool, c.args, got, c.want)
		}
	}

	// A re-index is a new build: a new key, and an answer from the old
	// build is not stored under it.
	old, _ := b.CallTool(ctx, "overview", nil)
	oldKey, _ := key("overview", nil)
	index(t, root)
	newKey, _ := key("overview", nil)
	if newKey == oldKey {
		t.Fatalf("the same key after a re-index: %s", newKey)
	}
	if CacheableAnswer(newKey, old) {
		t.Error("an answer of the old build may be stored under the new build's key")
	}
}
