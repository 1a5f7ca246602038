package backend

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gitnexus.dev/gitnexus/internal/analysis"
	"gitnexus.dev/gitnexus/internal/format"
)

// navFiles is the shop fixture plus a few Python files outside any package
// (folder modules): a tools folder with a test folder inside it, a job
// that uses it, and a recursive function.
func navFiles() map[string]string {
	files := maps.Clone(shopFiles)
	files["tools/fmt.py"] = "def fmt(x):\n    if x >= 10:\n        return fmt(x // 10) + str(x % 10)\n    return str(x)\n"
	files["tools/report.py"] = "from tools.fmt import fmt\n\n\ndef report():\n    return fmt(1)\n"
	files["tools/tests/test_report.py"] = "from tools.report import report\n\n\ndef test_report():\n    assert report() == \"1\"\n"
	files["jobs/nightly.py"] = "from tools.report import report\n\n\ndef nightly():\n    return report()\n"
	return files
}

func navShop(t *testing.T) (*Backend, string) {
	t.Helper()
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "shop"), navFiles())
	index(t, root)
	return newBackend(t, Options{Cwd: root}), root
}

// callLines renders a call tree as one line per item: depth, name as
// written in its file, call site, module, and test.
func callLines(r analysis.CallTreeResult) []string {
	var out []string
	for _, lv := range r.Levels {
		for _, it := range lv.Items {
			site := it.CallFile
			for i, l := range it.CallLines {
				sep := ","
				if i == 0 {
					sep = ":"
				}
				site += fmt.Sprintf("%s%d", sep, l)
			}
			line := fmt.Sprintf("%d %s %s %s %s %.2f", it.Depth, analysis.NameInFile(it.UID, it.Kind, it.FilePath, it.Name), site, it.Module, it.Reason, it.Confidence)
			if it.Test {
				line += " test"
			}
			out = append(out, line)
		}
	}
	return out
}

func TestCallTrees(t *testing.T) {
	b, _ := navShop(t)
	cases := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"direct callers, every call line", "get_callers_of", map[string]any{"name": "Store.Get"},
			[]string{"1 Service.Place order/order.go:18,22 example.com/shop/order receiver-typed 0.90"}},
		{"two levels, the test last and marked", "get_callers_of", map[string]any{"name": "Store.Get", "depth": 2}, []string{
			"1 Service.Place order/order.go:18,22 example.com/shop/order receiver-typed 0.90",
			"2 main cmd/shop/main.go:14 example.com/shop/cmd/shop receiver-typed 0.90",
			"2 TestPlace order/order_test.go:12 example.com/shop/order receiver-typed 0.90 test",
		}},
		{"each caller once", "get_callers_of", map[string]any{"uid": "Function:store/store.go:New", "depth": 5}, []string{
			"1 main cmd/shop/main.go:12 example.com/shop/cmd/shop import-resolved 0.95",
			"1 TestPlace order/order_test.go:10 example.com/shop/order import-resolved 0.95 test",
		}},
		{"callees: the call is in the caller's file", "get_callees_of", map[string]any{"name": "main", "kind": "Function"}, []string{
			"1 Warm cmd/shop/main.go:15 example.com/shop/cache import-resolved 0.95",
			"1 NewService cmd/shop/main.go:14 example.com/shop/order import-resolved 0.95",
			"1 New cmd/shop/main.go:12 example.com/shop/store import-resolved 0.95",
			"1 Service.Place cmd/shop/main.go:14 example.com/shop/order receiver-typed 0.90",
			"1 Store.Put cmd/shop/main.go:13 example.com/shop/store receiver-typed 0.90",
		}},
		{"callees at depth 2 are called from depth 1", "get_callees_of", map[string]any{"name": "Warm", "depth": 2, "maxDepth": 2}, []string{
			"1 Cache.Get cache/cache.go:16 example.com/shop/cache receiver-typed 0.90",
		}},
		{"callees two levels down", "get_callees_of", map[string]any{"name": "nightly", "depth": 3}, []string{
			"1 report jobs/nightly.py:5 tools import-resolved 0.95",
			"2 fmt tools/report.py:5 tools import-resolved 0.95",
		}},
		{"folder modules and a test folder", "get_callers_of", map[string]any{"name": "report", "file_path": "tools/report.py"}, []string{
			"1 nightly jobs/nightly.py:5 jobs import-resolved 0.95",
			"1 test_report tools/tests/test_report.py:5 tools/tests import-resolved 0.95 test",
		}},
		{"nothing calls it", "get_callers_of", map[string]any{"name": "main"}, nil},
		{"a recursive function is not its own caller", "get_callers_of", map[string]any{"name": "fmt", "depth": 2}, []string{
			"1 report tools/report.py:5 tools import-resolved 0.95",
			"2 nightly jobs/nightly.py:5 jobs import-resolved 0.95",
			"2 test_report tools/tests/test_report.py:5 tools/tests import-resolved 0.95 test",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), c.tool, c.args)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Data.(analysis.CallTreeResult)
			if got := callLines(r); !slices.Equal(got, c.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if r.Total != len(c.want) || r.Returned != len(c.want) || r.Truncated || !r.Exhaustive {
				t.Errorf("total %d returned %d truncated %v exhaustive %v", r.Total, r.Returned, r.Truncated, r.Exhaustive)
			}
			if recursive := r.Symbol.UID == "Function:tools/fmt.py:fmt"; r.Recursive != recursive {
				t.Errorf("recursive = %v, want %v", r.Recursive, recursive)
			}
		})
	}
}

