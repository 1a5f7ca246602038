package backend

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/format"
	"gitnexus.dev/gitnexus/internal/search"
	"gitnexus.dev/gitnexus/internal/testrepo"
)

// historyShop indexes the shop with its history (testrepo.HistoryShop)
// in a home of its own and returns a backend on it, the repository's root
// and the commits' hashes.
func historyShop(t *testing.T) (*Backend, string, []string) {
	t.Helper()
	newHome(t)
	root, h := testrepo.HistoryShop(t)
	testrepo.IndexHistory(t, root)
	return newBackend(t, Options{IdleTimeout: -1}), root, h
}

func TestHistoryTools(t *testing.T) {
	b, root, h := historyShop(t)
	ctx := context.Background()
	call := func(tool string, args map[string]any) *Result {
		t.Helper()
		res, err := b.CallTool(ctx, tool, args)
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		return res
	}
	revert, drop, rename, count, initial := h[0], h[1], h[2], h[3], h[4]

	// Golden answers: text and JSON.
	golden(t, "file_history_memo", root, call("get_file_history", map[string]any{"path": "cache/memo.go"}))
	golden(t, "symbol_history_get", root, call("get_symbol_history", map[string]any{"name": "Store.Get", "include_source": true}))
	golden(t, "commit_impact_count", root, call("get_commit_impact", map[string]any{"hash": count[:8]}))
	golden(t, "recent_changes_since", root, call("get_recent_changes", map[string]any{"since": "2024-01-03"}))

	hashesOf := func(res *Result) []string {
		var out []string
		switch d := res.Data.(type) {
		case analysis.FileHistoryResult:
			for _, c := range d.Commits {
				out = append(out, c.Hash)
			}
		case analysis.SymbolHistoryResult:
			for _, c := range d.Commits {
				out = append(out, c.Hash)
			}
		case analysis.RecentChangesResult:
			for _, c := range d.Commits {
				out = append(out, c.Hash)
			}
		default:
			t.Fatalf("unexpected data %T", res.Data)
		}
		return out
	}
	cases := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"file history follows the rename", "get_file_history", map[string]any{"path": "cache/memo.go"}, []string{drop, rename, initial}},
		{"a unique path suffix", "get_file_history", map[string]any{"path": "memo.go"}, []string{drop, rename, initial}},
		{"the old name alone", "get_file_history", map[string]any{"path": "cache/cache.go"}, []string{rename, initial}},
		{"absolute path", "get_file_history", map[string]any{"file_path": filepath.Join(root, "store", "store.go")}, []string{revert, count, initial}},
		{"paged", "get_file_history", map[string]any{"path": "store/store.go", "limit": 1, "offset": 1}, []string{count}},
		{"since and until", "get_file_history", map[string]any{"path": "store/store.go", "since": "2024-01-02", "until": "2024-01-04"}, []string{count}},
		{"symbol history", "get_symbol_history", map[string]any{"name": "Store.Get"}, []string{revert, count, initial}},
		{"a deleted symbol", "get_symbol_history", map[string]any{"name": "Purge"}, []string{drop, rename}},
		{"an untouched symbol since the start", "get_symbol_history", map[string]any{"name": "Service.Place"}, []string{initial}},
		{"recent: since", "get_recent_changes", map[string]any{"since": "2024-01-03"}, []string{revert, drop, rename}},
		{"recent: range", "get_recent_changes", map[string]any{"range": initial + ".." + rename}, []string{rename, count}},
		{"recent: branch and limit", "get_recent_changes", map[string]any{"branch": "main", "limit": 2}, []string{revert, drop}},
		{"recent: latest", "get_recent_changes", map[string]any{}, []string{revert, drop, rename, count, initial}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := hashesOf(call(c.tool, c.args))
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("commits %v, want %v", short(got), short(c.want))
			}
		})
	}

	t.Run("deleted symbol", func(t *testing.T) {
		d := call("get_symbol_history", map[string]any{"name": "Purge"}).Data.(analysis.SymbolHistoryResult)
		if d.AtHead || d.DeletedIn != drop || d.Symbol.Kind != "Function" || d.Symbol.FilePath != "cache/memo.go" {
			t.Errorf("atHead %v deletedIn %.8s kind %s file %s", d.AtHead, d.DeletedIn, d.Symbol.Kind, d.Symbol.FilePath)
		}
	})
	t.Run("source as of each commit", func(t *testing.T) {
		d := call("get_symbol_history", map[string]any{"name": "Store.Get", "include_source": true}).Data.(analysis.SymbolHistoryResult)
		var got []bool
		for _, c := range d.Commits {
			if !strings.HasPrefix(c.Source, "func (s *Store) Get(id int) (*Item, error) {") {
				t.Errorf("%.8s: source %q", c.Hash, c.Source)
			}
			got = append(got, strings.Contains(c.Source, "gets++"))
		}
		if len(got) != 3 || got[0] || !got[1] || got[2] {
			t.Errorf("gets++ in the sources (revert, count, initial): %v", got)
		}
	})
	t.Run("commit impact", func(t *testing.T) {
		d := call("get_commit_impact", map[string]any{"commit": count[:7]}).Data.(analysis.CommitImpactResult)
		if len(d.RevertedBy) != 1 || d.RevertedBy[0] != revert {
			t.Errorf("revertedBy %v", d.RevertedBy)
		}
		var syms []string
		for _, s := range d.Symbols {
			syms = append(syms, s.Name+":"+s.Change)
		}
		if strings.Join(syms, " ") != "Get:modified gets:added" {
			t.Errorf("symbols %v", syms)
		}
		var callers []string
		for _, it := range d.Callers.ByDepth["1"] {
			callers = append(callers, it.Name)
		}
		if strings.Join(callers, " ") != "Place" {
			t.Errorf("direct callers %v", callers)
		}
		r := call("get_commit_impact", map[string]any{"hash": revert}).Data.(analysis.CommitImpactResult)
		if len(r.Reverts) != 1 || r.Reverts[0] != count {
			t.Errorf("reverts %v", r.Reverts)
		}
	})

	errs := []struct {
		name string
		tool string
		args map[string]any
		want string
		is   func(error) bool
	}{
		{"unknown commit", "get_commit_impact", map[string]any{"hash": "deadbeef"}, "not in the indexed history", isNotFound},
		{"no such revision", "get_commit_impact", map[string]any{"hash": "no-such-branch~2"}, `git knows no commit "no-such-branch~2"`, isInput},
		{"a hex prefix git does not know", "get_commit_impact", map[string]any{"hash": "FEED"}, `commit "FEED" is not in the indexed history`, isNotFound},
		{"unknown file", "get_file_history", map[string]any{"path": "nope.go"}, "no indexed commit changed", isNotFound},
		{"bad date", "get_file_history", map[string]any{"path": "store/store.go", "since": "yesterday"}, "is not a date", isInput},
		{"range without dots", "get_recent_changes", map[string]any{"range": "main"}, "is not a range", isArg},
		{"option as a branch", "get_recent_changes", map[string]any{"branch": "--all"}, "is not a revision", isArg},
		{"unknown branch", "get_recent_changes", map[string]any{"branch": "nope"}, "git does not know", isInput},
		{"range and branch", "get_recent_changes", map[string]any{"range": "a..b", "branch": "main"}, "not both", isArg},
	}
	// Any revision git knows names a commit: HEAD, HEAD~1, a tag.
	git(t, root, "tag", "v1", strings.TrimSpace(git(t, root, "rev-parse", "HEAD~1")))
	for rev, want := range map[string]string{"HEAD": git(t, root, "rev-parse", "HEAD"), "HEAD~1": git(t, root, "rev-parse", "HEAD~1"),
		"v1": git(t, root, "rev-parse", "HEAD~1"), strings.ToUpper(count[:7]): count} {
		d := call("get_commit_impact", map[string]any{"hash": rev}).Data.(analysis.CommitImpactResult)
		if d.Commit.Hash != strings.TrimSpace(want) {
			t.Errorf("get_commit_impact %q: commit %s, want %s", rev, d.Commit.Hash, want)
		}
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			_, err := b.CallTool(ctx, c.tool, c.args)
			if err == nil || !strings.Contains(err.Error(), c.want) || !c.is(err) {
				t.Errorf("error %v (%T), want one containing %q", err, err, c.want)
			}
		})
	}
}

