package httpserver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/backend"
	"gitnexus.dev/gitnexus/internal/history"
	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

var update = flag.Bool("update", false, "rewrite the golden answers")

// startHistory serves the shop with its five-commit history.
func startHistory(t *testing.T, opts Options) (base, root string, hashes []string) {
	t.Helper()
	testrepo.Home(t)
	root, hashes = testrepo.HistoryShop(t)
	testrepo.IndexHistory(t, root)
	return serve(t, root, opts, backend.Options{IdleTimeout: -1}), root, hashes
}

// TestHistoryEndpoints checks every history endpoint's answer against a
// golden file (status, paging headers, JSON body).
func TestHistoryEndpoints(t *testing.T) {
	base, _, h := startHistory(t, Options{})
	revert, drop, rename, count := h[0], h[1], h[2], h[3]
	cases := []struct {
		name, method, path, body string
	}{
		{"commit_files", "GET", "/api/v1/commit/" + count[:7] + "/files", ""},
		{"commit_files_filtered", "GET", "/api/v1/commit/" + rename + "/files?filter_file=cache/memo.go", ""},
		{"commit_files_filtered_current_path", "GET", "/api/v1/commit/" + h[4] + "/files?filter_file=cache/memo.go", ""},
		{"commit_functions_filtered_current_path", "GET", "/api/v1/commit/" + h[4] + "/functions?filter_file=cache/memo.go", ""},
		{"commit_functions", "GET", "/api/v1/commit/" + drop + "/functions", ""},
		{"file_commits", "GET", "/api/v1/file/cache/memo.go/commits", ""},
		{"file_commits_paged", "GET", "/api/v1/file/store/store.go/commits?limit=1&offset=1", ""},
		{"file_commits_window", "GET", "/api/v1/file/store/store.go/commits?since=2024-01-02&until=2024-01-04", ""},
		{"function_source_head", "GET", "/api/v1/function/Method:store/store.go:Store.Get/source", ""},
		{"function_source_then", "GET", "/api/v1/function/Method:store/store.go:Store.Get/source?commit_hash=" + count, ""},
		{"function_source_renamed_file", "GET", "/api/v1/function/Function:cache/memo.go:Warm/source?commit_hash=" + h[4], ""},
		{"function_source_deleted", "GET", "/api/v1/function/HistoricalSymbol:Function:cache/memo.go:Purge/source?commit_hash=" + drop, ""},
		{"semantic_search", "POST", "/api/v1/semantic_search", `{"query": "count the gets of the store", "top_k": 3}`},
		{"cluster_commits", "POST", "/api/v1/commit/cluster", fmt.Sprintf(`{"commits": [{"hash": %q}, {"hash": %q}, {"hash": %q}, {"hash": %q}, {"hash": "abcdef0", "message": "cache: tune purge of the cache"}]}`, revert, drop, rename, count)},
		{"cluster_file", "POST", "/api/v1/commit/cluster", `{"file": "store/store.go"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.method, base+c.path, c.body, nil)
			var pretty any
			if err := json.Unmarshal([]byte(r.body), &pretty); err != nil {
				t.Fatalf("%d %s: not JSON: %v", r.status, r.body, err)
			}
			body, _ := json.MarshalIndent(pretty, "", "  ")
			got := fmt.Sprintf("%s %s\nstatus %d\n", c.method, c.path, r.status)
			for _, k := range []string{"X-Total-Count", "X-Offset", "X-Limit", "X-Next-Offset", "X-Ranking", "X-Ranking-Note"} {
				if v := r.header.Get(k); v != "" {
					got += k + ": " + v + "\n"
				}
			}
			got += string(body) + "\n"
			path := filepath.Join("testdata", "golden", c.name+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("answer differs from %s (run with -update to accept):\n%s", path, got)
			}
		})
	}
}

func TestHistoryEndpointErrors(t *testing.T) {
	base, root, h := startHistory(t, Options{})
	// A symlink inside the repository that leads out of it.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"unknown commit", "GET", "/api/v1/commit/deadbeef/files", "", 404, "not in the indexed history"},
		{"not a revision", "GET", "/api/v1/commit/zzzz/functions", "", 400, `git knows no commit \"zzzz\"`},
		{"ambiguous prefix is checked", "GET", "/api/v1/commit/" + h[0][:4] + "/files", "", 200, ""},
		{"unknown file", "GET", "/api/v1/file/nope.go/commits", "", 404, "no indexed commit changed"},
		{"dot-dot", "GET", "/api/v1/file/store/..%2F..%2Fetc/passwd/commits", "", 400, "not a path inside the repository"},
		{"encoded dot-dot", "GET", "/api/v1/file/%2e%2e/%2e%2e/etc/passwd/commits", "", 400, "not a path inside the repository"},
		{"double encoded", "GET", "/api/v1/file/%252e%252e/etc/commits", "", 400, "percent-encoded twice"},
		{"every branch of a first-parent index", "GET", "/api/v1/file/store/store.go/commits?branch=all", "", 400, "gitnexus analyze --all-branches"},
		{"a branch by name", "GET", "/api/v1/commit/" + h[0] + "/files?branch=dev", "", 400, "the only value is all"},
		{"absolute, unescaped", "GET", "/api/v1/file//etc/passwd/commits", "", 400, "has an empty segment"},
		{"dot dot, unescaped", "GET", "/api/v1/file/../x/commits", "", 400, `has a \"..\" segment`},
		{"dot, unescaped", "GET", "/api/v1/file/./store/store.go/commits", "", 400, `has a \".\" segment`},
		{"absolute", "GET", "/api/v1/file/%2Fetc%2Fpasswd/commits", "", 400, "not a path inside the repository"},
		{"backslash", "GET", "/api/v1/file/..%5C..%5Cetc/commits", "", 400, "backslash"},
		{"symlink out", "GET", "/api/v1/file/escape/secret.go/commits", "", 400, "leads outside the repository"},
		{"filter escape", "GET", "/api/v1/commit/" + h[0] + "/files?filter_file=../x", "", 400, "not a path inside the repository"},
		{"cluster file escape", "POST", "/api/v1/commit/cluster", `{"file": "../../etc/passwd"}`, 400, "not a path inside the repository"},
		{"no commits endpoint", "GET", "/api/v1/file/store/store.go", "", 404, "not found"},
		{"bad limit", "GET", "/api/v1/file/store/store.go/commits?limit=0", "", 400, "out of range"},
		{"bad number", "GET", "/api/v1/file/store/store.go/commits?offset=x", "", 400, "whole number"},
		{"bad date", "GET", "/api/v1/file/store/store.go/commits?since=tomorrow", "", 400, "is not a date"},
		{"unknown function", "GET", "/api/v1/function/Function:nope.go:x/source", "", 404, "no symbol with id"},
		{"function not yet written", "GET", "/api/v1/function/Variable:store/store.go:gets/source", "", 404, "no symbol with id"},
		{"deleted function at HEAD", "GET", "/api/v1/function/HistoricalSymbol:Function:cache/memo.go:Purge/source", "", 404, "no longer exists"},
		{"empty query", "POST", "/api/v1/semantic_search", `{"query": " "}`, 400, "give the words"},
		{"top_k too big", "POST", "/api/v1/semantic_search", `{"query": "x", "top_k": 1000}`, 400, "out of range"},
		{"not JSON", "POST", "/api/v1/semantic_search", `{"query": `, 400, "JSON"},
		{"cluster nothing", "POST", "/api/v1/commit/cluster", `{}`, 400, "give commits"},
		{"cluster both", "POST", "/api/v1/commit/cluster", `{"file": "a.go", "commits": [{"hash": "abcd"}]}`, 400, "give commits"},
		{"cluster unknown field", "POST", "/api/v1/commit/cluster", `{"files": "a.go"}`, 400, "unknown field"},
		{"cluster unknown commit", "POST", "/api/v1/commit/cluster", `{"commits": [{"hash": "abcdef1"}]}`, 404, "no message to cluster by"},
		{"unknown repo", "GET", "/api/v1/commit/" + h[0] + "/files?repo=nope", "", 404, "not found"},
		{"wrong method", "POST", "/api/v1/commit/" + h[0] + "/files", "", 405, "use GET"},
		{"oversize body", "POST", "/api/v1/semantic_search", `{"query": "` + strings.Repeat("x", 2<<20) + `"}`, 413, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, c.method, base+c.path, c.body, nil)
			if r.status != c.status || !strings.Contains(r.body, c.want) {
				t.Errorf("%s %s: %d %s, want %d with %q", c.method, c.path, r.status, strings.TrimSpace(r.body), c.status, c.want)
			}
		})
	}
}

