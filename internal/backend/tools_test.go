package backend

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files of the tool tests")

// golden compares a tool result (markdown and structured data, with the
// repository's path replaced by $REPO and the index object's commits and
// times by placeholders) with testdata/golden/<name>.txt.
func golden(t *testing.T, name, root string, res *Result) {
	t.Helper()
	checkHint(t, res)
	var times []string
	if res.Index != nil {
		idx := *res.Index
		if idx.CheckPending {
			t.Errorf("%s: the freshness check had not finished", name)
		}
		idx.Commit, idx.Head = placeholder(idx.Commit, "$COMMIT"), placeholder(idx.Head, "$HEAD")
		idx.CheckAgeMs = 0
		if idx.History != nil {
			h := *idx.History
			h.Since = placeholder(h.Since, "$SINCE") // some fixtures commit at the time of the test
			idx.History = &h
		}
		for _, tm := range []time.Time{idx.IndexedAt, idx.CheckedAt} {
			b, _ := json.Marshal(tm)
			times = append(times, string(b))
		}
		r := *res
		r.Index = &idx
		res = &r
	}
	data, err := json.MarshalIndent(res.Structured(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := "=== markdown ===\n" + res.Markdown() + "=== json ===\n" + string(data) + "\n"
	got = strings.ReplaceAll(got, root, "$REPO")
	for _, tm := range times {
		got = strings.ReplaceAll(got, tm, `"$TIME"`)
	}
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (run with -update to accept):\n%s", name, path, diffLines(string(want), got))
	}
}

// placeholder replaces a value that differs from run to run.
func placeholder(v, p string) string {
	if v == "" {
		return ""
	}
	return p
}

// diffLines shows the first lines that differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + a + "\n  got:  " + c + "\n")
			if shown++; shown == 8 {
				break
			}
		}
	}
	return b.String()
}

// shop indexes the shop fixture in a registry of the test's own.
func shop(t *testing.T) (*Backend, string) {
	t.Helper()
	newHome(t)
	root := writeRepo(t, filepath.Join(t.TempDir(), "shop"), shopFiles)
	index(t, root)
	return newBackend(t, Options{Cwd: t.TempDir()}), root
}

// goldenCases are the calls of TestToolsGolden, in testdata so that the
// shared store's test (internal/teamstore) makes the same calls.
type goldenCase struct {
	Name string         `json:"name"`
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

func TestToolsGolden(t *testing.T) {
	b, root := shop(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), c.Tool, c.Args)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.Name, root, res)
		})
	}
}

func TestToolErrors(t *testing.T) {
	b, root := shop(t)
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plain, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	index(t, plain) // not a git work tree
	var argErr *ArgError
	var notFound *NotFoundError
	cases := []struct {
		name  string
		tool  string
		args  map[string]any
		is    func(error) bool
		inMsg string
	}{
		{"unknown tool", "nope", nil, func(e error) bool { return errors.Is(e, ErrUnknownTool) }, `unknown tool "nope": the tools are`},
		{"no repo given", "overview", map[string]any{}, nil, `Multiple repositories indexed. Specify which one with the "repo" parameter: plain, shop`},
		{"unknown repo", "overview", map[string]any{"repo": "nowhere"}, nil, `Repository "nowhere" not found. Available: plain, shop`},
		{"wrong type", "impact", map[string]any{"repo": "shop", "target": "Store.Get", "maxDepth": "three"}, func(e error) bool { return errors.As(e, &argErr) }, `"maxDepth": must be an integer, got a string`},
		{"above max", "impact", map[string]any{"repo": "shop", "target": "Store.Get", "maxDepth": 6}, func(e error) bool { return errors.As(e, &argErr) }, `must be at most 5`},
		{"bad enum", "impact", map[string]any{"repo": "shop", "target": "Store.Get", "direction": "sideways"}, func(e error) bool { return errors.As(e, &argErr) }, `"direction"`},
		{"unknown argument", "context", map[string]any{"repo": "shop", "name": "Get", "colour": "red"}, func(e error) bool { return errors.As(e, &argErr) }, `"colour"`},
		{"no target", "impact", map[string]any{"repo": "shop"}, func(e error) bool { return errors.As(e, &argErr) }, "target"},
		{"unknown symbol", "context", map[string]any{"repo": "shop", "name": "Nowhere"}, func(e error) bool { return errors.As(e, &notFound) },
			`no symbol "Nowhere" in shop: try query to search by words`},
		{"misspelled method", "context", map[string]any{"repo": "shop", "name": "Store.Gte"}, func(e error) bool { return errors.As(e, &notFound) },
			"no symbol \"Store.Gte\" in shop: did you mean `Store.Get`? Otherwise try query"},
		{"misspelled name", "impact", map[string]any{"repo": "shop", "target": "Palce"}, func(e error) bool { return errors.As(e, &notFound) },
			"did you mean `Place`, `Price`?"}, // a swap, then two letters
		{"misspelled, find_symbol", "find_symbol", map[string]any{"repo": "shop", "name": "Stroe"}, func(e error) bool { return errors.As(e, &notFound) },
			"did you mean `Store`, `store`?"}, // the same case first
		{"missing new_name", "rename", map[string]any{"repo": "shop", "symbol_name": "Store.Get"}, func(e error) bool { return errors.As(e, &argErr) }, "new_name"},
		{"invalid identifier", "rename", map[string]any{"repo": "shop", "symbol_name": "Store.Get", "new_name": "9lives"}, func(e error) bool { return errors.As(e, &argErr) }, `"9lives" is not an identifier`},
		{"keyword", "rename", map[string]any{"repo": "shop", "symbol_name": "Store.Get", "new_name": "func"}, func(e error) bool { return errors.As(e, &argErr) }, "keyword"},
		{"collision", "rename", map[string]any{"repo": "shop", "symbol_name": "Store.Get", "new_name": "Put"}, func(e error) bool { return errors.As(e, &argErr) }, "Put"},
		{"compare without base_ref", "detect_changes", map[string]any{"repo": "shop", "scope": "compare"}, nil, "base_ref"},
		{"unknown base_ref", "detect_changes", map[string]any{"repo": "shop", "scope": "compare", "base_ref": "no-such-branch"}, nil, `"no-such-branch"`},
		{"not a git work tree", "detect_changes", map[string]any{"repo": "plain"}, nil, "not a git work tree"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := b.CallTool(context.Background(), c.tool, c.args)
			if err == nil {
				t.Fatal("no error")
			}
			if c.is != nil && !c.is(err) {
				t.Errorf("error %v (%T) is not of the expected kind", err, err)
			}
			if !strings.Contains(err.Error(), c.inMsg) {
				t.Errorf("error %q does not say %q", err, c.inMsg)
			}
			if strings.Contains(err.Error(), root) && c.name != "unknown repo" {
				t.Logf("error names the path: %v", err)
			}
		})
	}
}