func TestHistoryToolsWithoutHistory(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "shop"), shopFiles)
	index(t, root)
	b := newBackend(t, Options{IdleTimeout: -1})
	_, err := b.CallTool(context.Background(), "get_file_history", map[string]any{"path": "store/store.go"})
	if !isNotFound(err) || !strings.Contains(err.Error(), "has no git history") {
		t.Errorf("error %v", err)
	}
}

func isNotFound(err error) bool {
	var e *NotFoundError
	return errors.As(err, &e)
}

func isInput(err error) bool {
	var e *analysis.InputError
	return errors.As(err, &e)
}

func isArg(err error) bool {
	var e *ArgError
	return errors.As(err, &e)
}

func short(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h[:min(8, len(h))]
	}
	return out
}

// A source git cannot find (here: asked of another repository, which
// lacks the objects) is marked missing, never left silently empty.
func TestSymbolSourceMissing(t *testing.T) {
	b, _, _ := historyShop(t)
	res, err := b.CallTool(context.Background(), "get_symbol_history", map[string]any{"name": "Store.Get"})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(analysis.SymbolHistoryResult)
	other := writeRepo(t, filepath.Join(t.TempDir(), "other"), map[string]string{"x.go": "package x\n"})
	_, err = b.withRepo(context.Background(), "", func(s *Snapshot) (*Result, error) {
		return nil, addSources(context.Background(), other, s.history(), &d)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Commits {
		if !c.SourceMissing || c.Source != "" {
			t.Errorf("%.8s: missing %v, source %q", c.Hash, c.SourceMissing, c.Source)
		}
	}
	if text := format.SymbolHistory(&d); !strings.Contains(text, "The source is not available") {
		t.Errorf("the text does not say the source is missing:\n%s", text)
	}
}

// TestFileHistoryAcrossDeletionAndRename: a file deleted and added again,
// and one renamed away and back, keep their earlier commits, as
// git log --first-parent --follow lists them.
func TestFileHistoryAcrossDeletionAndRename(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "churn"), map[string]string{
		"go.mod":    "module example.com/churn\n\ngo 1.22\n",
		"ci.yml":    "steps: [build]\n",
		"a/util.go": "package a\n\nfunc Util() int { return 1 }\n",
		"b/b.go":    "package b\n\nfunc B() int { return 1 }\n",
	})
	step := func(date, msg string, do func()) {
		do()
		git(t, root, "add", "-A")
		testrepo.CommitAt(t, root, date, "commit", "-q", "-m", msg)
	}
	step("2024-02-01", "ci: test too", func() {
		testrepo.Write(t, root, map[string]string{"ci.yml": "steps: [build, test]\n", "b/b.go": "package b\n\nfunc B() int { return 2 }\n"})
	})
	step("2024-02-02", "ci: drop the config", func() { git(t, root, "rm", "-q", "ci.yml", "b/b.go") })
	step("2024-02-03", "ci: bring the config back", func() {
		testrepo.Write(t, root, map[string]string{"ci.yml": "steps: [build, test, lint]\n", "b/b.go": "package b\n\nfunc B() int { return 3 }\n"})
	})
	step("2024-02-04", "a: move util to b", func() { git(t, root, "mv", "a/util.go", "a/helper.go") })
	step("2024-02-05", "a: helper returns 2", func() {
		testrepo.Write(t, root, map[string]string{"a/helper.go": "package a\n\nfunc Util() int { return 2 }\n"})
	})
	step("2024-02-06", "a: back to util.go", func() { git(t, root, "mv", "a/helper.go", "a/util.go") })
	testrepo.IndexHistory(t, root)
	b := newBackend(t, Options{Cwd: root, IdleTimeout: -1})
	for _, path := range []string{"ci.yml", "a/util.go", "b/b.go"} {
		want := strings.Fields(git(t, root, "log", "--first-parent", "--follow", "--format=%H", "--", path))
		res, err := b.CallTool(context.Background(), "get_file_history", map[string]any{"path": path, "limit": 100})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Data.(analysis.FileHistoryResult).Commits {
			got = append(got, c.Hash)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d commits %v, git log --follow has %d %v\n%s", path, len(got), got, len(want), want, res.Markdown())
		}
	}
	// The first commit's files and symbols exist at HEAD again: not gone.
	first := strings.TrimSpace(git(t, root, "log", "--first-parent", "--format=%H", "--grep", "ci: test too"))
	res, err := b.CallTool(context.Background(), "get_commit_impact", map[string]any{"hash": first})
	if err != nil {
		t.Fatal(err)
	}
	ci := res.Data.(analysis.CommitImpactResult)
	for _, f := range ci.Files {
		if f.AtHead != f.Path {
			t.Errorf("%s is at HEAD as %q, want itself\n%s", f.Path, f.AtHead, res.Markdown())
		}
	}
	if len(ci.Symbols) != 1 || ci.Symbols[0].Name != "B" || !ci.Symbols[0].AtHead {
		t.Errorf("symbols %+v, want B at HEAD\n%s", ci.Symbols, res.Markdown())
	}
	// B's source as of that commit: it existed then.
	out, err := b.HistoryCall(context.Background(), "", func(h *HistoryView) (any, error) {
		return h.FunctionSource(context.Background(), "Function:b/b.go:B", first)
	})
	if err != nil || !strings.Contains(out.(*Source).SourceCode, "return 2") {
		t.Errorf("B as of %s: %v %+v", first[:7], err, out)
	}
}