// TestHistoryCache checks that answers are reused and that a re-index
// (a new generation) is never answered from the cache.
func TestHistoryCache(t *testing.T) {
	base, root, _ := startHistory(t, Options{})
	get := func() response { return do(t, "GET", base+"/api/v1/file/store/store.go/commits", "", nil) }
	first := get()
	if first.status != 200 || first.header.Get("X-Total-Count") != "3" {
		t.Fatalf("first: %d %s %v", first.status, first.body, first.header)
	}
	if again := get(); again.body != first.body || again.header.Get("X-Total-Count") != "3" {
		t.Errorf("cached answer differs: %s", again.body)
	}
	// A new commit and a re-index: the next answer has four commits.
	os.WriteFile(filepath.Join(root, "store", "store.go"), []byte(strings.Replace(testrepo.Shop["store/store.go"], "keeps items", "keeps the items", 1)), 0o644)
	testrepo.Git(t, root, "add", "-A")
	testrepo.CommitAt(t, root, "2024-01-06", "commit", "-q", "-m", "store: doc")
	time.Sleep(10 * time.Millisecond) // a distinct modification time for the new index
	testrepo.IndexHistory(t, root)
	if after := get(); after.header.Get("X-Total-Count") != "4" {
		t.Errorf("after re-index: %d %s (X-Total-Count %q)", after.status, after.body, after.header.Get("X-Total-Count"))
	}
}