func TestFindSymbol(t *testing.T) {
	b, _ := navShop(t)
	cases := []struct {
		name  string
		args  map[string]any
		match string
		want  []string // uid module [test]
	}{
		{"a shared name: code first, by file", map[string]any{"name": "Get"}, "exact",
			[]string{"Method:cache/cache.go:Cache.Get example.com/shop/cache", "Method:store/store.go:Store.Get example.com/shop/store"}},
		{"Type.method", map[string]any{"name": "Store.Get"}, "exact", []string{"Method:store/store.go:Store.Get example.com/shop/store"}},
		{"a qualified name", map[string]any{"name": "cache.Cache.Get"}, "exact", []string{"Method:cache/cache.go:Cache.Get example.com/shop/cache"}},
		{"case-insensitive only when no exact match", map[string]any{"name": "store.get"}, "case-insensitive", []string{"Method:store/store.go:Store.Get example.com/shop/store"}},
		{"a simple name", map[string]any{"name": "New"}, "exact", []string{"Function:store/store.go:New example.com/shop/store"}},
		{"kind filter", map[string]any{"name": "Get", "kind": "method", "file_path": "store"}, "exact", []string{"Method:store/store.go:Store.Get example.com/shop/store"}},
		{"file suffix", map[string]any{"name": "Get", "file": "cache.go"}, "exact", []string{"Method:cache/cache.go:Cache.Get example.com/shop/cache"}},
		{"test code is marked", map[string]any{"name": "test_report"}, "exact", []string{"Function:tools/tests/test_report.py:test_report tools/tests test"}},
		{"a folder module", map[string]any{"name": "FMT"}, "case-insensitive", []string{"Function:tools/fmt.py:fmt tools"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), "find_symbol", c.args)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Data.(analysis.DefinitionsResult)
			var got []string
			for _, d := range r.Definitions {
				s := d.UID + " " + d.Module
				if d.Test {
					s += " test"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, c.want) || r.Match != c.match || r.Total != len(c.want) || r.Truncated {
				t.Errorf("match %s total %d truncated %v:\n%s\nwant match %s:\n%s", r.Match, r.Total, r.Truncated,
					strings.Join(got, "\n"), c.match, strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestModuleDependencies(t *testing.T) {
	b, _ := navShop(t)
	cases := []struct {
		module     string
		ref        string // name kind files
		down, up   []string
		downstream int
	}{
		{"example.com/shop/order", "example.com/shop/order package 2",
			[]string{"example.com/shop/store 2 3"}, []string{"example.com/shop/cmd/shop 1 2"}, 1},
		{"Package:example.com/shop/store", "example.com/shop/store package 1",
			nil, []string{"example.com/shop/order 2 3", "example.com/shop/cmd/shop 1 2"}, 0},
		{"cmd", "cmd folder 1",
			[]string{"example.com/shop/order 1 2", "example.com/shop/store 1 2", "example.com/shop/cache 1 1"}, nil, 3},
		// A folder takes its sub-folders: tools/tests is inside tools.
		{"tools", "tools folder 3", nil, []string{"jobs 1 1"}, 0},
		{"./tools/tests/", "tools/tests folder 1", []string{"tools 1 1 test-only"}, nil, 1},
		{"jobs", "jobs folder 1", []string{"tools 1 1"}, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.module, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), "get_module_dependencies", map[string]any{"module": c.module})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Data.(analysis.ModuleDepsResult)
			if got := fmt.Sprintf("%s %s %d", r.Module.Name, r.Module.Kind, r.Module.Files); got != c.ref {
				t.Errorf("module %s, want %s", got, c.ref)
			}
			lines := func(ls []analysis.ModuleLink) []string {
				var out []string
				for _, l := range ls {
					s := fmt.Sprintf("%s %d %d", l.Module, l.Imports, l.Calls)
					if l.TestOnly {
						s += " test-only"
					}
					out = append(out, s)
				}
				return out
			}
			if got := lines(r.Downstream); !slices.Equal(got, c.down) || r.DownstreamTotal != c.downstream {
				t.Errorf("downstream (%d): %q, want %q", r.DownstreamTotal, got, c.down)
			}
			if got := lines(r.Upstream); !slices.Equal(got, c.up) || r.UpstreamTotal != len(c.up) {
				t.Errorf("upstream (%d): %q, want %q", r.UpstreamTotal, got, c.up)
			}
		})
	}
}

func TestNavigationErrors(t *testing.T) {
	b, _ := navShop(t)
	var argErr *ArgError
	var notFound *NotFoundError
	var inputErr *analysis.InputError
	isArg := func(e error) bool { return errors.As(e, &argErr) }
	cases := []struct {
		name  string
		tool  string
		args  map[string]any
		is    func(error) bool
		inMsg string
	}{
		{"depth above the limit", "get_callers_of", map[string]any{"name": "Store.Get", "depth": 6}, isArg, `"depth": must be at most 5, got 6`},
		{"depth below 1", "get_callees_of", map[string]any{"name": "main", "depth": 0}, isArg, `must be at least 1`},
		{"depth by its other name", "get_callers_of", map[string]any{"name": "Store.Get", "max_depth": 9}, isArg, `must be at most 5`},
		{"neither name nor uid", "get_callers_of", map[string]any{}, isArg, "give name (a symbol name) or uid (an exact id)"},
		{"unknown uid", "get_callees_of", map[string]any{"uid": "Method:nowhere.go:X"}, func(e error) bool { return errors.As(e, &notFound) }, `no symbol "Method:nowhere.go:X"`},
		{"find_symbol without name", "find_symbol", map[string]any{}, isArg, `"name": is required`},
		{"find_symbol with an unknown kind", "find_symbol", map[string]any{"name": "Get", "kind": "Gadget"}, isArg, `unknown kind "Gadget" (kinds: Function, Method, Constructor,`},
		{"find_symbol finds nothing", "find_symbol", map[string]any{"name": "Fetch"}, func(e error) bool { return errors.As(e, &notFound) }, `no symbol named "Fetch"`},
		{"find_symbol filters everything out", "find_symbol", map[string]any{"name": "Get", "kind": "Function"}, func(e error) bool { return errors.As(e, &notFound) }, `(with kind "Function", file_path "")`},
		{"unknown module with close matches", "get_module_dependencies", map[string]any{"module": "shop/ordr"}, func(e error) bool { return errors.As(e, &inputErr) }, `no package or folder "shop/ordr" in the graph; close matches: example.com/shop/order`},
		{"a file is not a module", "get_module_dependencies", map[string]any{"module": "store/store.go"}, func(e error) bool { return errors.As(e, &inputErr) }, `close matches: store`},
		{"nothing close", "get_module_dependencies", map[string]any{"module": "zzzzzzzz"}, func(e error) bool { return errors.As(e, &inputErr) }, "give a package path"},
		{"module is required", "get_module_dependencies", map[string]any{"repo": "shop"}, isArg, `"module": is required`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), c.tool, c.args)
			if err == nil {
				t.Fatalf("no error; answer:\n%s", res.Markdown())
			}
			if !c.is(err) {
				t.Errorf("error %v (%T) is not of the expected kind", err, err)
			}
			if !strings.Contains(err.Error(), c.inMsg) {
				t.Errorf("error %q does not say %q", err, c.inMsg)
			}
		})
	}
}

