package backend

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIndexStateInAnswers: every answer about a repository says which build
// it comes from; an edit makes the next answers stale (with one line of
// text) once the background check saw it, and a new build is fresh again.
func TestIndexStateInAnswers(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "one"), oneFile)
	e := index(t, root)
	b := newBackend(t, Options{Cwd: root, FreshnessTTL: 20 * time.Millisecond})
	ctx := context.Background()
	call := func() (*Result, map[string]any) {
		t.Helper()
		res, err := b.CallTool(ctx, "context", map[string]any{"name": "A"})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(res.Structured())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		idx, _ := m["index"].(map[string]any)
		if idx == nil || m["symbol"] == nil {
			t.Fatalf("structured result without index or data: %s", raw)
		}
		return res, idx
	}
	res, idx := call()
	if idx["commit"] != e.LastCommit || idx["head"] != e.LastCommit || idx["stale"] != false || idx["generation"] != float64(1) {
		t.Fatalf("fresh index: %v", idx)
	}
	if strings.Contains(res.Markdown(), "Stale index") {
		t.Fatalf("a fresh answer says stale:\n%s", res.Markdown())
	}
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(oneFile["a.go"]+"\n// C is new.\nfunc C() int { return A() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for idx["stale"] != true {
		if time.Now().After(deadline) {
			t.Fatalf("the edit was never reported: %v", idx)
		}
		time.Sleep(10 * time.Millisecond)
		res, idx = call()
	}
	if reasons, _ := idx["reasons"].([]any); len(reasons) != 1 || !strings.Contains(reasons[0].(string), "a.go") {
		t.Errorf("reasons: %v", idx["reasons"])
	}
	head, rest, _ := strings.Cut(res.Markdown(), "\n\n")
	first, _, _ := strings.Cut(rest, "\n")
	if head != "Repository: "+idx["repo"].(string) {
		t.Errorf("an answer does not start with its repository: %q", head)
	}
	if first != "Stale index: 1 file(s) changed since it was built: a.go. Run `gitnexus analyze` for answers about the current code." {
		t.Errorf("first line of a stale answer: %q", first)
	}
	time.Sleep(20 * time.Millisecond)
	index(t, root)
	res, idx = call()
	if idx["stale"] != false || idx["generation"] != float64(2) || strings.Contains(res.Markdown(), "Stale index") {
		t.Errorf("after re-indexing: %v\n%s", idx, res.Markdown())
	}
	// list_repos is about no single repository: no index object.
	lr, err := b.CallTool(ctx, "list_repos", nil)
	if err != nil || lr.Index != nil {
		t.Errorf("list_repos: %v %v", lr.Index, err)
	}
}

// TestStructuredIndexMember: the index object is appended to objects only.
func TestStructuredIndexMember(t *testing.T) {
	st := &IndexState{Commit: "c", Generation: 3}
	cases := []struct {
		data any
		want string
	}{
		{map[string]any{"a": 1}, `{"a":1,"index":{"commit":"c","indexedAt":"0001-01-01T00:00:00Z","generation":3,"stale":false,"checkAgeMs":0}}`},
		{struct{}{}, `{"index":{"commit":"c","indexedAt":"0001-01-01T00:00:00Z","generation":3,"stale":false,"checkAgeMs":0}}`},
		{[]int{1}, `[1]`},
		{nil, `null`},
	}
	for _, c := range cases {
		got, err := json.Marshal((&Result{Data: c.data, Index: st}).Structured())
		if err != nil || string(got) != c.want {
			t.Errorf("%v: %s %v, want %s", c.data, got, err, c.want)
		}
	}
}