func TestHistoryConcurrent(t *testing.T) {
	base, _, h := startHistory(t, Options{})
	paths := []string{
		"/api/v1/file/store/store.go/commits",
		"/api/v1/commit/" + h[1] + "/functions",
		"/api/v1/function/Method:store/store.go:Store.Get/source?commit_hash=" + h[3],
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for k := 0; k < 5; k++ {
				resp, err := http.Get(base + paths[(i+k)%len(paths)])
				if err != nil {
					errs <- err.Error()
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- fmt.Sprintf("status %d", resp.StatusCode)
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestBranchAllOfAnAllBranchesIndex: ?branch=all is answered when the
// index holds every branch.
func TestBranchAllOfAnAllBranchesIndex(t *testing.T) {
	testrepo.Home(t)
	root, _ := testrepo.HistoryShop(t)
	testrepo.IndexWith(t, ingest.Options{Root: root, MaxFileSize: 512 << 10, History: &history.Options{AllBranches: true}})
	base := serve(t, root, Options{}, backend.Options{IdleTimeout: -1})
	resp, err := http.Get(base + "/api/v1/file/store/store.go/commits?branch=all")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var commits []map[string]any
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&commits) != nil || len(commits) == 0 {
		t.Errorf("?branch=all of an all-branches index: %d, %d commits", resp.StatusCode, len(commits))
	}
}

// TestFilePathRule checks that REST reads a file's path as
// get_file_history does: the full path, or the one file whose path ends
// with it; a suffix of several files' paths is a 409 naming them, and
// the MCP tool answers the same three requests alike.
func TestFilePathRule(t *testing.T) {
	testrepo.Home(t)
	root := testrepo.New(t, t.TempDir(), map[string]string{
		"go.mod":          "module example.com/m\n",
		"api/util.go":     "package api\n\nfunc A() int { return 1 }\n",
		"store/util.go":   "package store\n\nfunc S() int { return 2 }\n",
		"store/record.go": "package store\n\nfunc R() int { return 3 }\n",
	})
	testrepo.IndexHistory(t, root)
	base := serve(t, root, Options{}, backend.Options{IdleTimeout: -1})
	full := do(t, "GET", base+"/api/v1/file/store/record.go/commits", "", nil)
	if full.status != 200 || !strings.Contains(full.body, `"path":"store/record.go"`) {
		t.Fatalf("full path: %d %s", full.status, full.body)
	}
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"record.go", 200, full.body},
		{"util.go", 409, `\"util.go\" ends the paths of 2 files (api/util.go, store/util.go)`},
		{"tore/record.go", 404, "no indexed commit changed"}, // a suffix ends at a folder boundary
	} {
		r := do(t, "GET", base+"/api/v1/file/"+c.path+"/commits", "", nil)
		if r.status != c.status || !strings.Contains(r.body, c.want) {
			t.Errorf("REST %s: %d %s, want %d with %q", c.path, r.status, r.body, c.status, c.want)
		}
	}
	b, err := backend.New(backend.Options{IgnoreCwd: true, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for p, want := range map[string]string{"record.go": "store/record.go", "util.go": "ambiguous", "tore/record.go": "not found"} {
		res, err := b.CallTool(context.Background(), "get_file_history", map[string]any{"repo": root, "path": p})
		got := ""
		switch {
		case err != nil:
			got = "not found"
			if !strings.Contains(err.Error(), "no indexed commit changed") {
				got = err.Error()
			}
		case res.Ambiguous:
			got = "ambiguous"
		default:
			got = res.Data.(analysis.FileHistoryResult).Path
		}
		if got != want {
			t.Errorf("get_file_history %s: %s, want %s", p, got, want)
		}
	}
}