// TestNavigationAmbiguous: a shared name is answered with candidates, never
// a guess.
func TestNavigationAmbiguous(t *testing.T) {
	b, _ := navShop(t)
	for _, tool := range []string{"get_callers_of", "get_callees_of"} {
		res, err := b.CallTool(context.Background(), tool, map[string]any{"name": "Get"})
		if err != nil {
			t.Fatal(err)
		}
		data := res.Data.(map[string]any)
		cands := data["candidates"].([]analysis.Candidate)
		var uids []string
		for _, c := range cands {
			uids = append(uids, c.UID)
		}
		if !res.Ambiguous || data["status"] != "ambiguous" || !slices.Equal(uids, []string{"Method:cache/cache.go:Cache.Get", "Method:store/store.go:Store.Get"}) {
			t.Errorf("%s Get: ambiguous %v, candidates %v", tool, res.Ambiguous, uids)
		}
	}
}

// bigFiles is a module whose hub function is called from 130 packages,
// each through a method named Run: more callers, definitions and upstream
// modules than an answer lists.
func bigFiles(n int) map[string]string {
	files := map[string]string{
		"go.mod":     "module example.com/big\n\ngo 1.22\n",
		"hub/hub.go": "package hub\n\n// Hub is called from everywhere.\nfunc Hub() {}\n",
	}
	for i := range n {
		files[fmt.Sprintf("p%03d/p.go", i)] = fmt.Sprintf("package p%03d\n\nimport \"example.com/big/hub\"\n\n// T runs.\ntype T struct{}\n\n// Run calls the hub.\nfunc (T) Run() {\n\thub.Hub()\n}\n", i)
	}
	return files
}