// TestSearchCommits asks the history fixture's commits questions: the
// commit whose message and changed symbols hold the words ranks first,
// limit and top_k bound the list, and an empty question is refused.
func TestSearchCommits(t *testing.T) {
	b, _, h := historyShop(t)
	revert, drop, rename, count, initial := h[0], h[1], h[2], h[3], h[4]
	ctx := context.Background()
	for _, tc := range []struct {
		args map[string]any
		want []string // hashes, best first
	}{
		// "count" and "gets" are in the subject of count and of its revert
		// (longer: "Revert ..."), and Store.Get is what both changed.
		{map[string]any{"query": "count gets", "limit": 2}, []string{count, revert}},
		// Purge is in two messages, and drop changed nothing else.
		{map[string]any{"query": "Purge", "top_k": 5}, []string{drop, rename}},
		// No message says "get": the commits that changed a Get method
		// are found by its name, the shortest document first.
		{map[string]any{"query": "Get"}, []string{count, revert, initial}},
		{map[string]any{"query": "memo.go rename"}, []string{rename}},
		{map[string]any{"query": "initial", "limit": 1}, []string{initial}},
		{map[string]any{"query": "nothing like this anywhere"}, nil},
	} {
		res, err := b.CallTool(ctx, "search_commits", tc.args)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		d := res.Data.(analysis.CommitSearchResult)
		var got []string
		for i, hit := range d.Results {
			got = append(got, hit.Hash)
			if hit.Rank != i+1 || hit.ShortHash == "" || hit.Subject == "" || hit.Files == 0 || hit.Score <= 0 {
				t.Errorf("%v: hit %d: %+v", tc.args, i, hit)
			}
		}
		if !slices.Equal(short(got), short(tc.want)) {
			t.Errorf("%v: commits %v, want %v\n%s", tc.args, short(got), short(tc.want), res.Markdown())
		}
		if d.Ranking != search.RankingBM25 || !strings.Contains(res.Markdown(), "Ranked by BM25 alone") {
			t.Errorf("%v: ranking %q, text:\n%s", tc.args, d.Ranking, res.Markdown())
		}
	}
	if _, err := b.CallTool(ctx, "search_commits", map[string]any{"query": "  "}); !isArg(err) {
		t.Errorf("an empty question: error %v, want an argument error", err)
	}
}