// TestRenameApplied renames Store.Get across the module and checks the
// result still builds, the homonym Cache.Get is untouched, and the report
// matches what changed.
func TestRenameApplied(t *testing.T) {
	b, root := shop(t)
	res, err := b.CallTool(context.Background(), "rename", map[string]any{"symbol_name": "Store.Get", "new_name": "Fetch", "dry_run": false, "repo": "shop"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "rename-applied", root, res)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the renamed module does not build: %v\n%s", err, out)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("cache/cache.go"); got != shopFiles["cache/cache.go"] {
		t.Errorf("cache/cache.go changed:\n%s", got)
	}
	if got := read("order/order.go"); strings.Count(got, "o.st.Fetch(") != 2 || strings.Contains(got, ".Get(") {
		t.Errorf("order/order.go not renamed at both call sites:\n%s", got)
	}
	if got := read("store/store.go"); !strings.Contains(got, "func (s *Store) Fetch(id int)") || !strings.Contains(got, "// Get returns the item with id.") {
		t.Errorf("store/store.go: want the declaration renamed and the comment (a text match) left alone:\n%s", got)
	}
	if got := git(t, root, "status", "--porcelain"); got != "M order/order.go\n M store/store.go" && got != " M order/order.go\n M store/store.go" {
		t.Errorf("files changed: %q", got)
	}
}

// TestDetectChanges maps a real diff onto symbols in every scope.
func TestDetectChanges(t *testing.T) {
	b, root := shop(t)
	edit := func(p, old, new string) {
		t.Helper()
		path := filepath.Join(root, p)
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(body), old) {
			t.Fatalf("%s has no %q", p, old)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(body), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Staged: Cache.Get changes. Unstaged: Store.Get's body and a new
	// function in order.go. Untracked: a new file.
	edit("cache/cache.go", "return c.m[k]", "v := c.m[k]\n\treturn v")
	git(t, root, "add", "cache/cache.go")
	edit("store/store.go", "return nil, ErrMissing", "return nil, errors.Join(ErrMissing, errors.New(\"id\"))")
	edit("order/order.go", "// Place checks", "// Cancel undoes nothing yet.\nfunc (o *Service) Cancel() {}\n\n// Place checks")
	if err := os.WriteFile(filepath.Join(root, "order", "refund.go"), []byte("package order\n\n// Refund pays back.\nfunc Refund() int { return 0 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"changes-unstaged", map[string]any{}},
		{"changes-staged", map[string]any{"scope": "staged"}},
		{"changes-all", map[string]any{"scope": "all"}},
		{"changes-compare", map[string]any{"scope": "compare", "base_ref": "HEAD"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := b.CallTool(context.Background(), "detect_changes", c.args)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, root, res)
		})
	}
}

// TestRenamePython renames a method that another class also defines: only
// the calls the graph resolved to the renamed one change, and the files
// still parse.
func TestRenamePython(t *testing.T) {
	newHome(t)
	files := map[string]string{
		"shop/models.py": `class User:
    def save(self):
        return self.validate()

    def validate(self):
        return True


class Order:
    # save stores the order.
    def save(self):
        return 1
`,
		"shop/run.py": `from shop.models import User, Order


def run():
    u = User()
    o = Order()
    u.save()
    o.save()
    u.save(); o.save()
    return u, o
`,
	}
	root := writeRepo(t, filepath.Join(t.TempDir(), "pyshop"), files)
	index(t, root)
	b := newBackend(t, Options{Cwd: root})
	res, err := b.CallTool(context.Background(), "rename", map[string]any{"symbol_name": "User.save", "new_name": "persist", "dry_run": false})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "rename-python", root, res)
	want := map[string]string{
		"shop/models.py": strings.Replace(files["shop/models.py"], "    def save(self):\n        return self.validate()", "    def persist(self):\n        return self.validate()", 1),
		"shop/run.py":    strings.Replace(strings.Replace(files["shop/run.py"], "    u.save()\n", "    u.persist()\n", 1), "u.save(); o.save()", "u.save(); o.save()", 1),
	}
	for p, w := range want {
		got, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("%s after the rename:\n%s\nwant:\n%s", p, got, w)
		}
	}
	cmd := exec.Command("python3", "-c", "import ast, sys\nfor f in sys.argv[1:]: ast.parse(open(f).read(), f)", "shop/models.py", "shop/run.py")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the renamed files do not parse: %v\n%s", err, out)
	}
}