func TestNavigationTruncated(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "big"), bigFiles(130))
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	ctx := context.Background()

	res, err := b.CallTool(ctx, "get_callers_of", map[string]any{"name": "Hub"})
	if err != nil {
		t.Fatal(err)
	}
	ct := res.Data.(analysis.CallTreeResult)
	if ct.Total != 130 || ct.Returned != analysis.MaxNavResults || !ct.Truncated || len(ct.Levels) != 1 ||
		ct.Levels[0].Count != 130 || len(ct.Levels[0].Items) != 100 {
		t.Fatalf("callers of Hub: total %d returned %d truncated %v levels %d", ct.Total, ct.Returned, ct.Truncated, len(ct.Levels))
	}
	// The first hundred by file: p000 … p099.
	if first, last := ct.Levels[0].Items[0].UID, ct.Levels[0].Items[99].UID; first != "Method:p000/p.go:T.Run" || last != "Method:p099/p.go:T.Run" {
		t.Errorf("listed %s … %s", first, last)
	}
	if !strings.Contains(res.Markdown(), "Showing 100 of 130 callers, the nearest first: the answer is cut at 100.") ||
		!strings.Contains(res.Markdown(), "and 120 more") {
		t.Errorf("the text does not say it was cut:\n%s", res.Markdown())
	}

	res, err = b.CallTool(ctx, "find_symbol", map[string]any{"name": "Run"})
	if err != nil {
		t.Fatal(err)
	}
	defs := res.Data.(analysis.DefinitionsResult)
	if defs.Total != 130 || defs.Returned != 100 || len(defs.Definitions) != 100 || !defs.Truncated ||
		!strings.Contains(res.Markdown(), "Showing 100 of 130: the answer is cut at 100") {
		t.Errorf("find_symbol Run: total %d returned %d truncated %v\n%s", defs.Total, defs.Returned, defs.Truncated, res.Markdown())
	}

	res, err = b.CallTool(ctx, "get_module_dependencies", map[string]any{"module": "example.com/big/hub"})
	if err != nil {
		t.Fatal(err)
	}
	md := res.Data.(analysis.ModuleDepsResult)
	if md.UpstreamTotal != 130 || len(md.Upstream) != 100 || !md.Truncated || md.Upstream[0] != (analysis.ModuleLink{Module: "example.com/big/p000", Imports: 1, Calls: 1}) ||
		!strings.Contains(res.Markdown(), "Showing 100 of 130: the list is cut at 100.") {
		t.Errorf("module hub: upstream %d listed %d truncated %v\n%s", md.UpstreamTotal, len(md.Upstream), md.Truncated, res.Markdown())
	}

	// A walk that stops at its visit bound says its counts are lower
	// bounds.
	r, err := b.Resolve("")
	if err != nil {
		t.Fatal(err)
	}
	snap, release, err := b.repo(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	hub, _ := snap.Graph.Lookup("Function:hub/hub.go:Hub")
	bounded := analysis.CallTree(snap.Graph, hub, analysis.CallTreeOptions{Callers: true, Depth: 1, MaxVisit: 40})
	release()
	if bounded.Exhaustive || bounded.Total != 40 || bounded.Truncated || bounded.Levels[0].Count != 40 {
		t.Errorf("bounded walk: exhaustive %v total %d truncated %v", bounded.Exhaustive, bounded.Total, bounded.Truncated)
	}
	if text := format.CallTree(&bounded); !strings.Contains(text, "The walk stopped at its size limit: the counts are lower bounds.") {
		t.Errorf("the text does not say the walk stopped:\n%s", text)
	}

	// Under the cap nothing is cut.
	res, err = b.CallTool(ctx, "get_callees_of", map[string]any{"uid": "Method:p007/p.go:T.Run"})
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Data.(analysis.CallTreeResult); ct.Truncated || ct.Total != 1 || strings.Contains(res.Markdown(), "cut") {
		t.Errorf("callees of one Run: %+v\n%s", ct, res.Markdown())
	}
}

func TestNavigationGolden(t *testing.T) {
	b, root := navShop(t)
	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"find-symbol-one", "find_symbol", map[string]any{"name": "Store.Get"}},
		{"find-symbol-many", "find_symbol", map[string]any{"name": "Get"}},
		{"find-symbol-folded", "find_symbol", map[string]any{"name": "warm"}},
		{"callers-depth2", "get_callers_of", map[string]any{"name": "Store.Get", "depth": 2}},
		{"callers-none", "get_callers_of", map[string]any{"name": "main"}},
		{"callees-recursive", "get_callees_of", map[string]any{"name": "fmt", "file_path": "fmt.py"}},
		{"callers-ambiguous", "get_callers_of", map[string]any{"name": "Get"}},
		{"callees", "get_callees_of", map[string]any{"name": "main"}},
		{"module-deps-package", "get_module_dependencies", map[string]any{"module": "example.com/shop/order"}},
		{"module-deps-folder", "get_module_dependencies", map[string]any{"module": "tools/tests"}},
		{"trace", "trace", map[string]any{"from": "main", "to": "Store.Get"}},
		{"trace-none", "trace", map[string]any{"from": "Store.Get", "to": "main"}},
		{"trace-ambiguous", "trace", map[string]any{"from": "main", "to": "Get"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), c.tool, c.args)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, root, res)
		})
	}
}

// TestTrace: the call paths between two symbols of a real repository,
// shortest first, each symbol once on a path, with the bounds and the
// answer when no path leads there.
func TestTrace(t *testing.T) {
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "paths"), map[string]string{
		"go.mod": "module example.com/paths\n\ngo 1.22\n",
		"app/app.go": `package app

func Entry() {
	a()
	b()
	loop()
}

func a() { Target() }

func b() {
	Target()
	c()
}

func c() { Target() }

func loop() { loop2() }

func loop2() {
	loop()
	Target()
}

func Target() {}

func Lone() {}
`,
	})
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	paths := func(r analysis.TraceResult) []string {
		var out []string
		for _, p := range r.Paths {
			var names []string
			for _, st := range p.Steps {
				names = append(names, st.Name)
			}
			out = append(out, strings.Join(names, ">"))
		}
		return out
	}
	cases := []struct {
		name    string
		args    map[string]any
		want    []string
		more    bool
		reverse int
	}{
		{"shortest first", map[string]any{"from": "Entry", "to": "Target", "limit": 10},
			[]string{"Entry>a>Target", "Entry>b>Target", "Entry>b>c>Target", "Entry>loop>loop2>Target"}, false, 0},
		{"depth bound", map[string]any{"from": "Entry", "to": "Target", "max_depth": 2},
			[]string{"Entry>a>Target", "Entry>b>Target"}, false, 0},
		{"path bound", map[string]any{"from": "Entry", "to": "Target", "limit": 1},
			[]string{"Entry>a>Target"}, true, 0},
		{"a cycle back to itself", map[string]any{"from": "loop", "to": "loop"},
			[]string{"loop>loop2>loop"}, false, 0},
		{"the other way", map[string]any{"from": "Target", "to": "Entry"}, nil, false, 2},
		{"no path at all", map[string]any{"from": "Lone", "to": "Target"}, nil, false, 0},
		{"by uid", map[string]any{"from_uid": "Function:app/app.go:c", "to_uid": "Function:app/app.go:Target"},
			[]string{"c>Target"}, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), "trace", c.args)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Data.(analysis.TraceResult)
			if got := paths(r); !slices.Equal(got, c.want) {
				t.Errorf("paths %q, want %q\n%s", got, c.want, res.Markdown())
			}
			if r.More != c.more || r.Reverse != c.reverse || !r.Exhaustive {
				t.Errorf("more %v reverse %d exhaustive %v, want %v %d true", r.More, r.Reverse, r.Exhaustive, c.more, c.reverse)
			}
			for _, p := range r.Paths {
				if p.Length != len(p.Steps)-1 || p.Steps[1].CallFile != "app/app.go" || len(p.Steps[1].CallLines) == 0 {
					t.Errorf("path %+v", p)
				}
			}
		})
	}
	if _, err := b.CallTool(context.Background(), "trace", map[string]any{"from": "Entry"}); err == nil || !strings.Contains(err.Error(), "give to") {
		t.Errorf("no target: %v", err)
	}
}
